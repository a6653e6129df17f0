"""The battle table as a picture (Pillow): readable in black and white.

Every kind of scenery has its own pattern and outline (woods tree rings, hills hatching and a
contour, marsh tufts, towns stipple, buildings solid, fortress a heavy bastioned trace, rivers two
black banks, bridges a deck, fords dashes, field works a toothed line, roads two black verges);
colour is only a light tint on top. A grid of 6-inch squares with every foot in bold and
labelled, a scale bar, a north arrow, a legend and each side's deployment edge and retreat edge
named in the margin complete it.

>>> from tabletop.layout import TableRequest, TableSide, generate
>>> from maps.core.model import Terrain
>>> sides = (TableSide("Prussians", (2,)), TableSide("Austrians", (5,)))
>>> layout = generate(TableRequest(terrain=Terrain.CLEAR, sides=sides, seed="doc"))
>>> render_image(layout, pixels_per_inch=10).size == image_size(layout, 10)
True
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rules.dice import short_code
from tabletop.geometry import clip_segment
from tabletop.layout import Edge, Feature, FeatureKind, TableLayout

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
MARGIN_LEFT = 70
MARGIN_RIGHT = 70
MARGIN_TOP = 100
MARGIN_BOTTOM = 245

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
GRID_MINOR = (205, 205, 205)
GRID_MAJOR = (140, 140, 140)

# Light tints only: the patterns carry the meaning.
TINT = {
    FeatureKind.WOOD: (214, 232, 206),
    FeatureKind.HILL: (236, 224, 200),
    FeatureKind.MARSH: (222, 232, 236),
    FeatureKind.TOWN: (238, 238, 238),
    FeatureKind.FORTRESS: (246, 240, 228),
    FeatureKind.RIVER: (196, 216, 240),
    FeatureKind.ROAD: (236, 222, 190),
    FeatureKind.WATER: (196, 216, 240),
}

LEGEND = (
    (FeatureKind.WOOD, "wood"),
    (FeatureKind.HILL, "hill"),
    (FeatureKind.MARSH, "marsh"),
    (FeatureKind.TOWN, "town / village"),
    (FeatureKind.BUILDING, "building (house model)"),
    (FeatureKind.FORTRESS, "fortress walls"),
    (FeatureKind.RIVER, "river"),
    (FeatureKind.BRIDGE, "bridge"),
    (FeatureKind.FORD, "ford"),
    (FeatureKind.FIELD_WORKS, "field works (9.4)"),
    (FeatureKind.ROAD, "road (from the campaign map)"),
    (FeatureKind.WATER, "sea or lake (not passable)"),
)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (Debian's fonts-dejavu-core), else Pillow's own font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(str(FONT_DIR / name), size)
    except OSError:
        return ImageFont.load_default(size=size)


def image_size(layout: TableLayout, pixels_per_inch: float = 10) -> tuple[int, int]:
    """The picture's size in pixels: the table at ``pixels_per_inch`` plus the margins (taller
    when the legend needs more than its five rows)."""
    width = round(layout.width * pixels_per_inch) + MARGIN_LEFT + MARGIN_RIGHT
    present = [(k, text) for k, text in LEGEND if layout.of_kind(k)]
    rows = _legend_slots(present, width)[1] + 1  # and the deployment zones' row
    extra = LEGEND_ROW * max(0, rows - LEGEND_ROWS)
    return width, round(layout.depth * pixels_per_inch) + MARGIN_TOP + MARGIN_BOTTOM + extra


LEGEND_ROW = 24
LEGEND_ROWS = 5  # rows the bottom margin holds


def _legend_slots(
    present: Sequence[tuple[FeatureKind, str]], image_width: int
) -> tuple[list[tuple[FeatureKind, str, int, int]], int]:
    """Where each legend entry goes: (kind, text, x, row), and the rows they take. Columns are
    170 px apart, a long entry taking two; a new row when the next would not fit."""
    small = font(11)
    slots, x, row = [], MARGIN_LEFT, 0
    for kind, text in present:
        step = 170 * (1 + (32 + small.getlength(text) + 12 > 170))
        if x > MARGIN_LEFT and x + step > image_width - 10:
            x, row = MARGIN_LEFT, row + 1
        slots.append((kind, text, x, row))
        x += step
    return slots, row + 1 if slots else 0


def render_png(layout: TableLayout, *, title: str = "", pixels_per_inch: float = 10) -> bytes:
    buffer = io.BytesIO()
    render_image(layout, title=title, pixels_per_inch=pixels_per_inch).save(buffer, "PNG")
    return buffer.getvalue()


def render_image(
    layout: TableLayout, *, title: str = "", pixels_per_inch: float = 10
) -> Image.Image:
    return _Renderer(layout, pixels_per_inch).draw(title)


class _Renderer:
    def __init__(self, layout: TableLayout, ppi: float) -> None:
        self.layout = layout
        self.ppi = ppi
        self.size = image_size(layout, ppi)
        self.image = Image.new("RGB", self.size, WHITE)
        self.draw_ = ImageDraw.Draw(self.image)
        self.table_px = (round(layout.width * ppi), round(layout.depth * ppi))

    # ---- coordinates --------------------------------------------------------------------
    def px(self, point: tuple[float, float]) -> tuple[float, float]:
        return (MARGIN_LEFT + point[0] * self.ppi, MARGIN_TOP + point[1] * self.ppi)

    def pxs(self, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [self.px(p) for p in points]

    # ---- the whole picture --------------------------------------------------------------
    def draw(self, title: str) -> Image.Image:
        self._deployment_zones()
        self._grid()
        by_kind = {kind: self.layout.of_kind(kind) for kind in FeatureKind}
        for f in by_kind[FeatureKind.WATER]:
            self._area(f)
        for kind in (FeatureKind.MARSH, FeatureKind.HILL, FeatureKind.WOOD):
            for f in by_kind[kind]:
                self._area(f)
        for f in by_kind[FeatureKind.FORTRESS]:
            self._fortress(f)
        for f in by_kind[FeatureKind.TOWN]:
            self._town(f)
        for f in by_kind[FeatureKind.ROAD]:
            self._road(f)
        for f in by_kind[FeatureKind.RIVER]:
            self._river(f)
        for f in by_kind[FeatureKind.BUILDING]:
            self.draw_.polygon(self.pxs(f.points), fill=(70, 70, 70), outline=BLACK)
        for f in by_kind[FeatureKind.FORD]:
            self._ford(f)
        for f in by_kind[FeatureKind.BRIDGE]:
            self._bridge(f)
        for f in by_kind[FeatureKind.FIELD_WORKS]:
            self._works(f)
        self._clear_margins()
        self._border()
        self._labels(by_kind)
        self._deployment_labels()
        self._title(title)
        self._north_arrow()
        self._scale_bar()
        self._legend(by_kind)
        return self.image

    # ---- patterns -----------------------------------------------------------------------
    def _pattern(self, kind: FeatureKind) -> Image.Image:
        """A table-sized tile of ``kind``'s pattern over its tint."""
        w, h = self.size
        tile = Image.new("RGB", (w, h), TINT.get(kind, WHITE))
        d = ImageDraw.Draw(tile)
        step = max(6, round(self.ppi * 1.2))
        if kind is FeatureKind.HILL:
            for c in range(-h, w, step):
                d.line([(c, 0), (c + h, h)], fill=(120, 100, 70), width=1)
        elif kind is FeatureKind.WOOD:
            r = max(2, step // 3)
            for j, y in enumerate(range(0, h, step)):
                for x in range(0 if j % 2 else step // 2, w, step):
                    d.ellipse([x - r, y - r, x + r, y + r], outline=(20, 70, 20), width=1)
        elif kind is FeatureKind.MARSH:
            for j, y in enumerate(range(0, h, step)):
                for x in range(0 if j % 2 else step // 2, w, step * 2):
                    d.line([(x, y), (x + step, y)], fill=(40, 60, 80), width=1)
                    d.line([(x + step / 2, y), (x + step / 2, y - step / 3)], fill=(40, 60, 80))
        elif kind is FeatureKind.TOWN:
            for y in range(0, h, 4):
                for x in range(0 if (y // 4) % 2 else 2, w, 4):
                    d.point((x, y), fill=(120, 120, 120))
        elif kind is FeatureKind.FORTRESS:
            for c in range(-h, w, step):
                d.line([(c, 0), (c + h, h)], fill=(170, 150, 120))
                d.line([(c, h), (c + h, 0)], fill=(170, 150, 120))
        elif kind is FeatureKind.WATER:  # waves
            for j, y in enumerate(range(step // 2, h, step)):
                for x in range(0 if j % 2 else step, w, step * 2):
                    d.arc([x, y - step / 3, x + step, y + step / 3], 200, 340, fill=(60, 80, 120))
        return tile

    def _fill(self, points: Sequence[tuple[float, float]], kind: FeatureKind) -> None:
        """Fill the outline with the kind's pattern, working only in its bounding box."""
        pts = self.pxs(points)
        x0 = max(0, int(min(x for x, _ in pts)))
        y0 = max(0, int(min(y for _, y in pts)))
        x1 = min(self.size[0], int(max(x for x, _ in pts)) + 2)
        y1 = min(self.size[1], int(max(y for _, y in pts)) + 2)
        if x1 <= x0 or y1 <= y0:
            return
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in pts], fill=255)
        self.image.paste(self._tile(kind).crop((x0, y0, x1, y1)), (x0, y0), mask)

    def _tile(self, kind: FeatureKind) -> Image.Image:
        cache_ = self.__dict__.setdefault("_tiles", {})
        if kind not in cache_:
            cache_[kind] = self._pattern(kind)
        return cache_[kind]

    # ---- features ------------------------------------------------------------------------
    def _area(self, f: Feature) -> None:
        self._fill(f.points, f.kind)
        points = self.pxs(f.points)
        self.draw_.line([*points, points[0]], fill=BLACK, width=2, joint="curve")
        if f.kind is FeatureKind.HILL:
            cx, cy = self.px((f.x, f.y))
            inner = [(cx + (x - cx) * 0.5, cy + (y - cy) * 0.5) for x, y in points]
            self.draw_.line([*inner, inner[0]], fill=(90, 70, 40), width=1)

    def _fortress(self, f: Feature) -> None:
        self._fill(f.points, FeatureKind.FORTRESS)
        points = self.pxs(f.points)
        self.draw_.line([*points, points[0]], fill=BLACK, width=4, joint="curve")

    def _town(self, f: Feature) -> None:
        self._fill(f.points, FeatureKind.TOWN)
        points = self.pxs(f.points)
        _dashed(self.draw_, [*points, points[0]], fill=BLACK, width=1, dash=5)

    def _river(self, f: Feature) -> None:
        points = self.pxs(f.points)
        width = max(3, round(f.line_width * self.ppi))
        self.draw_.line(points, fill=BLACK, width=width + 4, joint="curve")
        self.draw_.line(points, fill=TINT[FeatureKind.RIVER], width=width, joint="curve")
        # A thin wavy mid-line says "water" without colour.
        _dashed(self.draw_, points, fill=(60, 80, 120), width=1, dash=7)

    def _ford(self, f: Feature) -> None:
        a, b = self.pxs(f.points)
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        half = f.line_width * self.ppi / 2
        for k in (-1, 0, 1):
            off = k * half * 0.7
            _dashed(
                self.draw_,
                [(a[0] + nx * off, a[1] + ny * off), (b[0] + nx * off, b[1] + ny * off)],
                fill=BLACK,
                width=2,
                dash=3,
            )

    def _bridge(self, f: Feature) -> None:
        a, b = self.pxs(f.points)
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        half = f.line_width * self.ppi / 2
        deck = [
            (a[0] + nx * half, a[1] + ny * half),
            (b[0] + nx * half, b[1] + ny * half),
            (b[0] - nx * half, b[1] - ny * half),
            (a[0] - nx * half, a[1] - ny * half),
        ]
        self.draw_.polygon(deck, fill=(250, 250, 250), outline=BLACK, width=3)

    def _works(self, f: Feature) -> None:
        points = self.pxs(f.points)
        self.draw_.line(points, fill=BLACK, width=4)
        a, b = points[0], points[-1]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        # Teeth toward the middle of the table: the works face the enemy.
        mx, my = self.px((self.layout.width / 2, self.layout.depth / 2))
        nx, ny = -uy, ux
        if nx * (mx - a[0]) + ny * (my - a[1]) < 0:
            nx, ny = -nx, -ny
        tooth = max(3.0, self.ppi * 0.6)
        t = 0.0
        while t <= length:
            x, y = a[0] + ux * t, a[1] + uy * t
            self.draw_.line([(x, y), (x + nx * tooth, y + ny * tooth)], fill=BLACK, width=2)
            t += max(4.0, self.ppi)

    def _road(self, f: Feature) -> None:
        """Two black verges and a light tan bed: a road, readable in black and white."""
        points = self.pxs(f.points)
        width = max(4, round(f.line_width * self.ppi))
        self.draw_.line(points, fill=BLACK, width=width, joint="curve")
        self.draw_.line(points, fill=TINT[FeatureKind.ROAD], width=width - 4, joint="curve")

    # ---- table furniture -----------------------------------------------------------------
    def _deployment_zones(self) -> None:
        w, h = self.layout.width, self.layout.depth
        for d in self.layout.deployments:
            z = d.zone
            box = {
                Edge.NORTH: (0, 0, w, z),
                Edge.SOUTH: (0, h - z, w, h),
                Edge.WEST: (0, 0, z, h),
                Edge.EAST: (w - z, 0, w, h),
            }[d.edge]
            x0, y0 = self.px((box[0], box[1]))
            x1, y1 = self.px((box[2], box[3]))
            step = 14
            for c in range(int(x0 - (y1 - y0)), int(x1), step):
                seg = clip_segment((c, y1), (c + (y1 - y0), y0), (x0, y0, x1, y1))
                if seg:
                    self.draw_.line(seg, fill=(222, 222, 222), width=2)
            self.draw_.rectangle([x0, y0, x1, y1], outline=(150, 150, 150), width=1)

    def _grid(self) -> None:
        w, h = self.layout.width, self.layout.depth
        for inches in range(0, int(w) + 1, 6):
            major = inches % 12 == 0
            self.draw_.line(
                [self.px((inches, 0)), self.px((inches, h))],
                fill=GRID_MAJOR if major else GRID_MINOR,
                width=1,
            )
        for inches in range(0, int(h) + 1, 6):
            major = inches % 12 == 0
            self.draw_.line(
                [self.px((0, inches)), self.px((w, inches))],
                fill=GRID_MAJOR if major else GRID_MINOR,
                width=1,
            )

    def _clear_margins(self) -> None:
        """Scenery stops at the table's edge."""
        w, h = self.size
        x0, y0 = self.px((0, 0))
        x1, y1 = self.px((self.layout.width, self.layout.depth))
        for box in ((0, 0, w, y0), (0, y1, w, h), (0, 0, x0, h), (x1, 0, w, h)):
            self.draw_.rectangle(box, fill=WHITE)

    def _border(self) -> None:
        x0, y0 = self.px((0, 0))
        x1, y1 = self.px((self.layout.width, self.layout.depth))
        self.draw_.rectangle([x0, y0, x1, y1], outline=BLACK, width=3)
        small = font(11)
        for inches in range(0, int(self.layout.width) + 1, 12):
            x, _ = self.px((inches, 0))
            text = f"{inches // 12} ft" if inches else "0"
            self.draw_.text((x, y0 - 4), text, font=small, fill=BLACK, anchor="md")
            self.draw_.text((x, y1 + 4), f'{inches}"', font=small, fill=BLACK, anchor="ma")
        for inches in range(0, int(self.layout.depth) + 1, 12):
            _, y = self.px((0, inches))
            text = f"{inches // 12} ft" if inches else "0"
            self.draw_.text((x0 - 5, y), text, font=small, fill=BLACK, anchor="rm")
            self.draw_.text((x1 + 5, y), f'{inches}"', font=small, fill=BLACK, anchor="lm")

    def _labels(self, by_kind: dict[FeatureKind, tuple[Feature, ...]]) -> None:
        label_font = font(max(10, round(self.ppi * 1.1)), bold=True)
        for kind in (FeatureKind.WOOD, FeatureKind.HILL, FeatureKind.MARSH, FeatureKind.WATER):
            for f in by_kind[kind]:
                self._text(self.px((f.x, f.y)), f.label, label_font)
        for f in by_kind[FeatureKind.TOWN]:
            if ", part " in f.label:
                continue  # the rest of a town cut by a river: its first part carries the name
            top = self.px((f.x, f.y - f.depth / 2))
            self._text((top[0], top[1] - 8), f.label, label_font)
        for f in by_kind[FeatureKind.RIVER]:
            mid = f.points[len(f.points) // 2]
            self._text(self.px(mid), f.label, font(max(9, round(self.ppi))))
        for f in by_kind[FeatureKind.FORTRESS]:
            bottom = self.px((f.x, f.y + f.depth / 2))
            self._text((bottom[0], bottom[1] + 10), f.label, font(max(9, round(self.ppi))))

    def _text(self, at: tuple[float, float], text: str, face: ImageFont.ImageFont) -> None:
        self.draw_.text(
            at, text, font=face, fill=BLACK, anchor="mm", stroke_width=3, stroke_fill=WHITE
        )

    def _deployment_labels(self) -> None:
        face = font(15, bold=True)
        x0, y0 = self.px((0, 0))
        x1, y1 = self.px((self.layout.width, self.layout.depth))
        for d in self.layout.deployments:
            text = f'{d.side}: deploys here ({d.zone:g}"), retreats off the {d.edge.value} edge'
            if d.edge is Edge.NORTH:
                self.draw_.text(((x0 + x1) / 2, y0 - 24), text, font=face, fill=BLACK, anchor="md")
            elif d.edge is Edge.SOUTH:
                self.draw_.text(((x0 + x1) / 2, y1 + 22), text, font=face, fill=BLACK, anchor="ma")
            else:
                label = _rotated_text(text, face, 90 if d.edge is Edge.WEST else -90)
                x = x0 - 40 - label.width if d.edge is Edge.WEST else x1 + 40
                self.image.paste(label, (int(x), int((y0 + y1) / 2 - label.height / 2)), label)

    def _title(self, title: str) -> None:
        w = self.size[0]
        terrain = self.layout.terrain.label
        feet = f"{self.layout.width / 12:g} × {self.layout.depth / 12:g} ft"
        text = title or "Battle table"
        self.draw_.text((w / 2, 8), text, font=font(18, bold=True), fill=BLACK, anchor="ma")
        code = short_code(self.layout.seed)
        sub = f"{terrain} hex (9.3), {feet} table, north up, table code {code}"
        self.draw_.text((w / 2, 32), sub, font=font(12), fill=BLACK, anchor="ma")

    def _north_arrow(self) -> None:
        x, y = self.size[0] - 32, 18
        self.draw_.polygon([(x, y), (x - 9, y + 30), (x, y + 23)], fill=BLACK, outline=BLACK)
        self.draw_.polygon([(x, y), (x + 9, y + 30), (x, y + 23)], fill=WHITE, outline=BLACK)
        self.draw_.text((x, y + 34), "N", font=font(14, bold=True), fill=BLACK, anchor="ma")

    def _scale_bar(self) -> None:
        x0 = MARGIN_LEFT
        y0 = MARGIN_TOP + self.table_px[1] + 72  # below a south edge's deployment label
        block = 6 * self.ppi
        for i in range(4):
            fill = BLACK if i % 2 == 0 else WHITE
            self.draw_.rectangle(
                [x0 + i * block, y0, x0 + (i + 1) * block, y0 + 8], fill=fill, outline=BLACK
            )
        small = font(11)
        for i, text in enumerate(("0", '6"', "1 ft", '18"', "2 ft")):
            self.draw_.text((x0 + i * block, y0 + 11), text, font=small, fill=BLACK, anchor="ma")
        self.draw_.text(
            (x0, y0 - 4), "Scale (grid: 6-inch squares, feet in bold)", font=small, fill=BLACK,
            anchor="ld",
        )  # fmt: skip

    def _legend(self, by_kind: dict[FeatureKind, tuple[Feature, ...]]) -> None:
        present = [(k, text) for k, text in LEGEND if by_kind[k]]
        x = MARGIN_LEFT
        top = MARGIN_TOP + self.table_px[1] + 115  # under the scale bar
        small = font(11)
        slots, rows = _legend_slots(present, self.size[0])
        for kind, text, sx, row in slots:
            y = top + row * LEGEND_ROW
            box = [(sx, y), (sx + 26, y), (sx + 26, y + 16), (sx, y + 16)]
            self._swatch(kind, box)
            self.draw_.text((sx + 32, y + 8), text, font=small, fill=BLACK, anchor="lm")
        # the deployment zones (hatched) and the retreat edge each lies on, on a row of its own
        sx, y = x, top + rows * LEGEND_ROW
        self.draw_.rectangle([sx, y, sx + 26, y + 16], outline=(150, 150, 150), width=1)
        for k in range(-16, 26, 7):
            seg = clip_segment((sx + k, y + 16), (sx + k + 16, y), (sx, y, sx + 26, y + 16))
            if seg:
                self.draw_.line(seg, fill=(190, 190, 190), width=2)
        text = "deployment zone; its edge is the side's retreat edge (10.1)"
        self.draw_.text((sx + 32, y + 8), text, font=small, fill=BLACK, anchor="lm")

    def _swatch(self, kind: FeatureKind, box: list[tuple[float, float]]) -> None:
        (x0, y0), (x1, _), (_, y1) = box[0], box[1], box[2]
        mid = (y0 + y1) / 2
        if kind in (
            FeatureKind.WOOD,
            FeatureKind.HILL,
            FeatureKind.MARSH,
            FeatureKind.TOWN,
            FeatureKind.WATER,
        ):
            box = (int(x0), int(y0), int(x1), int(y1))
            self.image.paste(self._tile(kind).crop(box), box[:2])
            outline = BLACK if kind is not FeatureKind.TOWN else (90, 90, 90)
            self.draw_.rectangle([x0, y0, x1, y1], outline=outline, width=2)
        elif kind is FeatureKind.FORTRESS:
            box = (int(x0), int(y0), int(x1), int(y1))
            self.image.paste(self._tile(kind).crop(box), box[:2])
            self.draw_.rectangle([x0, y0, x1, y1], outline=BLACK, width=4)
        elif kind is FeatureKind.BUILDING:
            self.draw_.rectangle([x0 + 6, y0 + 3, x1 - 6, y1 - 3], fill=(70, 70, 70), outline=BLACK)
        elif kind is FeatureKind.RIVER:
            self.draw_.rectangle([x0, y0 + 2, x1, y1 - 2], fill=TINT[kind], outline=BLACK, width=2)
        elif kind is FeatureKind.BRIDGE:
            self.draw_.rectangle([x0, y0 + 2, x1, y1 - 2], fill=TINT[FeatureKind.RIVER])
            deck = [x0 + 9, y0, x1 - 9, y1]
            self.draw_.rectangle(deck, fill=(250, 250, 250), outline=BLACK, width=2)
        elif kind is FeatureKind.FORD:
            self.draw_.rectangle([x0, y0 + 2, x1, y1 - 2], fill=TINT[FeatureKind.RIVER])
            for k in (-4, 0, 4):
                _dashed(self.draw_, [(x0 + 13 + k, y0), (x0 + 13 + k, y1)], BLACK, 2, 3)
        elif kind is FeatureKind.ROAD:
            self.draw_.rectangle([x0, y0 + 3, x1, y1 - 3], fill=TINT[kind], outline=BLACK, width=2)
        elif kind is FeatureKind.FIELD_WORKS:
            self.draw_.line([(x0, mid), (x1, mid)], fill=BLACK, width=4)
            for tx in range(int(x0), int(x1) + 1, 6):
                self.draw_.line([(tx, mid), (tx, mid - 6)], fill=BLACK, width=2)


def _dashed(
    draw: ImageDraw.ImageDraw,
    points: Sequence[tuple[float, float]],
    fill: tuple[int, int, int],
    width: int,
    dash: int,
) -> None:
    on = True
    left = float(dash)
    for a, b in zip(points, points[1:], strict=False):
        length = math.dist(a, b)
        if length == 0:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        t = 0.0
        while t < length:
            step = min(left, length - t)
            if on:
                start = (a[0] + ux * t, a[1] + uy * t)
                end = (a[0] + ux * (t + step), a[1] + uy * (t + step))
                draw.line([start, end], fill=fill, width=width)
            t += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = float(dash)


def _rotated_text(text: str, face: ImageFont.ImageFont, angle: int) -> Image.Image:
    left, top, right, bottom = face.getbbox(text)
    label = Image.new("RGBA", (right - left + 4, bottom - top + 4), (255, 255, 255, 0))
    ImageDraw.Draw(label).text((2 - left, 2 - top), text, font=face, fill=BLACK + (255,))
    return label.rotate(angle, expand=True)
