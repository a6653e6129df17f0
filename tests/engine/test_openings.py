"""Historical openings (issue 18): the SPI scenario of 1757 on our map."""

import dataclasses
import json

import pytest

from maps.core.hexgrid import distance, neighbour, parse_hex_id
from maps.core.loader import load_map
from rules.armies import Army
from rules.deployment import army_points_from
from rules.openings import HERE, OPENINGS, apportion, load_opening, opening_state
from rules.openings.rules import march_breach
from rules.orders import MarchOrder
from rules.rulesettings import RuleSettings

pytestmark = pytest.mark.pure

SETTINGS = RuleSettings()
POINTS = army_points_from(Army.SWEDEN, 200, SETTINGS)

# SPI 18.2 (with 19.2's leaders and 15.2's reinforcements of 1757), placement by placement:
# army, SPI hex, SP, the DGK leaders, the place of our map it stands for.
SPI_1757 = [
    ("prussia", "1623", 16, {"frederick", "henry", "kieth"}, "Dresden"),
    ("prussia", "1631", 12, {"schwerin"}, "Schweidnitz"),
    ("prussia", "2925", 10, {"lehwaldt"}, "Stettin"),
    ("prussia", "1521", 8, {"maurice"}, "Chemnitz"),
    ("prussia", "1626", 8, {"bevern"}, "Zittau"),
    ("prussia", "2217", 3, set(), "Magdeburg"),
    ("prussia", "3741", 2, set(), "Koenigsberg"),
    ("prussia", "1733", 2, set(), "Breslau"),
    ("prussia", "2030", 1, set(), "Glogau"),
    ("prussia", "2426", 1, set(), "Kustrin"),
    ("prussia", "2522", 1, set(), "Spandau"),
    ("prussia", "3330", 1, set(), "Kolberg"),
    ("prussia", "1634", 1, set(), "Brieg"),
    ("prussia", "1532", 1, set(), "Glatz"),
    ("prussia", "1434", 1, set(), "Neisse"),
    ("prussia", "1821", 1, set(), "Torgau"),
    ("hanover", "2413", 8, {"cumberland"}, "Celle"),
    ("hanover", "2211", 4, {"zastrow"}, "Hameln"),
    ("hanover", "2310", 2, {"karl-wilhelm"}, "Nienburg"),
    ("hanover", "2411", 4, set(), "Hanover"),
    ("hanover", "2711", 1, set(), "Bremen"),
    ("hanover", "3011", 1, set(), "Stade"),
    ("austria", "1125", 16, {"charles", "browne"}, "Prague"),
    ("austria", "1230", 11, {"serbelloni"}, "Koniggratz"),
    ("austria", "1528", 9, {"koenigsegg"}, None),
    ("austria", "1121", 8, {"arenburg"}, "Eger"),
    ("austria", "0834", 6, {"nadasy"}, "Olmutz"),
    ("austria", "0231", 4, {"daun"}, "Vienna"),
    ("austria", "0631", 4, set(), "Brunn"),
    ("france", "1901", 16, {"d-estrees", "broglie"}, "Cleves"),
    ("france", "1702", 9, {"contades"}, "Geldern"),
    ("france", "2104", 4, {"chevert"}, "Munster"),
    ("france", "1804", 4, {"st-germain"}, "Wesel"),
    ("france", "1604", 1, set(), "Dusseldorf"),
    ("france", "1306", 1, set(), "Koblenz"),
    ("france", "1108", 1, set(), "Giessen"),
    ("france", "1210", 1, set(), "Marburg"),
    ("france", "0703", 1, set(), "Saarlouis"),
    ("france", "0406", 1, set(), "Landau"),
    ("france", "0406", 10, {"soubise"}, "Landau"),
    ("empire", "0816", 1, set(), "Nuremburg"),
    ("empire", "0816", 8, {"saxe"}, "Nuremburg"),
    ("sweden", "3321", 6, {"hamilton"}, "Stralsund"),
    ("russia", "3742", 22, {"apraxin", "fermor"}, "Insterburg"),
]


def test_the_1757_opening_has_every_spi_placement():
    opening = load_opening("spi-1757")
    got = sorted((p.army.value, p.spi_hex, p.sp, set(p.leaders)) for p in opening.placements)
    want = sorted((a, h, sp, keys) for a, h, sp, keys, _place in SPI_1757)
    assert [(a, h, sp, sorted(k)) for a, h, sp, k in got] == [
        (a, h, sp, sorted(k)) for a, h, sp, k in want
    ]


def test_the_1757_opening_places_every_spi_unit_at_its_place():
    hexmap = load_map()
    opening = load_opening("spi-1757")
    state, events = opening_state(opening, 5, POINTS, SETTINGS, hexmap)
    assert set(state.deployed) == set(Army)
    by_key = {x.key: x for x in state.leaders}
    garrisons = {(g.city, g.army.value): g.points for g in state.garrisons}
    for army, spi_hex, _sp, keys, place in SPI_1757:
        if keys:
            where = hexmap.city(place).hex_id if place else opening_hex(opening, spi_hex)
            for key in keys:
                assert by_key[key].hex == where, (key, place)
                assert by_key[key].army.value == army
        else:
            assert garrisons[(place, army)] >= SETTINGS.min_garrison_points, place
    assert {x.key for x in state.leaders} == set().union(*(k for *_x, k, _p in SPI_1757))
    for army in Army:
        placed = sum(x.points for x in state.leaders if x.army is army)
        placed += sum(g.points for g in state.garrisons if g.army is army)
        assert placed == POINTS[army.value], army
    assert len(events) == 7 and all(e.public for e in events)
    assert "Frederick and Henry and Kieth at Dresden (5434)" in events[4].text


def opening_hex(opening, spi_hex):
    return next(p.hex for p in opening.placements if p.spi_hex == spi_hex)


def test_koenigsegg_stands_in_northern_bohemia():
    hexmap = load_map()
    h = hexmap.parse_hex_id(opening_hex(load_opening("spi-1757"), "1528"))
    assert hexmap.area(h) == "Austria"


@pytest.mark.parametrize("key", OPENINGS)
def test_every_opening_fits_the_map_and_keeps_each_armys_points(key):
    hexmap = load_map()
    opening = load_opening(key)
    points = apportion(opening, POINTS, SETTINGS)
    for army in opening.armies:
        mine = [pts for p, pts in zip(opening.placements, points, strict=True) if p.army is army]
        assert sum(mine) == POINTS[army.value]
        assert min(mine) >= SETTINGS.min_garrison_points
    state, _events = opening_state(opening, 5, POINTS, SETTINGS, hexmap)
    for g in state.garrisons:
        assert hexmap.city(g.city).fortress
    assert state.turn == (9 if key == "spi-1756" else 1)


def _state(key):
    return opening_state(load_opening(key), 5, POINTS, SETTINGS, load_map())[0]


def _path_to(hexmap, start, goal):
    """Direction codes of a straight walk from ``start`` towards ``goal``."""
    h, g, codes = parse_hex_id(start), parse_hex_id(goal), []
    while distance(h, g) > 0:
        d = min(range(1, 7), key=lambda d: distance(neighbour(h, d), g))
        codes.append(d)
        h = neighbour(h, d)
    return tuple(codes)


def test_the_saxons_may_not_leave_saxony_in_1756():
    hexmap = load_map()
    state = _state("spi-1756")
    rules = load_opening("spi-1756").rules
    xavier = next(x for x in state.leaders if x.key == "xavier")
    inside = _path_to(hexmap, xavier.hex, hexmap.city("Torgau").hex_id)
    out = _path_to(hexmap, xavier.hex, hexmap.city("Prague").hex_id)
    assert march_breach(rules, state, MarchOrder("xavier", inside), hexmap) == ""
    assert "may not leave Saxony" in march_breach(rules, state, MarchOrder("xavier", out), hexmap)
    # Frederick is not bound by it.
    fred = next(x for x in state.leaders if x.key == "frederick")
    path = _path_to(hexmap, fred.hex, hexmap.city("Prague").hex_id)
    assert march_breach(rules, state, MarchOrder("frederick", path), hexmap) == ""


def test_hanover_stays_west_of_magdeburg_until_the_coalition_takes_it():
    hexmap = load_map()
    state = _state("spi-1757")
    rules = load_opening("spi-1757").rules
    cumberland = next(x for x in state.leaders if x.key == "cumberland")
    east = _path_to(hexmap, cumberland.hex, hexmap.city("Berlin").hex_id)
    west = _path_to(hexmap, cumberland.hex, hexmap.city("Hameln").hex_id)
    assert "East of Magdeburg" in march_breach(rules, state, MarchOrder("cumberland", east), hexmap)
    assert march_breach(rules, state, MarchOrder("cumberland", west), hexmap) == ""
    taken = dataclasses.replace(state, control={**state.control, "Magdeburg": "france"})
    assert march_breach(rules, taken, MarchOrder("cumberland", east), hexmap) == ""


def test_hanover_stays_west_of_the_elbe_and_the_empire_east_of_the_rhine_in_1759():
    hexmap = load_map()
    state = _state("spi-1759")
    rules = load_opening("spi-1759").rules
    ferdinand = next(x for x in state.leaders if x.key == "ferdinand")
    to_berlin = _path_to(hexmap, ferdinand.hex, hexmap.city("Berlin").hex_id)
    assert "East of the Elbe" in march_breach(
        rules, state, MarchOrder("ferdinand", to_berlin), hexmap
    )
    zweibrucken = next(x for x in state.leaders if x.key == "zweibrucken")
    to_landau = _path_to(hexmap, zweibrucken.hex, hexmap.city("Landau").hex_id)
    to_frankfurt = _path_to(hexmap, zweibrucken.hex, hexmap.city("Frankfurt").hex_id)
    assert "West of the Rhine" in march_breach(
        rules, state, MarchOrder("zweibrucken", to_landau), hexmap
    )
    assert march_breach(rules, state, MarchOrder("zweibrucken", to_frankfurt), hexmap) == ""


@pytest.mark.parametrize("key", OPENINGS)
def test_the_data_files_say_what_the_engine_does(key):
    """The place, hex and points written in each file for the reader are the engine's own."""
    data = json.loads((HERE / f"{key}.json").read_text(encoding="utf-8"))
    opening = load_opening(key)
    points = apportion(opening, POINTS, SETTINGS)
    for item, p, n in zip(data["placements"], opening.placements, points, strict=True):
        assert (item["place"], item["hex"], item["points"]) == (p.place, p.hex, n)
        assert item.get("garrison") == p.garrison
