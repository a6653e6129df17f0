"""Battle pages (issue 7): the battle page, printable briefings (HTML and PDF), the table
picture, results (enter, confirm, dispute, settle, quick resolution), dates, the tabletop
settings, the chronicle and the public gazette.

Access is checked in ``_battle_for`` and ``campaign.access``, which
raise PermissionDenied; what each audience may read is decided by
``battles.services.briefing.briefing`` (the battle page) and
``battles.services.sheet.scenario`` (the printed scenario sheet) alone.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from zoneinfo import ZoneInfo

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.models import Battle, BattleStatus
from battles.services import briefing as battle_briefing
from battles.services import dates as battle_dates
from battles.services import news as battle_news
from battles.services import printing as battle_print
from battles.services import records as service
from battles.services import results as battle_results
from battles.services import sheet as briefing_service
from campaign import asking
from campaign.access import member_campaign, organiser_campaign
from campaign.forms import PlainTextField
from campaign.models import Campaign
from tabletop import forces

PAPERS = {"a4": "A4", "letter": "Letter"}


# ---- access --------------------------------------------------------------------------------


def _battle_for(request: HttpRequest, code, battle_code) -> tuple[Battle, tuple | None]:
    """The battle and the viewer's audience; PermissionDenied for anyone with no part in it
    (the organiser always has a part: he settles)."""
    campaign = get_object_or_404(Campaign, code=code)
    service.sync(campaign)
    battle = get_object_or_404(Battle, campaign=campaign, code=battle_code)
    audience = service.audience_for(battle, request.user)
    if audience is None and not service.may_settle(battle, request.user):
        raise PermissionDenied
    return battle, audience


def _may_read(battle: Battle, viewer: tuple | None, audience: str) -> bool:
    if viewer is None:
        return False
    if viewer[0] == service.UMPIRE:
        return audience == service.UMPIRE or audience in battle.setup["sides"]
    return audience == viewer[0]


# ---- forms ---------------------------------------------------------------------------------


class ResultForm(forms.Form):
    """The result of one battle: who lost and how, losses by country, leaders lost (9.5, 10.1).
    The loser and the outcome start unchosen: a hurried player must not confirm a default."""

    # Its problems summed up at its top (in view when htmx swaps it in), and each by its field.
    template_name_p = "battles/_result_form.html"

    loser = forms.ChoiceField(
        label="The side that lost",
        error_messages={"required": "Choose the side that lost."},
    )
    outcome = forms.ChoiceField(
        label="How it left the field",
        choices=[
            ("", "Choose how the loser left the field…"),
            ("defeated", "Defeated outright: demoralized and routed (10.1)"),
            ("retired", "Retired, with the enemy's consent (10.1)"),
        ],
        error_messages={"required": "Choose how the loser left the field."},
    )

    def __init__(self, battle: Battle, *args, audience: str | None = None, **kwargs) -> None:
        """``audience``: whose points the labels may show. A side knows its own points by
        country and only the enemy's total (9, as its briefing); the umpire knows all; an
        organiser who plays settles with no points in the labels."""
        super().__init__(*args, **kwargs)
        self.battle = battle
        sides = battle.setup["sides"]
        names = briefing_service.side_names(battle)
        self.fields["loser"].choices = [("", "Choose the side that lost…")] + [
            (s, names[s]) for s in sides
        ]
        leaders = []
        for name, side in sides.items():
            shown = audience in (service.UMPIRE, name)
            for army, data in sorted(side.get("points_by_country", {}).items()):
                self.fields[f"loss_{army}"] = forms.IntegerField(
                    label=(
                        f"{army.capitalize()} points lost (of {data['points']})"
                        if shown
                        else f"{army.capitalize()} points lost"
                    ),
                    min_value=0,
                    initial=0,
                )
                self.fields[f"prisoners_{army}"] = forms.IntegerField(
                    label=f"of which {army.capitalize()} points taken prisoner (13.2)",
                    min_value=0,
                    initial=0,
                    required=False,
                )
            leaders += [(x["leader"], x["name"]) for x in side.get("leaders", [])]
        self.fields["killed"] = forms.MultipleChoiceField(
            choices=leaders, required=False, widget=forms.CheckboxSelectMultiple
        )
        self.fields["captured"] = forms.MultipleChoiceField(
            choices=leaders, required=False, widget=forms.CheckboxSelectMultiple
        )

    def add_problems(self, error: service.BattleError) -> None:
        """A refusal of the service shown on the form: each problem beside its field where it
        names one (``battle_results.ResultError``), else at the top of the form."""
        problems = getattr(error, "problems", None) or [(None, str(error))]
        for key, text in problems:
            what, _, army = (key or "").partition(".")
            name = {"losses": f"loss_{army}", "prisoners": f"prisoners_{army}"}.get(what, what)
            self.add_error(name if name in self.fields else None, text)

    def result_data(self) -> dict:
        data = self.cleaned_data
        return {
            "loser": data["loser"],
            "outcome": data["outcome"],
            "losses": {
                name[5:]: value
                for name, value in data.items()
                if name.startswith("loss_") and value is not None
            },
            "prisoners": {
                name[10:]: value
                for name, value in data.items()
                if name.startswith("prisoners_") and value
            },
            "killed": data.get("killed") or [],
            "captured": data.get("captured") or [],
        }


class DateForm(forms.Form):
    """The date a battle is fought, read and shown in the campaign's time zone (as the page
    says it), whatever the server's."""

    fight_on = forms.DateTimeField(
        label="Fought on",
        error_messages={
            "required": "Give the date and time the battle is fought.",
            "invalid": "Give the date and time the battle is fought, such as 2026-05-01 19:30.",
        },
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def __init__(self, *args, battle: Battle, **kwargs) -> None:
        self.zone = ZoneInfo(battle.campaign.time_zone)
        if battle.fight_on and "initial" not in kwargs:
            kwargs["initial"] = {
                "fight_on": battle.fight_on.astimezone(self.zone).replace(tzinfo=None)
            }
        super().__init__(*args, **kwargs)
        self.fields["fight_on"].label = f"Fought on ({battle.campaign.time_zone} time)"

    def clean_fight_on(self) -> datetime:
        # The field made the typed time aware in the server's zone: the same wall clock time,
        # in the campaign's.
        when = self.cleaned_data["fight_on"]
        return timezone.make_naive(when).replace(tzinfo=self.zone)


class DisputeForm(forms.Form):
    reason = PlainTextField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)


class CollectionForm(forms.Form):
    points = forms.IntegerField(label="Your painted collection (tabletop points)", min_value=0)


class TabletopSettingsForm(forms.Form):
    table_long = forms.FloatField(label="Table, long edge (feet)", min_value=2, max_value=12)
    table_short = forms.FloatField(label="Table, short edge (feet)", min_value=2, max_value=12)
    ratio = forms.CharField(
        label="Tabletop points per campaign point", help_text="1, or a fraction like 1/2"
    )
    british_share = forms.CharField(
        label="Largest British share of Hanoverian points",
        required=False,
        help_text="e.g. 1/4; blank for no limit (9)",
    )
    # A season (18 turns) is about nine months: a longer delay is a typo, and a huge one would
    # not fit a timedelta.
    gazette_delay_hours = forms.FloatField(
        label="Gazette delay (hours)", min_value=0, max_value=24 * 366
    )
    points_per_strength_point = forms.IntegerField(
        label="Quick resolution: campaign points per SPI strength point",
        min_value=1,
        max_value=1_000_000,
    )
    unit_system = forms.ChoiceField(
        label="Briefing: order of battle in the units of",
        choices=briefing_service.UNIT_CHOICES,
        help_text="The suggested order of battle by wing on each side's briefing",
    )
    points_per_battalion = forms.IntegerField(
        label="Tabletop points per battalion", min_value=1, max_value=100_000
    )
    unit_costs = forms.CharField(
        label="Your club's unit costs (optional)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="One unit a line: unit type, contingent, cost",
    )

    def clean(self):
        data = super().clean()
        long, short = data.get("table_long"), data.get("table_short")
        if long and short and short > long:
            self.add_error("table_short", "The short edge is the shorter one.")
        for name in ("ratio", "british_share"):
            value = (data.get(name) or "").strip()
            if not value:
                continue
            try:
                number = Fraction(value)
            except (ValueError, ZeroDivisionError):
                self.add_error(name, "Write a number or a fraction like 1/2.")
                continue
            if number < 0 or (name == "ratio" and number == 0):
                self.add_error(name, "It must be more than zero.")
            if name == "british_share" and number > 1:
                self.add_error(name, "A share is at most 1.")
        try:
            forces.parse_unit_costs(data.get("unit_costs") or "")
        except forces.UnitCostError as exc:
            self.add_error("unit_costs", str(exc))
        return data


# ---- pages ---------------------------------------------------------------------------------


@login_required
@require_GET
def chronicle(request: HttpRequest, code) -> HttpResponse:
    campaign = member_campaign(request, code)
    service.sync(campaign)
    return render(
        request,
        "battles/chronicle.html",
        {"campaign": campaign, "rows": battle_news.chronicle(campaign, request.user)},
    )


def _initial(entry, exact: bool) -> dict:
    """The result form's fields from an entered result (nothing when the reader may not know
    its losses)."""
    result = entry.result if entry is not None and exact else {}
    if not result:
        return {}
    initial = {
        "loser": result.get("loser"),
        "outcome": result.get("outcome"),
        "killed": result.get("killed", []),
        "captured": result.get("captured", []),
    }
    initial.update({f"loss_{a}": p for a, p in (result.get("losses") or {}).items()})
    initial.update({f"prisoners_{a}": p for a, p in (result.get("prisoners") or {}).items()})
    return initial


SETTLE_IDS = "id_settle_%s"  # the settle form's ids, apart from the entry form's on one page


def _page_context(
    request: HttpRequest, battle: Battle, viewer: tuple | None, **forms_shown
) -> dict:
    """The battle page's context; ``forms_shown``: forms to draw as posted (with their errors)
    instead of fresh ones, so nothing typed is lost."""
    audience = viewer[0] if viewer else None
    seat = viewer[1] if viewer else None
    # The losses by country are the fighting sides' and the umpire's to know (points are
    # secret, 3); an organiser who plays reads them only to settle a dispute.
    exact = audience is not None or battle.status == BattleStatus.DISPUTED
    own_side_entered = (
        seat is not None
        and battle.entered_by is not None
        and service.side_of_seat(battle, battle.entered_by) == audience
    )
    initial = _initial(battle_results.latest_entry(battle), exact)
    return {
        "campaign": battle.campaign,
        "battle": battle,
        "heading": briefing_service.heading(battle),
        "status": briefing_service.status_for(battle, audience),
        "brief": briefing_service.page_brief(battle, audience) if audience else None,
        "seat": seat,
        "is_organiser": service.may_settle(battle, request.user),
        "result_lines": battle_briefing.describe_result(battle, battle.result, exact=exact),
        "pending_entry": battle_results.pending_entry(battle),
        "entries": battle_results.entry_history(battle, exact=exact),
        # Filled in from the entry waiting for an answer (the settle form starts from what the
        # players entered), where this reader may know its losses.
        "result_form": ResultForm(battle, audience=audience, initial=initial),
        "settle_form": ResultForm(battle, audience=audience, initial=initial, auto_id=SETTLE_IDS),
        # The quick resolution's steps carry the strengths of both sides (SPI): for the sides
        # and the umpire; an organiser who plays reads the outcome only.
        "quick_steps": (battle.quick_record or {}).get("steps", []) if audience else [],
        "date_form": DateForm(battle=battle),
        "dispute_form": DisputeForm(),
        "collection_form": CollectionForm(),
        "may_enter": seat is not None
        and battle.status in (BattleStatus.PENDING, BattleStatus.ENTERED),
        "may_answer": seat is not None
        and battle.status == BattleStatus.ENTERED
        and not own_side_entered,
        "audiences": _audiences(battle, audience),
        "side_names": briefing_service.side_names(battle),
        "papers": PAPERS,
        **forms_shown,
    }


@login_required
@require_GET
def battle_page(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, viewer = _battle_for(request, code, battle_code)
    template = "battles/battle.html#result" if request.htmx else "battles/battle.html"
    return render(request, template, _page_context(request, battle, viewer))


def _audiences(battle: Battle, audience: str | None) -> list[tuple[str, str]]:
    if audience == service.UMPIRE:
        return [(service.UMPIRE, "Umpire sheet")] + [
            (s, f"{name} sheet") for s, name in briefing_service.side_names(battle).items()
        ]
    if audience:
        return [(audience, f"{briefing_service.side_names(battle)[audience]} sheet")]
    return []


def _briefing_html(request: HttpRequest, battle: Battle, audience: str, paper: str) -> str:
    return render_to_string(
        "battles/briefing.html",
        {
            "s": briefing_service.scenario(battle, audience, units=request.GET.get("units")),
            "paper": PAPERS[paper],
            "quick": battle.quick,
            "result_lines": battle_briefing.describe_result(battle, battle.result),
        },
        request=request,
    )


def _paper(request: HttpRequest) -> str:
    paper = request.GET.get("paper", "a4").lower()
    if paper not in PAPERS:
        raise Http404("paper is a4 or letter")
    return paper


@login_required
@require_GET
def briefing(request: HttpRequest, code, battle_code, audience: str) -> HttpResponse:
    battle, viewer = _battle_for(request, code, battle_code)
    if not _may_read(battle, viewer, audience):
        raise PermissionDenied
    return HttpResponse(_briefing_html(request, battle, audience, _paper(request)))


@login_required
@require_GET
def briefing_pdf(request: HttpRequest, code, battle_code, audience: str) -> HttpResponse:
    battle, viewer = _battle_for(request, code, battle_code)
    if not _may_read(battle, viewer, audience):
        raise PermissionDenied
    paper = _paper(request)
    try:
        pdf = battle_print.html_to_pdf(_briefing_html(request, battle, audience, paper))
    except battle_print.PrintError as exc:
        return HttpResponse(f"The briefing could not be printed: {exc}", status=503)
    response = HttpResponse(pdf, content_type="application/pdf")
    name = f"battle-{battle.hex}-turn-{battle.turn}-{audience}-{paper}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def table_png(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, _ = _battle_for(request, code, battle_code)
    return HttpResponse(briefing_service.table_png(battle), content_type="image/png")


# ---- actions ---------------------------------------------------------------------------------


def _back(request: HttpRequest, battle: Battle) -> HttpResponse:
    """After an action: the result section again for htmx, else the battle page."""
    if request.htmx:
        battle.refresh_from_db()
        viewer = service.audience_for(battle, request.user)
        return render(request, "battles/battle.html#result", _page_context(request, battle, viewer))
    return redirect("battles:battle", battle.campaign.code, battle.code)


def _again(request: HttpRequest, battle: Battle, **forms_shown) -> HttpResponse:
    """A form refused: the result section (htmx) or the whole page drawn again with the form
    as posted and its errors beside it (nothing typed is lost, nothing is saved)."""
    battle.refresh_from_db()
    viewer = service.audience_for(battle, request.user)
    context = _page_context(request, battle, viewer, **forms_shown)
    drawn = {
        "result_form": context["may_enter"],
        "settle_form": context["is_organiser"] and battle.status != BattleStatus.APPLIED,
        "date_form": context["is_organiser"] and battle.status != BattleStatus.APPLIED,
    }
    for name, form in forms_shown.items():
        if not drawn[name]:  # (the battle moved on meanwhile): its refusal said above the page
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)
    template = "battles/battle.html#result" if request.htmx else "battles/battle.html"
    return render(request, template, context)


def _act(request: HttpRequest, battle: Battle, action, success: str) -> HttpResponse:
    """Run one service action on the battle; its refusal (BattleError) becomes the message."""
    try:
        action()
    except service.BattleError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, success)
    return _back(request, battle)


def _asked(request: HttpRequest, battle: Battle, question: str, effects: list[str]):
    """None once the organiser has said yes (with a reason); else the page that asks, which
    carries the posted fields through the question."""
    if asking.said_yes(request):
        return None
    hidden = asking.posted_fields(request)
    return asking.ask(
        request,
        battle.campaign,
        question,
        effects,
        request.path,
        hidden=hidden,
        back_url=reverse("battles:battle", args=[battle.campaign.code, battle.code]),
    )


def _entry(request: HttpRequest) -> int | None:
    """The number of the result entry the player answers (a hidden field of the form)."""
    value = request.POST.get("entry", "")
    return int(value) if value.isdigit() and len(value) < 9 else None


def _seat_or_403(viewer) -> object:
    if viewer is None or viewer[1] is None:
        raise PermissionDenied
    return viewer[1]


@login_required
@require_POST
def enter_result(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, viewer = _battle_for(request, code, battle_code)
    seat = _seat_or_403(viewer)
    form = ResultForm(battle, request.POST, audience=viewer[0])
    if form.is_valid():
        try:
            battle_results.enter_result(battle, seat, form.result_data(), now=timezone.now())
        except service.BattleError as exc:
            form.add_problems(exc)
        else:
            messages.success(request, "Result entered: the other side confirms or disputes it.")
            return _back(request, battle)
    return _again(request, battle, result_form=form)


@login_required
@require_POST
def confirm_result(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, viewer = _battle_for(request, code, battle_code)
    seat = _seat_or_403(viewer)
    return _act(
        request,
        battle,
        lambda: battle_results.confirm_result(battle, seat, _entry(request), now=timezone.now()),
        "Result confirmed.",
    )


@login_required
@require_POST
def dispute_result(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, viewer = _battle_for(request, code, battle_code)
    seat = _seat_or_403(viewer)
    form = DisputeForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    return _act(
        request,
        battle,
        lambda: battle_results.dispute_result(
            battle, seat, _entry(request), reason, now=timezone.now()
        ),
        "Result disputed: the organiser will settle it.",
    )


@login_required
@require_POST
def settle_result(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, viewer = _battle_for(request, code, battle_code)
    if not service.may_settle(battle, request.user):
        raise PermissionDenied
    audience = viewer[0] if viewer else None
    form = ResultForm(battle, request.POST, audience=audience, auto_id=SETTLE_IDS)
    if not form.is_valid():
        return _again(request, battle, settle_form=form)
    try:
        result = battle_results.parse_result(
            battle, form.result_data(), informed=audience is not None
        )
        lines = battle_briefing.describe_result(battle, result)
    except service.BattleError as exc:
        form.add_problems(exc)
        return _again(request, battle, settle_form=form)
    asked = _asked(
        request,
        battle,
        f"Settle {battle.named} with this result?",
        [
            *lines,
            "The result is final: it is applied to the campaign and the turn goes on.",
            "The log tells every player, with your reason.",
        ],
    )
    if asked is not None:
        return asked
    try:
        battle_results.settle_result(
            battle,
            request.user,
            form.result_data(),
            now=timezone.now(),
            reason=asking.reason(request),
        )
    except service.BattleError as exc:
        form.add_problems(exc)
        return _again(request, battle, settle_form=form)
    messages.success(request, "Result settled.")
    return _back(request, battle)


@login_required
@require_POST
def quick_resolve(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, _ = _battle_for(request, code, battle_code)
    if not service.may_settle(battle, request.user):
        raise PermissionDenied
    attacker = request.POST.get("attacker") or None
    if attacker is not None and attacker not in battle.setup["sides"]:
        messages.error(request, "The attacker is one of the two sides.")
        return _back(request, battle)
    asked = _asked(
        request,
        battle,
        f"Resolve {battle.named} without the table?",
        [
            "SPI's tables (Frederick the Great's combat and retreat tables) decide it with the "
            "campaign's dice, which every player can check; it is not fought on the tabletop.",
            "The result is final: it is applied to the campaign and the turn goes on.",
            "The log tells every player, with your reason.",
        ],
    )
    if asked is not None:
        return asked
    return _act(
        request,
        battle,
        lambda: battle_results.quick_resolve(
            battle, request.user, attacker=attacker, now=timezone.now(), why=asking.reason(request)
        ),
        "Resolved with the quick resolution: not fought on the table.",
    )


@login_required
@require_POST
def set_date(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, _ = _battle_for(request, code, battle_code)
    if not service.may_settle(battle, request.user):
        raise PermissionDenied
    form = DateForm(request.POST, battle=battle)
    if form.is_valid():
        when: datetime = form.cleaned_data["fight_on"]
        try:
            battle_dates.set_date(battle, request.user, when, now=timezone.now())
        except service.BattleError as exc:
            form.add_error("fight_on", str(exc))
        else:
            messages.success(request, "Date set; the players are told.")
            return _back(request, battle)
    return _again(request, battle, date_form=form)


@login_required
@require_POST
def record_collection(request: HttpRequest, code, battle_code) -> HttpResponse:
    battle, viewer = _battle_for(request, code, battle_code)
    seat = _seat_or_403(viewer)
    form = CollectionForm(request.POST)
    if form.is_valid():
        service.record_collection(seat, form.cleaned_data["points"])
        messages.success(request, "Painted collection recorded.")
    else:
        messages.error(request, "The collection is a whole number of tabletop points.")
    return _back(request, battle)


@login_required
@require_http_methods(["GET", "POST"])
def tabletop_settings(request: HttpRequest, code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    current = service.tabletop_settings(campaign)
    if request.method == "POST":
        form = TabletopSettingsForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            service.save_tabletop_settings(
                campaign,
                {
                    "table_feet": [data["table_long"], data["table_short"]],
                    "ratio": data["ratio"].strip(),
                    "british_share": (data.get("british_share") or "").strip() or None,
                    "gazette_delay_hours": data["gazette_delay_hours"],
                    "points_per_strength_point": data["points_per_strength_point"],
                    "unit_costs": data.get("unit_costs") or "",
                    "unit_system": data["unit_system"],
                    "points_per_battalion": data["points_per_battalion"],
                },
            )
            messages.success(request, "Tabletop settings saved.")
            return redirect("battles:settings", campaign.code)
    else:
        share = current.scale.british_share
        form = TabletopSettingsForm(
            initial={
                "table_long": current.table_feet[0],
                "table_short": current.table_feet[1],
                "ratio": str(current.scale.ratio),
                "british_share": "" if share is None else str(share),
                "gazette_delay_hours": current.gazette_delay.total_seconds() / 3600,
                "points_per_strength_point": current.points_per_strength_point,
                "unit_costs": current.unit_costs,
                **briefing_service.unit_settings(campaign),
            }
        )
    return render(request, "battles/settings.html", {"campaign": campaign, "form": form})


@require_GET
def gazette(request: HttpRequest, code) -> HttpResponse:
    """Public: no login. Only news older than the campaign's delay, with no numbers."""
    campaign = get_object_or_404(Campaign, code=code)
    service.sync(campaign)
    return render(
        request,
        "battles/gazette.html",
        {"campaign": campaign, "news": battle_news.gazette(campaign, now=timezone.now())},
    )
