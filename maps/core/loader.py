"""Read, validate and write map files (format ``dgk-map/1``, described in docs/map.md).

The bundled maps live in ``maps/data/<name>.json``. A map is loaded once per process and cached;
an organiser can load another file of the same format. Every problem is reported as a ``MapError``
whose message names the map, the place in the file and what is wrong.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from maps.core.hexgrid import (
    HexIdError,
    Side,
    direction_to,
    format_side,
    hex_id,
    offset_to_axial,
    parse_hex_id,
    parse_side,
    side_hexes,
    side_vertices,
)
from maps.core.model import City, CitySize, HexMap, River, RiverCourse, Road, Terrain

FORMAT = "dgk-map/1"
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DEFAULT_MAP = "central_europe_1756"
WATER_AREA = "Sea"

# The areas of the Deployment Chart (3.4) and the neutral countries of 3.3, as the rulebook spells
# them. A map may name others (an inline test map, say); these are the ones the rules know.
KNOWN_AREAS = (
    "Austria",
    "Bavaria",
    "Empire",
    "Wurttemburg",
    "France",
    "Austrian Netherlands",
    "Brunswick",
    "Hanover",
    "Hesse-Kassel",
    "Lippe",
    "Minden",
    "Prussia",
    "Saxony",
    "Silesia",
    "Swedish Pomerania",
    "East Prussia",
    "Mecklinburg",
    "Poland",
    "Denmark",
    "United Provinces",
)


class MapError(ValueError):
    """A map file is malformed or breaks a rule of the format."""


def load_map(name_or_path: str | Path = DEFAULT_MAP) -> HexMap:
    """A bundled map by name, or a map file by path; cached per file and modification time."""
    path = _resolve(name_or_path)
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        bundled = ", ".join(sorted(p.stem for p in DATA_DIR.glob("*.json"))) or "none"
        raise MapError(f"no map file {str(path)!r} (bundled maps: {bundled})") from None
    return _load_cached(str(path), mtime)


def _resolve(name_or_path: str | Path) -> Path:
    text = str(name_or_path)
    if "/" in text or text.endswith(".json"):
        return Path(text)
    return DATA_DIR / f"{text}.json"


@functools.lru_cache(maxsize=8)
def _load_cached(path: str, mtime: int) -> HexMap:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as exc:
        raise MapError(f"{path}: not valid JSON: {exc}") from None
    return map_from_dict(data, source=path)


def map_from_dict(data: Mapping[str, Any], *, source: str = "<map>") -> HexMap:
    """Build and validate a map from the parsed JSON of a map file."""
    where = source
    if not isinstance(data, Mapping):
        raise MapError(f"{where}: a map file is a JSON object")
    if data.get("format") != FORMAT:
        raise MapError(f"{where}: 'format' must be {FORMAT!r}, found {data.get('format')!r}")
    name = _require(data, "name", str, where)
    where = f"map {name!r}"
    columns = _require(data, "columns", int, where)
    rows = _require(data, "rows", int, where)
    if not (1 <= columns <= 99 and 1 <= rows <= 99):
        raise MapError(f"{where}: columns and rows must be 1 to 99 (hex ids have two digits each)")

    terrain_rows = _require(data, "terrain", list, where)
    terrain_of = _read_grid(terrain_rows, columns, rows, where, "terrain", _terrain_letter)

    codes = _require(data, "area_codes", dict, where)
    for code, area in codes.items():
        if not isinstance(code, str) or len(code) != 1 or not isinstance(area, str) or not area:
            raise MapError(f"{where}: area_codes maps one character to an area name; bad {code!r}")
    area_rows = _require(data, "areas", list, where)

    def area_letter(ch: str) -> str:
        if ch not in codes:
            raise KeyError(ch)
        return codes[ch]

    area_of = _read_grid(area_rows, columns, rows, where, "areas", area_letter)
    for h, terrain in terrain_of.items():
        if terrain.passable and area_of[h] == WATER_AREA:
            raise MapError(
                f"{where}: hex {hex_id(h)} is {terrain.label} land but its area is {WATER_AREA!r}"
            )

    courses = []
    for i, item in enumerate(data.get("rivers", [])):
        courses.append(_read_river(item, i, terrain_of, where))

    bridges = set()
    river_sides = {s for c in courses for s in c.sides}
    for text in data.get("bridges", []):
        side = _read_side(text, terrain_of, f"{where}, bridges")
        if side not in river_sides:
            raise MapError(f"{where}: bridge {text!r} is not on a river hexside")
        bridges.add(side)

    roads = []
    for i, item in enumerate(data.get("roads", [])):
        roads.append(_read_road(item, i, terrain_of, where))

    cities = []
    for i, item in enumerate(data.get("cities", [])):
        cities.append(_read_city(item, i, terrain_of, area_of, where))
    _check_cities(cities, where)

    hexmap = HexMap(
        name=name,
        title=str(data.get("title", name)),
        columns=columns,
        rows=rows,
        terrain_of=terrain_of,
        area_of=area_of,
        river_courses=tuple(courses),
        bridges=frozenset(bridges),
        roads=tuple(roads),
        cities=tuple(cities),
        hex_miles=int(data.get("hex_miles", 10)),
        projection=dict(data.get("projection", {})),
        source=source,
    )
    _check_roads_cross_major_rivers(hexmap, where)
    return hexmap


def map_to_dict(hexmap: HexMap) -> dict[str, Any]:
    """The map as a map file's JSON object (the inverse of ``map_from_dict``)."""
    letters: dict[str, str] = {}
    for area in sorted(set(hexmap.area_of.values())):
        letters[area] = _pick_code(area, set(letters.values()))
    terrain_rows, area_rows = [], []
    for row in range(hexmap.rows):
        t_line, a_line = [], []
        for col in range(hexmap.columns):
            h = offset_to_axial(col, row)
            t_line.append(hexmap.terrain(h).value)
            a_line.append(letters[hexmap.area(h)])
        terrain_rows.append("".join(t_line))
        area_rows.append("".join(a_line))
    return {
        "format": FORMAT,
        "name": hexmap.name,
        "title": hexmap.title,
        "hex_miles": hexmap.hex_miles,
        "columns": hexmap.columns,
        "rows": hexmap.rows,
        "projection": dict(hexmap.projection),
        "terrain": terrain_rows,
        "area_codes": {code: area for area, code in letters.items()},
        "areas": area_rows,
        "rivers": [
            {"name": c.name, "class": c.river.value, "sides": [format_side(s) for s in c.sides]}
            for c in hexmap.river_courses
        ],
        "bridges": sorted(format_side(s) for s in hexmap.bridges),
        "roads": [{"name": r.name, "hexes": [hex_id(h) for h in r.hexes]} for r in hexmap.roads],
        "cities": [_city_to_dict(c) for c in hexmap.cities],
    }


# --- pieces ------------------------------------------------------------------------------------


def _require(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise MapError(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MapError(f"{where}: {key!r} must be a {kind.__name__}, found {type(value).__name__}")
    return value


def _terrain_letter(ch: str) -> Terrain:
    return Terrain(ch)


def _read_grid(lines: list, columns: int, rows: int, where: str, what: str, read) -> dict:
    if len(lines) != rows:
        raise MapError(f"{where}: {what!r} has {len(lines)} rows, the map has {rows}")
    grid = {}
    for row, line in enumerate(lines):
        if not isinstance(line, str) or len(line) != columns:
            got = len(line) if isinstance(line, str) else type(line).__name__
            raise MapError(
                f"{where}: {what!r} row {row + 1} has {got} hexes, the map has {columns} columns"
            )
        for col, ch in enumerate(line):
            h = offset_to_axial(col, row)
            try:
                grid[h] = read(ch)
            except (KeyError, ValueError):
                raise MapError(
                    f"{where}: {what!r} hex {hex_id(h)} has the unknown letter {ch!r}"
                ) from None
    return grid


def _read_side(text: Any, terrain_of: Mapping, where: str) -> Side:
    try:
        side = parse_side(text)
    except HexIdError as exc:
        raise MapError(f"{where}: {exc}") from None
    a, b = side_hexes(side)
    if a not in terrain_of or b not in terrain_of:
        raise MapError(f"{where}: hexside {text!r} is not between two hexes of the map")
    return side


def _read_river(item: Any, i: int, terrain_of: Mapping, where: str) -> RiverCourse:
    if not isinstance(item, Mapping):
        raise MapError(f"{where}: rivers[{i}] must be an object")
    name = item.get("name") or f"rivers[{i}]"
    here = f"{where}, river {name!r}"
    try:
        river = River(item.get("class"))
    except ValueError:
        raise MapError(
            f"{here}: class must be 'major' or 'minor', found {item.get('class')!r}"
        ) from None
    texts = item.get("sides")
    if not isinstance(texts, list) or not texts:
        raise MapError(f"{here}: 'sides' must be a non-empty list of hexsides 'CCRR/d'")
    sides: dict[Side, str] = {}
    for text in texts:
        side = _read_side(text, terrain_of, here)
        a, b = side_hexes(side)
        if not terrain_of[a].passable and not terrain_of[b].passable:
            raise MapError(f"{here}: hexside {text!r} lies between two water hexes")
        sides.setdefault(side, text)
    _check_continuous(sides, here)
    return RiverCourse(name=str(name), river=river, sides=tuple(sides))


def _check_continuous(sides: dict[Side, str], where: str) -> None:
    """The hexsides of one river must join end to end into one line."""
    by_vertex: dict = {}
    for side in sides:
        for v in side_vertices(side):
            by_vertex.setdefault(v, []).append(side)
    first = next(iter(sides))
    seen = {first}
    stack = [first]
    while stack:
        side = stack.pop()
        for v in side_vertices(side):
            for other in by_vertex[v]:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    if len(seen) != len(sides):
        gap = next(s for s in sides if s not in seen)
        raise MapError(
            f"{where}: the river is broken: hexside {sides[gap]} does not join "
            f"the course that starts at {sides[first]}"
        )


def _read_road(item: Any, i: int, terrain_of: Mapping, where: str) -> Road:
    if not isinstance(item, Mapping):
        raise MapError(f"{where}: roads[{i}] must be an object with 'name' and 'hexes'")
    name = str(item.get("name") or f"roads[{i}]")
    here = f"{where}, road {name!r}"
    hexes = []
    for text in item.get("hexes", []):
        try:
            h = parse_hex_id(text)
        except HexIdError as exc:
            raise MapError(f"{here}: {exc}") from None
        if h not in terrain_of:
            raise MapError(f"{here}: hex {text!r} is not on the map")
        if not terrain_of[h].passable:
            raise MapError(f"{here}: hex {text!r} is {terrain_of[h].label}")
        if hexes and direction_to(hexes[-1], h) is None:
            raise MapError(f"{here}: hexes {hex_id(hexes[-1])} and {text} are not adjacent")
        hexes.append(h)
    if len(hexes) < 2:
        raise MapError(f"{here}: a road joins at least two hexes")
    return Road(name=name, hexes=tuple(hexes))


def _read_city(item: Any, i: int, terrain_of: Mapping, area_of: Mapping, where: str) -> City:
    if not isinstance(item, Mapping) or not item.get("name"):
        raise MapError(f"{where}: cities[{i}] must be an object with a 'name'")
    name = str(item["name"])
    here = f"{where}, city {name!r}"
    try:
        h = parse_hex_id(item.get("hex"))
        size = CitySize.parse(item.get("size"))
    except (HexIdError, ValueError) as exc:
        raise MapError(f"{here}: {exc}") from None
    if h not in terrain_of:
        raise MapError(f"{here}: hex {item.get('hex')!r} is not on the map")
    if not terrain_of[h].passable:
        raise MapError(f"{here}: hex {hex_id(h)} is {terrain_of[h].label}; cities stand on land")
    fortress = bool(item.get("fortress", False))
    if fortress and not size.can_be_fortress:
        raise MapError(f"{here}: a {size.value} city cannot be a fortress (City Chart 2.3.1: NA)")
    bastions = size.bastions if fortress else 0
    vp = size.fortress_vp if fortress else 0
    for key, expected in (("bastions", bastions), ("vp", vp)):
        if key in item and item[key] != expected:
            raise MapError(
                f"{here}: {key} is {item[key]!r} but the City Chart (2.3.1) gives a "
                f"{'fortress' if fortress else 'city that is not a fortress'} of size "
                f"{size.value!r} {expected}"
            )
    area = item.get("area", area_of[h])
    if area != area_of[h]:
        raise MapError(
            f"{here}: the city says area {area!r} but hex {hex_id(h)} is in {area_of[h]!r}"
        )
    rivers = item.get("rivers", [])
    return City(
        name=name,
        hex=h,
        size=size,
        fortress=fortress,
        area=area,
        bastions=bastions or 0,
        vp=vp or 0,
        lat=item.get("lat"),
        lon=item.get("lon"),
        rivers=tuple(rivers) if isinstance(rivers, list) else (),
        note=str(item.get("note", "")),
        same_hex_as=str(item.get("same_hex_as", "")),
    )


def _check_cities(cities: list[City], where: str) -> None:
    names: set[str] = set()
    by_hex: dict = {}
    for city in cities:
        key = city.name.casefold()
        if key in names:
            raise MapError(f"{where}: two cities are called {city.name!r}")
        names.add(key)
        by_hex.setdefault(city.hex, []).append(city)
    for h, here in by_hex.items():
        if len(here) < 2:
            continue
        documented = any(c.same_hex_as for c in here)
        if not documented:
            listed = ", ".join(c.name for c in here)
            raise MapError(
                f"{where}: cities {listed} share hex {hex_id(h)}; allowed only where documented "
                "(give one of them 'same_hex_as')"
            )
        if sum(c.fortress for c in here) > 1:
            raise MapError(f"{where}: hex {hex_id(h)} holds two fortresses")


def _check_roads_cross_major_rivers(hexmap: HexMap, where: str) -> None:
    for road in hexmap.roads:
        for a, b in zip(road.hexes, road.hexes[1:], strict=False):
            d = direction_to(a, b)
            if hexmap.river(a, d) is River.MAJOR and not hexmap.bridge(a, d):
                raise MapError(
                    f"{where}, road {road.name!r}: crosses the {hexmap.river_name(a, d)} "
                    f"(a major river) between {hex_id(a)} and {hex_id(b)} without a bridge"
                )


def _pick_code(area: str, taken: set[str]) -> str:
    if area == WATER_AREA and "-" not in taken:
        return "-"
    for ch in (
        area
        + area.upper()
        + area.lower()
        + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    ):
        if ch.isalnum() and ch not in taken:
            return ch
    raise MapError("too many areas to give each a one-letter code")


def _city_to_dict(c: City) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": c.name,
        "hex": c.hex_id,
        "size": c.size.value,
        "fortress": c.fortress,
        "area": c.area,
        "bastions": c.bastions,
        "vp": c.vp,
    }
    if c.lat is not None:
        out["lat"], out["lon"] = c.lat, c.lon
    if c.rivers:
        out["rivers"] = list(c.rivers)
    if c.note:
        out["note"] = c.note
    if c.same_hex_as:
        out["same_hex_as"] = c.same_hex_as
    return out
