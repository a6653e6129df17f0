"""The map generator's pieces (maps/tools/mapgen), on small made-up facts: no downloads needed."""

import json
import math

import pytest

from maps.core.hexgrid import corner_vertex, direction_to, hex_corners, offset_to_axial
from maps.core.loader import map_from_dict
from maps.core.paths import least_cost_path
from maps.tools.mapgen import generator as g
from maps.tools.mapgen.facts_io import Facts
from maps.tools.mapgen.geo import HEX_KM, Grid, Projection, densify, polyline_distance
from maps.tools.mapgen.resolve import build_index, parse_reference, resolve_reference

pytestmark = pytest.mark.pure


# --- projection and grid -------------------------------------------------------------------------


@pytest.mark.parametrize("lat, lon", [(51.0, 11.5), (48.85, 2.35), (54.71, 20.51), (47.5, 19.04)])
def test_the_projection_goes_there_and_back(lat, lon):
    p = Projection(51.0, 11.5)
    back = p.inverse(*p.forward(lat, lon))
    assert back == pytest.approx((lat, lon), abs=1e-6)


def test_the_projection_keeps_distances_near_the_centre():
    p = Projection(51.0, 11.5)
    # Leipzig to Dresden, about 100 km on the ground
    (x1, y1), (x2, y2) = p.forward(51.340, 12.375), p.forward(51.051, 13.738)
    assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(100.5, abs=2.0)


def test_the_projection_is_equal_area():
    p = Projection(51.0, 11.5)
    for lat, lon in ((54.0, 3.0), (48.0, 20.0), (51.0, 11.5)):
        d = 0.01
        (x0, y0), (x1, y1), (x2, y2) = (
            p.forward(lat, lon),
            p.forward(lat, lon + d),
            p.forward(lat + d, lon),
        )
        plane = abs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0))
        earth = (6371.0088 * math.radians(d)) ** 2 * math.cos(math.radians(lat))
        assert plane == pytest.approx(earth, rel=1e-3)


@pytest.mark.parametrize("col, row", [(0, 0), (5, 2), (87, 63), (40, 31), (13, 14)])
def test_the_grid_finds_the_hex_of_its_own_centres(col, row):
    grid = Grid(88, 64, -703.0, 470.0)
    h = offset_to_axial(col, row)
    assert grid.centre(col, row) == pytest.approx(grid.hex_centre(h))
    x, y = grid.hex_centre(h)
    assert grid.hex_at(x, y) == h
    assert grid.hex_at(x + 0.45 * HEX_KM, y) == h  # still inside, short of the East side


def test_corners_on_the_lattice_are_the_hex_corners():
    grid = Grid(88, 64, -703.0, 470.0)
    h = offset_to_axial(10, 11)
    cx, cy = grid.hex_centre(h)
    size = HEX_KM / math.sqrt(3)
    # maps.core.hexgrid draws with y down, the plane has y up: mirror the picture's corners
    px0, py0 = hex_corners(h, size)[0]
    pic = [(x - px0, y - py0) for x, y in hex_corners(h, size)]
    plane0 = grid.vertex_xy(corner_vertex(h, 0))
    for k in range(6):
        x, y = grid.vertex_xy(corner_vertex(h, k))
        assert math.hypot(x - cx, y - cy) == pytest.approx(size)
        assert (x - plane0[0], plane0[1] - y) == pytest.approx(pic[k])


def test_densify_and_distance():
    line = densify([(0.0, 0.0), (10.0, 0.0)], 2.0)
    assert len(line) == 6 and line[-1] == (10.0, 0.0)
    assert polyline_distance((5.0, 3.0), line) == pytest.approx(3.0)


# --- resolving place names -----------------------------------------------------------------------

PLACES = [
    {
        "geonameid": 1,
        "name": "Frankfurt am Main",
        "alternatenames": ["Frankfurt"],
        "latitude": 50.11,
        "longitude": 8.68,
        "countrycode": "DE",
        "population": 700000,
    },
    {
        "geonameid": 2,
        "name": "Frankfurt (Oder)",
        "alternatenames": ["Frankfurt"],
        "latitude": 52.34,
        "longitude": 14.55,
        "countrycode": "DE",
        "population": 57000,
    },
]


def test_a_reference_takes_the_most_populous_namesake():
    index = build_index(PLACES)
    assert resolve_reference("Frankfurt/DE", index)["geonameid"] == 1


def test_a_hint_picks_the_nearest_namesake():
    index = build_index(PLACES)
    assert resolve_reference("Frankfurt/DE~52.3,14.5", index)["geonameid"] == 2
    assert parse_reference("Frankfurt/DE~52.3,14.5") == ("Frankfurt", "DE", (52.3, 14.5))


def test_an_unknown_place_is_named():
    with pytest.raises(LookupError, match="Atlantis"):
        resolve_reference("Atlantis/DE", build_index(PLACES))


# --- building a map from small facts -------------------------------------------------------------


def small_build(bank: str | None):
    """A clear map with one north-flowing major river through Magdeburg and a road to the East."""
    magdeburg = {
        "name": "Magdeburg",
        "at": [52.13, 11.62],
        "size": "square",
        "fortress": True,
        "area": "Prussia",
    }
    if bank:
        magdeburg["bank"] = ["Elbe", bank]
    facts = Facts(
        cities=[
            magdeburg,
            {
                "name": "Burg",
                "at": [52.27, 11.95],
                "size": "circled dot",
                "fortress": False,
                "area": "Prussia",
            },
            {
                "name": "Helmstedt",
                "at": [52.23, 11.01],
                "size": "circled dot",
                "fortress": False,
                "area": "Brunswick",
            },
        ],
        rivers=[
            {
                "name": "Elbe",
                "class": "major",
                "points": [[51.85, 11.75], "Magdeburg", [52.45, 11.75]],
            }
        ],
        roads=[{"name": "Helmstedt-Burg", "via": ["Helmstedt", "Magdeburg", "Burg"]}],
        bridges=[],
        marshes=[],
        relief={"raster": {"threshold": 0.5}},
        anchors={},
        places={},
    )
    b = g.Build(grid=Grid(g.COLUMNS, g.ROWS, g.ORIGIN_X, g.ORIGIN_Y), proj=Projection(51.0, 11.5))
    for _c, _r, h in b.grid.hexes():
        b.terrain[h] = "c"
    g.build_areas(b, facts)
    g.build_cities(b, facts)
    g.build_rivers(b, facts)
    g.build_bridges(b, facts)
    g.build_roads(b, facts)
    return b, g.to_json(b, {})


@pytest.mark.parametrize("bank, crossing", [("left", True), ("right", False)])
def test_a_city_stands_on_its_bank(bank, crossing):
    b, data = small_build(bank)
    m = map_from_dict(data)
    magdeburg, burg = m.city("Magdeburg"), m.city("Burg")
    assert "Elbe" in magdeburg.rivers
    path = least_cost_path(m, magdeburg.hex, burg.hex)
    crossed = [
        (a, direction_to(a, n))
        for a, n in zip(path, path[1:], strict=False)
        if m.river_name(a, direction_to(a, n)) == "Elbe"
    ]
    # Burg is on the right (East) bank: from a left-bank Magdeburg the way crosses the river
    assert bool(crossed) is crossing
    assert all(m.bridge(a, d) for a, d in crossed)


def test_the_built_map_passes_the_loader_and_is_written_the_same_way_twice():
    _b, data = small_build("left")
    m = map_from_dict(data)  # rivers continuous, roads bridged, chart numbers right
    assert m.city("Magdeburg").bastions == 8 and m.city("Magdeburg").vp == 8
    text = g.dump(data)
    assert text == g.dump(small_build("left")[1])
    assert json.loads(text)["format"] == "dgk-map/1"


def test_the_road_runs_through_its_towns_and_crosses_at_the_bridge():
    _b, data = small_build("left")
    m = map_from_dict(data)
    road = m.roads[0]
    assert road.hexes[0] == m.city("Helmstedt").hex
    assert m.city("Magdeburg").hex in road.hexes
    assert road.hexes[-1] == m.city("Burg").hex
