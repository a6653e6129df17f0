"""The tile pyramid of the map widget (maps/core/tiles.py): its levels line up with the renderer
and with one another, outside the map is neutral, and a pyramid is complete once grid.json is."""

import io
import json

import pytest
from PIL import Image

from maps.core.compact import compact_map
from maps.core.hexgrid import parse_hex_id
from maps.core.model import Terrain
from maps.core.render import NEUTRAL, TERRAIN_FILL
from maps.core.tiles import TILE, grid_of, map_stamp, render_zoom, tiles_of_zoom, write_tiles

pytestmark = pytest.mark.pure

# A 12 x 10 map: rough in 0101, marsh in 1210, the rest clear (small enough to draw in ms).
MAP = compact_map({"terrain": ["r" + "c" * 11] + ["c" * 12] * 8 + ["c" * 11 + "m"]})


@pytest.mark.parametrize("z", [-1, 0, 1, 2])
def test_a_hex_centre_is_the_zoom_0_position_times_two_to_the_zoom(z):
    g = grid_of(MAP)
    image = render_zoom(MAP, z)
    for hexid, terrain in (("0101", Terrain.ROUGH), ("1210", Terrain.MARSH), ("0605", None)):
        x, y = g.centre(parse_hex_id(hexid))
        px = image.getpixel((round(x * 2**z), round(y * 2**z)))
        if terrain is Terrain.ROUGH:
            assert px != TERRAIN_FILL[Terrain.CLEAR]
        # the centre is inside the hex: never the neutral outside
        assert px != NEUTRAL
    assert abs(image.width - g.width * 2**z) <= 1 and abs(image.height - g.height * 2**z) <= 1


def test_tiles_cover_the_image_and_pad_it_neutral():
    tiles = {(x, y): data for x, y, data in tiles_of_zoom(MAP, 1)}
    image = render_zoom(MAP, 1)
    columns = -(-image.width // TILE)
    rows = -(-image.height // TILE)
    assert set(tiles) == {(x, y) for x in range(columns) for y in range(rows)}
    last = Image.open(io.BytesIO(tiles[(columns - 1, rows - 1)])).convert("RGB")
    assert last.size == (TILE, TILE)
    # beyond the drawn map: neutral grey, not sea and not black
    assert last.getpixel((TILE - 1, TILE - 1)) == NEUTRAL
    # the corner outside the first hex is neutral too (outside the map is not sea)
    first = Image.open(io.BytesIO(tiles[(0, 0)])).convert("RGB")
    assert first.getpixel((0, 0)) == NEUTRAL


def test_write_tiles_writes_the_levels_asked_and_grid_json_last(tmp_path):
    count = write_tiles(MAP, tmp_path, zooms=(0,))
    pngs = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.png"))
    assert count == len(pngs) > 0
    assert all(p.startswith("0/") for p in pngs)
    meta = json.loads((tmp_path / "grid.json").read_text())
    assert meta["zooms"] == [0] and meta["hex"] == grid_of(MAP).hex_size
    assert not list(tmp_path.rglob("*.tmp"))
    with pytest.raises(ValueError, match="zoom 7"):
        write_tiles(MAP, tmp_path, zooms=(7,))


def test_the_stamp_changes_with_the_map():
    other = compact_map({"terrain": ["c" * 12] * 10})
    assert map_stamp(MAP) == map_stamp(MAP)
    assert len(map_stamp(MAP)) == 12
    assert map_stamp(MAP) != map_stamp(other)
