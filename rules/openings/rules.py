"""The special rules of the SPI scenarios kept as campaign settings (issue 18).

Each rule of an opening file (``"rules"``) that fits DGK limits where an army's forces may
march; ``march_breach`` says why a march order breaks one ("" when it does not), and the
services refuse such an order like any order a seat may not give (6). Rules:

- ``stay_in_area`` (1756: the Saxons may not leave Saxony): every hex entered is in ``area``.
- ``not_west_of_rhine`` (1758, 1759: the Empire): no hex West of the Rhine.
- ``hanover_not_east_of`` (1757, 1758: until the Coalition takes Magdeburg): no hex in a
  column East of the city's, while the city is held by the army's own side.
- ``hanover_not_east_of_elbe`` (1759): no hex East of the Elbe.
"""

from __future__ import annotations

import functools

from maps.core.hexgrid import Hex, HexIdError, parse_hex_id, walk
from maps.core.model import HexMap
from rules.armies import Army
from rules.deployment import west_bank
from rules.orders import ForcedMarchOrder, MarchOrder
from rules.state import State

RULE_KEYS = ("stay_in_area", "not_west_of_rhine", "hanover_not_east_of", "hanover_not_east_of_elbe")
# Areas wholly West of the Rhine (the Empire's West bank is found by the river itself).
WEST_AREAS = ("France", "Austrian Netherlands", "United Provinces")


@functools.lru_cache(maxsize=8)
def east_bank(hexmap: HexMap, river: str) -> frozenset[Hex]:
    """Hexes East of ``river`` in the rows it crosses."""
    crossed = {h.r for h in hexmap.hexes if hexmap.river_name(h, 1) == river}
    west = west_bank(hexmap, river)
    return frozenset(h for h in hexmap.hexes if h.r in crossed and h not in west)


def _start(state: State, unit: str) -> tuple[Army, str] | None:
    for x in state.leaders:
        if x.key == unit:
            return x.army, x.hex
    for t in state.siege_trains:
        if t.id == unit:
            return t.army, t.hex
    return None


def _column(hex_id: str) -> int:
    return int(hex_id[:2])


def march_breach(
    rules: tuple[dict, ...], state: State, order: MarchOrder | ForcedMarchOrder, hexmap: HexMap
) -> str:
    """Why ``order`` breaks one of the opening's ``rules`` ("" when it breaks none).

    >>> march_breach((), State(), MarchOrder("daun", (4,)), None)
    ''
    """
    found = _start(state, order.unit) if rules else None
    if found is None or not order.path:
        return ""
    army, start = found
    try:
        entered = walk(parse_hex_id(start), order.path)
    except HexIdError:
        return ""
    for rule in rules:
        if rule.get("army") != army.value:
            continue
        kind = rule.get("key")
        text = f"{rule.get('text', '')} ({rule.get('spi', 'SPI')})"
        if kind == "stay_in_area":
            if any(h in hexmap.area_of and hexmap.area(h) != rule["area"] for h in entered):
                return text
        elif kind == "not_west_of_rhine":
            west = west_bank(hexmap, "Rhine")
            if any(h in west or hexmap.area_of.get(h) in WEST_AREAS for h in entered):
                return text
        elif kind == "hanover_not_east_of":
            city = hexmap.city(rule["city"])
            holder = state.control.get(city.name)
            taken = holder is not None and state.alliance_of(Army(holder)) != state.alliance_of(
                army
            )
            if not taken and any(int(hexmap.hex_id(h)[:2]) > _column(city.hex_id) for h in entered):
                return text
        elif kind == "hanover_not_east_of_elbe":
            east = east_bank(hexmap, "Elbe")
            if any(h in east for h in entered):
                return text
    return ""
