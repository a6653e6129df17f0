"""What a missed deadline does, and the caretaker (issue 35; docs/operations.md, "Players who
go quiet"; docs/rules-interpretations.md, "The caretaker").

A campaign chooses, on its set-up form and on the board (``Campaign.options["missed"]``):

- ``stand-still``: a seat with no orders at the deadline stands still (as it always did);
- ``grace``: the deadline moves once, by ``grace_hours``, when seats are missing; only they
  are emailed; then the window resolves as under ``stand-still``;
- ``caretaker``: the missing seat's orders are given by the caretaker.

Each seat has ``excused`` misses a season (``Seat.missed_this_season``) before the policy
applies to it; until then it stands still. The caretaker is the engine's automatic player
(``rules.autoplay``) in one of two styles: ``defensive`` (no marches: forces hold their ground,
garrisons and supply stay as they are; battles declined) or ``plays-on`` (marches and battle
decisions as the automatic players give them). Its orders go through ``gameplay.seat_orders``
and the engine's checks, as every seat's. The organiser may also hand a seat to it
(``hand_over``, the board or ``manage.py caretaker``), until a date or until taken back; a seat
on the caretaker is not waited for. A seat marked away may go to it too (``absent``).

Under the ``caretaker`` policy the caretaker *holds* a silent seat (issue 43): the deadline at
which it gives a seat's orders past its excused misses puts the seat on the caretaker
(``hold``), so the following windows do not wait for it (``resolution.is_due``), as Diplicity
and webDiplomacy treat a player who missed as ready; a seat marked away is held from the start
of its absence. The hold ends the moment its player is back (``player_back``: he opens his
orders page, saves anything, or taps *Take my seat back*). The organiser's *Resolve now* applies
the policy too: the caretaker gives the silent seats' orders (without a miss or a hold).


The caretaker never writes letters, never deploys (the deployment's own rule applies: a legal
draft deploys, 3), never forces a march and answers no honors of war in advance (the engine's
defaults apply: grant; surrender), and never makes the between-campaign choices of 13 (peace,
changing sides, loans are the players' agreement, asked of the organiser).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import F

from campaign.models import Campaign, OrganiserActionKind, PhaseWindow, Seat
from campaign.services import outgoing
from campaign.services.actionlog import OrganiserError, log
from rules.autoplay import battle_decisions, march_orders
from rules.events import Event, EventKind, event_to_dict
from rules.orders import Choice, Orders, orders_to_dict, unit_army
from rules.state import Phase, State

POLICIES = {
    "stand-still": "Stand still: the seat's forces stand still",
    "grace": "Grace: the deadline moves once for the missing seats",
    "caretaker": "Caretaker: the missing seat's orders are given by the caretaker",
}
STYLES = {
    "defensive": "defensive (holds its ground, declines battle)",
    "plays-on": "plays on (marches and fights as the automatic players do)",
}
DEFAULT = {
    "policy": "stand-still",
    "grace_hours": 12,
    "excused": 1,
    "style": "defensive",
    "absent": False,
}


def policy(campaign: Campaign) -> dict:
    """The campaign's missed-deadline policy, with the defaults for what it does not say."""
    given = (campaign.options or {}).get("missed") or {}
    return {**DEFAULT, **{k: v for k, v in given.items() if k in DEFAULT}}


def check_policy(data: dict) -> dict:
    """A policy as the forms give it, checked; raises OrganiserError with the reason."""
    out = {**DEFAULT, **{k: v for k, v in data.items() if k in DEFAULT}}
    if out["policy"] not in POLICIES:
        raise OrganiserError(f"Unknown policy {out['policy']!r}: {', '.join(POLICIES)}.")
    if out["style"] not in STYLES:
        raise OrganiserError(f"Unknown caretaker style {out['style']!r}: {', '.join(STYLES)}.")
    try:
        out["grace_hours"] = int(out["grace_hours"])
        out["excused"] = int(out["excused"])
    except (TypeError, ValueError):
        raise OrganiserError("The grace and the excused misses are whole numbers.") from None
    if not 1 <= out["grace_hours"] <= 168:
        raise OrganiserError("The grace is 1 to 168 hours.")
    if not 0 <= out["excused"] <= 18:
        raise OrganiserError("The excused misses are 0 to 18 a season.")
    out["absent"] = bool(out["absent"])
    return out


def set_policy(campaign: Campaign, actor, data: dict, *, now: datetime) -> dict:
    """The organiser changes what a missed deadline does (logged, every player reads it)."""
    chosen = check_policy(data)
    options = {**(campaign.options or {}), "missed": chosen}
    Campaign.objects.filter(id=campaign.id).update(options=options)
    campaign.options = options
    log(
        campaign,
        actor,
        OrganiserActionKind.POLICY,
        f"A missed deadline now means: {POLICIES[chosen['policy']]} "
        f"({chosen['excused']} excused a season; grace {chosen['grace_hours']} h; caretaker "
        f"{chosen['style']}{', also for seats away' if chosen['absent'] else ''}).",
        now=now,
        **chosen,
    )
    return chosen


# --- who is played by the caretaker -----------------------------------------------------------


def on_caretaker(seat: Seat, now: datetime) -> str:
    """The style of a seat handed to the caretaker ("" when it is not, or its date passed)."""
    if not seat.caretaker_style:
        return ""
    if seat.caretaker_until is not None and seat.caretaker_until <= now:
        return ""
    return seat.caretaker_style


def style_for(seat: Seat, campaign: Campaign, *, now: datetime, by_deadline: bool, early: bool,
              absent: bool) -> str:  # fmt: skip
    """The caretaker's style for a seat with no orders when its window resolves, or "" (it
    stands still): handed over, away with the campaign's choice, or missing past its excused
    misses under the caretaker policy."""
    handed = on_caretaker(seat, now)
    if handed:
        return handed
    chosen = policy(campaign)
    if absent:
        plays = chosen["absent"] or chosen["policy"] == "caretaker"
        return chosen["style"] if plays else ""
    if chosen["policy"] != "caretaker":
        return ""
    if early or (by_deadline and seat.missed_this_season >= chosen["excused"]):
        return chosen["style"]
    return ""


def holds(seat: Seat, campaign: Campaign, *, by_deadline: bool, early: bool,
          absent: bool) -> bool:  # fmt: skip
    """Whether the caretaker, giving the orders of a silent seat not yet on it, now holds it
    (``hold``): a deadline missed past the excused misses under the caretaker policy, or an
    absence under it (the organiser's early resolution holds nobody)."""
    if seat.caretaker_style or policy(campaign)["policy"] != "caretaker":
        return False
    return absent or (by_deadline and not early)


def own_orders(orders: Orders, armies: set[str]) -> dict:
    """The part of the automatic players' orders that one seat gives (its own armies')."""

    def mine(unit: str) -> bool:
        army = unit_army(unit)
        return army is not None and army.value in armies

    return orders_to_dict(
        Orders(
            march=tuple(o for o in orders.march if mine(o.unit)),
            transfers=tuple(t for t in orders.transfers if mine(t.source) or mine(t.target)),
            battle=tuple(d for d in orders.battle if d.army.value in armies),
        )
    )


def orders_for(seat: Seat, phase: Phase, state: State, hexmap, style: str) -> dict:
    """The caretaker's orders of ``seat`` for ``phase``, in the order format of a sheet's
    draft (so they go through the same checks as the page's)."""
    armies = set(seat.armies)
    if phase is Phase.MARCH and style == "plays-on" and hexmap is not None:
        return own_orders(march_orders(state, hexmap, f"caretaker-{seat.power}"), armies)
    if phase is Phase.BATTLE:
        decisions = battle_decisions(state, f"caretaker-{seat.power}")
        if style == "defensive":
            decisions = Orders(
                battle=tuple(
                    type(d)(d.hex, d.army, Choice.DECLINE if d.choice is Choice.FIGHT else d.choice)
                    for d in decisions.battle
                )
            )
        return own_orders(decisions, armies)
    return {}


def gives_orders(phase: Phase, style: str) -> bool:
    """Whether the caretaker gives orders of its own in ``phase`` (``orders_for``): marches
    when it plays on, battle decisions always; never a forced march, and no march when
    defensive (its forces hold their ground)."""
    return phase is Phase.BATTLE or (phase is Phase.MARCH and style == "plays-on")


def played_event(seat: Seat, phase: Phase, style: str) -> dict:
    """Every seat reads what the caretaker did for this seat in this phase (never its orders):
    that it gave them, only where it gives any (``gives_orders``); otherwise what became of
    the seat's forces ("made no forced march"), issue 43."""
    if gives_orders(phase, style):
        text = f"The {seat.label}'s {phase.value} orders were given by the caretaker ({style})."
    elif phase is Phase.FORCED_MARCH:
        text = f"The {seat.label}'s forces made no forced march: the caretaker never forces one."
    elif phase is Phase.MARCH:
        text = (
            f"The {seat.label}'s forces held their ground: the caretaker ({style}) gives no march."
        )
    else:
        text = f"The {seat.label} gave no {phase.value} orders: the caretaker ({style}) gives none."
    gave = gives_orders(phase, style)
    return event_to_dict(
        Event(
            "1.4", EventKind.CARETAKER, text, {"caretaker": style, "seat": seat.power, "gave": gave}
        )
    )


# --- the organiser's tools and the player's return ---------------------------------------------


def hand_over(seat: Seat, actor, *, style: str, until: datetime | None, now: datetime) -> None:
    """The organiser hands ``seat`` to the caretaker (logged)."""
    if style not in STYLES:
        raise OrganiserError(f"Unknown caretaker style {style!r}: {', '.join(STYLES)}.")
    if seat.reserve or not seat.armies:
        raise OrganiserError("A reserve seat commands no army: there is nothing to take care of.")
    if until is not None and until <= now:
        raise OrganiserError("The caretaker's last day must be in the future.")
    latest = seat.campaign.latest_version()
    since = latest.turn if latest is not None else 1
    Seat.objects.filter(id=seat.id).update(
        caretaker_style=style, caretaker_until=until, caretaker_since=since, caretaker_held=False
    )
    seat.caretaker_style, seat.caretaker_until = style, until
    seat.caretaker_since, seat.caretaker_held = since, False
    till = f" until {until:%d %B %Y}" if until else ""
    log(
        seat.campaign,
        actor,
        OrganiserActionKind.CARETAKER,
        f"The {seat.label} is played by the caretaker ({style}){till}.",
        now=now,
        seat=str(seat.code),
        style=style,
    )
    if seat.user_id is not None:  # its player is told, and how he takes the seat back
        outgoing.queue_caretaker(seat.id)


def take_back(seat: Seat, actor, *, now: datetime, why: str = "") -> bool:
    """The seat leaves the caretaker (its player's one tap, the organiser, or a replacement
    joining); whether it was on it."""
    if not seat.caretaker_style:
        return False
    # Conditional, as ``hold``: two taps at once log one return.
    if (
        not Seat.objects.filter(id=seat.id)
        .exclude(caretaker_style="")
        .update(
            caretaker_style="", caretaker_until=None, caretaker_since=None, caretaker_held=False
        )
    ):
        return False
    seat.caretaker_style, seat.caretaker_until = "", None
    seat.caretaker_since, seat.caretaker_held = None, False
    log(
        seat.campaign,
        actor,
        OrganiserActionKind.CARETAKER,
        f"The {seat.label} is no longer played by the caretaker{why}.",
        now=now,
        seat=str(seat.code),
        style="",
    )
    return True


def hold(seat: Seat, style: str, *, turn: int, now: datetime, why: str) -> bool:
    """The caretaker policy holds ``seat`` from ``turn`` until its player is back (logged,
    every player reads it); whether it did (not when the seat is on the caretaker already)."""
    held = Seat.objects.filter(id=seat.id, caretaker_style="").update(
        caretaker_style=style, caretaker_until=None, caretaker_since=turn, caretaker_held=True
    )
    if not held:
        return False
    seat.caretaker_style, seat.caretaker_until = style, None
    seat.caretaker_since, seat.caretaker_held = turn, True
    log(
        seat.campaign,
        None,
        OrganiserActionKind.CARETAKER,
        f"The {seat.label} is played by the caretaker ({style}) from turn {turn}, {why}, "
        "until its player is back.",
        now=now,
        seat=str(seat.code),
        style=style,
        held=True,
    )
    return True


def player_back(seat: Seat, user, *, now: datetime) -> bool:
    """The player of a seat the caretaker holds is back (he opened his orders page or saved
    something): the hold ends, and the windows wait for him again. A seat the organiser handed
    over stays with the caretaker (its player takes it back with one tap). Whether it ended."""
    if not seat.caretaker_held:
        return False
    return take_back(seat, user, now=now, why=": its player is back")


def count_miss(seat: Seat) -> None:
    Seat.objects.filter(id=seat.id).update(missed_this_season=F("missed_this_season") + 1)
    seat.missed_this_season += 1


# --- grace ------------------------------------------------------------------------------------


def give_grace(window: PhaseWindow, seats: list[Seat], ready_ids: set[int], now: datetime) -> bool:
    """Under the grace policy, a window whose deadline passed with seats missing (past their
    excused misses, not away, not on the caretaker) gets its deadline moved once; only the
    missing seats are emailed. Whether it did (the window then does not resolve now)."""
    campaign = window.campaign
    chosen = policy(campaign)
    if chosen["policy"] != "grace" or window.graced_from is not None or window.deadline is None:
        return False
    if window.deadline > now:
        return False
    missing = [
        s
        for s in seats
        if window.owes(s)
        and s.id not in ready_ids
        and not s.is_absent(now)
        and not on_caretaker(s, now)
        and s.missed_this_season >= chosen["excused"]
    ]
    if not missing:
        return False
    hours = chosen["grace_hours"]
    moved = PhaseWindow.objects.filter(id=window.id, graced_from__isnull=True).update(
        graced_from=window.deadline, deadline=now + timedelta(hours=hours)
    )
    if not moved:
        return False
    window.graced_from, window.deadline = window.deadline, now + timedelta(hours=hours)
    for seat in missing:
        outgoing.queue_reminder(seat.id, window.id, hours)
    return True
