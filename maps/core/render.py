"""Pictures of the map with Pillow: the whole map or a region, as an image or PNG bytes (rule 2.1).

Pure Python (no Django). Terrain colours are chosen to stay readable when printed in grey: clear is
the palest, marsh is hatched, rough carries hill marks, water is blue with a dark shore line. City
symbols follow the City Chart (2.3.1): circled star, star, square, circled dot, circle, dot; a
fortress has a bastioned outline, with its VPs and bastions in small type under the name.

Later issues draw on top of the map with overlays (each player's view, battle briefings):

>>> from maps.core.compact import compact_map
>>> m = compact_map({"terrain": ["c c c", "c r c"]})
>>> from maps.core.hexgrid import parse_hex_id
>>> img = render_map(m, overlays=[Counter(parse_hex_id("0101"), "Daun", "#ffffff")])
>>> img.size[0] > 0
True
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw, ImageFont

from maps.core.hexgrid import (
    EDGE_CORNERS,
    SQRT3,
    Hex,
    axial_to_offset,
    hex_corners,
    hex_id,
    hex_to_pixel,
    neighbour,
    offset_to_axial,
    parse_hex_id,
)
from maps.core.model import CitySize, HexMap, River, Terrain

# --- colours -------------------------------------------------------------------------------------

TERRAIN_FILL = {
    Terrain.CLEAR: (246, 241, 222),
    Terrain.MARSH: (205, 226, 196),
    Terrain.ROUGH: (221, 199, 160),
    Terrain.SEA: (168, 202, 230),
    Terrain.LAKE: (168, 202, 230),
}
GRID = (205, 198, 176)
SHORE = (60, 110, 160)
RIVER = (36, 100, 178)
ROAD = (158, 62, 38)
BORDER = (170, 80, 160)
INK = (25, 25, 25)
HALO = (255, 255, 255)
MARSH_HATCH = (92, 140, 92)
NEUTRAL = (228, 226, 222)  # outside the map: neither land nor sea
ROUGH_MARK = (140, 105, 60)

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/local/share/fonts"),
    Path("/usr/share/fonts/dejavu"),
)


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """DejaVu Sans if installed (Debian fonts-dejavu-core), else Pillow's own font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        path = folder / name
        if path.exists():
            return ImageFont.truetype(str(path), size)
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def _rgb(colour: str | tuple) -> tuple:
    if isinstance(colour, tuple):
        return colour
    text = colour.lstrip("#")
    if len(text) in (6, 8) and re.fullmatch(r"[0-9a-fA-F]+", text):
        return tuple(int(text[i : i + 2], 16) for i in range(0, len(text), 2))
    return ImageColor.getrgb(colour)


# --- overlays ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Counter:
    """A counter on a hex: a leader, a garrison, a siege train, a status marker."""

    hex: Hex
    label: str
    colour: str | tuple = "#ffffff"
    text_colour: str | tuple = "#000000"
    stack: int = 0  # 0 for the first counter in a hex, 1 for the next, ...


@dataclass(frozen=True)
class Arrow:
    """A path through hexes, drawn as a line with an arrow head at the last hex (a march)."""

    hexes: tuple[Hex, ...]
    colour: str | tuple = "#c00000"
    width: float = 0.22  # in hex sizes
    label: str = ""


@dataclass(frozen=True)
class Highlight:
    """Hexes tinted with a colour (reachable hexes, a supply net, a Croat screen, fog)."""

    hexes: tuple[Hex, ...] | frozenset[Hex]
    colour: str | tuple = "#ffcc0080"
    outline: str | tuple | None = None


@dataclass(frozen=True)
class Note:
    """A short text at a hex (a battle, a siege, an umpire's remark)."""

    hex: Hex
    text: str
    colour: str | tuple = "#000000"
    background: str | tuple | None = "#ffffffd0"


Overlay = Counter | Arrow | Highlight | Note


# --- regions -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Region:
    """A rectangle of hexes by 1-based column and row, both ends included."""

    col0: int
    row0: int
    col1: int
    row1: int

    @classmethod
    def parse(cls, text: str, hexmap: HexMap | None = None) -> Region:
        """``"0510-2030"`` (hex id corners), ``"Dresden+6"`` (a city and a radius in hexes), or
        ``"lat0,lon0,lat1,lon1"`` (a bounding box in degrees; needs the map's projection)."""
        text = text.strip()
        m = re.fullmatch(r"(\d{4})\s*[-:]\s*(\d{4})", text)
        if m:
            (c0, r0), (c1, r1) = (axial_to_offset(parse_hex_id(g)) for g in m.groups())
            return cls(min(c0, c1) + 1, min(r0, r1) + 1, max(c0, c1) + 1, max(r0, r1) + 1)
        m = re.fullmatch(r"(.+?)\s*\+\s*(\d+)", text)
        if m and hexmap is not None:
            city = hexmap.city(m.group(1))
            return cls.around(city.hex, int(m.group(2)))
        parts = [p for p in re.split(r"[,\s]+", text) if p]
        if len(parts) == 4 and hexmap is not None:
            lat0, lon0, lat1, lon1 = (float(p) for p in parts)
            corners = [
                hex_of_latlon(hexmap, lat, lon) for lat in (lat0, lat1) for lon in (lon0, lon1)
            ]
            cols = [axial_to_offset(h)[0] for h in corners]
            rows = [axial_to_offset(h)[1] for h in corners]
            return cls(min(cols) + 1, min(rows) + 1, max(cols) + 1, max(rows) + 1)
        raise ValueError(
            f"{text!r} is not a region: write two hex ids '0510-2030', a city and a radius "
            "'Dresden+6', or a box in degrees 'lat0,lon0,lat1,lon1'"
        )

    @classmethod
    def around(cls, h: Hex, radius: int) -> Region:
        col, row = axial_to_offset(h)
        return cls(col + 1 - radius, row + 1 - radius, col + 1 + radius, row + 1 + radius)

    def hexes(self, hexmap: HexMap) -> list[Hex]:
        out = []
        for row in range(max(self.row0, 1) - 1, min(self.row1, hexmap.rows)):
            for col in range(max(self.col0, 1) - 1, min(self.col1, hexmap.columns)):
                out.append(offset_to_axial(col, row))
        return out


AREA_TINTS = {
    "Austria": "#f2e20a",
    "Bavaria": "#5aa0e6",
    "Empire": "#c8c8c8",
    "Wurttemburg": "#e68c3c",
    "France": "#2050c8",
    "Austrian Netherlands": "#f0f070",
    "Brunswick": "#b4503c",
    "Hanover": "#dc3232",
    "Hesse-Kassel": "#9632b4",
    "Lippe": "#ff8cb4",
    "Minden": "#8c3c3c",
    "Prussia": "#1e1e64",
    "Saxony": "#32b432",
    "Silesia": "#5a5ab4",
    "Swedish Pomerania": "#46c8e6",
    "East Prussia": "#8c8cb4",
    "Mecklinburg": "#b4b450",
    "Poland": "#e6b4b4",
    "Denmark": "#e64664",
    "United Provinces": "#ff9600",
}


def area_highlights(hexmap: HexMap, alpha: int = 90) -> list[Highlight]:
    """One highlight per area, tinted with the area's colour (for deployment pictures)."""
    by_area: dict[str, list[Hex]] = {}
    for h in hexmap.hexes:
        if hexmap.terrain(h).passable:
            by_area.setdefault(hexmap.area(h), []).append(h)
    out = []
    for area in sorted(by_area):
        rgb = _rgb(AREA_TINTS.get(area, "#808080"))[:3]
        out.append(Highlight(tuple(by_area[area]), (*rgb, alpha)))
    return out


def hex_of_latlon(hexmap: HexMap, lat: float, lon: float) -> Hex:
    """The hex of a place, by the map's own projection (Lambert azimuthal equal-area)."""
    p = hexmap.projection
    if p.get("proj") != "laea":
        raise ValueError(f"map {hexmap.name!r} has no Lambert azimuthal equal-area projection")
    radius = 6371.0088
    phi, lam = math.radians(lat), math.radians(lon - float(p["lon_0"]))
    phi0 = math.radians(float(p["lat_0"]))
    cos_c = math.sin(phi0) * math.sin(phi) + math.cos(phi0) * math.cos(phi) * math.cos(lam)
    k = math.sqrt(2.0 / (1.0 + cos_c))
    x = radius * k * math.cos(phi) * math.sin(lam)
    y = (
        radius
        * k
        * (math.cos(phi0) * math.sin(phi) - math.sin(phi0) * math.cos(phi) * math.cos(lam))
    )
    hex_km = float(p["hex_km"])
    x0, y0 = (float(v) for v in p["origin_xy"])
    rf = (y0 - y) / (hex_km * SQRT3 / 2)
    qf = (x - x0) / hex_km - rf / 2
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    if abs(q - qf) > abs(r - rf) and abs(q - qf) > abs(s - sf):
        q = -r - s
    elif abs(r - rf) > abs(s - sf):
        r = -q - s
    return Hex(int(q), int(r))


# --- drawing -------------------------------------------------------------------------------------


@dataclass
class _Canvas:
    image: Image.Image
    draw: ImageDraw.ImageDraw
    size: float
    dx: float
    dy: float

    def __post_init__(self) -> None:
        origin = Hex(0, 0)
        self.offsets = [(x, y) for x, y in hex_corners(origin, self.size)]

    def centre(self, h: Hex) -> tuple[float, float]:
        x, y = hex_to_pixel(h, self.size)
        return x + self.dx, y + self.dy

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.centre(h)
        return [(cx + ox, cy + oy) for ox, oy in self.offsets]

    def side(self, h: Hex, d: int) -> tuple[tuple[float, float], tuple[float, float]]:
        a, b = EDGE_CORNERS[d]
        cx, cy = self.centre(h)
        return (
            (cx + self.offsets[a][0], cy + self.offsets[a][1]),
            (cx + self.offsets[b][0], cy + self.offsets[b][1]),
        )


@dataclass(frozen=True)
class Frame:
    """Where ``render_map`` puts the hexes: their corner radius, the shift of hex centres from
    ``hex_to_pixel`` and the image size (so overlays drawn later land on the right hexes)."""

    size: float
    dx: float
    dy: float
    width: int
    height: int

    def centre(self, h: Hex) -> tuple[float, float]:
        x, y = hex_to_pixel(h, self.size)
        return x + self.dx, y + self.dy


def frame_of(hexes: Sequence[Hex], hex_size: float, margin: float = 1.2) -> Frame:
    """The frame of ``hexes`` drawn with ``hex_size``, ``margin`` hex sizes round them."""
    s = float(hex_size)
    xs, ys = zip(*(hex_to_pixel(h, s) for h in hexes), strict=True)
    m = s * margin
    return Frame(
        s,
        -min(xs) + m,
        -min(ys) + m,
        int(max(xs) - min(xs) + 2 * m),
        int(max(ys) - min(ys) + 2 * m),
    )


def render_map(
    hexmap: HexMap,
    *,
    region: Region | str | None = None,
    hex_size: float = 14.0,
    hex_ids: bool = False,
    labels: bool = True,
    overlays: Sequence[Overlay] = (),
    background: tuple[int, int, int] | None = None,
    margin: float = 1.2,
) -> Image.Image:
    """Draw the map (or a region of it) and the overlays; returns an RGB image.

    ``hex_size`` is the corner radius of a hex in pixels (a hex is ``hex_size * 1.73`` wide).
    ``background`` paints what lies outside the map's hexes (default: sea blue; the tiles of the
    map widget and the seat pictures use ``NEUTRAL``); ``margin`` is its width round the hexes,
    in hex sizes (``frame_of``). City names never run off the image: one that would is set on
    the other side of its symbol.
    """
    if isinstance(region, str):
        region = Region.parse(region, hexmap)
    hexes = region.hexes(hexmap) if region else list(hexmap.hexes)
    if not hexes:
        raise ValueError("the region holds no hex of the map")
    wanted = set(hexes)
    f = frame_of(hexes, hex_size, margin)
    image = Image.new("RGB", (f.width, f.height), background or TERRAIN_FILL[Terrain.SEA])
    c = _Canvas(image, ImageDraw.Draw(image), f.size, f.dx, f.dy)

    _draw_terrain(c, hexmap, hexes)
    _draw_borders(c, hexmap, hexes, wanted)
    _draw_rivers(c, hexmap, wanted)
    _draw_roads(c, hexmap, wanted)
    if hex_ids:
        _draw_hex_ids(c, hexes)
    _draw_cities(c, hexmap, wanted, labels)
    _draw_overlays(c, overlays, wanted)
    return image


def render_png(hexmap: HexMap, **kwargs) -> bytes:
    """``render_map`` as PNG bytes."""
    buffer = io.BytesIO()
    render_map(hexmap, **kwargs).save(buffer, format="PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def _draw_terrain(c: _Canvas, hexmap: HexMap, hexes: Iterable[Hex]) -> None:
    line = max(1, int(c.size / 14))
    for h in hexes:
        terrain = hexmap.terrain(h)
        pts = c.corners(h)
        c.draw.polygon(pts, fill=TERRAIN_FILL[terrain])
        cx, cy = c.centre(h)
        s = c.size
        if terrain is Terrain.MARSH:
            for k in (-0.35, 0.0, 0.35):
                y = cy + k * s
                for x0 in (-0.5, 0.1):
                    c.draw.line(
                        [(cx + x0 * s, y), (cx + (x0 + 0.35) * s, y)], fill=MARSH_HATCH, width=line
                    )
        elif terrain is Terrain.ROUGH:
            for ox, oy in ((-0.3, 0.15), (0.25, -0.2), (0.3, 0.35)):
                x, y = cx + ox * s, cy + oy * s
                c.draw.line(
                    [(x - 0.18 * s, y + 0.1 * s), (x, y - 0.12 * s), (x + 0.18 * s, y + 0.1 * s)],
                    fill=ROUGH_MARK,
                    width=line,
                )
    for h in hexes:
        if hexmap.terrain(h).passable:
            c.draw.polygon(c.corners(h), outline=GRID)


def _draw_borders(c: _Canvas, hexmap: HexMap, hexes: Iterable[Hex], wanted: set[Hex]) -> None:
    width = max(1, int(c.size / 8))
    terrain_of, area_of = hexmap.terrain_of, hexmap.area_of
    for h in hexes:
        for d in (1, 2, 3, 4, 5, 6):
            n = neighbour(h, d)
            if n not in terrain_of:
                continue
            if d in (4, 5, 6) and n in wanted:
                continue  # each side once
            t1, t2 = terrain_of[h], terrain_of[n]
            if t1.passable != t2.passable:
                a, b = c.side(h, d)
                c.draw.line([a, b], fill=SHORE, width=max(1, width // 2))
            elif t1.passable and area_of[h] != area_of[n]:
                a, b = c.side(h, d)
                _dashed(c.draw, a, b, BORDER, width)


def _dashed(draw: ImageDraw.ImageDraw, a, b, colour, width: int) -> None:
    (x1, y1), (x2, y2) = a, b
    for t0, t1 in ((0.0, 0.4), (0.6, 1.0)):
        draw.line(
            [
                (x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0),
                (x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1),
            ],
            fill=colour,
            width=width,
        )


def river_width(s: float, major: bool) -> int:
    """The width in pixels of a major or minor river for hexes of corner radius ``s``."""
    return max(3, int(s * 0.32)) if major else max(2, int(s * 0.2))


def road_width(s: float) -> int:
    return max(2, int(s * 0.14))


def bridge_width(s: float) -> int:
    return max(2, int(s * 0.18))


def _draw_rivers(c: _Canvas, hexmap: HexMap, wanted: set[Hex]) -> None:
    major = river_width(c.size, True)
    minor = river_width(c.size, False)
    for course in hexmap.river_courses:
        width = major if course.river is River.MAJOR else minor
        for side in course.sides:
            h, d = side
            if h not in wanted and neighbour(h, d) not in wanted:
                continue
            a, b = c.side(h, d)
            c.draw.line([a, b], fill=RIVER, width=width)
            r = width / 2
            for x, y in (a, b):  # round joints
                c.draw.ellipse([x - r, y - r, x + r, y + r], fill=RIVER)
    bar = bridge_width(c.size)
    for side in hexmap.bridges:
        h, d = side
        if h not in wanted and neighbour(h, d) not in wanted:
            continue
        (x1, y1), (x2, y2) = c.side(h, d)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        # a bar across the river, from one hex centre towards the other
        (ax, ay), (bx, by) = c.centre(h), c.centre(neighbour(h, d))
        ux, uy = (bx - ax) / c.size, (by - ay) / c.size
        k = 0.35 * c.size / math.hypot(ux, uy) if (ux or uy) else 0
        ux, uy = ux / math.hypot(ux, uy) * k, uy / math.hypot(ux, uy) * k
        c.draw.line([(mx - ux, my - uy), (mx + ux, my + uy)], fill=INK, width=bar)


def _draw_roads(c: _Canvas, hexmap: HexMap, wanted: set[Hex]) -> None:
    width = road_width(c.size)
    for road in hexmap.roads:
        for a, b in zip(road.hexes, road.hexes[1:], strict=False):
            if a in wanted or b in wanted:
                c.draw.line([c.centre(a), c.centre(b)], fill=ROAD, width=width)


def _draw_hex_ids(c: _Canvas, hexes: Iterable[Hex]) -> None:
    f = font(max(6, int(c.size * 0.42)))
    for h in hexes:
        cx, cy = c.centre(h)
        c.draw.text((cx, cy - c.size * 0.62), hex_id(h), font=f, fill=(110, 110, 110), anchor="mm")


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list:
    out = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * inner
        a = math.pi / points * i - math.pi / 2
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def _bastion_outline(cx: float, cy: float, r: float, bastions: int) -> list:
    """A trace italienne: a polygon with one pointed bastion per side."""
    n = max(4, min(bastions, 10))
    out = []
    for i in range(n * 2):
        rr = r if i % 2 == 0 else r * 0.72
        a = 2 * math.pi / (n * 2) * i - math.pi / 2
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def draw_city_symbol(
    d: ImageDraw.ImageDraw, s: float, size: CitySize, fortress: bool, bastions: int, cx, cy
) -> None:
    """The City Chart's symbol of a city (2.3.1) at (cx, cy) for hexes of corner radius ``s``,
    with a bastioned outline for a fortress (also drawn in the map pictures' legends)."""
    r = s * 0.34
    if fortress:
        d.polygon(_bastion_outline(cx, cy, s * 0.62, bastions), fill=(255, 255, 255), outline=INK)
        d.polygon(_bastion_outline(cx, cy, s * 0.62, bastions), outline=INK)
    w = max(1, int(s / 10))
    if size is CitySize.CIRCLED_STAR:
        d.ellipse(
            [cx - r * 1.35, cy - r * 1.35, cx + r * 1.35, cy + r * 1.35],
            fill=HALO,
            outline=INK,
            width=w,
        )
        d.polygon(_star(cx, cy, r * 1.15), fill=INK)
    elif size is CitySize.STAR:
        d.polygon(_star(cx, cy, r * 1.3), fill=INK)
    elif size is CitySize.SQUARE:
        d.rectangle([cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8], fill=INK)
    elif size is CitySize.CIRCLED_DOT:
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=HALO, outline=INK, width=w)
        d.ellipse([cx - r * 0.4, cy - r * 0.4, cx + r * 0.4, cy + r * 0.4], fill=INK)
    elif size is CitySize.CIRCLE:
        d.ellipse(
            [cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8],
            fill=HALO,
            outline=INK,
            width=w,
        )
    else:
        d.ellipse([cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5], fill=INK)


def _draw_cities(c: _Canvas, hexmap: HexMap, wanted: set[Hex], labels: bool) -> None:
    big = font(max(7, int(c.size * 0.78)), bold=True)
    small = font(max(6, int(c.size * 0.62)))
    tiny = font(max(5, int(c.size * 0.45)))
    for city in hexmap.cities:
        if city.hex not in wanted:
            continue
        cx, cy = c.centre(city.hex)
        draw_city_symbol(c.draw, c.size, city.size, city.fortress, city.bastions, cx, cy)
        if not labels:
            continue
        f = big if city.size in (CitySize.CIRCLED_STAR, CitySize.STAR) else small
        vp = f"{city.vp} VP {city.bastions} b" if city.fortress else ""
        width = max(c.draw.textlength(city.name, font=f), c.draw.textlength(vp, font=tiny))
        x, y, anchor = _label_place(c, hexmap, city.hex, cx, cy, width)
        c.draw.text(
            (x, y), city.name, font=f, fill=INK, anchor=anchor, stroke_width=2, stroke_fill=HALO
        )
        if vp:
            c.draw.text(
                (x, y + c.size * 0.62),
                vp,
                font=tiny,
                fill=(90, 40, 40),
                anchor=anchor,
                stroke_width=1,
                stroke_fill=HALO,
            )


def name_side(hexmap: HexMap, h: Hex, right_fits: bool = True, left_fits: bool = True) -> str:
    """Where a city's name goes beside its symbol: "right" unless a city stands in the next hex
    East (or the name would run off the image), then "left", then "below". The map widget moves
    a stack in a city's hex off that side, so the name stays readable (static/js/mapwidget.js).
    """
    if right_fits and (hexmap.city_at(neighbour(h, 4)) is None or not left_fits):
        return "right"
    if left_fits and (hexmap.city_at(neighbour(h, 1)) is None or not right_fits):
        return "left"
    return "below"


def _label_place(c: _Canvas, hexmap: HexMap, h: Hex, cx: float, cy: float, width: float):
    """Right of the symbol, or left, or below (kept inside the image): ``name_side``."""
    s = c.size
    right_fits = cx + s * 0.7 + width + 2 <= c.image.width
    left_fits = cx - s * 0.7 - width - 2 >= 0
    side = name_side(hexmap, h, right_fits, left_fits)
    if side == "right":
        return cx + s * 0.7, cy, "lm"
    if side == "left":
        return cx - s * 0.7, cy, "rm"
    x = min(max(cx, width / 2 + 2), c.image.width - width / 2 - 2)
    return x, cy + s * 0.75, "mt"


def _draw_overlays(c: _Canvas, overlays: Sequence[Overlay], wanted: set[Hex]) -> None:
    base = c.image
    if not overlays:
        return
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    for item in overlays:
        if isinstance(item, Highlight):
            fill = _rgb(item.colour)
            if len(fill) == 3:
                fill = (*fill, 110)
            outline = _rgb(item.outline) if item.outline else None
            for h in item.hexes:
                if h in wanted:
                    ld.polygon(c.corners(h), fill=fill, outline=outline)
    base.paste(Image.alpha_composite(base.convert("RGBA"), layer).convert("RGB"))
    d = c.draw
    f = font(max(7, int(c.size * 0.55)), bold=True)
    for item in overlays:
        if isinstance(item, Arrow):
            pts = [c.centre(h) for h in item.hexes]
            width = max(2, int(c.size * item.width))
            colour = _rgb(item.colour)[:3]
            if len(pts) >= 2:
                d.line(pts, fill=colour, width=width, joint="curve")
                (x1, y1), (x2, y2) = pts[-2], pts[-1]
                ang = math.atan2(y2 - y1, x2 - x1)
                L = c.size * 0.6
                head = [
                    (x2, y2),
                    (x2 - L * math.cos(ang - 0.45), y2 - L * math.sin(ang - 0.45)),
                    (x2 - L * math.cos(ang + 0.45), y2 - L * math.sin(ang + 0.45)),
                ]
                d.polygon(head, fill=colour)
            if item.label and pts:
                d.text(
                    pts[0],
                    item.label,
                    font=f,
                    fill=colour,
                    anchor="mb",
                    stroke_width=2,
                    stroke_fill=HALO,
                )
    for item in overlays:
        if isinstance(item, Counter) and item.hex in wanted:
            cx, cy = c.centre(item.hex)
            off = item.stack * c.size * 0.25
            w = c.size * 0.75
            box = [cx - w + off, cy - w * 0.75 - off, cx + w + off, cy + w * 0.75 - off]
            d.rectangle(
                box, fill=_rgb(item.colour)[:3], outline=INK, width=max(1, int(c.size / 10))
            )
            d.text(
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                item.label[:8],
                font=f,
                fill=_rgb(item.text_colour)[:3],
                anchor="mm",
            )
        elif isinstance(item, Note) and item.hex in wanted:
            cx, cy = c.centre(item.hex)
            pos = (cx, cy - c.size * 1.0)
            if item.background:
                bbox = d.textbbox(pos, item.text, font=f, anchor="mb")
                bg = Image.new("RGBA", base.size, (0, 0, 0, 0))
                ImageDraw.Draw(bg).rectangle(
                    [bbox[0] - 3, bbox[1] - 2, bbox[2] + 3, bbox[3] + 2],
                    fill=_rgba(item.background),
                )
                base.paste(Image.alpha_composite(base.convert("RGBA"), bg).convert("RGB"))
            d.text(pos, item.text, font=f, fill=_rgb(item.colour)[:3], anchor="mb")


def _rgba(colour) -> tuple:
    rgb = _rgb(colour)
    return rgb if len(rgb) == 4 else (*rgb, 255)


__all__ = [
    "Arrow",
    "Counter",
    "Frame",
    "Highlight",
    "Note",
    "Overlay",
    "Region",
    "area_highlights",
    "bridge_width",
    "draw_city_symbol",
    "frame_of",
    "hex_of_latlon",
    "render_map",
    "render_png",
    "river_width",
    "road_width",
]
