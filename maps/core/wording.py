"""Hexes and lines of march in words a player reads on a phone, not in codes (rule 6).

A saved march is kept as the rulebook's direction codes ("4-4-5-5", 1 W to 6 SW); a player
reads it as where it goes: how many hexes, which way, the hex it ends in by the name the map
prints there (``"Schweidnitz (hex 6934)"``, as ``orders.templatetags.places.hex_place`` names a
town's hex), else by its hex id (printed on the map from zoom 2) and the nearest town the map
names (``"hex 6835 (1 hex W of Schweidnitz)"``), and the towns it passes through.

The map is public: naming a hex by its town tells a player nothing his own map does not.

>>> from maps.core.compact import compact_map
>>> m = compact_map({"terrain": ["c" * 8] * 6, "cities": [
...     {"name": "Pirna", "hex": "0403", "size": "circle", "fortress": False},
...     {"name": "Dresden", "hex": "0603", "size": "star", "fortress": False}]}, name="doc")
>>> march_in_words(m, "0303", "4-4-4")
'3 hexes E to Dresden (hex 0603), via Pirna'
>>> march_in_words(m, "0303", "2")
'1 hex NW to hex 0202 (2 hexes NW of Pirna)'
>>> march_in_words(m, "0303", ""), march_in_words(m, "0303", "7")
('stands', '7')
"""

from __future__ import annotations

import functools
import math

from maps.core.hexgrid import (
    Hex,
    HexIdError,
    PathError,
    distance,
    hex_id,
    hex_to_pixel,
    parse_hex_id,
    parse_path,
    walk,
)
from maps.core.model import CitySize, HexMap

# The eight points of the compass, counterclockwise from the East (a step of one direction code
# reads as its rule 6 name: 2 is NW, 3 NE).
COMPASS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
NEAR = 3  # hexes: a town further than this does not name a hex without one
MOST_VIA = 3  # towns named along one line; more are counted


def bearing(a: Hex, b: Hex) -> str | None:
    """Which way ``b`` lies from ``a`` as the map is drawn, to the nearest of eight compass
    points; None when they are the same hex.

    >>> here = Hex(0, 0)
    >>> bearing(here, Hex(0, -1)), bearing(here, Hex(1, -2)), bearing(here, here)
    ('NW', 'N', None)
    """
    if a == b:
        return None
    ax, ay = hex_to_pixel(a, 1.0)
    bx, by = hex_to_pixel(b, 1.0)
    angle = math.degrees(math.atan2(ay - by, bx - ax)) % 360  # y grows to the South
    return COMPASS[int((angle + 22.5) // 45) % 8]


def hexes(n: int) -> str:
    """A count of hexes as a line says it: "1 hex", "3 hexes"."""
    return f"{n} hex" if n == 1 else f"{n} hexes"


@functools.lru_cache(maxsize=8)
def _towns(hexmap: HexMap) -> tuple[tuple[Hex, str, int], ...]:
    """Each hex with a town, its name (the largest town of the hex, ``HexMap.city_at``) and its
    rank on the City Chart (0 the largest): made once per map."""
    chart = list(CitySize)  # (the City Chart's order, the largest first)
    out = []
    for h in {c.hex for c in hexmap.cities}:
        city = hexmap.city_at(h)
        if city is not None:
            out.append((h, city.name, chart.index(city.size)))
    return tuple(sorted(out, key=lambda t: (t[0].r, t[0].q)))


def nearest_town(hexmap: HexMap, h: Hex, within: int = NEAR) -> tuple[str, int, str] | None:
    """The town nearest ``h`` within ``within`` hexes, as (name, hexes away, which way ``h``
    lies from it); the larger town when two are as near, then the first by name. None when
    there is none so near, or ``h`` is a town's own hex."""
    best = None
    for town, name, rank in _towns(hexmap):
        d = distance(town, h)
        if d == 0 or d > within:
            continue
        key = (d, rank, name)
        if best is None or key < best[0]:
            best = (key, town, name)
    if best is None:
        return None
    (d, _rank, name), town, _ = best
    return name, d, bearing(town, h) or ""


def hex_in_words(hexmap: HexMap | None, h: Hex) -> str:
    """A hex as a player finds it on the map: "Dresden (hex 0603)" where a town stands, "hex
    0604 (1 hex SE of Dresden)" near one, else "hex 0604"."""
    ident = hex_id(h)
    city = hexmap.city_at(h) if hexmap is not None else None
    if city is not None:
        return f"{city.name} (hex {ident})"
    near = nearest_town(hexmap, h) if hexmap is not None else None
    if near is None:
        return f"hex {ident}"
    name, d, way = near
    return f"hex {ident} ({hexes(d)} {way} of {name})"


def march_in_words(hexmap: HexMap | None, start: str, path: str) -> str:
    """A line of march (direction codes from the hex ``start``) in words: "3 hexes E to
    Dresden (hex 0603), via Pirna"; "stands" for no line; the codes as written when they
    cannot be walked (a unit not on the map, a code out of 1-6)."""
    try:
        codes = parse_path(str(path or ""))
        if not codes:
            return "stands"
        here = parse_hex_id(str(start))
    except (PathError, HexIdError):
        return str(path)
    line = walk(here, codes)
    end = line[-1]
    way = bearing(here, end)
    where = hex_in_words(hexmap, end)
    count = hexes(len(codes))
    text = f"{count} {way} to {where}" if way else f"{count}, back to {where}"
    towns: list[str] = []
    for h in line[:-1]:
        city = hexmap.city_at(h) if hexmap is not None and h != here else None
        if city is not None and city.name not in towns:
            towns.append(city.name)
    if towns:
        named = towns[:MOST_VIA]
        more = len(towns) - len(named)
        if more:
            named.append(f"{more} more town{'s' if more > 1 else ''}")
        text += ", via " + (
            named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        )
    return text
