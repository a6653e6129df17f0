"""A map picture to send and print: a region of the map with counters on it, a title, a legend,
a scale bar and a north arrow, as a small palette PNG (docs/map-pictures.md).

Pure Python (no Django). The map is ``render_map``'s, with the outside of the map in neutral grey;
the counters (``Piece``) and reports (``Remark``) are drawn here, side by side when they share a
hex, so every one stays readable. Nothing decides here what a seat may know: the caller passes
only what the seat's view holds (``maps.seat_picture``).

>>> from maps.core.compact import compact_map
>>> from maps.core.hexgrid import parse_hex_id
>>> m = compact_map({"terrain": ["c c c", "c r c"]})
>>> daun = Piece(parse_hex_id("0101"), "Daun", "#f4f4f4", "#111111", "Austria", "800")
>>> picture = draw_picture(m, [daun], title="Austria, turn 1")
>>> picture.width >= LEGEND_MIN_WIDTH, len(picture_png(picture)) <= MAX_BYTES
(True, True)
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from maps.core.hexgrid import SQRT3, Hex, axial_to_offset, hex_corners
from maps.core.model import CitySize, HexMap, Terrain
from maps.core.render import (
    BORDER,
    INK,
    MARSH_HATCH,
    NEUTRAL,
    RIVER,
    ROAD,
    ROUGH_MARK,
    TERRAIN_FILL,
    Frame,
    Region,
    bridge_width,
    draw_city_symbol,
    font,
    frame_of,
    render_map,
    river_width,
    road_width,
)

MAX_BYTES = 250 * 1024  # the bound of one picture (email attachments, print)
PALETTE = 64  # colours of the PNG: the map has a few dozen flat colours
MILES_PER_HEX = 10  # "a scale of about 10 miles to the hexagon" (2)
KM_PER_MILE = 1.609344
TARGET_WIDTH = 2000  # pixels of map the hex size aims at (A4 landscape at about 180 dpi)
HEX_SIZES = (13.0, 24.0)  # the smallest and largest corner radius chosen
MARGIN = 2.2  # hex sizes of neutral grey round the region (room for names and counters)
MIN_COLUMNS, MIN_ROWS = 24, 16  # a picture shows at least this much of the map
PAD = 3  # hexes round the counters
LEGEND_MIN_WIDTH = 980
PAPER = (251, 250, 246)
RULE = (150, 142, 120)
REPORT = (122, 0, 0)
FLAG = (176, 0, 32)
SAMPLE = ((214, 210, 200), INK)  # the legend's example counters belong to no army


@dataclass(frozen=True)
class Piece:
    """A counter: a force, a garrison, leaderless points or a siege train."""

    hex: Hex
    name: str  # the few letters on the counter ("Fred", "Gar", "T1")
    fill: str | tuple
    text: str | tuple
    army: str  # the army's name, for the legend
    points: str = ""  # the second line, when the seat knows the strength
    flags: str = ""  # "D" demoralized, "U" unsupplied (3.1.4)
    garrison: bool = False  # drawn left of the fortress symbol, not above the hex


@dataclass(frozen=True)
class Arrow:
    """A move drawn on the map (the book of the season: every force's move over a turn), from
    the middle of one hex to the middle of another, in its army's colour."""

    start: Hex
    end: Hex
    fill: str | tuple
    dashed: bool = False  # a retreat


@dataclass(frozen=True)
class Remark:
    """A line of text under a hex: a reconnaissance report (8)."""

    hex: Hex
    text: str


def picture_region(hexmap: HexMap, hexes: Iterable[Hex]) -> Region:
    """The hexes round ``hexes`` (``PAD`` more on every side), at least ``MIN_COLUMNS`` by
    ``MIN_ROWS`` and inside the map; the whole map when there is nothing to show."""
    places = [axial_to_offset(h) for h in hexes if h in hexmap]
    if not places:
        return Region(1, 1, hexmap.columns, hexmap.rows)
    cols, rows = zip(*places, strict=True)
    col0, col1 = _span(min(cols) + 1 - PAD, max(cols) + 1 + PAD, MIN_COLUMNS, hexmap.columns)
    row0, row1 = _span(min(rows) + 1 - PAD, max(rows) + 1 + PAD, MIN_ROWS, hexmap.rows)
    return Region(col0, row0, col1, row1)


def _span(lo: int, hi: int, least: int, limit: int) -> tuple[int, int]:
    """[lo, hi] widened to ``least`` about its middle, then moved inside [1, limit]."""
    if hi - lo + 1 < least:
        grow = least - (hi - lo + 1)
        lo, hi = lo - grow // 2, hi + grow - grow // 2
    if lo < 1:
        lo, hi = 1, hi + 1 - lo
    if hi > limit:
        lo, hi = max(1, lo - (hi - limit)), limit
    return lo, hi


def picture_hex_size(region: Region, hexmap: HexMap) -> float:
    """The corner radius that makes the region about ``TARGET_WIDTH`` pixels wide."""
    columns = min(region.col1, hexmap.columns) - max(region.col0, 1) + 1
    return min(max(TARGET_WIDTH / (max(columns, 1) * SQRT3), HEX_SIZES[0]), HEX_SIZES[1])


def draw_picture(
    hexmap: HexMap,
    pieces: Sequence[Piece],
    remarks: Sequence[Remark] = (),
    *,
    title: str,
    region: Region | None = None,
    hex_size: float | None = None,
    arrows: Sequence[Arrow] = (),
) -> Image.Image:
    """The picture: a title line, the map of ``region`` (by default round the pieces and the
    arrows) with the arrows, then the pieces and remarks on it, and the legend with the scale
    bar and the north arrow."""
    if region is None:
        region = picture_region(
            hexmap,
            [p.hex for p in pieces]
            + [r.hex for r in remarks]
            + [h for a in arrows for h in (a.start, a.end)],
        )
    s = hex_size or picture_hex_size(region, hexmap)
    hexes = region.hexes(hexmap)
    frame = frame_of(hexes, s, MARGIN)
    board = render_map(hexmap, region=region, hex_size=s, background=NEUTRAL, margin=MARGIN)
    shown = set(hexes)
    _draw_arrows(board, frame, [a for a in arrows if a.start in shown and a.end in shown])
    _draw_pieces(board, frame, pieces, remarks, shown)

    armies = {p.army: (p.fill, p.text) for p in sorted(pieces, key=lambda p: p.army)}
    width = max(board.width, LEGEND_MIN_WIDTH)
    legend = _legend(width, s, armies, _north_angle(hexmap, hexes), moves=bool(arrows))
    head = _title(width, title)
    picture = Image.new("RGB", (width, head.height + board.height + legend.height), NEUTRAL)
    picture.paste(head, (0, 0))
    picture.paste(board, ((width - board.width) // 2, head.height))
    picture.paste(legend, (0, head.height + board.height))
    return picture


def picture_png(picture: Image.Image, max_bytes: int = MAX_BYTES) -> bytes:
    """The picture as a palette PNG of ``PALETTE`` colours (flat colours, no dithering), made
    smaller until it weighs at most ``max_bytes``.

    The worker draws six of these a resolution, at a deadline: the fast octree quantizer and
    zlib's level 6 cost about a seventh of median cut and ``optimize`` (about 55 against 420 ms
    for the whole bundled map, docs/performance.md "Map pictures"), for the same look and a file
    about as small; ``optimize`` is tried before the picture is made smaller."""
    image = picture
    while True:
        quantized = image.quantize(PALETTE, method=Image.Quantize.FASTOCTREE, dither=0)
        data = _png(quantized, compress_level=6)
        if len(data) > max_bytes:
            data = _png(quantized, optimize=True)
        if len(data) <= max_bytes or image.width < 400:
            return data
        image = image.resize(
            (int(image.width * 0.85), int(image.height * 0.85)), Image.Resampling.LANCZOS
        )


def _png(image: Image.Image, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", **options)
    return buffer.getvalue()


# --- moves ---------------------------------------------------------------------------------------


def _draw_arrows(board: Image.Image, frame: Frame, arrows: Sequence[Arrow]) -> None:
    """Each arrow in its army's colour on a dark edge (a white army's arrow stays visible on a
    pale map), its head a third of a hex short of the end's middle, where the counters stand."""
    d = ImageDraw.Draw(board)
    for a in arrows:
        start, (x1, y1) = frame.centre(a.start), frame.centre(a.end)
        length = math.hypot(x1 - start[0], y1 - start[1])
        if length < 1:
            continue
        short = frame.size * 0.3 / length
        end = (x1 - (x1 - start[0]) * short, y1 - (y1 - start[1]) * short)
        _arrow(d, frame.size, a.fill, a.dashed, start, end)


def _arrow(d: ImageDraw.ImageDraw, s: float, fill, dashed: bool, start, tip) -> None:
    length = math.hypot(tip[0] - start[0], tip[1] - start[1])
    if length < 1:
        return
    ux, uy = (tip[0] - start[0]) / length, (tip[1] - start[1]) / length
    head = min(s * 0.75, length * 0.5)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    wing = head * 0.55
    width = max(3, round(s * 0.22))
    for part in _dashes(start, base, s * 0.5) if dashed else [(start, base)]:
        d.line(part, fill=INK, width=width + 2)
        d.line(part, fill=fill, width=width)
    left = (base[0] - uy * wing, base[1] + ux * wing)
    right = (base[0] + uy * wing, base[1] - ux * wing)
    d.polygon([tip, left, right], fill=fill, outline=INK)


def _dashes(start, end, step: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The line from ``start`` to ``end`` cut into dashes ``step`` long with gaps between."""
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    count = max(1, int(length // step))
    out = []
    for i in range(0, count, 2):
        a, b = i / count, min(1.0, (i + 1) / count)
        out.append(
            (
                (start[0] + (end[0] - start[0]) * a, start[1] + (end[1] - start[1]) * a),
                (start[0] + (end[0] - start[0]) * b, start[1] + (end[1] - start[1]) * b),
            )
        )
    return out


# --- counters ------------------------------------------------------------------------------------


def _draw_pieces(
    board: Image.Image,
    frame: Frame,
    pieces: Sequence[Piece],
    remarks: Sequence[Remark],
    shown: set[Hex],
) -> None:
    d = ImageDraw.Draw(board)
    s = frame.size
    name_font = font(max(9, round(s * 0.52)), bold=True)
    points_font = font(max(8, round(s * 0.46)))
    flag_font = font(max(9, round(s * 0.5)), bold=True)
    above: dict[Hex, list[Piece]] = {}
    left: dict[Hex, list[Piece]] = {}
    for p in pieces:
        if p.hex in shown:
            (left if p.garrison else above).setdefault(p.hex, []).append(p)
    fonts = (name_font, points_font, flag_font)
    for h, stack in above.items():
        # Above the hex's middle, so the city symbol and its name stay in sight.
        cx, cy = frame.centre(h)
        boxes = [_box_size(d, p, s, name_font, points_font) for p in stack]
        columns = 1 if len(stack) == 1 else 2
        rows = math.ceil(len(stack) / columns)
        cell_w = max(w for w, _ in boxes) + 2
        cell_h = max(h for _, h in boxes) + 2
        block_w = cell_w * min(columns, len(stack))
        x0 = _inside(cx - block_w / 2, block_w + s * 0.6, board.width)  # room for the flags
        y0 = _inside(cy - s * 0.45 - cell_h * rows, cell_h * rows + s * 0.3, board.height)
        for i, (p, (w, bh)) in enumerate(zip(stack, boxes, strict=True)):
            col, row = i % columns, i // columns
            bx = x0 + col * cell_w + (cell_w - w) / 2
            by = y0 + row * cell_h + (cell_h - bh) / 2
            _draw_piece(d, p, (bx, by, bx + w, by + bh), *fonts)
    for h, stack in left.items():
        # A garrison is inside the walls: its chit stands left of the fortress, the name right.
        cx, cy = frame.centre(h)
        boxes = [_box_size(d, p, s, name_font, points_font) for p in stack]
        block_w = sum(w + 2 for w, _ in boxes)
        x1 = _inside(cx - s * 0.62 - block_w, block_w, board.width) + block_w
        for p, (w, bh) in zip(stack, boxes, strict=True):
            _draw_piece(d, p, (x1 - w, cy - bh / 2, x1, cy + bh / 2), *fonts)
            x1 -= w + 2
    remark_font = font(max(8, round(s * 0.46)), bold=True)
    for r in remarks:
        if r.hex in shown:
            cx, cy = frame.centre(r.hex)
            w = d.textlength(r.text, font=remark_font) + 4
            d.text(
                (_inside(cx - w / 2, w, board.width) + w / 2, cy + s * 0.95), r.text,
                font=remark_font, fill=REPORT, anchor="mt", stroke_width=2,
                stroke_fill=(255, 255, 255),
            )  # fmt: skip


def _inside(start: float, length: float, limit: float) -> float:
    """``start`` moved so that ``length`` pixels from it stay within [2, limit - 2]."""
    return max(2.0, min(start, limit - 2 - length))


def _box_size(d: ImageDraw.ImageDraw, p: Piece, s: float, name_font, points_font):
    width = max(d.textlength(p.name, font=name_font), d.textlength(p.points, font=points_font))
    lines = 2 if p.points else 1
    return max(s * (1.1 if p.garrison else 1.5), width + 6), s * (0.5 + 0.5 * lines) + 2


def _draw_piece(d: ImageDraw.ImageDraw, p: Piece, box, name_font, points_font, flag_font) -> None:
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=p.fill, outline=INK, width=1)
    middle = (x0 + x1) / 2
    if p.points:
        d.text((middle, y0 + 1), p.name, font=name_font, fill=p.text, anchor="ma")
        d.text((middle, y1 - 1), p.points, font=points_font, fill=p.text, anchor="md")
    else:
        d.text((middle, (y0 + y1) / 2), p.name, font=name_font, fill=p.text, anchor="mm")
    if p.flags:
        d.text(
            (x1 + 1, y0 - 1), p.flags, font=flag_font, fill=FLAG, anchor="ls",
            stroke_width=2, stroke_fill=(255, 255, 255),
        )  # fmt: skip


# --- title and legend ----------------------------------------------------------------------------


def _title(width: int, title: str) -> Image.Image:
    f = font(18, bold=True)
    image = Image.new("RGB", (width, 34), PAPER)
    d = ImageDraw.Draw(image)
    d.text((12, 17), title, font=f, fill=INK, anchor="lm")
    d.line([(0, 33), (width, 33)], fill=RULE, width=1)
    return image


@dataclass(frozen=True)
class _Entry:
    """One item of the legend: a symbol ``symbol_w`` pixels wide drawn by ``draw(d, x, y)``
    (y is the middle of the row), then words."""

    symbol_w: float
    draw: Callable[[ImageDraw.ImageDraw, float, float], None]
    words: str = ""
    colour: tuple = INK


def _legend(
    width: int, s: float, armies: dict[str, tuple], north: float, *, moves: bool = False
) -> Image.Image:
    """Three rows wrapped to the width: the armies on the picture, how to read a counter (and
    the moves, when arrows are drawn), the map's symbols; on the right the scale bar and the
    north arrow."""
    f = font(13)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    rows: list[list[_Entry]] = [
        [_army_entry(measure, name, fill, text, f) for name, (fill, text) in armies.items()],
        _counter_entries(measure, s, f) + (_move_entries(s) if moves else []),
        [
            _Entry(s * 1.6, _fortress(s), "fortress (VPs, bastions)"),
            _Entry(s * 1.2, _city(s), "city"),
            _Entry(30, _line(RIVER, river_width(s, True)), "major river"),
            _Entry(30, _line(RIVER, river_width(s, False)), "river"),
            _Entry(30, _line(ROAD, road_width(s)), "road"),
            _Entry(30, _bridge(s), "bridge"),
            _Entry(30, _border(s), "border"),
            _Entry(30, _terrain(Terrain.ROUGH), "rough"),
            _Entry(30, _terrain(Terrain.MARSH), "marsh"),
            _Entry(30, _terrain(Terrain.SEA), "sea, lake"),
        ],
    ]
    right = 330  # the scale bar and the north arrow
    placed: list[list[tuple[_Entry, float]]] = []
    for row in rows:
        line: list[tuple[_Entry, float]] = []
        x = 12.0
        for e in row:
            w = e.symbol_w + (6 + measure.textlength(e.words, font=f) if e.words else 0)
            if line and x + w > width - right:
                placed.append(line)
                line, x = [], 12.0
            line.append((e, x))
            x += w + 20
        if line:
            placed.append(line)
    row_h = max(26, int(s * 1.45))
    height = 8 + row_h * len(placed) + 6
    image = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(image)
    d.line([(0, 0), (width, 0)], fill=RULE, width=1)
    for i, line in enumerate(placed):
        y = 8 + row_h * i + row_h / 2
        for e, x in line:
            e.draw(d, x, y)
            if e.words:
                d.text((x + e.symbol_w + 6, y), e.words, font=f, fill=e.colour, anchor="lm")
    _scale_bar(d, width - right + 20, 8 + row_h * 0.5 - 8, s, f)
    _north_arrow(d, width - 40, height / 2 + 6, min(height - 34, 56), north)
    return image


def _army_entry(measure: ImageDraw.ImageDraw, name: str, fill, text, f) -> _Entry:
    w = measure.textlength(name, font=f) + 14

    def draw(d, x, y):
        d.rectangle([x, y - 10, x + w, y + 10], fill=fill, outline=INK)
        d.text((x + w / 2, y), name, font=f, fill=text, anchor="mm")

    return _Entry(w, draw)


def _counter_entries(measure, s: float, f) -> list[_Entry]:
    """How to read a counter, with counters of the picture as the examples."""
    name_font = font(max(9, round(s * 0.52)), bold=True)
    points_font = font(max(8, round(s * 0.46)))
    flag_font = font(max(9, round(s * 0.5)), bold=True)
    fill, text = SAMPLE
    out = []
    for sample, words in (
        (Piece(Hex(0, 0), "Fred", fill, text, "", "3000"), "commander and strength points"),
        (Piece(Hex(0, 0), "Gar", fill, text, "", "", garrison=True), "garrison"),
        (Piece(Hex(0, 0), "T1", fill, text, ""), "siege train"),
    ):
        w, h = _box_size(measure, sample, s, name_font, points_font)

        def draw(d, x, y, sample=sample, w=w, h=h):
            _draw_piece(d, sample, (x, y - h / 2, x + w, y + h / 2), name_font, points_font,
                        flag_font)  # fmt: skip

        out.append(_Entry(w, draw, words))
    flags = "U unsupplied, D demoralized (3.1.4)"
    out.append(_Entry(0, lambda d, x, y: None, flags, FLAG))
    out.append(_Entry(0, lambda d, x, y: None, "600 (turn 3): an enemy force reported (8)", REPORT))
    return out


def _move_entries(s: float) -> list[_Entry]:
    """The two kinds of arrow: a march (or forced march) and a retreat."""
    out = []
    for dashed, words in ((False, "a force's move this turn"), (True, "a retreat")):

        def draw(d, x, y, dashed=dashed):
            _arrow(d, s, SAMPLE[0], dashed, (x, y), (x + 44, y))

        out.append(_Entry(44, draw, words))
    return out


def _fortress(s: float):
    def draw(d, x, y):
        draw_city_symbol(d, s, CitySize.CIRCLE, True, 6, x + s * 0.7, y)

    return draw


def _city(s: float):
    def draw(d, x, y):
        draw_city_symbol(d, s, CitySize.CIRCLE, False, 0, x + s * 0.5, y)

    return draw


def _line(colour, width: int):
    def draw(d, x, y):
        d.line([(x, y), (x + 30, y)], fill=colour, width=width)

    return draw


def _bridge(s: float):
    def draw(d, x, y):
        d.line([(x, y), (x + 30, y)], fill=RIVER, width=river_width(s, False))
        d.line([(x + 15, y - s * 0.35), (x + 15, y + s * 0.35)], fill=INK, width=bridge_width(s))

    return draw


def _border(s: float):
    width = max(1, int(s / 8))

    def draw(d, x, y):
        for a, b in ((0, 7), (11, 19), (23, 30)):
            d.line([(x + a, y), (x + b, y)], fill=BORDER, width=width)

    return draw


def _terrain(terrain: Terrain):
    r = 12

    def draw(d, x, y):
        cx = x + 15
        d.polygon(
            [(cx + px, y + py) for px, py in hex_corners(Hex(0, 0), r)],
            fill=TERRAIN_FILL[terrain],
            outline=RULE,
        )
        if terrain is Terrain.ROUGH:
            d.line([(cx - 5, y + 3), (cx, y - 3), (cx + 5, y + 3)], fill=ROUGH_MARK, width=1)
        elif terrain is Terrain.MARSH:
            for k in (-4, 0, 4):
                d.line([(cx - 6, y + k), (cx - 1, y + k)], fill=MARSH_HATCH, width=1)
                d.line([(cx + 2, y + k), (cx + 7, y + k)], fill=MARSH_HATCH, width=1)

    return draw


def _scale_bar(d: ImageDraw.ImageDraw, x: float, y: float, s: float, f) -> None:
    """Five hexes, one segment each (a hex is 10 miles from centre to centre, 2)."""
    step = s * SQRT3
    for i in range(5):
        d.rectangle(
            [x + i * step, y, x + (i + 1) * step, y + 7],
            fill=INK if i % 2 == 0 else (255, 255, 255),
            outline=INK,
        )
    miles = 5 * MILES_PER_HEX
    d.text(
        (x, y + 11),
        f"5 hexes = {miles} miles = {round(miles * KM_PER_MILE)} km",
        font=f,
        fill=INK,
        anchor="la",
    )


def _north_arrow(d: ImageDraw.ImageDraw, x: float, y: float, size: float, angle: float):
    """An arrow to true North at the middle of the picture (``angle`` degrees clockwise from
    straight up), with its letter."""
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)  # towards North
    px, py = -uy, ux  # across
    tip = (x + ux * size / 2, y + uy * size / 2)
    tail = (x - ux * size / 2, y - uy * size / 2)
    half = size * 0.22
    d.polygon([tip, (tail[0] + px * half, tail[1] + py * half), (x, y)], fill=INK)
    d.polygon([tip, (tail[0] - px * half, tail[1] - py * half), (x, y)], fill=PAPER, outline=INK)
    d.text((tip[0] + ux * 9, tip[1] + uy * 9), "N", font=font(14, bold=True), fill=INK, anchor="mm")


# --- true North ----------------------------------------------------------------------------------

EARTH_KM = 6371.0088


def _north_angle(hexmap: HexMap, hexes: Sequence[Hex]) -> float:
    """Degrees clockwise from straight up to true North at the middle of ``hexes``: the map's
    Lambert azimuthal projection (docs/map.md) turns the meridians away from its central one by
    a few degrees at the edges. 0 for a map with no projection (grid North)."""
    p = hexmap.projection
    if p.get("proj") != "laea" or not hexes:
        return 0.0
    q = sum(h.q for h in hexes) / len(hexes)
    r = sum(h.r for h in hexes) / len(hexes)
    hex_km = float(p["hex_km"])
    x0, y0 = (float(v) for v in p["origin_xy"])
    x, y = x0 + hex_km * (q + r / 2), y0 - hex_km * SQRT3 / 2 * r
    lat0, lon0 = math.radians(float(p["lat_0"])), math.radians(float(p["lon_0"]))
    lat, lon = _inverse_laea(x, y, lat0, lon0)
    nx, ny = _laea(lat + 0.01, lon, lat0, lon0)
    return math.degrees(math.atan2(nx - x, ny - y))


def _laea(lat: float, lon: float, lat0: float, lon0: float) -> tuple[float, float]:
    lam = lon - lon0
    cos_c = math.sin(lat0) * math.sin(lat) + math.cos(lat0) * math.cos(lat) * math.cos(lam)
    k = math.sqrt(2.0 / (1.0 + cos_c))
    x = EARTH_KM * k * math.cos(lat) * math.sin(lam)
    y = (
        EARTH_KM
        * k
        * (math.cos(lat0) * math.sin(lat) - math.sin(lat0) * math.cos(lat) * math.cos(lam))
    )
    return x, y


def _inverse_laea(x: float, y: float, lat0: float, lon0: float) -> tuple[float, float]:
    rho = math.hypot(x, y)
    if rho == 0:
        return lat0, lon0
    c = 2 * math.asin(rho / (2 * EARTH_KM))
    lat = math.asin(math.cos(c) * math.sin(lat0) + y * math.sin(c) * math.cos(lat0) / rho)
    lon = lon0 + math.atan2(
        x * math.sin(c), rho * math.cos(lat0) * math.cos(c) - y * math.sin(lat0) * math.sin(c)
    )
    return lat, lon
