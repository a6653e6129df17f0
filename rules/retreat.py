"""The retreat/rally phase (10, 10.1.2-10.1.6, 10.2, 10.3, 11.6.1, 12.6): retreats from battle,
garrisons granted the honors of war withdrawn, rally attempts, and the end of the turn.

A retreat is not movement and spends no march (10): 5 MPs for a force that retired, 10 for a
routed force, toward the nearest friendly fortress, as one group, all MPs spent unless a friendly
fortress is reached (10.1.4), never into an enemy-occupied hex (10.1.5), paying the normal terrain
costs (10.1.6). Croat screens do not stop it (10.1.5).

The choice of path is deterministic (docs/rules-interpretations.md, 10.1): the nearest friendly
fortress is the one with the cheapest retreat path in MPs (ties: fewer hexes away, then the one
further North, then further West: ``maps.core.paths.nearest``); the path to it is the cheapest one
(ties: the map core's order, hexes reached first, neighbours tried from direction 1 W to 6 SW).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from maps.core.hexgrid import Hex, distance, hex_id, parse_hex_id
from maps.core.model import HexMap
from maps.core.paths import least_cost_path, reachable
from rules import victory
from rules.armies import ADJECTIVES, CLOSED_NEUTRALS, Alliance, Army
from rules.board import Board
from rules.contagion import demoralize_entered
from rules.dice import Dice
from rules.events import Event, EventKind, mps, private
from rules.garrisons import garrison_limit, room
from rules.leaderless import join_leaderless
from rules.orders import Orders
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.sides import commander_of
from rules.state import Force, Retreat, State, Withdrawal


@dataclass(frozen=True)
class RetreatPlan:
    """Where a retreating group goes and why (10.1.2-10.1.6)."""

    start: Hex
    path: tuple[Hex, ...]  # start included
    spent: int
    target: str | None  # the friendly fortress aimed at
    reached: bool  # the fortress was reached: the group goes inside

    @property
    def end(self) -> Hex:
        return self.path[-1]


def friendly_fortresses(state: State, hexmap: HexMap, alliance: Alliance) -> dict[Hex, str]:
    """Fortresses controlled by an army of the alliance (2.3), outside closed neutral countries."""
    out = {}
    for city in hexmap.fortresses:
        owner = state.control.get(city.name)
        if city.area in CLOSED_NEUTRALS:
            continue
        if owner and state.alliance_of(Army(owner)) is alliance:
            out[city.hex] = city.name
    return out


def retreat_cost(hexmap: HexMap, blocked: set[Hex]):
    """Terrain costs (10.1.6); enemy-occupied and closed neutral hexes may not be entered."""

    def cost(frm: Hex, d: int, to: Hex) -> int | None:
        if to in blocked:
            return None
        return hexmap.enter_cost(frm, d)

    return cost


def nearest_target(hexmap: HexMap, start: Hex, targets: list[Hex], cost) -> tuple[Hex, int] | None:
    """``maps.core.paths.nearest`` with the same choice (fewest MPs, then fewest hexes, then North,
    then West), searching a growing radius of MPs instead of the whole map at once."""
    wanted = set(targets)
    limit, seen = 20, -1
    while True:
        reach = reachable(hexmap, start, limit, cost=cost)
        found = [(mp, distance(start, h), h.r, h.q, h) for h, mp in reach.items() if h in wanted]
        if found:
            best = min(found)
            return best[4], best[0]
        if len(reach) == seen:  # the search has run out of map
            return None
        seen, limit = len(reach), limit * 2


def plan_retreat(
    state: State, hexmap: HexMap, start: Hex, alliance: Alliance, mp: int
) -> RetreatPlan:
    """The retreat of a group of ``alliance`` from ``start`` with ``mp`` MPs (10.1.2-10.1.6)."""
    board = Board(state, hexmap)
    enemy = board.enemy_occupied(alliance)
    blocked = (enemy | set(board.closed_hexes)) - {start}
    forts = friendly_fortresses(state, hexmap, alliance)
    # 10.1.4: a friendly garrisoned fortress in the battle hex takes the force in.
    if start in forts and any(state.alliance_of(a) is alliance for a in board.garrisoned_by(start)):
        return RetreatPlan(start, (start,), 0, forts[start], True)
    targets = [h for h in forts if h not in enemy and h != start]
    cost = retreat_cost(hexmap, blocked)
    found = nearest_target(hexmap, start, targets, cost) if targets else None
    if found is not None:
        target, _ = found
        path = least_cost_path(hexmap, start, target, cost=cost) or [start]
        walked = [start]
        spent = 0
        for frm, to in zip(path, path[1:], strict=False):
            d = next(d for d, n, _c, _b in hexmap.steps(frm) if n == to)
            step = cost(frm, d, to)
            if step is None or spent + step > mp:
                break
            spent += step
            walked.append(to)
        return RetreatPlan(start, tuple(walked), spent, forts[target], walked[-1] == target)
    # No friendly fortress can be reached at all: move as far from the battle as the MPs allow.
    reach = reachable(hexmap, start, mp, cost=cost)
    end = min(reach, key=lambda h: (-distance(start, h), -reach[h], h.r, h.q))
    path = least_cost_path(hexmap, start, end, cost=cost, max_mp=mp) or [start]
    return RetreatPlan(start, tuple(path), reach[end], None, False)


def carry_out_retreat(state: State, retreat: Retreat, hexmap: HexMap) -> tuple[State, list[Event]]:
    keys = [
        k for k in retreat.leaders if state.has_leader(k) and state.leader(k).hex == retreat.hex
    ]
    if not keys:
        return state, []
    group = [state.leader(k) for k in keys]
    forces = {}
    for x in group:
        forces.setdefault(x.army, []).append(x)
    lead = commander_of(
        Force(a, retreat.hex, False, tuple(sorted(xs, key=lambda x: x.rank)))
        for a, xs in forces.items()
    )
    army = lead.army
    alliance = state.alliance_of(army)
    plan = plan_retreat(state, hexmap, parse_hex_id(retreat.hex), alliance, retreat.mp)
    end = hex_id(plan.end)
    inside = plan.reached
    moved = end != retreat.hex
    events = []
    changes = {"hex": end, "inside": inside}
    if moved:
        changes.update(moved=True, turns_in_hex=0, field_works=0)
    state = state.with_leaders(dataclasses.replace(x, **changes) for x in group)
    trains = [t for t in state.siege_trains if t.id in retreat.trains and t.hex == retreat.hex]
    if trains:
        ids = {t.id for t in trains}
        state = dataclasses.replace(
            state,
            siege_trains=tuple(
                dataclasses.replace(t, hex=end, inside=inside, moved=moved) if t.id in ids else t
                for t in state.siege_trains
            ),
        )
    names = ", ".join(x.table.name for x in sorted(group, key=lambda x: x.rank))
    route = "-".join(hex_id(h) for h in plan.path)
    if plan.target is None:
        why = "no friendly fortress can be reached, so it falls back as far as it can"
    elif inside:
        why = f"it reaches the friendly fortress of {plan.target} and goes inside"
    else:
        why = f"toward {plan.target}, the nearest friendly fortress, spending {mps(plan.spent)}"
    rule = "10.1.2" if retreat.kind == "retire" else "10.1.3"
    verb = "retires" if retreat.kind == "retire" else "routs"
    events.append(
        Event(
            rule,
            EventKind.RETREAT,
            f"The {ADJECTIVES[army]} force of {names} {verb} "
            f"{mps(retreat.mp)} from {retreat.hex} to {end}: {why} ({rule}, 10.1.4-10.1.6). "
            f"Route {route}.",
            {
                "leaders": keys,
                "from": retreat.hex,
                "to": end,
                "path": route,
                "spent": plan.spent,
                "mp": retreat.mp,
                "target": plan.target,
                "inside": inside,
                "trains": sorted(t.id for t in trains),
            },
        )
    )
    # 11: an empty enemy fortress entered is captured.
    fortress = hexmap.fortress_at(plan.end)
    if moved and fortress is not None:
        owner = state.control.get(fortress.name)
        empty = not state.garrisons_of(fortress.name) and not any(
            y.inside for y in state.leaders_at(end)
        )
        if owner and state.is_enemy(Army(owner), army) and empty:
            state = dataclasses.replace(state, control={**state.control, fortress.name: army.value})
            events.append(
                Event(
                    "11",
                    EventKind.FORTRESS_CAPTURED,
                    f"The empty fortress of {fortress.name} is captured by the "
                    f"{ADJECTIVES[army]} force entering it (11).",
                    {"city": fortress.name, "by": army.value},
                )
            )
    # 10.2.3: every hex of the route entered by a demoralized group, not only the last.
    if moved and any(state.leader(k).demoralized for k in keys):
        route = [hex_id(h) for h in plan.path[1:]]
        state, more = demoralize_entered(state, lead.key, army, keys, route, "retreats")
        events.extend(more)
    return state, events


def withdraw(
    state: State, w: Withdrawal, hexmap: HexMap, settings: RuleSettings
) -> tuple[State, list[Event]]:
    """11.6.1: the garrison granted the honors of war is placed in the nearest fortress of its
    country not blockaded or besieged (or removed), may not move next turn; the besieger takes
    the fortress. Without a leader of its country there (coming with it or already inside) the
    fortress holds it only to 100 points per bastion (2.3.4, 11.2): the rest is removed from the
    map, as a garrison with no fortress to go to is (11.6.1)."""
    events = []
    state = state.with_garrison(w.city, w.army, 0)
    trains = set(w.trains)
    dismissed = 0
    if w.to_city:
        target = hexmap.city(w.to_city)
        space = None if w.leaders else room(state, target, w.army, settings)
        placed = w.points if space is None else min(w.points, space)
        dismissed = w.points - placed
        old = sum(g.points for g in state.garrisons_of(w.to_city) if g.army is w.army)
        state = state.with_garrison(w.to_city, w.army, old + placed)
        state = state.with_leaders(
            dataclasses.replace(
                state.leader(k),
                hex=target.hex_id,
                inside=True,
                moved=True,
                turns_in_hex=0,
                field_works=0,
                held_until_turn=state.turn + 1,
            )
            for k in w.leaders
            if state.has_leader(k)
        )
        state = dataclasses.replace(
            state,
            siege_trains=tuple(
                dataclasses.replace(t, hex=target.hex_id, inside=True) if t.id in trains else t
                for t in state.siege_trains
            ),
        )
        text = (
            f"The {ADJECTIVES[w.army]} garrison of {w.city} ({w.points} points) marches out "
            f"with the honors of war to {w.to_city}, where it may not move next turn (11.6.1)."
        )
        if dismissed:
            limit = garrison_limit(target, settings)
            text += (
                f" With no leader there, {w.to_city}'s {target.bastions} bastions hold "
                f"{limit} points (2.3.4, 11.2): {placed} points go in and the other {dismissed} "
                "are removed from the map."
            )
    else:
        state = dataclasses.replace(
            state,
            leaders=tuple(x for x in state.leaders if x.key not in w.leaders),
            siege_trains=tuple(t for t in state.siege_trains if t.id not in trains),
        )
        text = (
            f"The {ADJECTIVES[w.army]} garrison of {w.city} ({w.points} points) marches out "
            "with the honors of war; no other fortress of its country can take it in, so it "
            "is removed from the map (11.6.1)."
        )
    events.append(
        Event(
            "11.6.1",
            EventKind.HONORS_OF_WAR,
            text,
            {
                "city": w.city,
                "army": w.army.value,
                "to": w.to_city,
                "points": w.points,
                "dismissed": dismissed,
                "leaders": list(w.leaders),
                "trains": list(w.trains),
            },
            private(w.army, *([Army(w.captor)] if w.captor else [])),
        )
    )
    if w.captor and not state.garrisons_of(w.city):
        state = dataclasses.replace(state, control={**state.control, w.city: w.captor})
        events.append(
            Event(
                "11.6.1",
                EventKind.FORTRESS_CAPTURED,
                f"The {ADJECTIVES[Army(w.captor)]} besiegers enter {w.city} (11.6.1).",
                {"city": w.city, "by": w.captor},
            )
        )
    return state, events


def rally(state: State, dice: Dice) -> tuple[State, list[Event]]:
    """10.3: one die per demoralized force; at most the commander's tactical plus strategic IR
    (the book's ratings, not the zero of 10.2) rallies it."""
    events = []
    for force in state.forces():
        if not force.demoralized:
            continue
        commander = force.commander
        need = commander.table.combined_ir
        roll = dice.roll(f"rally:{commander.key}:t{state.turn}")
        data = {"leader": commander.key, "hex": force.hex, "roll": roll, "needed": need}
        name = commander.table.name
        if roll <= need:
            state = state.with_leaders(
                dataclasses.replace(x, demoralized=False) for x in force.leaders
            )
            events.append(
                Event(
                    "10.3",
                    EventKind.RALLIED,
                    f"{name} rallies his force at {force.hex}: rolled {roll}, needed "
                    f"{need} or less (tactical + strategic IR, 10.3).",
                    data,
                    private(force.army),
                )
            )
        else:
            events.append(
                Event(
                    "10.3",
                    EventKind.RALLY_FAILED,
                    f"{name}'s force at {force.hex} stays demoralized: rolled {roll}, "
                    f"needed {need} or less (10.3).",
                    data,
                    private(force.army),
                )
            )
    return state, events


def retreat_rally_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 9 (10): retreats, honors-of-war withdrawals, rally; then the end of the turn
    (12.6 surrender; after the last turn, the final victory table)."""
    events: list[Event] = []
    for retreat in sorted(state.retreats, key=lambda r: (r.hex, r.kind, r.leaders)):
        state, more = carry_out_retreat(state, retreat, hexmap)
        events.extend(more)
    state = dataclasses.replace(state, retreats=())
    state, more = join_leaderless(state)  # 9.5: a retreat may bring a leader to them
    events.extend(more)
    for w in state.withdrawals:
        state, more = withdraw(state, w, hexmap, settings)
        events.extend(more)
    state = dataclasses.replace(state, withdrawals=())
    state, more = rally(state, dice)
    events.extend(more)
    state, more = victory.apply_surrenders(state, hexmap)
    events.extend(more)
    if state.turn >= settings.turns and not state.ended:
        events.append(victory.table_event(victory.final_table(state, hexmap, settings)))
    return Resolution(state, tuple(events))
