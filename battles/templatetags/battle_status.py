"""A battle's status as a seat's side reads it, for the seat's dashboard: whose move it is
(``battles.services.sheet.status_for``)."""

from __future__ import annotations

from django import template

from battles.models import Battle
from battles.services.records import side_of_seat
from battles.services.sheet import status_for

register = template.Library()


def _side(battle: Battle, seat) -> str | None:
    return side_of_seat(battle, seat) if seat is not None else None


@register.simple_tag
def battle_status(battle: Battle, seat) -> str:
    """The status inside a sentence: "waiting for the result", "result entered by the
    Prussian army: yours to confirm or dispute"."""
    text = status_for(battle, _side(battle, seat))
    return text[:1].lower() + text[1:]


@register.simple_tag
def battles_to_answer(battles, seat) -> list[Battle]:
    """The battles whose result the other side entered and ``seat``'s side is to confirm or
    dispute: what the seat owes while the campaign waits for the tabletop."""
    out = []
    for battle in battles:
        side = _side(battle, seat)
        entered = battle.entered_by
        if (
            side is not None
            and battle.status == "entered"
            and entered is not None
            and side_of_seat(battle, entered) != side
        ):
            out.append(battle)
    return out
