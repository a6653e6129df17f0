"""The photos of the table and the sides' accounts of the battle (issue 45, docs/tabletop.md
"Photos and accounts of the battle"): upload (several files, with or without JavaScript),
caption, order, removal, the files themselves, the accounts and the gazette consent.

Who may see is ``photo_service.may_see_photos`` alone; who may act is checked by the service,
which raises ``PhotoError`` with the reason. A form refused is shown again with what was typed.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.models import Battle, BattlePhoto
from battles.services import imaging
from battles.services import photos as photo_service
from campaign.models import Campaign

# The header the page's script sends with an upload, to be answered in JSON (static/js/photos.js).
SCRIPT_HEADER = "X-Photo-Upload"


# ---- access --------------------------------------------------------------------------------


def _battle(request: HttpRequest, code, battle_code) -> Battle:
    """The battle, if ``request.user`` may see its photos; 404 otherwise (a player not in the
    battle learns nothing, not even that it has photos)."""
    campaign = get_object_or_404(Campaign, code=code)
    battle = get_object_or_404(Battle.objects.select_related("campaign"), campaign=campaign,
                               code=battle_code)  # fmt: skip
    if not photo_service.may_see_photos(battle, request.user):
        raise Http404("No such photo.")
    return battle


def _photo(request: HttpRequest, code, battle_code, photo_code) -> BattlePhoto:
    battle = _battle(request, code, battle_code)
    photo = get_object_or_404(BattlePhoto, battle=battle, code=photo_code)
    photo.battle = battle
    return photo


def _back(battle: Battle, anchor: str = "photos") -> str:
    return reverse("battles:battle", args=[battle.campaign.code, battle.code]) + f"#{anchor}"


# ---- forms ---------------------------------------------------------------------------------


class CaptionForm(forms.Form):
    caption = forms.CharField(
        label="Caption", max_length=photo_service.CAPTION_MAX_CHARS, required=False
    )


class AccountForm(forms.Form):
    text = forms.CharField(
        label="Your side's account of the battle",
        max_length=photo_service.ACCOUNT_MAX_CHARS,
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=(
            f"Plain text; an empty line starts a paragraph. At most"
            f" {photo_service.ACCOUNT_MAX_CHARS} characters."
        ),
    )


# ---- upload --------------------------------------------------------------------------------


@csrf_exempt
@login_required
@require_POST
def upload(request: HttpRequest, code, battle_code) -> HttpResponse:
    """Several photos at once (``photos``). A body larger than one upload may bring is refused
    before it is read: the CSRF check would read it first, so it runs after this one."""
    battle = _battle(request, code, battle_code)
    wait = photo_service.upload_wait(request.user, now=timezone.now())
    if wait:
        return _answer_wait(request, battle, wait)
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:  # as Django reads it: an unreadable length is none
        length = 0
    most = settings.PHOTOS_MAX_BYTES_PER_BATTLE
    if length > most + 1024 * 1024:  # the files, and a megabyte for the form around them
        message = (
            f"This upload is {imaging.megabytes(length)}; one upload brings at most"
            f" {imaging.megabytes(most)}. Add the photos a few at a time."
        )
        return _answer_refused(request, battle, message)
    return _upload(request, battle)


def _answer_refused(request: HttpRequest, battle: Battle, message: str) -> HttpResponse:
    messages.error(request, message)
    if request.headers.get(SCRIPT_HEADER):
        return JsonResponse({"next": _back(battle)}, status=413)
    return redirect(_back(battle))


def _answer_wait(request: HttpRequest, battle: Battle, wait: int) -> HttpResponse:
    """Too many uploads this minute: refused unread. The script's page stays as it is, its
    photos still chosen and anything typed elsewhere on it kept, and shows the message."""
    most = settings.PHOTO_UPLOADS_PER_MINUTE
    message = (
        f"You sent photos {most} times in the last minute, the most the site takes in a minute;"
        f" nothing of this upload was read. Send it again in {wait} seconds."
    )
    headers = {"Retry-After": str(wait)}
    if request.headers.get(SCRIPT_HEADER):
        return JsonResponse({"message": message}, status=429, headers=headers)
    messages.error(request, message)
    response = redirect(_back(battle))
    response["Retry-After"] = str(wait)
    return response


@csrf_protect
def _upload(request: HttpRequest, battle: Battle) -> HttpResponse:
    files = [(f.name, f) for f in request.FILES.getlist("photos")]
    if not files:
        messages.error(request, "Choose one photo or more to add.")
    else:
        try:
            done = photo_service.add_photos(battle, request.user, files)
        except photo_service.PhotoError as exc:
            messages.error(request, str(exc))
        else:
            if done.added:
                count = len(done.added)
                messages.success(request, f"{count} photo{'s' if count > 1 else ''} added.")
            for reason in done.refused:
                messages.error(request, reason)
    if request.headers.get(SCRIPT_HEADER):
        return JsonResponse({"next": _back(battle)})
    return redirect(_back(battle))


# ---- one photo -----------------------------------------------------------------------------


@login_required
@require_GET
def image(request: HttpRequest, code, battle_code, photo_code, kind: str) -> FileResponse:
    """The display size or the thumbnail, streamed from the photos' storage, for those who may
    see it; kept only by the viewer's own browser (``Cache-Control: private``)."""
    if kind not in ("display", "thumb"):
        raise Http404("No such size.")
    photo = _photo(request, code, battle_code, photo_code)
    return photo_service.photo_response(photo, kind, cache="private, max-age=86400")


@login_required
@require_http_methods(["GET", "POST"])
def caption(request: HttpRequest, code, battle_code, photo_code) -> HttpResponse:
    """The caption: GET shows its form alone, POST saves it; refused, shown again as typed."""
    photo = _photo(request, code, battle_code, photo_code)
    form = CaptionForm(request.POST or None, initial={"caption": photo.caption})
    if request.method == "POST" and form.is_valid():
        try:
            photo_service.set_caption(photo, request.user, form.cleaned_data["caption"])
        except photo_service.PhotoError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Caption saved.")
            return redirect(_back(photo.battle, f"photo-{photo.code}"))
    status = 400 if form.errors else 200
    context = {"photo": photo, "battle": photo.battle, "campaign": photo.battle.campaign,
               "form": form}  # fmt: skip
    return render(request, "battles/photo_caption.html", context, status=status)


@login_required
@require_POST
def move(request: HttpRequest, code, battle_code, photo_code) -> HttpResponse:
    """One place up or down (``direction``)."""
    photo = _photo(request, code, battle_code, photo_code)
    step = {"up": -1, "down": 1}.get(request.POST.get("direction", ""))
    if step is None:
        messages.error(request, "Move a photo up or down.")
    else:
        try:
            photo_service.move(photo, request.user, step)
        except photo_service.PhotoError as exc:
            messages.error(request, str(exc))
    return redirect(_back(photo.battle, f"photo-{photo.code}"))


@login_required
@require_POST
def remove(request: HttpRequest, code, battle_code, photo_code) -> HttpResponse:
    photo = _photo(request, code, battle_code, photo_code)
    try:
        photo_service.remove(photo, request.user)
    except photo_service.PhotoError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Photo removed.")
    return redirect(_back(photo.battle))


# ---- accounts and consent ------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest, code, battle_code, side: str) -> HttpResponse:
    """A side's account: GET shows the form alone, POST saves it; refused, shown again with
    what was typed."""
    battle = _battle(request, code, battle_code)
    if side not in battle.setup.get("sides", {}):
        raise Http404("No such side.")
    written = battle.accounts.filter(side=side).first()
    form = AccountForm(request.POST or None, initial={"text": written.text if written else ""})
    if request.method == "POST" and form.is_valid():
        try:
            photo_service.save_account(
                battle, request.user, side, form.cleaned_data["text"], now=timezone.now()
            )
        except photo_service.PhotoError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Account saved.")
            return redirect(_back(battle, "accounts"))
    status = 400 if form.errors else 200
    names = {row["side"]: row["name"] for row in photo_service.accounts(battle)}
    context = {"battle": battle, "campaign": battle.campaign, "form": form, "side": side,
               "side_name": names.get(side, side)}  # fmt: skip
    return render(request, "battles/photo_account.html", context, status=status)


@login_required
@require_POST
def consent(request: HttpRequest, code, battle_code, side: str) -> HttpResponse:
    """The side agrees, or no longer agrees, to its photos in the public gazette."""
    battle = _battle(request, code, battle_code)
    agree = request.POST.get("agree") == "1"
    try:
        photo_service.set_consent(battle, request.user, side, agree)
    except photo_service.PhotoError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            "Your side agrees to show the photos in the public gazette (once the other side does)."
            if agree
            else "Your side's photos stay out of the public gazette.",
        )
    return redirect(_back(battle))
