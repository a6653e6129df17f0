"""Letters between seats (press): a seat's letters page, and the organiser's reading room when
the campaign was started with moderation. Who may read what is decided in services.press."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from campaign.models import Campaign, Seat
from campaign.services.organiser import not_yours
from letters.forms import LetterForm
from letters.models import Channel
from letters.services import press


def _writer(request: HttpRequest, code) -> Seat:
    """The seat, if the signed-in user holds it: letters are the player's own, never the
    organiser's (not even on the player's behalf)."""
    seat = get_object_or_404(Seat.objects.select_related("campaign"), code=code)
    if seat.user_id is not None and seat.user_id == request.user.id:
        return seat
    raise PermissionDenied(not_yours(seat, request.user, "letters"))


@login_required
@require_http_methods(["GET", "POST"])
def letters(request: HttpRequest, code) -> HttpResponse:
    seat = _writer(request, code)
    campaign = seat.campaign
    seats = list(press.addressees(seat))
    form = LetterForm(request.POST or None, seats=seats)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                sent = press.send(
                    seat, form.cleaned_data["to"], form.cleaned_data["body"], now=timezone.now()
                )
            except press.LetterRefused as exc:
                form.add_error(None, str(exc))
            else:
                left = press.phases_left(sent.letter, press.latest_number(campaign))
                messages.success(
                    request,
                    "Letter delivered."
                    if sent.arrives_now
                    else f"Letter given to the courier: it arrives in {left} phase"
                    f"{'s' if left != 1 else ''}.",
                )
                return redirect("letters", seat.code)
        status = 400
    number = press.latest_number(campaign)  # read once: every letter arrives by it
    sent_letters = [(x, press.phases_left(x, number)) for x in press.sent_by(seat)]
    ctx = {
        "seat": seat,
        "campaign": campaign,
        "access": {"own": True},
        "window": campaign.open_window(),
        "form": form,
        "off": press.channel(campaign) == Channel.OFF,
        "how": press.channel_words(campaign),
        "received": list(press.received(seat, number)),
        "sent": sent_letters,
        "in_transit": press.in_transit_to(seat, number),
    }
    return render(request, "letters/letters.html", ctx, status=status)


@login_required
@require_GET
def all_letters(request: HttpRequest, code) -> HttpResponse:
    """Every letter, for the organiser of a campaign started with moderation."""
    campaign = get_object_or_404(Campaign, code=code)
    if campaign.organiser_id != request.user.id:
        raise PermissionDenied("Only the organiser reads the letters, and only when moderated.")
    if not press.moderated(campaign):
        raise PermissionDenied(
            "The letters of this campaign are private: it was started without moderation."
        )
    if not campaign.umpire_sees_all:  # he plays a seat: the others' letters are their secrets
        raise PermissionDenied(
            "You play a seat in this campaign: the other players' letters are theirs, "
            "moderated or not. Only an organiser who plays no seat reads them."
        )
    return render(
        request,
        "letters/all_letters.html",
        {"campaign": campaign, "letters": list(press.all_letters(campaign))},
    )
