"""A generated tabletop for a battle: the site plays the third party of rule 9.3.

The table is drawn from the battle hex: its terrain (9.3: rough has many woods and hills and few
towns, marsh few hills, clear a mix), the rivers on its hexsides, the city there with the City
Chart's number of buildings (2.3.1, 2.3.2), each side's field works (9.4) and the directions its
forces came from (rule 6's codes: 1 W, 2 NW, 3 NE, 4 E, 5 SE, 6 SW).

Coordinates are inches from the table's north-west corner, x to the East and y to the South; north
is always up. The long edges face the two sides, so a table whose sides came from the West and the
East is laid out with its long edges to the West and East.

This is scenery, not a rule: it uses its own ``random.Random(seed)``, never the campaign's named
dice, so showing a table again (or adding a rule roll) never changes it.

>>> request = TableRequest(
...     terrain=Terrain.CLEAR,
...     sides=(TableSide("Prussians", came_from=(1,)), TableSide("Austrians", came_from=(4,))),
...     seed="campaign-7:battle-3",
... )
>>> layout = generate(request)
>>> layout == generate(request), (layout.width, layout.depth)
(True, (48.0, 72.0))
>>> [(d.side, d.edge.value) for d in layout.deployments]
[('Prussians', 'west'), ('Austrians', 'east')]
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from maps.core.hexgrid import DIRECTION_NAMES
from maps.core.model import CitySize, River, Terrain
from tabletop import geometry, roads
from tabletop import shore as shores
from tabletop.shore import Shore, WaterSide

Point = geometry.Point

DEPLOYMENT_ZONE = 12.0
"""Inches from a side's edge in which it deploys (a common miniatures convention; the rulebook
leaves deployment to the tactical rules)."""

FIELD_WORKS_SECTION = 12.0
"""Field works come in 12-inch sections (9.4.1)."""

TABLE_TERRAINS = (Terrain.CLEAR, Terrain.MARSH, Terrain.ROUGH)

# Unit vectors of rule 6's directions, x to the East and y to the South.
_UNIT: dict[int, Point] = {
    1: (-1.0, 0.0),
    2: (-0.5, -math.sqrt(3) / 2),
    3: (0.5, -math.sqrt(3) / 2),
    4: (1.0, 0.0),
    5: (0.5, math.sqrt(3) / 2),
    6: (-0.5, math.sqrt(3) / 2),
}


class FeatureKind(Enum):
    WOOD = "wood"
    HILL = "hill"
    TOWN = "town"
    BUILDING = "building"
    FORTRESS = "fortress"
    RIVER = "river"
    FORD = "ford"
    BRIDGE = "bridge"
    MARSH = "marsh"
    FIELD_WORKS = "field works"
    ROAD = "road"
    WATER = "water"  # sea or a lake beyond a hexside (``tabletop.shore``)

    @property
    def is_line(self) -> bool:
        """Lines (rivers, crossings, works, roads) have a path; the others have an outline."""
        return self in (
            FeatureKind.ROAD,
            FeatureKind.RIVER,
            FeatureKind.FORD,
            FeatureKind.BRIDGE,
            FeatureKind.FIELD_WORKS,
        )


class Edge(Enum):
    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"

    @property
    def opposite(self) -> Edge:
        return _OPPOSITE_EDGE[self]


_OPPOSITE_EDGE = {
    Edge.NORTH: Edge.SOUTH,
    Edge.SOUTH: Edge.NORTH,
    Edge.EAST: Edge.WEST,
    Edge.WEST: Edge.EAST,
}


@dataclass(frozen=True)
class RiverSide:
    """A river on one hexside of the battle hex (2.2), by rule 6's direction code."""

    direction: int
    river: River
    bridge: bool = False

    def __post_init__(self) -> None:
        _check_direction(self.direction)


@dataclass(frozen=True)
class TableCity:
    """The city of the battle hex, if any (2.3)."""

    name: str
    size: CitySize
    fortress: bool = False

    @property
    def buildings(self) -> int:
        """House models on the table (2.3.2)."""
        return self.size.buildings


@dataclass(frozen=True)
class TableSide:
    """One side of the battle: its name, where its forces came from, its field works (9.4)."""

    name: str
    came_from: tuple[int, ...] = ()
    field_works: int = 0

    def __post_init__(self) -> None:
        for d in self.came_from:
            _check_direction(d)
        if self.field_works < 0:
            raise ValueError(f"{self.name}: field works cannot be negative inches")


@dataclass(frozen=True)
class TableRequest:
    terrain: Terrain
    sides: tuple[TableSide, TableSide]
    rivers: tuple[RiverSide, ...] = ()
    city: TableCity | None = None
    table_feet: tuple[float, float] = (6, 4)
    seed: str = ""
    roads: tuple[int, ...] = ()  # hexsides a road of the campaign map crosses (rule 6's codes)
    waters: tuple[WaterSide, ...] = ()  # hexsides with sea or a lake beyond them

    def __post_init__(self) -> None:
        for d in self.roads:
            _check_direction(d)
        if self.terrain not in TABLE_TERRAINS:
            raise ValueError(
                f"battles are fought in clear, marsh or rough hexes, not {self.terrain.label}"
            )
        if len(self.sides) != 2:
            raise ValueError("a battle has two sides (9.2)")
        long, short = self.table_feet
        if not 2 <= short <= long <= 12:
            raise ValueError("the table must be between 2 and 12 feet, long edge first")
        if len({r.direction for r in self.rivers}) != len(self.rivers):
            raise ValueError("each hexside holds one river")
        if len({w.direction for w in self.waters}) != len(self.waters):
            raise ValueError("each hexside has one water beyond it")


@dataclass(frozen=True)
class Feature:
    """One piece of scenery. ``x, y`` is its centre and ``width, depth`` its extent East-West
    and North-South, in inches; ``points`` is its outline (areas) or its path (lines)."""

    kind: FeatureKind
    x: float
    y: float
    width: float
    depth: float
    points: tuple[Point, ...]
    label: str = ""
    line_width: float = 0.0

    @property
    def length(self) -> float:
        """The length of a line feature's path, in inches."""
        return sum(math.dist(a, b) for a, b in zip(self.points, self.points[1:], strict=False))


@dataclass(frozen=True)
class Deployment:
    side: str
    edge: Edge
    zone: float = DEPLOYMENT_ZONE
    came_from: tuple[int, ...] = ()

    @property
    def description(self) -> str:
        origin = ", ".join(DIRECTION_NAMES[d] for d in self.came_from)
        how = f"came from {origin}" if origin else "held the hex"
        return f'{self.side}: {self.edge.value} edge, {self.zone:g}" deep ({how})'


@dataclass(frozen=True)
class TableLayout:
    width: float
    depth: float
    features: tuple[Feature, ...]
    deployments: tuple[Deployment, Deployment]
    terrain: Terrain
    seed: str
    notes: tuple[str, ...] = field(default=())

    def of_kind(self, kind: FeatureKind) -> tuple[Feature, ...]:
        return tuple(f for f in self.features if f.kind is kind)

    def count(self, kind: FeatureKind) -> int:
        return len(self.of_kind(kind))

    def deployment_of(self, side: str) -> Deployment:
        for d in self.deployments:
            if d.side == side:
                return d
        raise KeyError(side)


# How much of each kind a table gets, by the hex's terrain (9.3): (fewest, most).
_AMOUNTS: dict[Terrain, dict[FeatureKind, tuple[int, int]]] = {
    Terrain.CLEAR: {
        FeatureKind.WOOD: (2, 4),
        FeatureKind.HILL: (2, 4),
        FeatureKind.TOWN: (1, 3),
        FeatureKind.MARSH: (0, 0),
    },
    Terrain.ROUGH: {
        FeatureKind.WOOD: (5, 8),
        FeatureKind.HILL: (5, 7),
        FeatureKind.TOWN: (0, 1),
        FeatureKind.MARSH: (0, 0),
    },
    Terrain.MARSH: {
        FeatureKind.WOOD: (1, 3),
        FeatureKind.HILL: (0, 1),
        FeatureKind.TOWN: (0, 2),
        FeatureKind.MARSH: (3, 6),
    },
}

# Half-sizes (inches) of the area features: (smallest, largest) radius East-West and North-South.
_SIZES: dict[FeatureKind, tuple[float, float]] = {
    FeatureKind.WOOD: (3.0, 6.0),
    FeatureKind.HILL: (3.5, 6.5),
    FeatureKind.MARSH: (3.0, 5.5),
}

_RIVER_WIDTH = {River.MAJOR: 4.0, River.MINOR: 2.0}
_VILLAGE_BUILDINGS = (2, 4)


def generate(request: TableRequest) -> TableLayout:
    """The table for ``request``: the same request always gives the same table."""
    rng = random.Random(f"dgk-table|{request.seed}")
    deployments, portrait = _deployments(request.sides)
    long, short = (float(f) * 12 for f in request.table_feet)
    width, depth = (short, long) if portrait else (long, short)
    table = _Table(width, depth, rng)
    table.zones = [_zone_box(d, width, depth) for d in deployments]

    for run in shores.runs(request.waters):
        table.add_shore(run, deployments[0].edge)
    for run in _river_runs(request.rivers):
        table.add_river(run)
    if request.city is not None:
        table.add_city(request.city)
    amounts = _AMOUNTS[request.terrain]
    # Villages first: they need the most room; then the kinds 9.3 names, then the rest.
    table.add_villages(rng.randint(*amounts[FeatureKind.TOWN]))
    for kind in (FeatureKind.HILL, FeatureKind.WOOD, FeatureKind.MARSH):
        table.add_areas(kind, rng.randint(*amounts[kind]))
    for side, deployment in zip(request.sides, deployments, strict=True):
        if side.field_works:
            table.add_field_works(side, deployment.edge)
    if request.roads:
        table.add_roads(sorted(set(request.roads)))

    return TableLayout(
        width=width,
        depth=depth,
        features=tuple(table.features),
        deployments=deployments,
        terrain=request.terrain,
        seed=request.seed,
        notes=tuple(table.notes),
    )


def _zone_box(d: Deployment, width: float, depth: float) -> tuple[float, float, float, float]:
    """The deployment zone along its edge: x0, y0, x1, y1 (North is y = 0)."""
    if d.edge is Edge.WEST:
        return (0.0, 0.0, d.zone, depth)
    if d.edge is Edge.EAST:
        return (width - d.zone, 0.0, width, depth)
    if d.edge is Edge.NORTH:
        return (0.0, 0.0, width, d.zone)
    return (0.0, depth - d.zone, width, depth)


def _check_direction(d: int) -> None:
    if d not in _UNIT:
        raise ValueError(f"{d!r} is not a direction code; rule 6 numbers them 1 (W) to 6 (SW)")


def _approach(directions: Iterable[int]) -> Point:
    xs, ys = zip(*(_UNIT[d] for d in directions), strict=True) if directions else ((0.0,), (0.0,))
    return (sum(xs), sum(ys))


def _deployments(sides: Sequence[TableSide]) -> tuple[tuple[Deployment, Deployment], bool]:
    """Each side's edge, and whether the table lies with its long edges to the West and East.

    The axis runs between the two sides' approaches (the sum of the directions each came from);
    each side takes the long edge on its own end of it. A side that came from nowhere (it held the
    hex) takes the edge opposite its enemy; when both came the same way, the first side keeps
    that edge and the second takes the opposite one.
    """
    a, b = (_approach(s.came_from) for s in sides)
    dx, dy = a[0] - b[0], a[1] - b[1]
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        # Same approach (or none at all): use the first side's own, else the second's.
        dx, dy = a if a != (0.0, 0.0) else (-b[0], -b[1])
    portrait = abs(dx) > abs(dy) + 1e-9
    if portrait:
        first = Edge.EAST if dx > 0 else Edge.WEST
    else:
        first = Edge.SOUTH if dy > 0 else Edge.NORTH
    edges = (first, first.opposite)
    deployments = tuple(
        Deployment(side=s.name, edge=e, came_from=s.came_from)
        for s, e in zip(sides, edges, strict=True)
    )
    return deployments, portrait  # type: ignore[return-value]


def _river_runs(rivers: Sequence[RiverSide]) -> list[list[RiverSide]]:
    """Rivers on neighbouring hexsides are one river bending round the hex: group them."""
    by_direction = {r.direction: r for r in rivers}
    if not by_direction:
        return []
    if len(by_direction) == 6:
        return [[by_direction[d] for d in (1, 2, 3)], [by_direction[d] for d in (4, 5, 6)]]
    # Start each run just after a hexside without a river, going clockwise.
    start = next(d for d in range(1, 7) if d not in by_direction)
    runs: list[list[RiverSide]] = []
    current: list[RiverSide] = []
    for step in range(1, 7):
        d = (start + step - 1) % 6 + 1
        if d in by_direction:
            current.append(by_direction[d])
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


class _Table:
    """The table being laid out: features placed so far and the room they take."""

    def __init__(self, width: float, depth: float, rng: random.Random) -> None:
        self.width = width
        self.depth = depth
        self.rng = rng
        self.features: list[Feature] = []
        self.notes: list[str] = []
        self.rivers: list[tuple[tuple[Point, ...], float]] = []
        self.taken: list[tuple[float, float, float, float]] = []  # x0, y0, x1, y1
        self.numbers: dict[FeatureKind, int] = {}
        self.scale = math.sqrt(width * depth / (72 * 48))
        self.zones: list[tuple[float, float, float, float]] = []  # the deployment zones
        self.hub: Point | None = None  # where the roads meet: the city of the hex
        self.shores: list[Shore] = []  # sea or lakes beyond hexsides

    def _wet(self, p: Point, margin: float = 0.0) -> bool:
        return any(shore.wet(p, margin) for shore in self.shores)

    # ---- the sea or a lake ----------------------------------------------------------------
    def add_shore(self, run: Sequence[WaterSide], edge: Edge) -> None:
        """The water beyond a hexside (or a run of neighbouring ones), outside the deployment
        zones (``tabletop.shore``)."""
        zone = DEPLOYMENT_ZONE
        if edge in (Edge.WEST, Edge.EAST):
            band = (zone, 0.0, self.width - zone, self.depth)
        else:
            band = (0.0, zone, self.width, self.depth - zone)
        ux, uy = (sum(_UNIT[w.direction][i] for w in run) for i in (0, 1))
        norm = math.hypot(ux, uy) or 1.0
        shore = Shore(run, (ux / norm, uy / norm), self.width, self.depth, band)
        outline = shore.outline()
        label = shores.label(run)
        if len(outline) < 3 or shores.area(outline) < shores.MIN_AREA:
            where = label.split(" (")[1].split(",")[0]
            self.notes.append(
                f"The {label.split(' (')[0].lower()} beyond the {where} lies behind a "
                "deployment zone: not on this table."
            )
            return
        self.shores.append(shore)
        self.features.append(_area_feature(FeatureKind.WATER, outline, label))

    def _in_zone(self, x: float, y: float, margin: float) -> bool:
        return any(
            x0 - margin < x < x1 + margin and y0 - margin < y < y1 + margin
            for x0, y0, x1, y1 in self.zones
        )

    def _room_to_zones(self, x: float, y: float) -> float:
        """How far the point lies from the nearest deployment zone."""
        far = math.inf
        for x0, y0, x1, y1 in self.zones:
            dx = max(x0 - x, 0.0, x - x1)
            dy = max(y0 - y, 0.0, y - y1)
            far = min(far, math.hypot(dx, dy))
        return far

    # ---- rivers -------------------------------------------------------------------------
    def add_river(self, run: list[RiverSide]) -> None:
        cx, cy = self.width / 2, self.depth / 2
        reach = 0.5 + self.rng.uniform(-0.06, 0.06)
        centres = [
            (cx + _UNIT[r.direction][0] * cx * reach, cy + _UNIT[r.direction][1] * cy * reach)
            for r in run
        ]
        far = 3 * (self.width + self.depth)
        first, last = _UNIT[run[0].direction], _UNIT[run[-1].direction]
        if len(run) == 1:
            t = (-first[1], first[0])
            start = (centres[0][0] - far * t[0], centres[0][1] - far * t[1])
            end = (centres[0][0] + far * t[0], centres[0][1] + far * t[1])
        else:
            # Both ends run on outwards, away from the run (t0 points from the second
            # hexside's centre to the first): a river never turns back on itself.
            t0 = geometry.along(first, centres[1], centres[0])
            t1 = geometry.along(last, centres[-2], centres[-1])
            start = (centres[0][0] + far * t0[0], centres[0][1] + far * t0[1])
            end = (centres[-1][0] + far * t1[0], centres[-1][1] + far * t1[1])
        path = geometry.meander([start, *centres, end], self.rng, self.width, self.depth)
        major = any(r.river is River.MAJOR for r in run)
        kind = River.MAJOR if major else River.MINOR
        line_width = _RIVER_WIDTH[kind]
        sides = "-".join(DIRECTION_NAMES[r.direction] for r in run)
        label = f"{kind.value.capitalize()} river ({sides} hexside{'s' if len(run) > 1 else ''})"
        pieces = [
            p
            for p in geometry.clip_polyline(path, self.width, self.depth)
            if geometry.length(p) >= 6
        ]
        for piece in pieces:
            feature = _line_feature(FeatureKind.RIVER, piece, label, line_width)
            self.features.append(feature)
            self.rivers.append((tuple(piece), line_width))
            bridges = (1 if major else 0) + sum(r.bridge for r in run)
            if not major and not bridges and self.rng.random() < 0.5:
                bridges = 1
            fords = 0 if major else 2
            self._add_crossings(piece, line_width, bridges, fords)

    def _add_crossings(
        self, path: Sequence[Point], line_width: float, bridges: int, fords: int
    ) -> None:
        kinds = [FeatureKind.BRIDGE] * bridges + [FeatureKind.FORD] * fords
        self.rng.shuffle(kinds)
        total = geometry.length(path)
        for i, kind in enumerate(kinds):
            at = total * (i + 1) / (len(kinds) + 1) + self.rng.uniform(-2, 2)
            (px, py), (tx, ty) = geometry.point_at(path, at)
            if self._wet((px, py), line_width):
                continue  # where the river has met the sea or the lake
            half = line_width / 2 + 1.0
            ends = ((px - ty * half, py + tx * half), (px + ty * half, py - tx * half))
            width = 2.0 if kind is FeatureKind.BRIDGE else 3.0
            self.features.append(_line_feature(kind, ends, kind.value.capitalize(), width))

    # ---- the city and villages ------------------------------------------------------------
    def add_city(self, city: TableCity) -> None:
        """The city of the hex with the City Chart's buildings (2.3.2), on both banks of any
        river that runs past it, walled if it is a fortress."""
        n = city.buildings
        bw, bh = (3.0, 2.0) if n <= 12 else (2.5, 1.5) if n <= 40 else (2.0, 1.5)
        sx, sy = bw + 0.8, bh + 0.9
        cx = self.width / 2 + self.rng.uniform(-0.15, 0.15) * self.width
        cy = self.depth / 2 + self.rng.uniform(-0.15, 0.15) * self.depth
        # Candidate plots on a grid round the centre, nearest first; plots in a river are skipped.
        span = math.ceil(math.sqrt(n)) + 6
        plots = []
        for i in range(-span, span + 1):
            for j in range(-span, span + 1):
                x, y = cx + i * sx, cy + j * sy
                if not (bw < x < self.width - bw and bh < y < self.depth - bh):
                    continue
                if self._in_zone(x, y, max(bw, bh) + (3.5 if city.fortress else 0.5)):
                    continue  # a town (and its walls) stays out of the deployment zones
                if any(geometry.near_path((x, y), p, w / 2 + max(bw, bh)) for p, w in self.rivers):
                    continue
                if self._wet((x, y), max(bw, bh) + (3.5 if city.fortress else 0.5)):
                    continue
                plots.append((math.hypot(i * sx, j * sy * 1.3), x, y))
        plots.sort()
        if len(plots) < n:
            self.notes.append(f"No room for {city.name}'s {n} buildings on this table.")
            return
        chosen = [(x, y) for _, x, y in plots[:n]]
        what = f"{city.name} ({city.size.value}, {n} buildings, 2.3.2)"
        # One outline per bank (or bend) of a river that runs through the town: none over water.
        groups = roads.split_off_water(chosen, (bw / 2, bh / 2), self.rivers)
        for i, group in enumerate(groups):
            self._add_town(group, (bw, bh), what if i == 0 else f"{city.name}, part {i + 1}")
        main = groups[0]
        xs, ys = [x for x, _ in main], [y for _, y in main]
        box = (min(xs) - bw, min(ys) - bh, max(xs) + bw, max(ys) + bh)
        mx, my = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        self.hub = (round(mx, 2), round(my, 2))
        if city.fortress:
            bastions = city.size.bastions or 4
            # The walls round the houses of the main bank, never reaching into a deployment
            # zone nor over the water (houses across the river are suburbs outside the walls).
            r = min(
                max(box[2] - box[0], box[3] - box[1]) / 2 + 3.0,
                self._room_to_zones(mx, my),
                self._room_to_water(mx, my),
                self._room_to_shore(mx, my),
            )
            outline = geometry.bastion_trace(mx, my, r, bastions)
            label = f"{city.name} fortress, {bastions} bastions (the garrison fights no battle, 11)"
            self.features.append(_area_feature(FeatureKind.FORTRESS, outline, label))
            box = (mx - r, my - r, mx + r, my + r)
        for group in groups:
            gx, gy = [x for x, _ in group], [y for _, y in group]
            self.taken.append((min(gx) - bw, min(gy) - bh, max(gx) + bw, max(gy) + bh))
        self.taken.append(box)

    def _room_to_water(self, x: float, y: float) -> float:
        """How far the point lies from the nearest river's bank (less half an inch)."""
        far = math.inf
        for path, w in self.rivers:
            for a, b in zip(path, path[1:], strict=False):
                far = min(far, geometry.segment_distance((x, y), a, b) - w / 2 - 0.5)
        return far

    def _room_to_shore(self, x: float, y: float) -> float:
        """At least how far the point lies from the sea or a lake (less half an inch)."""
        return min(
            ((s.reach - s.along((x, y))) * min(s.half) - 0.5 for s in self.shores),
            default=math.inf,
        )

    def add_villages(self, count: int) -> None:
        for _ in range(count):
            n = self.rng.randint(*_VILLAGE_BUILDINGS)
            rows = math.ceil(n / 2)
            sx, sy = 4.0, 3.0
            half_w, half_h = sx / 2 + 2.0, rows * sy / 2 + 1.0
            spot = self._find_spot(half_w, half_h)
            if spot is None:
                self.notes.append("One village found no room and was left off.")
                continue
            x, y = spot
            number = self._next_number(FeatureKind.TOWN)
            plots = [
                (x + (i % 2 - 0.5) * sx + self.rng.uniform(-0.3, 0.3),
                 y + (i // 2 - (rows - 1) / 2) * sy + self.rng.uniform(-0.3, 0.3))
                for i in range(n)
            ]  # fmt: skip
            self._add_town(plots, (3.0, 2.0), f"Village {number}")
            self.taken.append((x - half_w, y - half_h, x + half_w, y + half_h))

    def _add_town(self, plots: Sequence[Point], size: Point, label: str) -> None:
        bw, bh = size
        buildings = []
        for bx, by in plots:
            corners = (
                (bx - bw / 2, by - bh / 2),
                (bx + bw / 2, by - bh / 2),
                (bx + bw / 2, by + bh / 2),
                (bx - bw / 2, by + bh / 2),
            )
            buildings.append(_area_feature(FeatureKind.BUILDING, corners, ""))
        outline = roads.town_outline(plots, (bw / 2, bh / 2))
        self.features.append(_area_feature(FeatureKind.TOWN, outline, label))
        self.features.extend(buildings)

    # ---- woods, hills, marshes ----------------------------------------------------------
    def add_areas(self, kind: FeatureKind, count: int) -> None:
        """Woods, hills or marshes, sized for the table; a crowded table gets smaller ones."""
        low, high = (size * self.scale for size in _SIZES[kind])
        placed = 0
        for _ in range(count):
            rx, ry = self.rng.uniform(low, high), self.rng.uniform(low, high) * 0.8
            spot = None
            for shrink in (1.0, 0.8, 0.6):
                spot = self._find_spot(rx * shrink + 0.5, ry * shrink + 0.5)
                if spot is not None:
                    rx, ry = rx * shrink, ry * shrink
                    break
            if spot is None:
                continue
            x, y = spot
            number = self._next_number(kind)
            if kind is FeatureKind.HILL:
                outline = geometry.ellipse(x, y, rx, ry, self.rng.uniform(0, math.pi))
            else:
                outline = geometry.blob(self.rng, x, y, rx, ry)
            label = f"{kind.value.capitalize()} {number}"
            self.features.append(_area_feature(kind, outline, label))
            self.taken.append((x - rx - 0.5, y - ry - 0.5, x + rx + 0.5, y + ry + 0.5))
            placed += 1
        if placed < count:
            self.notes.append(f"{count - placed} {kind.value}(s) found no room and were left off.")

    # ---- field works ----------------------------------------------------------------------
    def add_field_works(self, side: TableSide, edge: Edge) -> None:
        """9.4: the side's inches of works, in 12" sections along the front of its zone."""
        along = self.width if edge in (Edge.NORTH, Edge.SOUTH) else self.depth
        room = along - 4.0
        remaining = float(side.field_works)
        blocked = 0.0
        row = 0
        while remaining > 1e-9:
            line = min(remaining, room)
            offset = self.rng.uniform(-1, 1) * (room - line) / 2
            start = along / 2 + offset - line / 2
            stand_off = DEPLOYMENT_ZONE - 2.0 - 3.0 * row
            done = 0.0
            while done < line - 1e-9:
                section = min(FIELD_WORKS_SECTION, line - done)
                a, b = start + done, start + done + section
                # Works stand on dry, open ground: off rivers and out of woods (a little
                # nearer or further from the edge if they must).
                for shift in (0.0, -1.5, 1.5, -3.0, 3.0):
                    path = _edge_line(edge, stand_off + shift, a, b, self.width, self.depth)
                    if self._open_ground(path):
                        label = f"{side.name} field works"
                        self.features.append(
                            _line_feature(FeatureKind.FIELD_WORKS, path, label, 1.0)
                        )
                        break
                else:
                    blocked += section
                done += section
            remaining -= line
            row += 1
        note = f'{side.name}: {side.field_works}" of field works (9.4).'
        if blocked:
            note += (
                f' {blocked:g}" of them found no open ground along its front (rivers, woods):'
                " lay them where both players agree."
            )
        self.notes.append(note)

    def _open_ground(self, path: Sequence[Point]) -> bool:
        """No river within reach of the line and no wood under it (sampled every half inch)."""
        steps = max(2, math.ceil(2 * math.dist(path[0], path[-1])))
        samples = [
            (
                path[0][0] + (path[-1][0] - path[0][0]) * i / steps,
                path[0][1] + (path[-1][1] - path[0][1]) * i / steps,
            )
            for i in range(steps + 1)
        ]
        if any(
            geometry.near_path(q, river, w / 2 + 1.0) for river, w in self.rivers for q in samples
        ):
            return False
        if any(self._wet(q, 1.0) for q in samples):
            return False
        woods = [f for f in self.features if f.kind is FeatureKind.WOOD]
        return not any(geometry.inside(q, wood.points) for wood in woods for q in samples)

    # ---- roads ---------------------------------------------------------------------------
    def add_roads(self, directions: Sequence[int]) -> None:
        """Each road of the campaign map from its edge to the town; a bridge at each river it
        crosses (``roads``)."""
        hub = self.hub or self._village_hub()
        bridges = [
            ((f.points[0][0] + f.points[-1][0]) / 2, (f.points[0][1] + f.points[-1][1]) / 2)
            for f in self.features
            if f.kind is FeatureKind.BRIDGE
        ]
        for d in directions:
            path = roads.road_path(roads.edge_point(self.width, self.depth, d), hub, self.rng)
            label = f"Road ({DIRECTION_NAMES[d]})"
            self.features.append(_line_feature(FeatureKind.ROAD, path, label, roads.ROAD_WIDTH))
            for river, w in self.rivers:
                for point, tangent in roads.crossings(path, river):
                    if any(math.dist(point, b) <= roads.BRIDGE_REACH for b in bridges):
                        continue
                    ends = roads.bridge_at(point, tangent, w)
                    self.features.append(_line_feature(FeatureKind.BRIDGE, ends, "Bridge", 2.0))
                    bridges.append(point)

    def _village_hub(self) -> Point:
        """The village nearest the middle of the table, else the middle."""
        middle = (self.width / 2, self.depth / 2)
        villages = [(f.x, f.y) for f in self.features if f.kind is FeatureKind.TOWN]
        if villages:
            return min(villages, key=lambda v: math.dist(v, middle))
        return middle

    # ---- helpers -------------------------------------------------------------------------
    def _next_number(self, kind: FeatureKind) -> int:
        self.numbers[kind] = self.numbers.get(kind, 0) + 1
        return self.numbers[kind]

    def _find_spot(
        self, half_w: float, half_h: float, near_centre: bool = False, attempts: int = 120
    ) -> Point | None:
        for i in range(attempts):
            if near_centre and i < attempts // 2:
                x = self.width / 2 + self.rng.uniform(-0.2, 0.2) * self.width
                y = self.depth / 2 + self.rng.uniform(-0.2, 0.2) * self.depth
            else:
                x = self.rng.uniform(half_w, self.width - half_w)
                y = self.rng.uniform(half_h, self.depth - half_h)
            if x - half_w < 0 or y - half_h < 0:
                continue
            if x + half_w > self.width or y + half_h > self.depth:
                continue
            box = (x - half_w, y - half_h, x + half_w, y + half_h)
            if any(geometry.overlap(box, t) for t in self.taken):
                continue
            if any(shore.box_wet(box, 1.0) for shore in self.shores):
                continue
            if any(geometry.box_near_path(box, path, w / 2 + 1.0) for path, w in self.rivers):
                continue
            return (round(x, 1), round(y, 1))
        return None


def _edge_line(
    edge: Edge, stand_off: float, a: float, b: float, width: float, depth: float
) -> tuple[Point, Point]:
    if edge is Edge.NORTH:
        return (a, stand_off), (b, stand_off)
    if edge is Edge.SOUTH:
        return (a, depth - stand_off), (b, depth - stand_off)
    if edge is Edge.WEST:
        return (stand_off, a), (stand_off, b)
    return (width - stand_off, a), (width - stand_off, b)


def _area_feature(kind: FeatureKind, outline: Sequence[Point], label: str) -> Feature:
    pts = tuple((round(x, 2), round(y, 2)) for x, y in outline)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return Feature(
        kind=kind,
        x=round((min(xs) + max(xs)) / 2, 2),
        y=round((min(ys) + max(ys)) / 2, 2),
        width=round(max(xs) - min(xs), 2),
        depth=round(max(ys) - min(ys), 2),
        points=pts,
        label=label,
    )


def _line_feature(
    kind: FeatureKind, path: Sequence[Point], label: str, line_width: float
) -> Feature:
    feature = _area_feature(kind, path, label)
    return Feature(
        kind=kind,
        x=feature.x,
        y=feature.y,
        width=feature.width,
        depth=feature.depth,
        points=feature.points,
        label=label,
        line_width=line_width,
    )
