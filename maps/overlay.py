"""The seat's own layer of the map widget: a small JSON document per (state version, seat).

Pure Python (no Django). It is made only from a ``campaign.projection.View`` (through
``map_counters``, the one input of every seat picture) and the seat's own draft orders, so it
holds nothing the projection does not give that seat. Positions are zoom-0 map units of the tile
pyramid (``maps.core.tiles.Grid``), so the browser draws without knowing hex geometry; the one
thing it computes is which hex a tap fell in (``hexAt`` in ``static/js/mapwidget.js``).

Counters in one hex get ``slot`` 0..n-1 of ``of`` n; the widget draws them as one counter, a
stack with a count and a list to pick each force from (docs/map-widget.md), so every force stays
tappable at every zoom.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from campaign.projection import ForceView, Relation, View, map_counters
from maps.core.hexgrid import (
    Hex,
    HexIdError,
    PathError,
    direction_to,
    hex_id,
    parse_hex_id,
    parse_path,
    walk,
)
from maps.core.model import CitySize, HexMap
from maps.core.paths import enemy_aware_cost, reachable_paths
from maps.core.render import name_side
from maps.core.tiles import Grid
from rules.armies import CLOSED_NEUTRALS, siege_train_name, siege_train_short

ARMY_COLOURS = {
    "austria": ("#f4f4f4", "#111111"),
    "empire": ("#e8d34a", "#111111"),
    "france": ("#3b5bb5", "#ffffff"),
    "hanover": ("#c0392b", "#ffffff"),
    "prussia": ("#1c2f5a", "#ffffff"),
    "russia": ("#2e7d32", "#ffffff"),
    "sweden": ("#f2c230", "#111111"),
}


def short_label(c) -> str:
    """The few letters on a counter: a leader's name, "Gar" a garrison, "T1" siege train 1."""
    if c.kind == "garrison":
        return "Gar"
    if c.kind == "siege-train":
        return siege_train_short(c.name)
    return (c.name or c.label)[:4]


def hex_xy(grid: Grid, text: str) -> list[float] | None:
    """The centre of the hex ``text`` names, in zoom-0 map units rounded to a tenth; None when
    ``text`` is not a hex id."""
    known = _centres(grid)
    xy = known.get(text)
    if xy is None:
        try:
            x, y = grid.centre(parse_hex_id(text))
        except HexIdError:
            return None
        xy = (round(x, 1), round(y, 1))
        if _kept_id(text):
            known[text] = xy
    return [xy[0], xy[1]]


def _kept_id(text) -> bool:
    """Whether what is found for ``text`` is kept for the process: a hex id as the map writes
    them, four ASCII digits (at most 10,000 of them, whatever a draft sends)."""
    return isinstance(text, str) and len(text) == 4 and text.isascii() and text.isdigit()


@functools.lru_cache(maxsize=8)
def _centres(grid: Grid) -> dict[str, tuple[float, float]]:
    """The rounded centres ``hex_xy`` has found, by hex id, for each grid (a grid, like the map
    it is made from, never changes): every layer places the same hexes again."""
    return {}


def counters(view: View, hexmap: HexMap, grid: Grid, units: dict[str, str]) -> list[dict]:
    """Every counter of the view with its place, stack slot and, for the seat's own forces, the
    unit keys it may order (``units``: key -> name, as the orders page offers them)."""
    out: list[dict] = []
    # by hex, side of the walls and army: the umpire owns both sides of a battle's hex
    own_leaders = {(f.hex, f.inside, f.army): f for f in view.own_forces()}
    for c in map_counters(view, hexmap):
        xy = hex_xy(grid, c.hex)
        if xy is None:
            continue
        item: dict[str, Any] = {
            "hex": c.hex,
            "xy": xy,
            "kind": c.kind,
            "army": c.army.value,
            "relation": c.relation.value,
            "label": c.label,
            "short": short_label(c),
            "flags": "".join(c.flags),
            "inside": c.inside,
        }
        if c.kind == "force" and c.relation is Relation.OWNER:
            # one counter per leader of the seat's force: each may be given its own march
            force = own_leaders.get((c.hex, c.inside, c.army))
            for x in force.leaders if force else ():
                out.append(
                    {
                        **item,
                        "label": x.name if x.points is None else f"{x.name} {x.points}",
                        "short": x.name[:4],
                        "unit": x.key if x.key in units else "",
                        "name": x.name,
                    }
                )
            continue
        if c.kind == "siege-train" and c.relation is Relation.OWNER:
            item["unit"] = c.name if c.name in units else ""
        out.append(item)
    by_hex: dict[str, list[dict]] = {}
    for item in out:
        if item["kind"] != "report":
            by_hex.setdefault(item["hex"], []).append(item)
    _number_stacks(by_hex, hexmap)
    return out


def _number_stacks(stacks: dict[str, list[dict]], hexmap: HexMap) -> None:
    """Each counter's ``slot`` of ``of`` in its hex; in a city's hex also ``name``: the side of
    the city's symbol where the tiles print its name, which the widget keeps clear."""
    sides = _name_sides(hexmap)
    for h, stack in stacks.items():
        side = sides.get(h)
        if side is None:
            side = _name_side_at(hexmap, h)
            if _kept_id(h):
                sides[h] = side
        for i, item in enumerate(stack):
            item["slot"], item["of"] = i, len(stack)
            if side:
                item["name_side"] = side


def _name_side_at(hexmap: HexMap, h: str) -> str:
    """The side of its symbol the tiles print the name of the city in hex ``h`` on; "" when no
    city stands there."""
    try:
        city = hexmap.city_at(parse_hex_id(h))
    except HexIdError:
        city = None
    return name_side(hexmap, city.hex) if city is not None else ""


@functools.lru_cache(maxsize=8)
def _name_sides(hexmap: HexMap) -> dict[str, str]:
    """``_name_side_at`` by hex id as found, for each map (a map never changes once loaded)."""
    return {}


NAMES_WITHIN = 3  # hexes from a counter: at zoom 0 a stack moved off its name reaches this far
# The steps from a hex to every hex within NAMES_WITHIN of it (itself included), made once.
_WITHIN = tuple(
    (dq, dr)
    for dq in range(-NAMES_WITHIN, NAMES_WITHIN + 1)
    for dr in range(
        max(-NAMES_WITHIN, -dq - NAMES_WITHIN), min(NAMES_WITHIN, NAMES_WITHIN - dq) + 1
    )
)


def names_near(counters: list[dict], hexmap: HexMap, grid: Grid) -> list[dict]:
    """The cities whose names the tiles print where a stack may cover them (in a counter's hex
    or up to ``NAMES_WITHIN`` hexes away): name, centre, the side the tiles print it on, and
    whether it is a star city (printed larger, bold). Below zoom 2 the widget draws a name a
    stack covers again, as a plate beside it (``namePlates`` in static/js/mapwidget.js)."""
    near, by_id = _cities_near(hexmap), _cities_near_id(hexmap)
    found: set[int] = set()
    for text in {c.get("hex") for c in counters}:  # a stack's hex once, whatever its counters
        cities = by_id.get(text)
        if cities is None:
            try:
                cities = near.get(parse_hex_id(text), ())
            except HexIdError:
                continue
            if _kept_id(text):
                by_id[text] = cities
        found.update(cities)
    plates = _name_plates(hexmap, grid)
    return [
        {"name": name, "xy": xy and [xy[0], xy[1]], "side": side, "star": star}
        for name, xy, side, star in (plates[i] for i in sorted(found))
    ]


@functools.lru_cache(maxsize=8)
def _name_plates(hexmap: HexMap, grid: Grid) -> tuple[tuple[str, Any, str, bool], ...]:
    """What ``names_near`` says of each city (in ``hexmap.cities`` order): its name, centre,
    the side the tiles print its name on, and whether it is a star city; made once per map."""
    return tuple(
        (
            city.name,
            hex_xy(grid, city.hex_id),
            name_side(hexmap, city.hex),
            city.size in (CitySize.CIRCLED_STAR, CitySize.STAR),
        )
        for city in hexmap.cities
    )


@functools.lru_cache(maxsize=8)
def _cities_near(hexmap: HexMap) -> dict[Hex, tuple[int, ...]]:
    """Each hex within ``NAMES_WITHIN`` of a city, with the cities (their places in
    ``hexmap.cities``) that near it: made once per map (a map never changes once loaded)."""
    near: dict[Hex, list[int]] = {}
    for i, city in enumerate(hexmap.cities):
        h = city.hex
        for dq, dr in _WITHIN:
            near.setdefault(Hex(h.q + dq, h.r + dr), []).append(i)
    return {h: tuple(cities) for h, cities in near.items()}


@functools.lru_cache(maxsize=8)
def _cities_near_id(hexmap: HexMap) -> dict[str, tuple[int, ...]]:
    """``_cities_near`` by hex id as found, for each map: the stacks stand in the same hexes
    from one layer to the next."""
    return {}


def seen_moves(before: View, after: View, grid: Grid) -> list[dict]:
    """The other armies' moves a seat saw: each force not its own whose commander its view
    showed in one hex before a phase and in another after it, as a line from the one to the
    other (the way between is not known). Both views are the seat's own, so nothing here is more
    than it was told; a commander seen on one side of the phase only draws nothing (forces that
    merged or went out of sight)."""
    then = {
        f.commander.key: f for f in before.forces if f.relation is not Relation.OWNER and f.leaders
    }
    out = []
    for f in after.forces:
        if f.relation is Relation.OWNER or not f.leaders:
            continue
        was = then.get(f.commander.key)
        if was is None or was.hex == f.hex:
            continue
        start, end = hex_xy(grid, was.hex), hex_xy(grid, f.hex)
        if start is None or end is None:
            continue
        out.append(
            {
                "army": f.army.value,
                "relation": f.relation.value,
                "name": f.commander.name,
                "from": was.hex,
                "to": f.hex,
                "line": [start, end],
            }
        )
    return out


def force_moves(before: View, after: View) -> list[tuple[ForceView, str]]:
    """Every force of ``after`` that moved since ``before``, once for each hex its leaders
    stood in before (a force made of two that met has two starts): (force, start hex)."""
    was = {x.key: f.hex for f in before.forces for x in f.leaders}
    out = []
    for f in after.forces:
        starts = sorted({was[x.key] for x in f.leaders if x.key in was and was[x.key] != f.hex})
        out += [(f, start) for start in starts]
    return out


def every_move(before: View, after: View, grid: Grid, how: str = "moved") -> list[dict]:
    """Every force's move over a phase, for a view that sees every army (the umpire's, and every
    seat's once the campaign is over: docs/season-end.md): for each force after the phase, a
    line from each hex its leaders stood in before to where the force stands now (the way
    between is not drawn). ``how`` names the move ("march", "retreat") in its label."""
    out = []
    for f, start_hex in force_moves(before, after):
        start, end = hex_xy(grid, start_hex), hex_xy(grid, f.hex)
        if start is None or end is None:
            continue
        out.append(
            {
                "army": f.army.value,
                "relation": "war",
                "name": f"{f.commander.name} ({how})",
                "from": start_hex,
                "to": f.hex,
                "line": [start, end],
            }
        )
    return out


def sieges(view: View, hexmap: HexMap, grid: Grid) -> list[dict]:
    """The fortresses the view knows are under siege (11): hex, name and where to draw them."""
    out = []
    for city in view.besieged:
        try:
            where = hex_id(hexmap.city(city).hex)
        except KeyError:
            continue
        out.append({"hex": where, "name": city, "xy": hex_xy(grid, where)})
    return out


def supply_sources(view: View, hexmap: HexMap, grid: Grid) -> list[dict]:
    """Fortresses garrisoned by the seat's side with no known enemy force in their hex (5,
    5.2.6, 5.2.7), from what the view shows: garrison chits and leader positions are public."""
    enemy = {f.hex for f in view.forces if f.relation is Relation.ENEMY}
    out = []
    for g in view.garrisons:
        if g.relation is Relation.ENEMY:
            continue
        try:
            h = hex_id(hexmap.city(g.city).hex)
        except KeyError:
            continue
        if h not in enemy:
            out.append({"hex": h, "xy": hex_xy(grid, h), "name": g.city})
    return out


def route(start: str, path: str, grid: Grid) -> list[list[float]]:
    """The centres of the hexes of a line of march, start included; [] if it cannot be read."""
    try:
        here = parse_hex_id(start)
        hexes = [here, *walk(here, parse_path(path or ""))]
    except (HexIdError, PathError):
        return []
    return [[round(v, 1) for v in grid.centre(h)] for h in hexes]


def drawn_orders(orders: Iterable[dict], positions: dict[str, str], previews: dict, grid: Grid):
    """Each draft march of the seat as an arrow: the unit, its path, its cost and whether the
    preview (``orders.forms.march_preview``, keyed by unit) finds it valid."""
    out = []
    for o in orders:
        unit = str(o.get("unit", ""))
        start = positions.get(unit)
        if start is None:
            continue
        p = previews.get(unit)
        out.append(
            {
                "unit": unit,
                "name": o.get("name", unit),
                "path": o.get("path", ""),
                "line": route(start, str(o.get("path", "")), grid),
                "spent": p.spent if p else None,
                "allowance": p.allowance if p else None,
                "valid": p.valid if p else True,
                "message": p.message if p else "",
            }
        )
    return out


def reach(
    view: View,
    hexmap: HexMap,
    grid: Grid,
    enemies: Iterable,
    forts: Iterable,
    start: str,
    left: int,
) -> list[dict]:
    """Hexes the unit can still enter from ``start`` with ``left`` MPs (the map core's reach
    over the Terrain Effects Chart with the enemy-occupied hexes the view shows, 6.4.4: a force
    entering one stops there; never a closed neutral country, 3.3), each with its cost and the
    direction codes that get there."""
    try:
        here = parse_hex_id(start)
    except HexIdError:
        return []
    enemies = frozenset(enemies)
    terrain = enemy_aware_cost(hexmap, enemies, forts)
    closed = hexmap.hexes_of_areas(CLOSED_NEUTRALS)  # never entered (3.3)

    def cost(frm, d: int, to) -> int | None:
        return None if to in closed else terrain(frm, d, to)

    def can_leave(h) -> bool:
        return h not in enemies

    best = reachable_paths(hexmap, here, max(left, 0), cost=cost, can_leave=can_leave)
    out = []
    for h, (mp, line) in best.items():
        if h == here:
            continue
        codes = [direction_to(a, b) for a, b in zip(line, line[1:], strict=False)]
        out.append(
            {
                "hex": hex_id(h),
                "xy": [round(v, 1) for v in grid.centre(h)],
                "cost": mp,
                "codes": "-".join(str(c) for c in codes),
            }
        )
    out.sort(key=lambda r: (r["cost"], r["hex"]))
    return out


def deployment(armies: list[dict], allowed: dict[str, list[str]], hexmap: HexMap, grid: Grid):
    """The seat's draft deployment for the widget's deploy mode: each army's leaders, siege
    trains and garrisons (``armies`` as the deployment page lists them), where each army may
    deploy (``allowed``: hex ids, by the engine's ``may_deploy_in``), the fortresses by hex, and
    the placed units as counters (stacks fanned out like the others)."""
    fortresses = {hex_id(c.hex): c.name for c in hexmap.fortresses}
    by_name = {name: h for h, name in fortresses.items()}
    out_armies, placed = [], []
    for a in armies:
        army = a["army"].value
        leaders = [
            {
                "key": x["key"],
                "name": x["name"],
                "hex": x.get("hex") or "",
                "points": x.get("points") or 0,
                "inside": bool(x.get("inside")),
            }
            for x in a["leaders"]
        ]
        trains = [
            {
                "id": t["id"],
                "name": siege_train_name(t["id"]),
                "hex": t.get("hex") or "",
                "inside": bool(t.get("inside")),
            }
            for t in a["siege_trains"]
        ]
        garrisons = dict(a["garrisons"])
        out_armies.append(
            {
                "army": army,
                "label": a["label"],
                "points": a["points"],
                "placed": a["placed"],
                "problems": list(a["problems"]),
                "hex_problems": dict(a.get("hex_problems") or {}),
                "leaders": leaders,
                "trains": trains,
                "garrisons": garrisons,
            }
        )
        base = {"army": army, "relation": "owner", "flags": ""}
        for x in leaders:
            if hex_xy(grid, x["hex"]):
                placed.append(
                    {**base, "kind": "force", "hex": x["hex"], "unit": x["key"],
                     "label": f"{x['name']} {x['points']}", "short": x["name"][:4]}
                )  # fmt: skip
        for t in trains:
            if hex_xy(grid, t["hex"]):
                placed.append(
                    {**base, "kind": "siege-train", "hex": t["hex"], "unit": t["id"],
                     "label": siege_train_name(t["id"]), "short": siege_train_short(t["id"])}
                )  # fmt: skip
        for city, points in garrisons.items():
            if city in by_name:
                placed.append(
                    {**base, "kind": "garrison", "hex": by_name[city], "unit": "",
                     "label": f"{city} garrison {points}", "short": "Gar"}
                )  # fmt: skip
    stacks: dict[str, list[dict]] = {}
    for c in placed:
        c["xy"] = hex_xy(grid, c["hex"])
        stacks.setdefault(c["hex"], []).append(c)
    _number_stacks(stacks, hexmap)
    return {
        "armies": out_armies,
        "allowed": allowed,
        "fortresses": fortresses,
        "placed": placed,
    }
