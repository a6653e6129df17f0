"""Pictures of the map (maps.core.render): size, content, regions and overlays."""

import io

import pytest
from PIL import Image

from maps.core.compact import compact_map
from maps.core.hexgrid import hex_to_pixel, parse_hex_id
from maps.core.loader import load_map
from maps.core.model import Terrain
from maps.core.render import (
    TERRAIN_FILL,
    Arrow,
    Counter,
    Highlight,
    Note,
    Region,
    area_highlights,
    hex_of_latlon,
    name_side,
    render_map,
    render_png,
)

pytestmark = pytest.mark.pure


@pytest.fixture(scope="module")
def m():
    return load_map()


def pixel_of(img_region_origin, h, size):
    x, y = hex_to_pixel(h, size)
    return x + img_region_origin[0], y + img_region_origin[1]


def _origin(hexmap, hexes, size):
    xs, ys = zip(*(hex_to_pixel(h, size) for h in hexes), strict=True)
    margin = size * 1.2
    return -min(xs) + margin, -min(ys) + margin


def _ink(img, box):
    """Number of dark pixels in a box (city symbols and names are near-black)."""
    crop = img.crop(box).convert("L")
    return sum(1 for v in crop.tobytes() if v < 80)


def test_the_whole_map_has_the_size_its_hexes_need(m):
    img = render_map(m, hex_size=8)
    width = 8 * 3**0.5 * (m.columns + 0.5) + 2 * 8 * 1.2
    height = 8 * 1.5 * (m.rows - 1) + 2 * 8 * 1.2
    assert abs(img.width - width) <= 3 * 8
    assert abs(img.height - height) <= 3 * 8


def test_png_bytes_are_a_png(m):
    data = render_png(m, region="Berlin+3", hex_size=10)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert Image.open(io.BytesIO(data)).format == "PNG"


def test_a_region_is_smaller_than_the_map(m):
    whole = render_map(m, hex_size=6, labels=False)
    part = render_map(m, region="Dresden+5", hex_size=6, labels=False)
    assert part.width < whole.width / 4 and part.height < whole.height / 4


@pytest.mark.parametrize("name", ["Berlin", "Vienna", "Paris", "Koenigsberg", "Glatz"])
def test_a_city_is_drawn_where_its_hex_is(m, name):
    city = m.city(name)
    region = Region.around(city.hex, 3)
    size = 16
    img = render_map(m, region=region, hex_size=size)
    ox, oy = _origin(m, region.hexes(m), size)
    x, y = pixel_of((ox, oy), city.hex, size)
    assert (
        _ink(
            img,
            (int(x - size * 0.4), int(y - size * 0.4), int(x + size * 0.4), int(y + size * 0.4)),
        )
        > 10
    )
    # and its name to the right or left of it
    label = _ink(
        img, (int(x + size * 0.7), int(y - size * 0.4), int(x + size * 4), int(y + size * 0.4))
    )
    label += _ink(
        img, (int(x - size * 4), int(y - size * 0.4), int(x - size * 0.7), int(y + size * 0.4))
    )
    assert label > 20


def test_an_empty_hex_shows_its_terrain_colour(m):
    h = hex_of_latlon(m, 55.0, 16.0)  # the Baltic
    region = Region.around(h, 2)
    img = render_map(m, region=region, hex_size=12)
    ox, oy = _origin(m, region.hexes(m), 12)
    x, y = pixel_of((ox, oy), h, 12)
    assert img.getpixel((int(x), int(y))) == TERRAIN_FILL[Terrain.SEA]


def test_regions_are_read_from_hex_ids_cities_and_boxes(m):
    assert Region.parse("0510-2030") == Region(5, 10, 20, 30)
    assert Region.parse("2030-0510") == Region(5, 10, 20, 30)
    dresden = Region.parse("Dresden+4", m)
    assert m.city("Dresden").hex in dresden.hexes(m)
    box = Region.parse("50.5,13.0,51.5,14.5", m)
    assert m.city("Dresden").hex in box.hexes(m)
    with pytest.raises(ValueError, match="not a region"):
        Region.parse("somewhere", m)


def test_a_region_outside_the_map_is_refused(m):
    with pytest.raises(ValueError, match="no hex"):
        render_map(m, region=Region(95, 95, 99, 99))


OVERLAY_MAP = {"terrain": ["c c c c c c", "c c c c c c", "c c c c c c", "c c c c c c"]}


def _at(img, hexmap, h, size=20):
    ox, oy = _origin(hexmap, list(hexmap.hexes), size)
    x, y = pixel_of((ox, oy), h, size)
    return img.getpixel((int(x), int(y)))


def test_a_highlight_tints_its_hexes_only():
    m = compact_map(OVERLAY_MAP)
    h, other = parse_hex_id("0202"), parse_hex_id("0502")
    img = render_map(m, hex_size=20, overlays=[Highlight((h,), "#ff0000")])
    tinted, plain = _at(img, m, h), _at(img, m, other)
    assert plain == TERRAIN_FILL[Terrain.CLEAR]
    assert tinted != plain and tinted[0] > tinted[2]


def test_a_counter_shows_its_colour_and_label():
    m = compact_map(OVERLAY_MAP)
    h = parse_hex_id("0302")
    img = render_map(m, hex_size=20, overlays=[Counter(h, "Daun", "#00c000")])
    ox, oy = _origin(m, list(m.hexes), 20)
    x, y = pixel_of((ox, oy), h, 20)
    crop = img.crop((int(x - 14), int(y - 10), int(x + 14), int(y + 10)))
    colours = {colour for _n, colour in crop.getcolors(maxcolors=1 << 16)}
    assert (0, 192, 0) in colours  # the counter
    assert any(sum(c) < 100 for c in colours)  # its label


def test_an_arrow_runs_through_its_hexes():
    m = compact_map(OVERLAY_MAP)
    path = tuple(parse_hex_id(t) for t in ("0101", "0201", "0301", "0402"))
    img = render_map(m, hex_size=20, overlays=[Arrow(path, "#0000ff")])
    assert _at(img, m, parse_hex_id("0201")) == (0, 0, 255)
    assert _at(img, m, parse_hex_id("0504")) == TERRAIN_FILL[Terrain.CLEAR]


def test_a_note_writes_its_text():
    m = compact_map(OVERLAY_MAP)
    plain = render_map(m, hex_size=20)
    noted = render_map(m, hex_size=20, overlays=[Note(parse_hex_id("0303"), "Battle!")])
    assert _ink(noted, (0, 0, noted.width, noted.height)) > _ink(
        plain, (0, 0, plain.width, plain.height)
    )


def test_area_highlights_cover_every_land_hex_once(m):
    items = area_highlights(m)
    covered = [h for item in items for h in item.hexes]
    land = [h for h in m.hexes if m.terrain(h).passable]
    assert len(covered) == len(set(covered)) == len(land)


def test_hex_ids_can_be_printed(m):
    plain = render_map(m, region="0101-0606", hex_size=20, labels=False)
    ids = render_map(m, region="0101-0606", hex_size=20, labels=False, hex_ids=True)
    assert plain.tobytes() != ids.tobytes()


def test_rendering_is_deterministic(m):
    assert render_png(m, region="Prague+4") == render_png(m, region="Prague+4")


@pytest.mark.parametrize(
    ("city", "side"),
    [("Breslau", "right"), ("Berlin", "right"), ("Spandau", "left"), ("Frankfurt", "left")],
)
def test_a_citys_name_goes_right_of_it_unless_a_city_stands_east(m, city, side):
    """Spandau's name goes left: Berlin stands in the next hex East. The map widget keeps a
    stack in the city's hex off that side (static/js/mapwidget.js, clearOfName)."""
    assert name_side(m, m.city(city).hex) == side


def test_a_name_with_cities_on_both_sides_goes_below():
    row = compact_map(
        {
            "terrain": ["c c c"],
            "cities": [
                {"name": n, "hex": h} for n, h in (("W", "0101"), ("M", "0201"), ("E", "0301"))
            ],
        }
    )
    assert name_side(row, row.city("M").hex) == "below"
    assert name_side(row, row.city("E").hex) == "right"
