"""The organiser's tools. Each is logged as an OrganiserAction, which every player can read.

The status board shows who owes input and who is ready, never what anyone ordered, unless the
organiser is a non-playing umpire (``Campaign.umpire_plays`` off), who sees everything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction

from campaign import signals
from campaign.models import (
    Campaign,
    CampaignStatus,
    OrganiserAction,
    OrganiserActionKind,
    PhaseWindow,
    Reminder,
    Seat,
    StateVersion,
    WindowStatus,
)
from campaign.services import caretaker, deadlines, outgoing, standstill
from campaign.services.actionlog import OrganiserError, log, readable
from campaign.services.resolution import queue_resolution, resolve_due_phase
from campaign.services.setup import invite
from rules.armies import Army
from rules.state import Phase, state_from_dict


def _why(reason: str) -> str:
    return f" Why: {reason.strip()}" if reason.strip() else ""


# --- the status board ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatStatus:
    seat: Seat
    owes: bool
    ready: bool
    absent: bool
    flagged: bool
    entered_by_organiser: bool
    draft: dict | None  # only for a non-playing umpire


@dataclass(frozen=True)
class Board:
    campaign: Campaign
    window: PhaseWindow | None
    version: StateVersion | None
    seats: list[SeatStatus]
    reserves: list[Seat]
    actions: list[OrganiserAction]


def status_board(campaign: Campaign, *, now: datetime) -> Board:
    window = campaign.open_window()
    sheets = {}
    if window is not None:
        sheets = {s.seat_id: s for s in window.order_sheets.all()}
    rows = []
    sees_all = campaign.umpire_sees_all  # one query, not one per seat
    seats = list(campaign.seats.select_related("user"))
    for seat in seats:
        if seat.reserve:
            continue
        sheet = sheets.get(seat.id)
        rows.append(
            SeatStatus(
                seat=seat,
                owes=window is not None and window.owes(seat),
                ready=bool(sheet and sheet.ready),
                absent=seat.is_absent(now),
                flagged=seat.flagged(),
                entered_by_organiser=bool(sheet and sheet.entered_by_organiser),
                draft=(sheet.draft if sheet else None) if sees_all else None,
            )
        )
    return Board(
        campaign=campaign,
        window=window,
        version=campaign.latest_version(),
        seats=rows,
        reserves=[s for s in seats if s.reserve],
        actions=list(readable(campaign, campaign.organiser)[:50]),
    )


# --- the tools ----------------------------------------------------------------------------


def _running(campaign: Campaign) -> None:
    if campaign.status != CampaignStatus.RUNNING:
        raise OrganiserError("The campaign is not running.")


@transaction.atomic
def pause(campaign: Campaign, actor, *, now: datetime, reason: str = "") -> None:
    """Stop the clock: the open window keeps the time it had left."""
    _running(campaign)
    if not Campaign.objects.filter(id=campaign.id, paused=False).update(paused=True):
        raise OrganiserError("The campaign is already paused.")
    campaign.paused = True
    for window in PhaseWindow.objects.select_for_update().filter(
        campaign=campaign, status=WindowStatus.OPEN
    ):
        remaining = max(window.deadline - now, timedelta(0)) if window.deadline else None
        PhaseWindow.objects.filter(id=window.id, status=WindowStatus.OPEN).update(
            status=WindowStatus.PAUSED, remaining=remaining
        )
    log(campaign, actor, OrganiserActionKind.PAUSED, "Paused the campaign." + _why(reason), now=now)


@transaction.atomic
def resume(campaign: Campaign, actor, *, now: datetime, reason: str = "") -> None:
    """Restart the clock: the deadline moves on by the time the campaign was paused."""
    _running(campaign)
    if not Campaign.objects.filter(id=campaign.id, paused=True).update(paused=False):
        raise OrganiserError("The campaign is not paused.")
    campaign.paused = False
    for window in PhaseWindow.objects.select_for_update().filter(
        campaign=campaign, status=WindowStatus.PAUSED
    ):
        deadline = now + window.remaining if window.remaining is not None else window.deadline
        PhaseWindow.objects.filter(id=window.id, status=WindowStatus.PAUSED).update(
            status=WindowStatus.OPEN, deadline=deadline, remaining=None
        )
    log(
        campaign,
        actor,
        OrganiserActionKind.RESUMED,
        "Resumed the campaign." + _why(reason),
        now=now,
    )


@transaction.atomic
def extend_deadline(
    campaign: Campaign, actor, hours: int, *, now: datetime, reason: str = ""
) -> PhaseWindow:
    """Move the open window's deadline later; reminders start over for the new deadline."""
    _running(campaign)
    if not 0 < hours <= deadlines.MAX_HOURS:
        raise OrganiserError(f"Extend by 1 to {deadlines.MAX_HOURS} hours.")
    window = campaign.open_window()
    if window is None:
        raise OrganiserError("No phase is waiting for orders.")
    window = PhaseWindow.objects.select_for_update().get(id=window.id)
    delta = timedelta(hours=hours)
    window.deadline = (window.deadline or now) + delta
    if window.remaining is not None:
        window.remaining += delta
    window.save(update_fields=["deadline", "remaining"])
    Reminder.objects.filter(window=window).delete()
    log(
        campaign,
        actor,
        OrganiserActionKind.EXTENDED,
        f"Extended the {window.phase} deadline of turn {window.turn} by {hours} hours."
        + _why(reason),
        now=now,
        hours=hours,
        window=window.id,
    )
    return window


# The earliest a deadline may be brought: its owing players have a few minutes' warning.
HURRY_MARGIN = timedelta(minutes=5)


@transaction.atomic
def bring_forward(
    campaign: Campaign, actor, to: datetime, *, now: datetime, reason: str = ""
) -> PhaseWindow:
    """Bring the open window's deadline forward to ``to``, at least ``HURRY_MARGIN`` ahead
    (issue 43); the seats it still waits for (not ready, not away, not on the caretaker) are
    emailed at once with the new deadline, and the reminders already due by it are counted as
    sent (that email is their reminder)."""
    _running(campaign)
    window = campaign.open_window()
    if window is None or window.status != WindowStatus.OPEN:
        raise OrganiserError("No open phase: a paused campaign's deadline cannot be brought.")
    window = PhaseWindow.objects.select_for_update().get(id=window.id)
    if window.deadline is None:
        raise OrganiserError("This phase waits for the tabletop's results: it has no deadline.")
    if to < now + HURRY_MARGIN:
        minutes = int(HURRY_MARGIN.total_seconds() // 60)
        raise OrganiserError(f"Bring the deadline to at least {minutes} minutes from now.")
    if to >= window.deadline:
        raise OrganiserError("That is not before the deadline: extend it instead.")
    PhaseWindow.objects.filter(id=window.id).update(deadline=to)
    window.deadline = to
    ready = set(window.order_sheets.filter(ready=True).values_list("seat_id", flat=True))
    owing = [
        s
        for s in campaign.seats.filter(reserve=False)
        if window.owes(s)
        and s.id not in ready
        and not s.is_absent(now)
        and not caretaker.on_caretaker(s, now)
    ]
    reached = [
        step
        for step in deadlines.reminder_steps(campaign.reminders)
        if now >= to - timedelta(hours=deadlines.lead_hours(step, window.opened_at, to))
    ]
    Reminder.objects.bulk_create(
        [
            Reminder(window=window, seat=s, hours_before=step, sent_at=now)
            for s in owing
            for step in reached
        ],
        ignore_conflicts=True,
    )
    # "due within the hour" when less than an hour is left, never "in 1 hour" for 40 minutes
    left = (to - now).total_seconds()
    hours = math.ceil(left / 3600) if left >= 3600 else 0
    # The most urgent reminder step it stands for (the last call, if reached), as drifting's
    # own reminders carry it: a player who takes only the last call gets this one.
    step = reached[-1] if reached else None
    for seat in owing:
        outgoing.queue_reminder(seat.id, window.id, hours, step=step)
    local = to.astimezone(ZoneInfo(campaign.time_zone))
    log(
        campaign,
        actor,
        OrganiserActionKind.EXTENDED,
        f"Brought the {window.phase} deadline of turn {window.turn} forward to "
        f"{local:%a %d %b, %H:%M} ({campaign.time_zone})." + _why(reason),
        now=now,
        to=to.isoformat(),
        window=window.id,
    )
    return window


@transaction.atomic
def set_allies_share(campaign: Campaign, actor, allies_share: bool, *, now: datetime) -> bool:
    """Turn on or off ``options["allies_share"]`` (allies share what they know, 1.2); logged so
    every player knows what their allies now see. Returns whether anything changed."""
    campaign = Campaign.objects.select_for_update().get(id=campaign.id)
    options = dict(campaign.options or {})
    if bool(options.get("allies_share", False)) == allies_share:
        return False
    options["allies_share"] = allies_share
    Campaign.objects.filter(id=campaign.id).update(options=options)
    text = (
        "Allies now share what they know: each sees the others' forces and reports."
        if allies_share
        else "Allies no longer share what they know: each sees only what is public of the others."
    )
    log(campaign, actor, OrganiserActionKind.OPTIONS, text, now=now, allies_share=allies_share)
    return True


@transaction.atomic
def set_press(campaign: Campaign, actor, channel: str, phases: int, *, now: datetime) -> bool:
    """Change how letters travel (``options["press"]``, ``["courier_phases"]``); logged so every
    player knows. Letters already written keep the arrival they were given. Whether the
    organiser may read them (``press_moderated``) is fixed at the start and not changed here."""
    campaign = Campaign.objects.select_for_update().get(id=campaign.id)
    options = dict(campaign.options or {})
    before = (options.get("press", "open"), int(options.get("courier_phases", 2)))
    if before == (channel, phases) or (before[0] == channel and channel != "courier"):
        return False
    options["press"], options["courier_phases"] = channel, phases
    Campaign.objects.filter(id=campaign.id).update(options=options)
    text = {
        "open": "Letters are now delivered at once.",
        "off": "Letters are now off: none can be written.",
        "courier": f"Letters now go by courier and take {phases} phase"
        f"{'s' if phases != 1 else ''}.",
    }[channel]
    log(campaign, actor, OrganiserActionKind.OPTIONS, text, now=now, press=channel, phases=phases)
    return True


# --- orders on a player's behalf, through the seat's own order pages -------------------------

BEHALF_SESSION_KEY = "on_behalf"  # the seat codes the organiser is entering orders for


def begin_on_behalf(
    campaign: Campaign, actor, seat: Seat, *, now: datetime, reason: str = ""
) -> PhaseWindow:
    """The organiser opens a seat's order pages to enter orders a player sent by email or on
    paper. Logged at once: the organiser now reads that seat's pages, which every player may
    want to know (a playing organiser too)."""
    _running(campaign)
    window = campaign.open_window()
    if window is None or not window.owes(seat):
        raise OrganiserError(f"The {seat.label} owes no orders now.")
    if window.order_sheets.filter(seat=seat, ready=True).exists():
        raise OrganiserError(f"The {seat.label} has submitted its {window.phase} orders.")
    mine, hostile = _playing_organisers_seat(campaign, actor, seat)
    if mine and (hostile or not campaign.options.get("allies_share")):
        ally = "" if hostile else ", and allies in this campaign do not share what they know"
        raise OrganiserError(
            f"You play the {mine}{ally}: the {seat.label}'s order pages would show you its "
            "secrets. Enter its orders in the form below, which shows nothing of its forces."
        )
    log(
        campaign,
        actor,
        OrganiserActionKind.ENTERED_ORDERS,
        f"Opened the {window.phase} orders of the {seat.label} to enter them on the player's "
        "behalf." + _why(reason),
        now=now,
        seat=str(seat.code),
        window=window.id,
    )
    return window


def _playing_organisers_seat(campaign: Campaign, actor, seat: Seat) -> tuple[str, bool]:
    """The label of the organiser's own seat when he plays one other than ``seat`` ("" when he
    plays none, or plays ``seat``), and whether its armies are enemies of ``seat``'s (by the
    alliances of the latest state, 13.8). A playing organiser may open an ally's order pages
    only where allies share what they know (``allies_share``: he would see no more than his
    seat's pages show him), never an enemy's."""
    mine = campaign.seats.filter(user_id=actor.id, reserve=False).first()
    if mine is None or mine.id == seat.id:
        return "", False
    latest = campaign.latest_version()
    if latest is None:
        hostile = any(Army(a).is_enemy_of(Army(b)) for a in mine.armies for b in seat.armies)
    else:
        state = state_from_dict(latest.state)
        hostile = any(state.is_enemy(Army(a), Army(b)) for a in mine.armies for b in seat.armies)
    return mine.label, hostile


def behalf_open(seat: Seat) -> bool:
    """Whether the organiser's entering of this seat's orders is still open: begun (and logged)
    for the phase window open now, which still awaits the seat's orders. Once that phase has
    resolved, or the sheet is submitted, the seat's pages close to him again, though he never
    pressed "stop": a playing organiser must not keep reading another seat's secrets."""
    window = seat.campaign.open_window()
    if window is None or not window.owes(seat):
        return False
    if window.order_sheets.filter(seat=seat, ready=True).exists():
        return False
    return OrganiserAction.objects.filter(
        campaign=seat.campaign,
        kind=OrganiserActionKind.ENTERED_ORDERS,
        data__seat=str(seat.code),
        data__window=window.id,
    ).exists()


def mark_entered(sheet, actor, *, now: datetime, submitted: bool = False) -> bool:
    """Mark an order sheet as entered by the organiser (every save on the seat's pages made on
    its player's behalf); logged once per sheet, and once more when it is submitted. Returns
    whether a log line was written."""
    first = sheet.window.order_sheets.filter(id=sheet.id, entered_by_organiser=False).update(
        entered_by_organiser=True, entered_by=actor
    )
    if not first and not submitted:
        return False
    seat, window = sheet.seat, sheet.window
    what = "Submitted" if submitted else "Entered"
    log(
        sheet.campaign,
        actor,
        OrganiserActionKind.ENTERED_ORDERS,
        f"{what} the {window.phase} orders of the {seat.label} on the player's behalf.",
        now=now,
        seat=str(seat.code),
        window=window.id,
    )
    return True


@transaction.atomic
def enter_orders(
    campaign: Campaign,
    actor,
    seat: Seat,
    draft: dict,
    *,
    now: datetime,
    phase: str,
    how: str = "by email",
) -> None:
    """Enter a player's orders sent by email or on paper; recorded as such, and ready.
    ``phase`` is the phase the organiser's form was written for: refused unless it is open."""
    _running(campaign)
    window = campaign.open_window()
    if window is None or not window.owes(seat):
        raise OrganiserError(f"The {seat.label} owes no orders now.")
    if phase != window.phase:
        raise OrganiserError(
            f"These orders were written for the {phase or 'unnamed'} phase; the "
            f"{window.phase} phase is open now. Nothing was entered."
        )
    if not isinstance(draft, dict):
        raise OrganiserError("Orders are an object in the order format.")
    window.order_sheets.update_or_create(
        seat=seat,
        defaults={
            "campaign": campaign,
            "draft": draft,
            "ready": True,
            "submitted_at": now,
            "entered_by_organiser": True,
            "entered_by": actor,
            "updated": now,
        },
    )
    log(
        campaign,
        actor,
        OrganiserActionKind.ENTERED_ORDERS,
        f"Entered the {window.phase} orders of the {seat.label} (sent {how}).",
        now=now,
        seat=str(seat.code),
        window=window.id,
    )
    queue_resolution(window.id)


@transaction.atomic
def roll_back(campaign: Campaign, actor, *, now: datetime, reason: str = "") -> PhaseWindow:
    """Undo the last phase that waited for players, with the automatic phases after it:
    their state versions and events go, the window opens again with a fresh deadline and the
    order sheets as drafts (not ready). The seeded dice give the same rolls again."""
    window = (
        PhaseWindow.objects.select_for_update()
        .filter(campaign=campaign, status=WindowStatus.RESOLVED)
        .select_related("version")
        .order_by("-version__number")
        .first()
    )
    if window is None:
        raise OrganiserError("No phase has been resolved yet.")
    number = window.version.number
    undone = list(
        campaign.versions.filter(number__gt=number)
        .exclude(resolved_phase="")
        .order_by("number")
        .values_list("turn", "resolved_phase")
    )
    campaign.versions.filter(number__gt=number).delete()  # cascades: events, later windows
    # The extensions the organiser gave this window are kept on top of its fresh deadline.
    extended = sum(
        int(a.data.get("hours", 0))
        for a in campaign.actions.filter(kind=OrganiserActionKind.EXTENDED)
        if a.data.get("window") == window.id
    )
    deadline = deadlines.deadline_for(
        campaign.deadline_policy, window.phase, now, campaign.time_zone
    ) + timedelta(hours=extended)
    status = WindowStatus.PAUSED if campaign.paused else WindowStatus.OPEN
    PhaseWindow.objects.filter(id=window.id).update(
        status=status,
        deadline=deadline,
        opened_at=now,
        resolved_at=None,
        remaining=(deadline - now) if campaign.paused else None,
    )
    window.order_sheets.update(ready=False)
    # The reminders already sent for this window stay claimed: none is sent again as if new.
    Campaign.objects.filter(id=campaign.id).update(status=CampaignStatus.RUNNING, ended=None)
    campaign.status = CampaignStatus.RUNNING
    log(
        campaign,
        actor,
        OrganiserActionKind.ROLLED_BACK,
        f"Rolled back to the {window.phase} phase of turn {window.turn}: orders are open again."
        + _why(reason),
        now=now,
        window=window.id,
        version=number,
        undone=[f"turn {turn} {phase}" for turn, phase in undone],
    )
    for seat_id in campaign.seats.filter(user__isnull=False).values_list("id", flat=True):
        outgoing.queue_rolled_back(seat_id, window.id)
    return window


@transaction.atomic
def replace_player(
    campaign: Campaign,
    actor,
    seat: Seat,
    *,
    now: datetime,
    reserve: Seat | None = None,
    email: str = "",
    reason: str = "",
) -> Seat:
    """Give a seat to a reserve player (who takes it at once) or invite someone by email.
    The new player finds everything the seat knows on its handover page."""
    if seat.reserve or seat.campaign_id != campaign.id:
        raise OrganiserError("Choose a playing seat of this campaign.")
    if campaign.status == CampaignStatus.ENDED:
        raise OrganiserError("The campaign has ended.")
    old = seat.user.get_username() if seat.user else "nobody"
    old_id = seat.user_id
    seat.missed_in_a_row = 0
    seat.absent_until = None
    if reserve is not None:
        if not reserve.reserve or reserve.campaign_id != campaign.id or reserve.user is None:
            raise OrganiserError("That reserve player has not joined yet.")
        seat.user = reserve.user
        seat.joined = now
        new = reserve.user.get_username()
        reserve.delete()
    elif email:
        seat.user = None
        seat.joined = None
        new = email
    else:
        raise OrganiserError("Choose a reserve player or give an email address.")
    seat.save(update_fields=["user", "joined", "missed_in_a_row", "absent_until"])
    seat.invitations.filter(accepted_at__isnull=True).delete()
    if email and reserve is None:
        invite(seat, email, now=now)
    else:
        caretaker.take_back(seat, actor, now=now, why=": a new player took the seat")
        outgoing.queue_handover(seat.id)
    log(
        campaign,
        actor,
        OrganiserActionKind.REPLACED,
        f"Replaced the {seat.label}: {old} hands over to {new}." + _why(reason),
        now=now,
        seat=str(seat.code),
        previous_user=old_id,
    )
    return seat


@transaction.atomic
def end_campaign(campaign: Campaign, actor, *, now: datetime, reason: str = "") -> None:
    """End the campaign now: open orders lock, everyone is told."""
    if (
        not Campaign.objects.filter(id=campaign.id)
        .exclude(status=CampaignStatus.ENDED)
        .update(status=CampaignStatus.ENDED, ended=now)
    ):
        raise OrganiserError("The campaign has already ended.")
    campaign.status = CampaignStatus.ENDED
    campaign.open_windows().update(status=WindowStatus.RESOLVED, resolved_at=now)
    log(campaign, actor, OrganiserActionKind.ENDED, "Ended the campaign." + _why(reason), now=now)
    outgoing.queue_campaign_over(campaign.id)
    signals.campaign_ended.send(Campaign, campaign=campaign)  # the book (docs/season-end.md)


def resolve_now(campaign: Campaign, actor, *, now: datetime, reason: str = ""):
    """Resolve the open phase before its deadline: the seats that have not pressed Ready are
    treated by the campaign's policy (the caretaker's orders under the caretaker policy, else
    they stand still), without it counting as missed."""
    window = campaign.open_window()
    if window is None or window.status != WindowStatus.OPEN:
        raise OrganiserError("No open phase to resolve.")
    log(
        campaign,
        actor,
        OrganiserActionKind.RESOLVED_NOW,
        f"Resolved the {window.phase} phase of turn {window.turn} before its deadline."
        + _why(reason),
        now=now,
    )
    return resolve_due_phase(window.id, now=now, force=True, early=True)


def unsent_drafts(campaign: Campaign) -> list[str]:
    """The seats the open orders phase waits for whose player saved orders without pressing
    Ready, by label: resolved now (or at the deadline) those orders are not used, so the
    organiser's "Resolve now" names them first. None at deployment, where a legal draft
    deploys (``standstill.standing_deployment``), and none to an organiser who plays a seat
    (``umpire_sees_all`` false): whether another seat has saved orders is its secret (6), as
    the board keeps its drafts (``status_board``)."""
    window = campaign.open_window()
    if window is None or window.phase == Phase.DEPLOYMENT.value or not campaign.umpire_sees_all:
        return []
    phase = Phase(window.phase)
    seats = {s.id: s for s in campaign.seats.filter(reserve=False)}
    return [
        seats[sheet.seat_id].label
        for sheet in window.order_sheets.filter(ready=False).order_by("seat_id")
        if sheet.seat_id in seats
        and window.owes(seats[sheet.seat_id])
        and standstill.unsent(sheet.draft, phase)
    ]


def not_yours(seat: Seat, user, what: str = "pages") -> str:
    """Why ``user`` may not open the seat's ``what``: given to another player on a date (the
    seat's former player), or simply another player's."""
    replaced = replaced_on(seat, user)
    if replaced is not None:
        return (
            f"The organiser gave the {seat.label} of {seat.campaign.name} to another player on "
            f"{replaced:%d %B %Y}: its {what} are theirs now. Ask the organiser if this is wrong."
        )
    return f"These are another player's {what}."


def replaced_on(seat: Seat, user) -> datetime | None:
    """When ``user`` was replaced at ``seat`` (for the page that tells them why they may no
    longer open it), or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    for action in seat.campaign.actions.filter(kind=OrganiserActionKind.REPLACED):
        if (
            action.data.get("seat") == str(seat.code)
            and action.data.get("previous_user") == user.id
        ):
            return action.created
    return None
