"""Transfers of points at the start of the turn (6.4.2, 6.4.3) and the commander-in-chief rule
(3.2.6), applied at the start of the march phase before anyone moves."""

from __future__ import annotations

from maps.core.hexgrid import parse_hex_id
from maps.core.model import HexMap
from rules.armies import ADJECTIVES, Army
from rules.deployment import cic_problems
from rules.events import Event, EventKind, private
from rules.orders import GARRISON, TransferOrder, rejection, unit_army
from rules.rulesettings import RuleSettings
from rules.state import State


def _fortress_name(state: State, hexmap: HexMap, key: str) -> str | None:
    city = hexmap.fortress_at(parse_hex_id(state.leader(key).hex))
    return city.name if city else None


def check_transfer(
    state: State, order: TransferOrder, hexmap: HexMap, settings: RuleSettings
) -> str | None:
    """Why ``order`` is illegal, or None."""
    minimum = settings.min_leader_points
    if order.source == GARRISON and order.target == GARRISON:
        return "a transfer goes between a leader and his garrison or another leader"
    for key in (order.source, order.target):
        if key != GARRISON and not state.has_leader(key):
            return f"{key!r} is not a leader on the map"
    if GARRISON in (order.source, order.target):
        key = order.target if order.source == GARRISON else order.source
        x = state.leader(key)
        city = _fortress_name(state, hexmap, key)
        garrison = next((g for g in state.garrisons_of(city or "") if g.army is x.army), None)
        if not x.inside or city is None or garrison is None:
            return (
                f"{x.table.name} must begin the turn inside a fortress garrisoned by "
                f"{ADJECTIVES[x.army]} points (6.4.3)"
            )
        if (
            order.source == GARRISON
            and garrison.points - order.points < settings.min_garrison_points
        ):
            return (
                f"at least {settings.min_garrison_points} points must remain in {city} "
                f"(it has {garrison.points}) (6.4.3)"
            )
        if order.target == GARRISON and state.force_of(key).demoralized:
            return f"{x.table.name}'s force is demoralized and may not be divided (10.2.1)"
        if order.target == GARRISON and x.points - order.points < minimum:
            return f"{x.table.name} must keep at least {minimum} points (6.4.3)"
        return None
    giver, taker = state.leader(order.source), state.leader(order.target)
    if giver.army is not taker.army:
        return "points pass only between leaders of the same country (6.4.2)"
    if giver.hex != taker.hex or giver.inside != taker.inside:
        return f"{giver.table.name} and {taker.table.name} are not in the same hex (6.4.2)"
    if giver.rank < taker.rank and giver.key != "frederick":
        return (
            f"{giver.table.name} (rank {giver.rank}) may not give points to the lower-ranking "
            f"{taker.table.name} (rank {taker.rank}); only Frederick may (6.4.2)"
        )
    if order.points > giver.points:
        return f"{giver.table.name} has only {giver.points} points"
    stays_with_others = any(
        y.key != giver.key and y.army is giver.army and y.hex == giver.hex for y in state.leaders
    )
    if giver.points - order.points < minimum and not stays_with_others:
        return f"{giver.table.name} would be left alone with fewer than {minimum} points (6.4.2)"
    return None


def apply_transfer(state: State, order: TransferOrder, hexmap: HexMap) -> State:
    if order.source == GARRISON or order.target == GARRISON:
        key = order.target if order.source == GARRISON else order.source
        x = state.leader(key)
        city = _fortress_name(state, hexmap, key)
        garrison = next(g for g in state.garrisons_of(city) if g.army is x.army)
        sign = 1 if order.source == GARRISON else -1
        state = state.with_garrison(city, x.army, garrison.points - sign * order.points)
        return state.with_leader(key, points=x.points + sign * order.points)
    giver, taker = state.leader(order.source), state.leader(order.target)
    state = state.with_leader(giver.key, points=giver.points - order.points)
    return state.with_leader(taker.key, points=taker.points + order.points)


def _describe(state: State, hexmap: HexMap, who: str, other: str) -> str:
    if who == GARRISON:
        city = _fortress_name(state, hexmap, other) if state.has_leader(other) else None
        return f"the garrison of {city}" if city else "the garrison"
    return state.leader(who).table.name if state.has_leader(who) else who


def apply_transfers(
    state: State, orders: tuple[TransferOrder, ...], hexmap: HexMap, settings: RuleSettings
) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for order in orders:
        unit = order.source if order.source != GARRISON else order.target
        army = unit_army(unit)
        rule = "6.4.3" if GARRISON in (order.source, order.target) else "6.4.2"
        giver = _describe(state, hexmap, order.source, order.target)
        taker = _describe(state, hexmap, order.target, order.source)
        problem = check_transfer(state, order, hexmap, settings)
        if problem is None:
            before = len(cic_problems(state, army)) if army else 0
            after_state = apply_transfer(state, order, hexmap)
            if army and len(cic_problems(after_state, army)) > before:
                problem = (
                    "the commander-in-chief must keep a larger force than any of his "
                    "subordinates (3.2.6)"
                )
        if problem:
            events.append(
                rejection(
                    army,
                    f"transfer of {order.points} points from {giver} to {taker}: {problem}.",
                    rule,
                    source=order.source,
                    target=order.target,
                    points=order.points,
                )
            )
            continue
        state = after_state
        events.append(
            Event(
                rule,
                EventKind.POINTS_TRANSFERRED,
                f"{order.points} points pass from {giver} to {taker} ({rule}).",
                {"from": order.source, "to": order.target, "points": order.points},
                private(army) if army else frozenset(),
            )
        )
    return state, events


def cic_events(state: State) -> list[Event]:
    """3.2.6 kept true afterwards: tell the owner when his commander-in-chief is outnumbered."""
    events = []
    for army in Army:
        for problem in cic_problems(state, army):
            events.append(
                Event(
                    "3.2.6",
                    EventKind.COMMANDER_IN_CHIEF,
                    f"{problem.text} The {ADJECTIVES[army]} player must move enough points to "
                    "his commander-in-chief (3.2.6).",
                    {"army": army.value},
                    private(army),
                )
            )
    return events
