"""Small inline maps for scenario files and tests.

A 6x6 case with terrain, rivers, roads and cities takes a few lines:

>>> m = compact_map({
...     "terrain": ["c c c r", "c m c r", "c c c c"],
...     "areas": {"Prussia": "*", "Saxony": ["0103", "0203"]},
...     "rivers": [{"name": "Elbe", "class": "major", "sides": ["0201/4", "0202/3"]}],
...     "bridges": ["0201/4"],
...     "roads": [["0101", "0201", "0301"]],
...     "cities": [{"name": "Torgau", "hex": "0202", "size": "square", "fortress": True}],
... })
>>> m.city("Torgau").bastions, m.area(m.parse_hex_id("0103"))
(8, 'Saxony')

Terrain letters: c clear, m marsh, r rough, s sea, l lake (spaces between letters are optional).
``areas`` maps an area name to a list of hex ids, or to ``"*"`` for every hex not listed elsewhere;
without ``areas`` every land hex is in the area ``"Open"``; sea and lake hexes are in the area
``"Sea"``. Hexsides are written ``"CCRR/d"``. A road is a list of hex ids (or an object with
``name`` and ``hexes``). City fields default to size ``"square"``, not a fortress, and the area
of the hex.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from maps.core.hexgrid import offset_to_axial, parse_hex_id
from maps.core.loader import FORMAT, WATER_AREA, MapError, map_from_dict
from maps.core.model import HexMap, Terrain

DEFAULT_AREA = "Open"


def compact_map(spec: Mapping[str, Any], *, name: str = "inline") -> HexMap:
    """Build a map from the compact inline form; errors are ``MapError`` naming the problem."""
    if not isinstance(spec, Mapping):
        raise MapError("an inline map is an object with at least 'terrain'")
    lines = spec.get("terrain")
    if not isinstance(lines, list) or not lines or not all(isinstance(x, str) for x in lines):
        raise MapError("an inline map needs 'terrain': a list of rows such as \"c c r m\"")
    terrain = ["".join(line.split()) for line in lines]
    columns = max(len(row) for row in terrain)
    if any(len(row) != columns for row in terrain):
        raise MapError(f"inline map: every terrain row must have {columns} hexes")
    rows = len(terrain)

    areas = spec.get("areas") or {DEFAULT_AREA: "*"}
    if not isinstance(areas, Mapping):
        raise MapError("inline map: 'areas' maps area names to lists of hex ids or '*'")
    area_of: dict[tuple[int, int], str] = {}
    default = None
    for area, where in areas.items():
        if where == "*":
            default = area
            continue
        if not isinstance(where, list):
            raise MapError(f"inline map: area {area!r} must list hex ids or be '*'")
        for text in where:
            try:
                h = parse_hex_id(text)
            except ValueError as exc:
                raise MapError(f"inline map: area {area!r}: {exc}") from None
            area_of[(h.q, h.r)] = area

    codes: dict[str, str] = {"-": WATER_AREA}
    letter_of: dict[str, str] = {WATER_AREA: "-"}
    pool = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    area_rows = []
    for row in range(rows):
        line = []
        for col in range(columns):
            h = offset_to_axial(col, row)
            if terrain[row][col] in (Terrain.SEA.value, Terrain.LAKE.value):
                area = area_of.get((h.q, h.r), WATER_AREA)
            else:
                area = area_of.get((h.q, h.r), default or DEFAULT_AREA)
            if area not in letter_of:
                letter_of[area] = next(pool)
                codes[letter_of[area]] = area
            line.append(letter_of[area])
        area_rows.append("".join(line))

    roads = []
    for i, road in enumerate(spec.get("roads", [])):
        if isinstance(road, list):
            roads.append({"name": f"road {i + 1}", "hexes": road})
        else:
            roads.append(road)

    cities = []
    for city in spec.get("cities", []):
        item = {"size": "square", "fortress": False, **city}
        cities.append(item)

    data = {
        "format": FORMAT,
        "name": name,
        "title": spec.get("title", name),
        "columns": columns,
        "rows": rows,
        "terrain": terrain,
        "area_codes": codes,
        "areas": area_rows,
        "rivers": spec.get("rivers", []),
        "bridges": spec.get("bridges", []),
        "roads": roads,
        "cities": cities,
    }
    return map_from_dict(data, source=f"inline map {name!r}")
