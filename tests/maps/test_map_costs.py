"""Movement costs by the Terrain Effects Chart (2.2) and 6.4.4."""

import pytest

from maps.core.compact import compact_map
from maps.core.hexgrid import parse_hex_id
from maps.core.model import MovementCosts, River

pytestmark = pytest.mark.pure

# Row 1: clear marsh rough sea clear lake
# Row 2: clear clear clear clear clear clear, with a road 0102-0202-0302 and rivers.
MAP = compact_map(
    {
        "terrain": ["c m r s c l", "c c c c c c", "c c c c c c"],
        "rivers": [
            {"name": "Oder", "class": "major", "sides": ["0302/4", "0402/6"]},
            {"name": "Spree", "class": "minor", "sides": ["0502/4"]},
        ],
        "bridges": ["0402/6"],
        "roads": [["0102", "0202", "0302"]],
        "cities": [{"name": "Kuestrin", "hex": "0402", "size": "circled dot", "fortress": True}],
    }
)


def cost(frm, d, **kw):
    return MAP.enter_cost(parse_hex_id(frm), d, **kw)


@pytest.mark.parametrize(
    ("frm", "d", "expected", "why"),
    [
        ("0101", 4, 3, "marsh 3"),
        ("0201", 4, 4, "rough 4"),
        ("0301", 4, None, "sea impassable"),
        ("0501", 4, None, "lake impassable"),
        ("0201", 1, 2, "clear 2"),
        ("0102", 4, 1, "road 1 along the road"),
        ("0202", 4, 1, "road 1 along the road"),
        ("0202", 3, 4, "off the road: the terrain cost, rough"),
        ("0302", 4, None, "major river without bridge impassable"),
        ("0502", 4, 4, "minor river +2"),
        ("0602", 1, 4, "minor river +2 from the other side"),
    ],
)
def test_terrain_effects_chart(frm, d, expected, why):
    assert cost(frm, d) == expected, why


def test_a_bridge_cancels_the_major_river():
    # 0402/6 is the SW side of 0402: from 0403 into 0402 over the bridged Oder.
    assert MAP.river(parse_hex_id("0403"), 3) is River.MAJOR
    assert cost("0403", 3) == 2


def test_a_bridge_to_an_enemy_held_fortress_costs_two():
    kuestrin = parse_hex_id("0402")
    assert cost("0403", 3, enemy_fortresses={kuestrin}) == 4
    # the same fortress, not across a river: no surcharge
    assert cost("0502", 1, enemy_fortresses={kuestrin}) == 2


def test_entering_an_enemy_occupied_hex_costs_two_more():
    assert cost("0201", 1, enemy_occupied={parse_hex_id("0101")}) == 4
    assert cost("0102", 4, enemy_occupied={parse_hex_id("0202")}) == 3


def test_players_may_change_the_numbers():
    costly = MovementCosts(clear=3, marsh=5)
    assert MAP.enter_cost(parse_hex_id("0101"), 4, costs=costly) == 5
    assert MAP.enter_cost(parse_hex_id("0201"), 1, costs=costly) == 3


def test_coast_and_river_hexes_are_known():
    assert MAP.is_coastal(parse_hex_id("0301"))
    assert MAP.is_coastal(parse_hex_id("0501"))
    assert not MAP.is_coastal(parse_hex_id("0401"))  # the sea hex itself
    assert not MAP.is_coastal(parse_hex_id("0103"))
    assert MAP.on_river(parse_hex_id("0402"))
    assert not MAP.on_river(parse_hex_id("0103"))
