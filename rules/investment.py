"""Invested fortresses (11): a garrisoned fortress with an enemy force outside in its hex, and
whether that force besieges it or only blockades it.

Read by the siege phase, by attrition (a siege costs 5%, 11.5) and by the battle phase (the
honors of war are answered in advance for the sieges ahead, 11.6).
"""

from __future__ import annotations

from dataclasses import dataclass

from maps.core.model import City, HexMap
from rules.armies import Alliance, Army
from rules.events import private
from rules.sides import Side, retreating_leaders, sides_at
from rules.state import LeaderState, State


@dataclass(frozen=True)
class Investment:
    """A fortress with an enemy force outside in its hex, as the siege phase finds it."""

    city: City
    defender: Alliance
    garrisons: dict[Army, int]  # garrison points per army
    inside: tuple[LeaderState, ...]  # leaders inside
    besiegers: Side

    @property
    def hex(self) -> str:
        return self.city.hex_id

    @property
    def garrison_points(self) -> int:
        return sum(self.garrisons.values()) + sum(x.points for x in self.inside)

    def garrison_by_army(self) -> dict[Army, int]:
        out = dict(self.garrisons)
        for x in self.inside:
            out[x.army] = out.get(x.army, 0) + x.points
        return out


def involved(inv: Investment) -> frozenset[Army]:
    """The armies of a siege: they alone see its numbers (points are secret, 3)."""
    return private(*inv.besiegers.armies, *inv.garrison_by_army())


def investments(state: State, hexmap: HexMap) -> list[Investment]:
    """Garrisoned fortresses with an enemy force outside in the hex (forces retreating this turn
    do not count)."""
    out = []
    skip = retreating_leaders(state)
    # The garrisons and the forces inside, by place, in the state's order: one pass each, not
    # one per fortress of the map.
    garrisons_in: dict[str, list] = {}
    for g in state.garrisons:
        if g.points > 0:
            garrisons_in.setdefault(g.city, []).append(g)
    inside_at: dict[str, list] = {}
    for x in state.leaders:
        if x.inside:
            inside_at.setdefault(x.hex, []).append(x)
    for city in hexmap.fortresses:
        garrisons = {g.army: g.points for g in garrisons_in.get(city.name, ())}
        inside = tuple(inside_at.get(city.hex_id, ()))
        armies = set(garrisons) | {x.army for x in inside}
        if not armies:
            continue
        defender = state.alliance_of(next(iter(armies)))
        sides = sides_at(state, city.hex_id, exclude=skip)
        enemy = [s for a, s in sides.items() if a is not defender]
        if enemy:
            out.append(Investment(city, defender, garrisons, inside, enemy[0]))
    return sorted(out, key=lambda i: i.city.name)


def besieging_trains(state: State, inv: Investment) -> list[str]:
    return [
        t.id
        for t in state.siege_trains
        if t.hex == inv.hex and not t.inside and state.alliance_of(t.army) is inv.besiegers.alliance
    ]


def garrison_trains(state: State, inv: Investment) -> list[str]:
    return [
        t.id
        for t in state.siege_trains
        if t.hex == inv.hex and t.inside and state.alliance_of(t.army) is inv.defender
    ]


def is_besieged(state: State, inv: Investment) -> tuple[bool, str]:
    """11: a supplied enemy force, with a siege train, in the hex a complete turn or more."""
    ready = [x for x in inv.besiegers.records if x.supplied and x.turns_in_hex >= 1]
    if not besieging_trains(state, inv):
        return False, "the enemy force has no siege train with it"
    if not any(x.supplied for x in inv.besiegers.records):
        return False, "the enemy force is unsupplied"
    if not ready:
        return False, "the enemy force has not yet been in the hex a complete turn"
    return True, ""
