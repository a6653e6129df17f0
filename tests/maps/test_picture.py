"""The map pictures for email and print (maps.core.picture): their weight, their frame, their
legend's scale and north arrow, and names that stay inside the picture."""

import io
import math

import pytest
from PIL import Image

from maps.core.compact import compact_map
from maps.core.hexgrid import SQRT3, axial_to_offset, parse_hex_id
from maps.core.loader import load_map
from maps.core.model import Terrain
from maps.core.picture import (
    MARGIN,
    MAX_BYTES,
    MIN_COLUMNS,
    MIN_ROWS,
    PAD,
    PALETTE,
    Arrow,
    Piece,
    Remark,
    _north_angle,
    draw_picture,
    picture_hex_size,
    picture_png,
    picture_region,
)
from maps.core.render import (
    NEUTRAL,
    TERRAIN_FILL,
    Region,
    frame_of,
    hex_of_latlon,
    render_map,
)

pytestmark = pytest.mark.pure


@pytest.fixture(scope="module")
def m():
    return load_map()


def crowded(m) -> list[Piece]:
    """A counter in every fortress and a force of two leaders beside each: a busy season."""
    pieces = []
    for i, city in enumerate(m.fortresses):
        fill = ("#1c2f5a", "#3b5bb5", "#f4f4f4", "#2e7d32")[i % 4]
        pieces.append(Piece(city.hex, "Gar", fill, "#ffffff", f"Army {i % 4}", "50", garrison=True))
        pieces.append(Piece(city.hex, "Fred", fill, "#ffffff", f"Army {i % 4}", "31017", "U"))
        pieces.append(Piece(city.hex, "Seyd", fill, "#ffffff", f"Army {i % 4}", "5000", "D"))
    return pieces


def test_the_whole_map_in_a_busy_season_weighs_at_most_250_kb(m):
    pieces = crowded(m)
    remarks = [Remark(c.hex, "600 (turn 3)") for c in m.fortresses[::3]]
    picture = draw_picture(m, pieces, remarks, title="A busy season, turn 9")
    data = picture_png(picture)
    assert len(data) <= MAX_BYTES
    png = Image.open(io.BytesIO(data))
    assert png.mode == "P" and len(png.getcolors()) <= PALETTE
    assert png.size == picture.size  # it fits without being made smaller
    assert png.width >= 1500  # big enough to print


def test_a_picture_too_heavy_is_made_smaller_until_it_fits(m):
    picture = draw_picture(m, crowded(m), title="Too heavy")
    data = picture_png(picture, max_bytes=60_000)
    assert len(data) <= 60_000
    assert Image.open(io.BytesIO(data)).width < picture.width


def test_outside_the_map_is_neutral_and_the_sea_stays_blue(m):
    picture = draw_picture(m, [], title="Nothing yet")  # the whole map
    assert picture.getpixel((3, 40)) == NEUTRAL  # top left, under the title line
    board = render_map(m, hex_size=13, background=NEUTRAL, margin=2.2)
    north_sea = hex_of_latlon(m, 55.0, 4.0)
    assert m.terrain(north_sea) is Terrain.SEA
    assert TERRAIN_FILL[Terrain.SEA] in {c for _, c in board.getcolors(1 << 16)}


def test_the_picture_frames_the_counters(m):
    breslau, glatz = m.city("Breslau").hex, m.city("Glatz").hex
    region = picture_region(m, [breslau, glatz])
    cols = [axial_to_offset(h)[0] + 1 for h in (breslau, glatz)]
    rows = [axial_to_offset(h)[1] + 1 for h in (breslau, glatz)]
    assert region.col0 <= min(cols) - PAD and region.col1 >= max(cols) + PAD
    assert region.row0 <= min(rows) - PAD and region.row1 >= max(rows) + PAD
    assert region.col1 - region.col0 + 1 >= MIN_COLUMNS
    assert region.row1 - region.row0 + 1 >= MIN_ROWS
    assert region.col0 >= 1 and region.col1 <= m.columns and region.row1 <= m.rows
    assert picture_region(m, []) == Region(1, 1, m.columns, m.rows)


def test_a_corner_of_the_map_is_framed_inside_the_map(m):
    region = picture_region(m, [parse_hex_id("0101")])
    assert (region.col0, region.row0) == (1, 1)
    assert region.col1 == MIN_COLUMNS and region.row1 == MIN_ROWS


def test_the_north_arrow_follows_the_meridians(m):
    # The map's projection is centred at 11.5 E (docs/map.md): North is straight up there and
    # leans towards the centre meridian West and East of it.
    def angle(lat, lon):
        return _north_angle(m, [hex_of_latlon(m, lat, lon)])

    assert abs(angle(51.0, 11.5)) < 0.5
    paris, koenigsberg = angle(48.86, 2.35), angle(54.71, 20.51)
    assert 5 < paris < 10  # about (11.5 - 2.35) x sin(49)
    assert -10 < koenigsberg < -5
    assert math.isclose(paris, 9.15 * math.sin(math.radians(48.86)), abs_tol=1.0)
    assert _north_angle(compact_map({"terrain": ["c c"]}), [parse_hex_id("0101")]) == 0.0


def test_a_name_at_the_edge_is_set_inside_the_picture():
    long_name = "Koenigsberg in Preussen"
    m = compact_map(
        {"terrain": ["c c c"], "cities": [{"name": long_name, "hex": "0301", "size": "star"}]}
    )
    image = render_map(m, hex_size=20, background=NEUTRAL)
    dark = [
        x
        for x in range(image.width)
        for y in range(image.height)
        if sum(image.getpixel((x, y))) < 200
    ]
    assert max(dark) < image.width - 2  # nothing of the name runs off the right edge
    city_x = 20 * SQRT3 * 2.5 + 20 * 1.2
    assert min(dark) < city_x - 20  # set left of the symbol instead


def test_the_legend_names_only_the_armies_on_the_picture():
    m = compact_map({"terrain": ["c c c c", "c c c c"]})
    one = [Piece(parse_hex_id("0101"), "Daun", "#ff00ff", "#000000", "Austria")]
    two = one + [Piece(parse_hex_id("0202"), "Fred", "#00ffff", "#000000", "Prussia")]
    magenta, cyan = (255, 0, 255), (0, 255, 255)
    region = picture_region(m, [])
    board = render_map(
        m, region=region, hex_size=picture_hex_size(region, m), background=NEUTRAL, margin=MARGIN
    )

    def legend_colours(pieces):
        picture = draw_picture(m, pieces, title="x")
        legend = picture.crop((0, 34 + board.height, picture.width, picture.height))
        return {c for _, c in legend.getcolors(1 << 16)}

    assert magenta in legend_colours(one) and cyan not in legend_colours(one)
    assert {magenta, cyan} <= legend_colours(two)


def test_counters_at_the_edge_stay_inside_the_picture():
    m = compact_map({"terrain": ["c c c c c c"] * 4})
    corner = parse_hex_id("0601")  # the top right hex: a stack of four, flagged
    pieces = [
        Piece(corner, f"L{i}", "#ff00ff", "#000000", "Austria", "9999", "UD") for i in range(4)
    ]
    picture = draw_picture(m, pieces, title="x", hex_size=24)
    board = render_map(m, hex_size=24, background=NEUTRAL, margin=MARGIN)
    left = (picture.width - board.width) // 2
    on_board = picture.crop((left, 34, left + board.width, 34 + board.height))
    magenta = [
        (x, y)
        for x in range(on_board.width)
        for y in range(on_board.height)
        if on_board.getpixel((x, y)) == (255, 0, 255)
    ]
    xs, ys = zip(*magenta, strict=True)
    assert min(ys) >= 2 and max(xs) <= on_board.width - 3


def test_a_move_is_an_arrow_in_its_armys_colour_from_hex_to_hex(m):
    """The book of the season draws each force's move of a turn (maps.war_picture): the frame
    takes in both ends, and the arrow's line is in its army's colour halfway between them."""
    breslau, prague = m.city("Breslau").hex, m.city("Prague").hex
    arrow = Arrow(breslau, prague, "#c0392b")
    plain = draw_picture(m, [], title="t", region=picture_region(m, [breslau, prague]))
    drawn = draw_picture(m, [], title="t", arrows=[arrow])
    assert drawn.width == plain.width  # (framed round the arrow's two ends, as round counters)
    s = picture_hex_size(picture_region(m, [breslau, prague]), m)
    region = picture_region(m, [breslau, prague])
    frame = frame_of(region.hexes(m), s, MARGIN)
    (x0, y0), (x1, y1) = frame.centre(breslau), frame.centre(prague)
    top = 34  # the title's height
    middle = (round((x0 + x1) / 2), round((y0 + y1) / 2) + top)
    assert drawn.getpixel(middle) == (0xC0, 0x39, 0x2B)
    assert plain.getpixel(middle) != (0xC0, 0x39, 0x2B)
    # a retreat is dashed: along it, the army's colour comes and goes
    dashed = draw_picture(m, [], title="t", arrows=[Arrow(breslau, prague, "#c0392b", True)])
    along = [
        dashed.getpixel((round(x0 + (x1 - x0) * k / 40), round(y0 + (y1 - y0) * k / 40) + top))
        == (0xC0, 0x39, 0x2B)
        for k in range(4, 28)
    ]
    assert any(along) and not all(along)
