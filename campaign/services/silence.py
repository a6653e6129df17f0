"""What the player of a seat is told becomes of his forces if he gives no orders: the call for
orders (the email that opens a phase, the reminders, the digest) says it under the campaign's
missed-deadline policy (``caretaker.policy``), so that every word he reads is true (issue 43).

Worked example, a march phase under the caretaker policy playing on, one excused miss a season:

- a seat with its excused miss still to use: "If you give none, your forces stand still this
  time (one excused miss a season); after that the caretaker gives your orders (plays on).";
- a seat past it: "If you give none, the caretaker will give your orders (plays on).";
- a seat the organiser handed over: "The caretaker gives your orders (plays on) until you take
  your seat back: give yours, or tap Take my seat back."
"""

from __future__ import annotations

from datetime import datetime

from campaign.models import Campaign, Seat
from campaign.services import caretaker
from rules.state import Phase

STYLE_WORDS = {"defensive": "defensive: it holds its ground", "plays-on": "plays on"}


def if_silent(
    seat: Seat, campaign: Campaign, phase: str, *, now: datetime, graced: bool = False
) -> str:
    """The sentence the call for orders of ``phase`` ends with: what a silence does (not for
    the deployment, whose own rule the emails tell). ``graced``: the window's deadline has
    already moved by its grace (``window.graced_from``), so it will not move again."""
    chosen = caretaker.policy(campaign)
    try:
        kind = Phase(phase)
    except ValueError:
        kind = None
    handed = caretaker.on_caretaker(seat, now)
    if handed:
        return (
            f"The caretaker gives your orders ({_what(kind, handed)}) until you take your seat "
            "back: give yours, or tap Take my seat back."
        )
    excused = seat.missed_this_season < chosen["excused"]
    if chosen["policy"] == "caretaker":
        then = f"the caretaker will give your orders ({_what(kind, chosen['style'])})"
        if excused:
            return (
                f"If you give none, your forces stand still this time ({_excused(chosen)}); "
                f"after that {then}."
            )
        return f"If you give none, {then}."
    if chosen["policy"] == "grace" and not excused and graced:
        return (
            f"The deadline has already moved once by {chosen['grace_hours']} hours of grace; "
            "without your orders your forces stand still."
        )
    if chosen["policy"] == "grace" and not excused:
        return (
            f"If you give none, the deadline moves once by {chosen['grace_hours']} hours of "
            "grace; then your forces stand still."
        )
    return "Without them your forces stand still."


def _what(kind: Phase | None, style: str) -> str:
    if kind is Phase.FORCED_MARCH:
        return f"{STYLE_WORDS[style]}; it never forces a march"
    return STYLE_WORDS.get(style, style)


def _excused(chosen: dict) -> str:
    n = chosen["excused"]
    return f"{'one' if n == 1 else n} excused miss{'' if n == 1 else 'es'} a season"
