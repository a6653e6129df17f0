"""Roads on the battle table, and towns kept off the water (issue 14).

- A road of the campaign map that crosses a hexside of the battle hex (``HexMap.road``) enters
  the table at the edge that faces that hexside and runs to the town: the city of the hex if it
  has one, else the village nearest the middle of the table, else the middle. Every road of the
  hex meets there, so the roads run through the town. Where a road crosses a river there is a
  bridge: the one already there if it lies within ``BRIDGE_REACH``, else a new one.
- ``split_off_water``: the houses of a city on both banks are drawn as one town outline per
  bank (more if the river bends round them), so no outline spills over the water.

Pure Python; coordinates in inches from the north-west corner, north up (``layout``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tabletop import geometry

Point = geometry.Point
ROAD_WIDTH = 1.5
BRIDGE_REACH = 2.5
"""A road crossing a river uses a bridge within this many inches of the crossing."""

_UNIT = {
    1: (-1.0, 0.0),
    2: (-0.5, -math.sqrt(3) / 2),
    3: (0.5, -math.sqrt(3) / 2),
    4: (1.0, 0.0),
    5: (0.5, math.sqrt(3) / 2),
    6: (-0.5, math.sqrt(3) / 2),
}


def edge_point(width: float, depth: float, direction: int) -> Point:
    """Where a ray from the middle of the table toward hexside ``direction`` meets the edge."""
    cx, cy = width / 2, depth / 2
    ux, uy = _UNIT[direction]
    t = min(cx / abs(ux) if ux else math.inf, cy / abs(uy) if uy else math.inf)
    return (round(cx + ux * t, 2), round(cy + uy * t, 2))


def road_path(start: Point, hub: Point, rng: random.Random) -> list[Point]:
    """From the table's edge to the town, bending a little on the way."""
    length = math.dist(start, hub)
    if length < 1e-6:
        return [start, hub]
    tx, ty = (hub[0] - start[0]) / length, (hub[1] - start[1]) / length
    steps = max(1, int(length / 10))
    out = [start]
    for i in range(1, steps):
        f = i / steps
        bend = rng.uniform(-1.2, 1.2)
        out.append((start[0] + (hub[0] - start[0]) * f - ty * bend,
                    start[1] + (hub[1] - start[1]) * f + tx * bend))  # fmt: skip
    out.append(hub)
    return [(round(x, 2), round(y, 2)) for x, y in out]


def _intersection(a: Point, b: Point, c: Point, d: Point) -> Point | None:
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    den = r[0] * s[1] - r[1] * s[0]
    if abs(den) < 1e-12:
        return None
    t = ((c[0] - a[0]) * s[1] - (c[1] - a[1]) * s[0]) / den
    u = ((c[0] - a[0]) * r[1] - (c[1] - a[1]) * r[0]) / den
    if 0 <= t <= 1 and 0 <= u <= 1:
        return (a[0] + t * r[0], a[1] + t * r[1])
    return None


def crossings(road: Sequence[Point], river: Sequence[Point]) -> list[tuple[Point, Point]]:
    """Where the road crosses the river line, with the river's direction there (unit vector)."""
    out = []
    for a, b in zip(road, road[1:], strict=False):
        for c, d in zip(river, river[1:], strict=False):
            p = _intersection(a, b, c, d)
            if p is not None:
                n = math.dist(c, d) or 1.0
                out.append((p, ((d[0] - c[0]) / n, (d[1] - c[1]) / n)))
    return out


def bridge_at(point: Point, tangent: Point, river_width: float) -> tuple[Point, Point]:
    """A bridge's two ends: across the river at ``point``, a little past each bank."""
    (px, py), (tx, ty) = point, tangent
    half = river_width / 2 + 1.0
    return ((round(px - ty * half, 2), round(py + tx * half, 2)),
            (round(px + ty * half, 2), round(py - tx * half, 2)))  # fmt: skip


def town_outline(group: Sequence[Point], half: Point, margin: float = 0.7) -> list[Point]:
    """The outline of a town: the convex hull of its houses, ``margin`` inches round them."""
    hw, hh = half[0] + margin, half[1] + margin
    corners = [(x + sx * hw, y + sy * hh) for x, y in group for sx in (-1, 1) for sy in (-1, 1)]
    return [(round(x, 2), round(y, 2)) for x, y in geometry.hull(corners)]


def split_off_water(
    plots: Sequence[Point],
    half: Point,
    rivers: Sequence[tuple[Sequence[Point], float]],
    margin: float = 0.7,
) -> list[list[Point]]:
    """The plots in groups whose outline (``town_outline``) keeps clear of every river's
    water: a group that reaches the water is split where its houses lie furthest apart along
    its longer side, until each keeps clear (a single house always does: houses are placed off
    the water by more than the margin)."""

    def wet(group: Sequence[Point]) -> bool:
        outline = town_outline(group, half, margin)
        return any(geometry.outline_near_path(outline, path, w / 2) for path, w in rivers)

    out: list[list[Point]] = []
    todo = [list(plots)]
    while todo:
        group = todo.pop()
        if len(group) <= 1 or not wet(group):
            out.append(group)
            continue
        xs, ys = [x for x, _ in group], [y for _, y in group]
        axis = 0 if max(xs) - min(xs) >= max(ys) - min(ys) else 1
        group.sort(key=lambda p: (p[axis], p[1 - axis]))
        # split where the gap between neighbours is widest (the river runs there)
        cut = max(range(1, len(group)), key=lambda i: group[i][axis] - group[i - 1][axis])
        todo += [group[:cut], group[cut:]]
    out.sort(key=lambda g: (-len(g), g[0]))
    return out
