"""The sequence of play (4): one handler per phase, and ``resolve_phase``.

Every handler has the signature ``(state, orders, dice, hexmap, settings) -> Resolution`` and
never changes its inputs. ``resolve_phase`` checks the campaign is in that phase, runs the handler
and moves the campaign on to the next phase (after the retreat/rally phase, to the next turn).
"""

from __future__ import annotations

import dataclasses

from maps.core.model import HexMap
from rules import (
    allocation,
    attrition,
    battle,
    deployment,
    marches,
    reconnaissance,
    retreat,
    siege,
    supply,
)
from rules.dice import Dice
from rules.events import Event, EventKind
from rules.orders import NO_ORDERS, Orders
from rules.resolution import Handler, Resolution
from rules.rulesettings import DEFAULT_SETTINGS, RuleSettings
from rules.state import Phase, State

__all__ = ["HANDLERS", "Phase", "PhaseError", "Resolution", "resolve_phase"]

HANDLERS: dict[Phase, Handler] = {
    Phase.DEPLOYMENT: deployment.deployment_phase,
    Phase.SUPPLY: supply.supply_phase,
    Phase.MARCH_ALLOCATION: allocation.allocation_phase,
    Phase.MARCH: marches.march_phase,
    Phase.FORCED_MARCH: marches.forced_march_phase,
    Phase.ATTRITION: attrition.attrition_phase,
    Phase.RECONNAISSANCE: reconnaissance.reconnaissance_phase,
    Phase.BATTLE: battle.battle_phase,
    Phase.SIEGE: siege.siege_phase,
    Phase.RETREAT_RALLY: retreat.retreat_rally_phase,
}


# Which kinds of orders each phase reads (docs/scenario-format.md); orders that could not be read
# are reported in the phase that would have carried them out.
ORDER_KINDS: dict[Phase, tuple[str, ...]] = {
    Phase.DEPLOYMENT: ("deployment",),
    Phase.MARCH: ("transfers", "march"),
    Phase.FORCED_MARCH: ("forced_march",),
    Phase.BATTLE: ("battle", "battle_results"),
    Phase.SIEGE: ("honors",),
}


class PhaseError(ValueError):
    """The phase cannot be resolved now (wrong phase, or no rules for it yet)."""


def resolve_phase(
    state: State,
    phase: Phase,
    orders: Orders = NO_ORDERS,
    dice: Dice | None = None,
    hexmap: HexMap | None = None,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> Resolution:
    """Resolve one phase of the turn. Orders that cannot be read were already turned into
    rejections (``orders.rejected``); each is reported first in the phase of its kind."""
    if state.ended:
        raise PhaseError("the campaign has ended")
    if state.phase is not phase:
        raise PhaseError(
            f"the campaign is in the {state.phase.value} phase of turn {state.turn}, "
            f"not the {phase.value} phase"
        )
    handler = HANDLERS.get(phase)
    if handler is None:
        raise PhaseError(f"the {phase.value} phase has no rules yet")
    if hexmap is None:
        raise PhaseError("a phase needs the campaign map")
    dice = dice if dice is not None else Dice(seed="unseeded", sides=settings.die_sides)
    first_roll = len(dice.log)
    result = handler(state, orders, dice, hexmap, settings)
    new = result.state
    kinds = ORDER_KINDS.get(phase, ())
    unread = tuple(e for e in orders.rejected if e.data.get("order_kind") in kinds)
    events = unread + result.events
    if result.complete:
        nxt = phase.next()
        if phase is Phase.RETREAT_RALLY:
            turn = new.turn + 1
            ended = new.ended or turn > settings.turns
            new = dataclasses.replace(new, turn=min(turn, settings.turns), phase=nxt, ended=ended)
            events += (
                Event(
                    "4",
                    EventKind.TURN,
                    f"Turn {turn} begins." if not ended else "The campaign is over (4).",
                    {"turn": turn, "ended": ended},
                ),
            )
        else:
            new = dataclasses.replace(new, phase=nxt)
    return dataclasses.replace(result, state=new, events=events, rolls=tuple(dice.log[first_roll:]))
