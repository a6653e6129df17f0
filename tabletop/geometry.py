"""Plane geometry for the table generator: lines and outlines in inches (``layout``)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

Point = tuple[float, float]


def along(u: Point, frm: Point, to: Point) -> Point:
    """The perpendicular of ``u`` that points the way from ``frm`` to ``to``."""
    t = (-u[1], u[0])
    if t[0] * (to[0] - frm[0]) + t[1] * (to[1] - frm[1]) < 0:
        t = (u[1], -u[0])
    return t


def meander(points: list[Point], rng: random.Random, width: float, depth: float) -> list[Point]:
    """Break the course into short reaches and bend each a little."""
    out: list[Point] = [points[0]]
    for a, b in zip(points, points[1:], strict=False):
        length = math.dist(a, b)
        steps = max(1, min(60, int(length / 6)))
        tx, ty = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        for i in range(1, steps + 1):
            f = i / steps
            x, y = a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f
            if i < steps:
                bend = rng.uniform(-1.5, 1.5)
                x, y = x - ty * bend, y + tx * bend
            out.append((x, y))
    return out


def clip_polyline(path: Sequence[Point], width: float, depth: float) -> list[list[Point]]:
    """The parts of ``path`` that lie on the table."""
    pieces: list[list[Point]] = []
    current: list[Point] = []
    for a, b in zip(path, path[1:], strict=False):
        clipped = clip_segment(a, b, (0.0, 0.0, width, depth))
        if clipped is None:
            if current:
                pieces.append(current)
                current = []
            continue
        p, q = clipped
        if current and math.dist(current[-1], p) < 1e-6:
            current.append(q)
        else:
            if current:
                pieces.append(current)
            current = [p, q]
    if current:
        pieces.append(current)
    return [[(round(x, 2), round(y, 2)) for x, y in piece] for piece in pieces]


def clip_segment(
    a: Point, b: Point, box: tuple[float, float, float, float]
) -> tuple[Point, Point] | None:
    """Liang-Barsky clipping of the segment a-b to the box (x0, y0, x1, y1); None if outside.

    >>> clip_segment((-6.0, 12.0), (84.0, 12.0), (0.0, 0.0, 72.0, 48.0))
    ((0.0, 12.0), (72.0, 12.0))
    """
    x0, y0, x1, y1 = box
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if abs(p) < 1e-12:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (a[0] + t0 * dx, a[1] + t0 * dy), (a[0] + t1 * dx, a[1] + t1 * dy)


def length(path: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(path, path[1:], strict=False))


def point_at(path: Sequence[Point], at: float) -> tuple[Point, Point]:
    """The point ``at`` inches along ``path`` and the unit direction of the path there."""
    at = max(0.0, at)
    for a, b in zip(path, path[1:], strict=False):
        step = math.dist(a, b)
        if step <= 0:
            continue
        if at <= step:
            f = at / step
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f), (
                (b[0] - a[0]) / step,
                (b[1] - a[1]) / step,
            )
        at -= step
    a, b = path[-2], path[-1]
    step = math.dist(a, b) or 1.0
    return b, ((b[0] - a[0]) / step, (b[1] - a[1]) / step)


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def inside(p: Point, outline: Sequence[Point]) -> bool:
    """Whether ``p`` lies inside the polygon (ray casting)."""
    x, y = p
    hit = False
    for (x0, y0), (x1, y1) in zip(outline, [*outline[1:], outline[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def near_path(p: Point, path: Sequence[Point], gap: float) -> bool:
    return any(segment_distance(p, a, b) <= gap for a, b in zip(path, path[1:], strict=False))


def box_near_path(
    box: tuple[float, float, float, float], path: Sequence[Point], gap: float
) -> bool:
    """Whether the path passes within ``gap`` of the box."""
    x0, y0, x1, y1 = box
    for a, b in zip(path, path[1:], strict=False):
        if max(a[0], b[0]) < x0 - gap or min(a[0], b[0]) > x1 + gap:
            continue
        if max(a[1], b[1]) < y0 - gap or min(a[1], b[1]) > y1 + gap:
            continue
        # The segment near the box: sample it; a point within the box (grown by gap) is a hit.
        steps = max(2, int(math.dist(a, b) / 1.0))
        for i in range(steps + 1):
            x = a[0] + (b[0] - a[0]) * i / steps
            y = a[1] + (b[1] - a[1]) * i / steps
            if x0 - gap <= x <= x1 + gap and y0 - gap <= y <= y1 + gap:
                return True
    return False


def ellipse(cx: float, cy: float, rx: float, ry: float, tilt: float, n: int = 28) -> list[Point]:
    ct, st = math.cos(tilt), math.sin(tilt)
    out = []
    for i in range(n):
        a = 2 * math.pi * i / n
        x, y = rx * math.cos(a), ry * math.sin(a)
        out.append((cx + x * ct - y * st, cy + x * st + y * ct))
    return fit(out, rx, ry, cx, cy)


def blob(rng: random.Random, cx: float, cy: float, rx: float, ry: float) -> list[Point]:
    n = 12
    out = []
    for i in range(n):
        a = 2 * math.pi * i / n
        f = rng.uniform(0.75, 1.0)
        out.append((cx + rx * f * math.cos(a), cy + ry * f * math.sin(a)))
    return out


def fit(points: list[Point], rx: float, ry: float, cx: float, cy: float) -> list[Point]:
    """Squeeze a tilted outline back into the box it was placed in."""
    xs = [abs(x - cx) for x, _ in points]
    ys = [abs(y - cy) for _, y in points]
    fx, fy = min(1.0, rx / max(xs)), min(1.0, ry / max(ys))
    return [(cx + (x - cx) * fx, cy + (y - cy) * fy) for x, y in points]


def bastion_trace(cx: float, cy: float, r: float, bastions: int) -> list[Point]:
    """A star-shaped trace with one point per bastion (2.3.4)."""
    out = []
    for i in range(bastions * 2):
        a = math.pi * i / bastions - math.pi / 2
        radius = r * (1.0 if i % 2 == 0 else 0.82)
        out.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return out


def hull(points: Sequence[Point]) -> list[Point]:
    """The convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return list(pts)

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def outline_near_path(outline: Sequence[Point], path: Sequence[Point], gap: float) -> bool:
    """Whether the closed outline's edges pass within ``gap`` of the path (sampled every half
    inch), or the path runs inside it."""
    ring = [*outline, outline[0]]
    for a, b in zip(ring, ring[1:], strict=False):
        steps = max(1, math.ceil(2 * math.dist(a, b)))
        for i in range(steps + 1):
            q = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
            if near_path(q, path, gap):
                return True
    return any(inside(p, outline) for p in path)
