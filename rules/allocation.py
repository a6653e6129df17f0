"""March allocation (6.1, 6.2, 6.2.1): how many marches each army may expend this turn.

Armies with a line in the March Allocation Table roll their dice and add the modifier; the
result (never below 0) is the number of marches for the turn. Imperial forces use Austrian
marches and Swedish forces Russian marches (6.2.1). Unused marches are lost (6.2): the next
supply phase clears them.
"""

from __future__ import annotations

import dataclasses

from rules.armies import LABELS, Army
from rules.dice import Dice
from rules.events import Event, EventKind, private
from rules.orders import Orders
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.state import State


def march_reason(marches: int, modifier: int) -> str:
    """Why an army's marches are not what its dice showed (6.1): the modifier of its line of the
    March Allocation Table, with the roll it came from; "" when there is no modifier.

    >>> march_reason(4, -2), march_reason(0, -2), march_reason(3, 1), march_reason(6, 0)
    ('6 rolled \u22122', '2 or less rolled \u22122', '2 rolled +1', '')
    """
    if not modifier:
        return ""
    sign = f"+{modifier}" if modifier > 0 else f"\u2212{-modifier}"
    if marches <= 0:
        return f"{-modifier} or less rolled {sign}"
    return f"{marches - modifier} rolled {sign}"


def roll_name(army: Army, turn: int) -> str:
    return f"march-allocation:{army.value}:t{turn}"


def allocation_phase(
    state: State, orders: Orders, dice: Dice, hexmap: object, settings: RuleSettings
) -> Resolution:
    """Phase 2 (6.2): roll each army's marches."""
    marches: dict[str, int] = {}
    events: list[Event] = []
    for army in Army:
        if army.value not in settings.march_dice or army in state.surrendered:
            continue
        count = settings.march_dice[army.value]
        modifier = settings.march_modifier.get(army.value, 0)
        roll = dice.roll_dice(roll_name(army, state.turn), count)
        total = max(0, roll.total + modifier)
        marches[army.value] = total
        users = [a for a in Army if a.march_pool is army]
        shared = " and ".join(LABELS[a] for a in users)
        dice_text = "+".join(str(d) for d in roll.dice)
        sign = f" {modifier:+d}" if modifier else ""
        events.append(
            Event(
                "6.2",
                EventKind.MARCHES_ALLOCATED,
                f"{shared} {'share' if len(users) > 1 else 'has'} {total} march"
                f"{'es' if total != 1 else ''} this turn: {count} "
                f"{'dice' if count > 1 else 'die'} rolled {dice_text}{sign} (6.1, 6.2).",
                {
                    "army": army.value,
                    "dice": list(roll.dice),
                    "modifier": modifier,
                    "marches": total,
                    "roll": roll.name,
                },
                private(*users),
            )
        )
    return Resolution(dataclasses.replace(state, marches=marches), tuple(events))
