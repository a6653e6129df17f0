"""The sea or a lake beside the battle hex, on the table.

No battle is fought in a sea or lake hex (2.2, 9.3), but a hex on a coast or a lake shore has
water beyond one or more of its hexsides. On the table that water is the part beyond a straight
shore line across the hexside's direction, ``REACH`` of the way from the table's centre to the
edge (where a river on that hexside runs), and never in a deployment zone: both sides deploy
on dry land, their edges being the directions they came from, which are land. The water the
zones cut off is said in the table's notes.

>>> shore = Shore([WaterSide(2)], (-0.5, -0.866), 72.0, 48.0, (12.0, 0.0, 60.0, 48.0))
>>> shore.wet((13.0, 1.0)), shore.wet((36.0, 24.0))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from maps.core.hexgrid import DIRECTION_NAMES, Hex, neighbour
from maps.core.model import HexMap, Terrain
from tabletop import geometry

Point = geometry.Point

REACH = 0.7
"""Where the shore runs: the fraction of the way from the table's centre to the hexside."""

MIN_AREA = 24.0
"""Square inches below which the water left outside the deployment zones is not drawn."""


@dataclass(frozen=True)
class WaterSide:
    """Sea or a lake beyond one hexside of the battle hex, by rule 6's direction code."""

    direction: int
    lake: bool = False

    def __post_init__(self) -> None:
        if self.direction not in DIRECTION_NAMES:
            raise ValueError(f"direction {self.direction} is not one of rule 6's codes 1-6")


def runs(waters: Sequence[WaterSide]) -> list[tuple[WaterSide, ...]]:
    """Water beyond neighbouring hexsides is one shore round the hex: group them (rule 6's
    codes go round the hex, 6 next to 1)."""
    by_direction = {w.direction: w for w in waters}
    out: list[tuple[WaterSide, ...]] = []
    seen: set[int] = set()
    for w in sorted(waters, key=lambda w: w.direction):
        if w.direction in seen:
            continue
        start = w.direction
        while (start - 2) % 6 + 1 in by_direction and (start - 2) % 6 + 1 != w.direction:
            start = (start - 2) % 6 + 1
        run = []
        d = start
        while d in by_direction and d not in seen:
            run.append(by_direction[d])
            seen.add(d)
            d = d % 6 + 1
        out.append(tuple(run))
    return out


def label(run: Sequence[WaterSide]) -> str:
    water = "Lake" if all(w.lake for w in run) else "Sea"
    sides = "-".join(DIRECTION_NAMES[w.direction] for w in run)
    return f"{water} ({sides} hexside{'s' if len(run) > 1 else ''}, not passable)"


def water_sides(hexmap: HexMap, h: Hex) -> tuple[WaterSide, ...]:
    """The hexsides of ``h`` beyond which the campaign map has sea or a lake."""
    out = []
    for d in sorted(DIRECTION_NAMES):
        terrain = hexmap.terrain_of.get(neighbour(h, d))
        if terrain is Terrain.SEA or terrain is Terrain.LAKE:
            out.append(WaterSide(d, lake=terrain is Terrain.LAKE))
    return tuple(out)


def road_sides(hexmap: HexMap, h: Hex) -> tuple[int, ...]:
    """The hexsides of ``h`` a road of the campaign map crosses."""
    return tuple(d for d in sorted(DIRECTION_NAMES) if hexmap.road(h, d))


class Shore:
    """The water beyond one hexside or a run of them: the points of ``band`` (the table outside
    the deployment zones, x0, y0, x1, y1) past the shore line across ``unit`` (the direction of
    the hexside, or the mean of the run's)."""

    def __init__(
        self,
        run: Sequence[WaterSide],
        unit: Point,
        width: float,
        depth: float,
        band: tuple[float, float, float, float],
        reach: float = REACH,
    ) -> None:
        self.run = tuple(run)
        self.unit = unit
        self.half = (width / 2, depth / 2)
        self.band = band
        self.reach = reach

    def along(self, p: Point) -> float:
        """How far towards the hexside ``p`` lies: 0 at the centre, 1 at the edge it faces."""
        (hx, hy), (ux, uy) = self.half, self.unit
        return (p[0] - hx) / hx * ux + (p[1] - hy) / hy * uy

    def wet(self, p: Point, margin: float = 0.0) -> bool:
        """``p`` lies in the water, or within ``margin`` inches of it (about)."""
        x0, y0, x1, y1 = self.band
        if not (x0 - margin <= p[0] <= x1 + margin and y0 - margin <= p[1] <= y1 + margin):
            return False
        return self.along(p) > self.reach - margin / min(self.half)

    def box_wet(self, box: tuple[float, float, float, float], margin: float = 0.0) -> bool:
        """Some of ``box`` (x0, y0, x1, y1) lies in the water or within ``margin`` of it: the
        part of the box inside the band has a corner past the shore line (both are convex)."""
        x0, y0, x1, y1 = self.band
        cx0, cy0 = max(box[0], x0 - margin), max(box[1], y0 - margin)
        cx1, cy1 = min(box[2], x1 + margin), min(box[3], y1 + margin)
        if cx0 > cx1 or cy0 > cy1:
            return False
        corners = ((cx0, cy0), (cx1, cy0), (cx1, cy1), (cx0, cy1))
        return any(self.along(c) > self.reach - margin / min(self.half) for c in corners)

    def outline(self) -> list[Point]:
        """The water's outline: the band cut by the shore line (empty if none is left)."""
        x0, y0, x1, y1 = self.band
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        out: list[Point] = []
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            fa, fb = self.along(a) - self.reach, self.along(b) - self.reach
            if fa >= 0:
                out.append(a)
            if (fa >= 0) != (fb >= 0):
                t = fa / (fa - fb)
                out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        return out


def area(outline: Sequence[Point]) -> float:
    """The area of a simple polygon (shoelace)."""
    pairs = zip(outline, [*outline[1:], *outline[:1]], strict=True)
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in pairs)) / 2
