"""Geometry for the map generator: the projection, the hex grid in kilometres, TopoJSON, polygons.

The projection is the spherical Lambert azimuthal equal-area projection (Snyder, Map Projections:
A Working Manual, 1987, p. 185) centred on the map. Plane coordinates are kilometres, x to the East
and y to the North; the hex grid turns them into hexes of 16.09 km (10 miles) across the flats.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from maps.core.hexgrid import Hex, offset_to_axial

EARTH_RADIUS_KM = 6371.0088  # the mean radius (IUGG)
HEX_KM = 16.09  # 10 statute miles, the distance between the centres of two neighbouring hexes
ROW_KM = HEX_KM * math.sqrt(3) / 2

Point = tuple[float, float]


@dataclass(frozen=True)
class Projection:
    """Spherical Lambert azimuthal equal-area, centred on (lat_0, lon_0)."""

    lat_0: float
    lon_0: float
    radius_km: float = EARTH_RADIUS_KM

    def forward(self, lat: float, lon: float) -> Point:
        """(lat, lon) in degrees to (x, y) in km.

        >>> p = Projection(51.0, 11.5)
        >>> p.forward(51.0, 11.5)
        (0.0, 0.0)
        """
        phi, lam = math.radians(lat), math.radians(lon - self.lon_0)
        phi0 = math.radians(self.lat_0)
        cos_c = math.sin(phi0) * math.sin(phi) + math.cos(phi0) * math.cos(phi) * math.cos(lam)
        k = math.sqrt(2.0 / (1.0 + cos_c))
        x = self.radius_km * k * math.cos(phi) * math.sin(lam)
        y = (
            self.radius_km
            * k
            * (math.cos(phi0) * math.sin(phi) - math.sin(phi0) * math.cos(phi) * math.cos(lam))
        )
        return (round(x, 6) + 0.0, round(y, 6) + 0.0)

    def inverse(self, x: float, y: float) -> Point:
        """(x, y) in km back to (lat, lon) in degrees."""
        rho = math.hypot(x, y)
        if rho == 0:
            return (self.lat_0, self.lon_0)
        c = 2.0 * math.asin(rho / (2.0 * self.radius_km))
        phi0 = math.radians(self.lat_0)
        phi = math.asin(math.cos(c) * math.sin(phi0) + y * math.sin(c) * math.cos(phi0) / rho)
        lam = math.atan2(
            x * math.sin(c), rho * math.cos(phi0) * math.cos(c) - y * math.sin(phi0) * math.sin(c)
        )
        return (math.degrees(phi), self.lon_0 + math.degrees(lam))


@dataclass(frozen=True)
class Grid:
    """Pointy-topped hexes in odd-r offset rows; (x0, y0) is the centre of hex 0101 in km."""

    columns: int
    rows: int
    x0: float
    y0: float

    def centre(self, col: int, row: int) -> Point:
        return (self.x0 + HEX_KM * (col + 0.5 * (row & 1)), self.y0 - ROW_KM * row)

    def hex_centre(self, h: Hex) -> Point:
        # axial to planar: x grows with q + r/2, y falls with r
        return (self.x0 + HEX_KM * (h.q + h.r / 2), self.y0 - ROW_KM * h.r)

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex containing the plane point (x, y), by cube rounding."""
        r = (self.y0 - y) / ROW_KM
        q = (x - self.x0) / HEX_KM - r / 2
        return _cube_round(q, r)

    def hexes(self) -> Iterable[tuple[int, int, Hex]]:
        for row in range(self.rows):
            for col in range(self.columns):
                yield col, row, offset_to_axial(col, row)

    def vertex_xy(self, v: tuple[int, int]) -> Point:
        """Plane point of a corner given on the integer vertex lattice of ``maps.core.hexgrid``:
        x in units of half a hex width, y in units of half the corner radius."""
        size = HEX_KM / math.sqrt(3)
        return (self.x0 + v[0] * HEX_KM / 2, self.y0 - v[1] * size / 2)

    def contains(self, h: Hex) -> bool:
        col = h.q + (h.r - (h.r & 1)) // 2
        return 0 <= h.r < self.rows and 0 <= col < self.columns


def _cube_round(qf: float, rf: float) -> Hex:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


# --- TopoJSON ------------------------------------------------------------------------------------


def read_topojson(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _decode_arcs(topo: dict) -> list[list[Point]]:
    """Absolute (lon, lat) points of every arc (quantized and delta-encoded in the file)."""
    t = topo.get("transform")
    arcs = []
    for arc in topo["arcs"]:
        pts = []
        if t:
            x = y = 0
            (sx, sy), (tx, ty) = t["scale"], t["translate"]
            for dx, dy in arc:
                x += dx
                y += dy
                pts.append((x * sx + tx, y * sy + ty))
        else:
            pts = [(float(p[0]), float(p[1])) for p in arc]
        arcs.append(pts)
    return arcs


def _ring(arcs: list[list[Point]], indexes: Sequence[int]) -> list[Point]:
    ring: list[Point] = []
    for i in indexes:
        pts = arcs[i] if i >= 0 else list(reversed(arcs[~i]))
        ring.extend(pts if not ring else pts[1:])
    return ring


def topo_polygons(topo: dict, name: str) -> list[list[list[Point]]]:
    """The polygons of object ``name`` as lists of rings of (lon, lat); the first ring is outer."""
    arcs = _decode_arcs(topo)
    out = []
    obj = topo["objects"][name]
    geoms = obj["geometries"] if obj["type"] == "GeometryCollection" else [obj]
    for g in geoms:
        if g["type"] == "Polygon":
            out.append([_ring(arcs, r) for r in g["arcs"]])
        elif g["type"] == "MultiPolygon":
            for poly in g["arcs"]:
                out.append([_ring(arcs, r) for r in poly])
    return out


# --- polygons on the plane -----------------------------------------------------------------------


@dataclass(frozen=True)
class PlanePolygon:
    rings: tuple[tuple[Point, ...], ...]
    bbox: tuple[float, float, float, float]

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.bbox
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        inside = False
        for ring in self.rings:  # even-odd rule: holes flip it back
            if _in_ring(ring, x, y):
                inside = not inside
        return inside


def _in_ring(ring: Sequence[Point], x: float, y: float) -> bool:
    inside = False
    n = len(ring)
    j = n - 1
    for i in range(n):
        xi, yi = ring[i]
        xj, yj = ring[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def project_polygons(
    polys: list[list[list[Point]]], proj: Projection, window: tuple[float, float, float, float]
) -> list[PlanePolygon]:
    """Project (lon, lat) polygons to the plane, keeping those that touch the window (km)."""
    wx0, wy0, wx1, wy1 = window
    out = []
    for poly in polys:
        rings = tuple(tuple(proj.forward(lat, lon) for lon, lat in ring) for ring in poly)
        xs = [p[0] for p in rings[0]]
        ys = [p[1] for p in rings[0]]
        bbox = (min(xs), min(ys), max(xs), max(ys))
        if bbox[2] < wx0 or bbox[0] > wx1 or bbox[3] < wy0 or bbox[1] > wy1:
            continue
        out.append(PlanePolygon(rings=rings, bbox=bbox))
    return out


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def polyline_distance(p: Point, line: Sequence[Point]) -> float:
    if len(line) == 1:
        return math.hypot(p[0] - line[0][0], p[1] - line[0][1])
    return min(point_segment_distance(p, a, b) for a, b in zip(line, line[1:], strict=False))


def densify(line: Sequence[Point], step: float) -> list[Point]:
    """Points along a polyline no more than ``step`` apart."""
    out = [line[0]]
    for a, b in zip(line, line[1:], strict=False):
        n = max(1, math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
        for i in range(1, n + 1):
            out.append((a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n))
    return out
