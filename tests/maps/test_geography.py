"""The bundled map of Central Europe, 1756, checked against geography and the rulebook.

These are facts a historian or a wargamer would check on the printed map: where the cities are,
which rivers they stand on, where the mountains and marshes are, which areas hold which cities, and
what the City Chart (2.3.1), the Star City Chart (13.9), the key cities (12.5) and the fortresses of
3.2.5 require.
"""

import tomllib
from pathlib import Path

import pytest

from maps.core.hexgrid import axial_to_offset, direction_to, distance, neighbour
from maps.core.loader import KNOWN_AREAS, load_map
from maps.core.model import CitySize, River, Terrain
from maps.core.paths import least_cost_path
from maps.core.render import hex_of_latlon

pytestmark = pytest.mark.pure

FACTS = Path(__file__).resolve().parents[2] / "maps" / "tools" / "mapgen" / "facts"


@pytest.fixture(scope="module")
def m():
    return load_map()


def col(m, name):
    return axial_to_offset(m.city(name).hex)[0]


def row(m, name):
    return axial_to_offset(m.city(name).hex)[1]


# --- extent and size -----------------------------------------------------------------------------


def test_it_is_80_to_90_hexes_wide_and_60_to_65_rows_high(m):
    assert 80 <= m.columns <= 90
    assert 60 <= m.rows <= 65
    assert len(m.hexes) == m.columns * m.rows


def test_it_holds_120_to_200_cities(m):
    assert 120 <= len(m.cities) <= 200


@pytest.mark.parametrize(
    "name",
    [
        "Paris",
        "Lille",
        "Antwerp",
        "Amsterdam",
        "Koenigsberg",
        "Danzig",
        "Posen",
        "Hamburg",
        "Bremen",
        "Stettin",
        "Munich",
        "Vienna",
        "Budapest",
    ],
)
def test_the_corners_of_the_issue_are_on_the_map(m, name):
    assert m.city(name).hex in m


def test_west_to_east_the_capitals_come_in_order(m):
    order = ["Paris", "Strasburg", "Munich", "Vienna", "Budapest"]
    cols = [col(m, n) for n in order]
    assert cols == sorted(cols) and len(set(cols)) == len(cols)


def test_north_to_south_the_eastern_cities_come_in_order(m):
    order = ["Danzig", "Posen", "Breslau", "Olmutz", "Vienna"]
    rows = [row(m, n) for n in order]
    assert rows == sorted(rows) and len(set(rows)) == len(rows)


@pytest.mark.parametrize(
    "a, b, km",
    [
        ("Berlin", "Dresden", 165),
        ("Berlin", "Vienna", 523),
        ("Paris", "Koenigsberg", 1390),
        ("Magdeburg", "Berlin", 128),
        ("Prague", "Vienna", 252),
        ("Breslau", "Prague", 218),
    ],
)
def test_hex_distances_match_the_great_circle_at_10_miles_a_hex(m, a, b, km):
    # a hex path is up to 2/sqrt(3) longer than the straight line (North-South it zigzags)
    hexes = distance(m.city(a).hex, m.city(b).hex)
    assert km * 0.97 - 16 <= hexes * 16.09 <= km * 1.16 + 16, (hexes, km)


# --- rivers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "city, river",
    [
        ("Magdeburg", "Elbe"),
        ("Dresden", "Elbe"),
        ("Torgau", "Elbe"),
        ("Wittenberg", "Elbe"),
        ("Hamburg", "Elbe"),
        ("Prague", "Moldau"),
        ("Vienna", "Danube"),
        ("Regensburg", "Danube"),
        ("Ingolstadt", "Danube"),
        ("Pressburg", "Danube"),
        ("Budapest", "Danube"),
        ("Breslau", "Oder"),
        ("Glogau", "Oder"),
        ("Kustrin", "Oder"),
        ("Stettin", "Oder"),
        ("Frankfurt on Oder", "Oder"),
        ("Mainz", "Rhine"),
        ("Koblenz", "Rhine"),
        ("Cologne", "Rhine"),
        ("Wesel", "Rhine"),
        ("Strasburg", "Rhine"),
        ("Danzig", "Vistula"),
        ("Thorn", "Vistula"),
        ("Warsaw", "Vistula"),
        ("Bremen", "Weser"),
        ("Minden", "Weser"),
        ("Hameln", "Weser"),
        ("Frankfurt", "Main"),
        ("Wurzburg", "Main"),
        ("Metz", "Moselle"),
        ("Namur", "Meuse"),
        ("Maastricht", "Meuse"),
        ("Halle", "Saale"),
        ("Olmutz", "March"),
        ("Kassel", "Fulda"),
        ("Neisse", "Neisse"),
        ("Landsberg", "Warthe"),
        ("Posen", "Warthe"),
        ("Berlin", "Spree"),
        ("Spandau", "Havel"),
    ],
)
def test_river_cities_stand_on_their_river(m, city, river):
    names = {name for _d, _cls, name in m.rivers_of(m.city(city).hex)}
    assert river in names, f"{city} is on {sorted(names)}"


@pytest.mark.parametrize("river", ["Rhine", "Elbe", "Oder", "Danube", "Vistula"])
def test_the_five_great_rivers_are_major(m, river):
    classes = {c.river for c in m.river_courses if c.name == river}
    assert classes == {River.MAJOR}


@pytest.mark.parametrize(
    "river",
    [
        "Weser",
        "Main",
        "Saale",
        "Moldau",
        "Havel",
        "Spree",
        "Neisse",
        "Warthe",
        "Moselle",
        "Meuse",
        "Neckar",
        "March",
    ],
)
def test_the_lesser_rivers_are_minor(m, river):
    classes = {c.river for c in m.river_courses if c.name == river}
    assert classes == {River.MINOR}


@pytest.mark.parametrize(
    "city",
    [
        "Magdeburg",
        "Dresden",
        "Breslau",
        "Vienna",
        "Mainz",
        "Koblenz",
        "Cologne",
        "Stettin",
        "Danzig",
        "Strasburg",
        "Regensburg",
    ],
)
def test_every_city_on_a_major_river_has_a_bridge(m, city):
    h = m.city(city).hex
    bridged = [d for d, cls, _name in m.rivers_of(h) if cls is River.MAJOR and m.bridge(h, d)]
    assert bridged


def _elbe_crossings(m, path):
    out = []
    for a, b in zip(path, path[1:], strict=False):
        d = direction_to(a, b)
        if m.river_name(a, d) == "Elbe":
            out.append((a, d))
    return out


def test_the_elbe_between_magdeburg_and_berlin_is_crossed_only_at_bridges(m):
    # Magdeburg's old town stands on the left (West) bank
    path = least_cost_path(m, m.city("Magdeburg").hex, m.city("Berlin").hex)
    assert path is not None
    crossings = _elbe_crossings(m, path)
    assert crossings, "Magdeburg lies on the left bank: the way to Berlin crosses the Elbe"
    assert all(m.bridge(a, d) for a, d in crossings)


@pytest.mark.parametrize(
    "a, b, river",
    [
        ("Dresden", "Berlin", "Elbe"),  # the Altstadt is on the left (South) bank
        ("Hamburg", "Bremen", "Elbe"),
        ("Mainz", "Frankfurt", "Rhine"),
        ("Strasburg", "Stuttgart", "Rhine"),
        ("Cologne", "Dusseldorf", "Rhine"),
        ("Breslau", "Posen", "Oder"),
        ("Stettin", "Kolberg", "Oder"),
        ("Vienna", "Brunn", "Danube"),
        ("Regensburg", "Nuremburg", "Danube"),
        ("Danzig", "Koenigsberg", "Vistula"),
    ],
)
def test_cities_stand_on_their_historical_bank(m, a, b, river):
    path = least_cost_path(m, m.city(a).hex, m.city(b).hex)
    crossings = [
        (h, direction_to(h, n))
        for h, n in zip(path, path[1:], strict=False)
        if m.river_name(h, direction_to(h, n)) == river
    ]
    assert crossings, f"from {a} to {b} one crosses the {river}"
    assert all(m.bridge(h, d) for h, d in crossings)


def test_an_unbridged_elbe_hexside_is_impassable(m):
    elbe = [s for c in m.river_courses if c.name == "Elbe" for s in c.sides]
    unbridged = [s for s in elbe if s not in m.bridges]
    assert len(unbridged) > len(elbe) / 2
    for h, d in unbridged[:20]:
        if m.terrain(h).passable and m.terrain(neighbour(h, d)).passable:
            assert m.enter_cost(h, d) is None


def test_a_bridged_major_river_costs_only_the_terrain(m):
    h = m.city("Dresden").hex
    d = next(d for d, cls, _n in m.rivers_of(h) if cls is River.MAJOR and m.bridge(h, d))
    other = neighbour(h, d)
    expected = {Terrain.CLEAR: 2, Terrain.MARSH: 3, Terrain.ROUGH: 4}[m.terrain(other)]
    assert m.enter_cost(h, d) in (expected, 1)  # 1 if a road runs across the bridge


# --- sea, coast, lakes ---------------------------------------------------------------------------


def test_the_sea_north_of_danzig_is_impassable(m):
    h = m.city("Danzig").hex
    north = [neighbour(neighbour(h, 2), 3), neighbour(neighbour(h, 3), 3)]
    for s in north:
        assert m.terrain(s) is Terrain.SEA
    # no step from any neighbour into a sea hex costs anything: it is impassable
    for s in north:
        for d in range(1, 7):
            frm = neighbour(s, d)
            if frm in m and m.terrain(frm).passable:
                assert m.enter_cost(frm, (d + 2) % 6 + 1) is None


@pytest.mark.parametrize(
    "city",
    ["Danzig", "Kolberg", "Ostend", "Dunkirk", "Rostock", "Stralsund", "Kiel", "Wismar", "Hague"],
)
def test_seaports_are_coastal(m, city):
    assert m.is_coastal(m.city(city).hex)


@pytest.mark.parametrize("city", ["Berlin", "Prague", "Leipzig", "Breslau", "Munich", "Kassel"])
def test_inland_cities_are_not_coastal(m, city):
    assert not m.is_coastal(m.city(city).hex)


def test_the_north_sea_and_the_baltic_are_sea(m):
    assert m.terrain(hex_of_latlon(m, 54.5, 6.0)) is Terrain.SEA  # German Bight
    assert m.terrain(hex_of_latlon(m, 55.0, 16.0)) is Terrain.SEA  # Baltic, off Pomerania
    assert m.terrain(hex_of_latlon(m, 52.6, 5.4)) is Terrain.SEA  # the Zuiderzee of 1756


def test_britain_is_not_on_the_map(m):
    assert m.terrain(hex_of_latlon(m, 52.6, 1.6)) is Terrain.SEA  # East Anglia (3.4: off map)


def test_there_are_lakes(m):
    assert sum(1 for h in m.hexes if m.terrain(h) is Terrain.LAKE) >= 3


# --- terrain -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "place, lat, lon",
    [
        ("the Brocken, Harz", 51.80, 10.62),
        ("the Thuringian Forest at Oberhof", 50.71, 10.73),
        ("the Fichtelberg, Erzgebirge", 50.43, 12.95),
        ("the Schneekoppe, Riesengebirge", 50.74, 15.74),
        ("the Glatz mountains", 50.25, 16.70),
        ("the Altvater, Sudetes", 50.08, 17.23),
        ("the Great Arber, Bohemian Forest", 49.11, 13.13),
        ("the Feldberg, Black Forest", 47.87, 8.00),
        ("the Grand Ballon, Vosges", 47.90, 7.10),
        ("the Dachstein, Alps", 47.47, 13.60),
        ("the Beskids, Carpathians", 49.50, 19.00),
        ("the Tatra, Carpathians", 49.20, 19.90),
        ("the Ardennes", 50.05, 5.55),
        ("the Hunsruck", 49.85, 7.10),
    ],
)
def test_mountains_are_rough(m, place, lat, lon):
    h = hex_of_latlon(m, lat, lon)
    assert m.terrain(h) is Terrain.ROUGH, place


@pytest.mark.parametrize(
    "place, lat, lon",
    [
        ("the Oderbruch", 52.70, 14.30),
        ("the Warthe bruch", 52.68, 15.10),
        ("the Spreewald", 51.87, 14.00),
        ("the Dromling", 52.48, 11.05),
        ("the Bourtanger Moor", 52.75, 7.08),
    ],
)
def test_the_great_marshes_are_marsh(m, place, lat, lon):
    assert m.terrain(hex_of_latlon(m, lat, lon)) is Terrain.MARSH, place


@pytest.mark.parametrize(
    "city",
    [
        "Berlin",
        "Leipzig",
        "Breslau",
        "Magdeburg",
        "Posen",
        "Budapest",
        "Hanover",
        "Paris",
        "Warsaw",
    ],
)
def test_the_plains_are_clear(m, city):
    assert m.terrain(m.city(city).hex) is Terrain.CLEAR


def test_rough_and_marsh_are_a_minority_of_the_land(m):
    land = [h for h in m.hexes if m.terrain(h).passable]
    rough = sum(1 for h in land if m.terrain(h) is Terrain.ROUGH)
    marsh = sum(1 for h in land if m.terrain(h) is Terrain.MARSH)
    assert 0.05 < rough / len(land) < 0.25
    assert 0.003 < marsh / len(land) < 0.05


# --- areas ---------------------------------------------------------------------------------------


def test_every_area_of_the_deployment_chart_and_every_neutral_is_present(m):
    assert set(m.areas) == set(KNOWN_AREAS) | {"Sea"}


def test_water_hexes_are_sea_and_land_hexes_are_not(m):
    for h in m.hexes:
        assert (m.area(h) == "Sea") == (not m.terrain(h).passable), h


@pytest.mark.parametrize(
    "city, area",
    [
        ("Berlin", "Prussia"),
        ("Magdeburg", "Prussia"),
        ("Stettin", "Prussia"),
        ("Wesel", "Prussia"),
        ("Breslau", "Silesia"),
        ("Glatz", "Silesia"),
        ("Dresden", "Saxony"),
        ("Leipzig", "Saxony"),
        ("Koenigsberg", "East Prussia"),
        ("Hanover", "Hanover"),
        ("Bremen", "Hanover"),
        ("Stade", "Hanover"),
        ("Brunswick", "Brunswick"),
        ("Kassel", "Hesse-Kassel"),
        ("Lippstadt", "Lippe"),
        ("Minden", "Minden"),
        ("Munster", "Empire"),
        ("Frankfurt", "Empire"),
        ("Nuremburg", "Empire"),
        ("Munich", "Bavaria"),
        ("Ingolstadt", "Bavaria"),
        ("Stuttgart", "Wurttemburg"),
        ("Vienna", "Austria"),
        ("Prague", "Austria"),
        ("Budapest", "Austria"),
        ("Olmutz", "Austria"),
        ("Paris", "France"),
        ("Strasburg", "France"),
        ("Metz", "France"),
        ("Brussels", "Austrian Netherlands"),
        ("Luxembourg", "Austrian Netherlands"),
        ("Amsterdam", "United Provinces"),
        ("Maastricht", "United Provinces"),
        ("Hamburg", "Mecklinburg"),
        ("Schwerin", "Mecklinburg"),
        ("Stralsund", "Swedish Pomerania"),
        ("Danzig", "Poland"),
        ("Posen", "Poland"),
        ("Warsaw", "Poland"),
        ("Gluckstadt", "Denmark"),
    ],
)
def test_cities_lie_in_their_areas(m, city, area):
    c = m.city(city)
    assert c.area == area
    assert m.area(c.hex) == area


def test_areas_hang_together(m):
    """Each area's hexes form few pieces (exclaves are historical, not scattered noise)."""
    for area in m.areas:
        if area == "Sea":
            continue
        hexes = set(m.hexes_in_area(area))
        pieces = singles = 0
        while hexes:
            pieces += 1
            stack = [hexes.pop()]
            size = 1
            while stack:
                h = stack.pop()
                for d in range(1, 7):
                    n = neighbour(h, d)
                    if n in hexes:
                        hexes.remove(n)
                        stack.append(n)
                        size += 1
            singles += size == 1
        # the Empire is a patchwork by nature (Baden, the Palatinate, Anhalt, Liège, Salzburg...)
        assert pieces <= (16 if area == "Empire" else 12), (area, pieces)
        assert singles <= 3, (area, singles)


# --- cities and the charts -----------------------------------------------------------------------

STAR_CITIES = {  # 13.9, Britain is off the map
    "Austria": ["Budapest", "Prague", "Vienna"],
    "Austrian Netherlands": ["Antwerp", "Brussels"],
    "Empire": ["Frankfurt", "Nuremburg"],
    "Bavaria": ["Munich"],
    "Wurttemburg": ["Stuttgart"],
    "France": ["Lille", "Paris", "Strasburg"],
    "Hanover": ["Bremen", "Hanover"],
    "Brunswick": ["Brunswick"],
    "Mecklinburg": ["Hamburg"],
    "Poland": ["Danzig", "Posen"],
    "Prussia": ["Berlin", "Stettin"],
    "Silesia": ["Breslau"],
    "Saxony": ["Dresden", "Leipzig"],
    "United Provinces": ["Amsterdam", "Hague", "Rotterdam"],
}


@pytest.mark.parametrize("name", sorted(n for names in STAR_CITIES.values() for n in names))
def test_star_cities_of_13_9_are_stars(m, name):
    assert m.city(name).size in (CitySize.STAR, CitySize.CIRCLED_STAR)


def test_only_the_star_cities_of_13_9_carry_a_star(m):
    listed = {n for names in STAR_CITIES.values() for n in names}
    starred = {c.name for c in m.cities if c.size in (CitySize.STAR, CitySize.CIRCLED_STAR)}
    assert starred == listed


def test_circled_stars_are_never_fortresses(m):
    circled = [c for c in m.cities if c.size is CitySize.CIRCLED_STAR]
    assert {c.name for c in circled} >= {"Paris", "Vienna", "Berlin"}
    assert not any(c.fortress for c in circled)


@pytest.mark.parametrize(
    "name",
    ["Berlin", "Koenigsberg", "Breslau", "Magdeburg", "Dresden", "Bremen", "Hanover", "Brunswick"],
)
def test_the_key_cities_of_12_5_are_on_the_map(m, name):
    assert m.city(name).hex in m


@pytest.mark.parametrize("name", ["Munster", "Dresden", "Glatz", "Schweidnitz"])
def test_the_fortresses_of_3_2_5_are_fortresses(m, name):
    assert m.city(name).fortress


ISSUE_FORTRESSES = [
    "Kolberg",
    "Stettin",
    "Kustrin",
    "Spandau",
    "Magdeburg",
    "Glogau",
    "Breslau",
    "Brieg",
    "Neisse",
    "Cosel",
    "Glatz",
    "Schweidnitz",
    "Olmutz",
    "Brunn",
    "Koniggratz",
    "Prague",
    "Eger",
    "Dresden",
    "Wesel",
    "Geldern",
    "Lippstadt",
    "Munster",
    "Minden",
    "Hameln",
    "Stade",
    "Kassel",
    "Ziegenhain",
    "Marburg",
    "Giessen",
    "Mainz",
    "Koblenz",
    "Philippsburg",
    "Ingolstadt",
    "Luxembourg",
    "Maastricht",
    "Namur",
    "Lille",
    "Metz",
    "Strasburg",
]


@pytest.mark.parametrize("name", ISSUE_FORTRESSES)
def test_every_fortress_of_the_issue_is_a_fortress_with_the_city_charts_numbers(m, name):
    c = m.city(name)
    assert c.fortress
    assert c.bastions == c.size.bastions and c.bastions > 0
    assert c.vp == c.size.fortress_vp and c.vp > 0
    assert c.garrison_limit == 100 * c.bastions


def test_small_cities_are_shown_only_if_fortresses(m):
    """2.3.2: circle and dot cities appear on the map only when they are fortresses."""
    small = [c for c in m.cities if c.size in (CitySize.CIRCLE, CitySize.DOT)]
    assert small and all(c.fortress for c in small)


def test_cities_that_are_not_fortresses_have_no_bastions_or_vps(m):
    for c in m.cities:
        if not c.fortress:
            assert c.bastions == 0 and c.vp == 0, c.name


def test_cities_stand_on_land_one_to_a_hex(m):
    seen = {}
    for c in m.cities:
        assert m.terrain(c.hex).passable, c.name
        assert c.hex not in seen or c.same_hex_as, (c.name, seen.get(c.hex))
        seen[c.hex] = c.name


def test_the_map_keeps_the_coordinates_of_its_cities(m):
    for c in m.cities:
        assert (
            hex_of_latlon(m, c.lat, c.lon) == c.hex
            or distance(hex_of_latlon(m, c.lat, c.lon), c.hex) == 1
        ), c.name


def test_the_facts_and_the_map_agree():
    with open(FACTS / "cities.toml", "rb") as f:
        facts = {c["name"]: c for c in tomllib.load(f)["cities"]}
    m = load_map()
    assert {c.name for c in m.cities} == set(facts)
    for c in m.cities:
        fact = facts[c.name]
        assert CitySize.parse(fact["size"]) is c.size, c.name
        assert fact["fortress"] == c.fortress, c.name
        assert fact["area"] == c.area, c.name


# --- roads ---------------------------------------------------------------------------------------


def test_the_berlin_magdeburg_road_runs_from_city_to_city(m):
    road = next(r for r in m.roads if r.name == "Berlin-Magdeburg")
    assert road.hexes[0] == m.city("Berlin").hex
    assert road.hexes[-1] == m.city("Magdeburg").hex
    for a, b in zip(road.hexes, road.hexes[1:], strict=False):
        assert m.road(a, direction_to(a, b))
        assert m.enter_cost(a, direction_to(a, b)) in (1, 3)  # 3 across an unbridged minor river


def test_roads_make_marching_cheaper(m):
    from maps.core.paths import path_cost

    path = least_cost_path(m, m.city("Berlin").hex, m.city("Magdeburg").hex)
    cost = path_cost(m, path)
    assert cost < 2 * distance(m.city("Berlin").hex, m.city("Magdeburg").hex)


@pytest.mark.parametrize(
    "a, b",
    [
        ("Berlin", "Vienna"),
        ("Paris", "Koenigsberg"),
        ("Amsterdam", "Budapest"),
        ("Hanover", "Breslau"),
        ("Strasburg", "Prague"),
    ],
)
def test_the_map_is_one_country_by_land(m, a, b):
    assert least_cost_path(m, m.city(a).hex, m.city(b).hex) is not None
