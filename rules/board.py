"""Who stands where: occupancy of the map derived from a state, shared by the rule modules.

"Enemy" is always relative to an alliance (1.2), as the state has it now: an army that changed
sides between campaigns (13.8) counts for its new alliance (``State.alliance_of``). A hex is
*enemy-occupied* for an alliance when a force (a leader) or a garrison of the other alliance is in
it (5.2.4, 6.4.4, 10.2.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from maps.core.hexgrid import Hex, parse_hex_id
from maps.core.model import City, HexMap
from rules.armies import CLOSED_NEUTRALS, CONTROLLED_AREAS, Alliance, Army
from rules.state import State


@dataclass(frozen=True)
class Board:
    state: State
    hexmap: HexMap

    @cached_property
    def force_hexes(self) -> dict[Hex, set[Army]]:
        """Armies with a force in each hex, inside or outside a fortress: a leader, or points
        left without a leader after a battle (9.5), which hold their hex like a force."""
        out: dict[Hex, set[Army]] = {}
        for x in self.state.leaders:
            out.setdefault(parse_hex_id(x.hex), set()).add(x.army)
        for p in self.state.leaderless:
            out.setdefault(parse_hex_id(p.hex), set()).add(p.army)
        return out

    @cached_property
    def outside_force_hexes(self) -> dict[Hex, set[Army]]:
        out: dict[Hex, set[Army]] = {}
        for x in self.state.leaders:
            if not x.inside:
                out.setdefault(parse_hex_id(x.hex), set()).add(x.army)
        for p in self.state.leaderless:
            out.setdefault(parse_hex_id(p.hex), set()).add(p.army)
        return out

    @cached_property
    def garrison_hexes(self) -> dict[Hex, set[Army]]:
        out: dict[Hex, set[Army]] = {}
        for g in self.state.garrisons:
            if g.points > 0:
                out.setdefault(self.hexmap.city(g.city).hex, set()).add(g.army)
        return out

    def forces_of(self, alliance: Alliance) -> set[Hex]:
        by_value = self.state.alliance_by_value
        return {
            h
            for h, armies in self.force_hexes.items()
            if any(by_value[a._value_] is alliance for a in armies)
        }

    def enemy_force_hexes(self, alliance: Alliance) -> set[Hex]:
        by_value = self.state.alliance_by_value
        return {
            h
            for h, armies in self.force_hexes.items()
            if any(by_value[a._value_] is not alliance for a in armies)
        }

    def enemy_occupied(self, alliance: Alliance) -> set[Hex]:
        """Hexes holding an enemy force or an enemy garrison."""
        by_value = self.state.alliance_by_value
        out = self.enemy_force_hexes(alliance)
        for h, armies in self.garrison_hexes.items():
            if any(by_value[a._value_] is not alliance for a in armies):
                out.add(h)
        return out

    @cached_property
    def _inside_hexes(self) -> dict[Hex, set[Army]]:
        out: dict[Hex, set[Army]] = {}
        for x in self.state.leaders:
            if x.inside:
                out.setdefault(parse_hex_id(x.hex), set()).add(x.army)
        return out

    def garrisoned_by(self, h: Hex) -> set[Army]:
        """Armies garrisoning the fortress of ``h``: garrison points, or a leader inside (11.2)."""
        return set(self.garrison_hexes.get(h, set())) | self._inside_hexes.get(h, set())

    def enemy_fortresses(self, alliance: Alliance) -> set[Hex]:
        by_value = self.state.alliance_by_value
        return {
            city.hex
            for city in self.hexmap.fortresses
            if any(by_value[a._value_] is not alliance for a in self.garrisoned_by(city.hex))
        }

    @cached_property
    def closed_hexes(self) -> frozenset[Hex]:
        """Hexes of Denmark and the United Provinces (3.3), and of the home countries of armies
        that made peace between campaigns (13.7; the Empire's stay open, like Poland)."""
        areas = set(CLOSED_NEUTRALS)
        for army in self.state.at_peace:
            if army is not Army.EMPIRE:
                areas.update(CONTROLLED_AREAS[army])
        return self.hexmap.hexes_of_areas(areas)

    def fortress(self, hex_id: str) -> City | None:
        return self.hexmap.fortress_at(parse_hex_id(hex_id))
