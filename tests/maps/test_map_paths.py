"""Least-cost paths, reach, nearest targets and water lines."""

import pytest

from maps.core.compact import compact_map
from maps.core.hexgrid import hex_id, parse_hex_id
from maps.core.loader import load_map
from maps.core.paths import (
    enemy_aware_cost,
    least_cost_path,
    nearest,
    path_cost,
    reachable,
    reachable_paths,
    water_reach,
)

pytestmark = pytest.mark.pure

H = parse_hex_id

# A 6x4 map: a road along row 1, rough in the middle, a minor river down column 4's East side,
# the sea on row 4.
MAP = compact_map(
    {
        "terrain": ["c c c c c c", "c r r c c c", "c c c c c c", "s s s s s s"],
        "roads": [["0101", "0201", "0301", "0401", "0501", "0601"]],
        "rivers": [
            {
                "name": "Havel",
                "class": "minor",
                "sides": ["0401/4", "0402/3", "0402/4", "0402/5", "0403/4"],
            }
        ],
    }
)


def ids(hexes):
    return [hex_id(h) for h in hexes]


def test_the_road_is_the_cheapest_way():
    path = least_cost_path(MAP, H("0101"), H("0601"))
    assert ids(path) == ["0101", "0201", "0301", "0401", "0501", "0601"]
    assert path_cost(MAP, path) == 1 + 1 + 1 + 3 + 1  # the unbridged Havel adds 2 to the road


@pytest.mark.parametrize(
    ("start", "mp", "inside", "outside"),
    [
        ("0101", 5, ["0401", "0402"], ["0501", "0601"]),  # the unbridged Havel makes 0501 cost 6
        ("0101", 2, ["0301"], ["0401", "0103"]),
        ("0103", 4, ["0303"], ["0403"]),
    ],
)
def test_reachable_within_n_mp(start, mp, inside, outside):
    reach = reachable(MAP, H(start), mp)
    assert all(H(h) in reach for h in inside)
    assert not any(H(h) in reach for h in outside)
    assert all(cost <= mp for cost in reach.values())


def test_an_enemy_hex_can_be_entered_but_not_left():
    enemy = {H("0301")}
    cost = enemy_aware_cost(MAP, enemy)
    reach = reachable(MAP, H("0101"), 20, cost=cost, can_leave=lambda h: h not in enemy)
    assert reach[H("0301")] == 1 + 1 + 2
    # 0401 can still be reached around the enemy, but not through it along the road
    assert reach[H("0401")] > 1 + 1 + 2 + 1


def test_supply_lines_pay_no_enemy_surcharge():
    cost = enemy_aware_cost(MAP, {H("0301")}, enemy_surcharge=False)
    assert reachable(MAP, H("0101"), 20, cost=cost)[H("0301")] == 2


def test_nearest_target_by_movement_points():
    found = nearest(MAP, H("0101"), [H("0601"), H("0103")])
    assert found == (H("0103"), 4)
    assert nearest(MAP, H("0101"), [H("0101")]) == (H("0101"), 0)
    assert nearest(MAP, H("0101"), [H("0104")]) is None  # sea


def test_paths_are_the_same_every_time():
    first = least_cost_path(MAP, H("0103"), H("0603"))
    for _ in range(5):
        assert least_cost_path(MAP, H("0103"), H("0603")) == first


def test_water_lines_follow_the_river_and_the_coast():
    reach = water_reach(MAP, [H("0401")])
    assert H("0501") in reach and H("0403") in reach  # along the Havel
    assert H("0103") in reach  # the Havel meets the coast, the coast runs West
    assert H("0102") not in reach  # inland, no river


def test_a_water_line_cannot_go_on_from_a_side_next_to_an_enemy():
    enemy = H("0402")
    reach = water_reach(MAP, [H("0401")], stop_at={enemy})
    assert H("0403") not in reach


def test_reachable_paths_agree_with_reachable_and_path_cost_on_the_real_map():
    hexmap = load_map("central_europe_1756")
    start = hexmap.city("Breslau").hex
    enemies = {parse_hex_id("7035")}
    cost = enemy_aware_cost(hexmap, enemies)
    paths = reachable_paths(hexmap, start, 8, cost=cost, can_leave=lambda h: h not in enemies)
    assert {h: mp for h, (mp, _line) in paths.items()} == reachable(
        hexmap, start, 8, cost=cost, can_leave=lambda h: h not in enemies
    )
    for mp, line in paths.values():
        assert line[0] == start
        assert path_cost(hexmap, line, cost=cost) == mp
        assert not enemies & set(line[:-1])  # a line stops in an enemy hex (6.4.4)


def test_avoid_refuses_hexes_as_a_cost_that_refuses_them_would():
    """``least_cost_path(avoid=...)`` gives the path a cost refusing the same hexes gives, on
    the real map, and goes round what it avoids (Denmark's hexes, closed by 3.3)."""
    hexmap = load_map("central_europe_1756")
    closed = hexmap.hexes_of_areas({"Denmark"})
    assert closed

    def refusing(frm, d, to):
        return None if to in closed else hexmap.enter_cost(frm, d)

    a, b = hexmap.city("Hamburg").hex, hexmap.city("Stralsund").hex
    for start, goal in ((a, b), (b, a), (hexmap.city("Breslau").hex, b)):
        path = least_cost_path(hexmap, start, goal, avoid=closed)
        assert path == least_cost_path(hexmap, start, goal, cost=refusing)
        assert path and not closed & set(path)
    plain = least_cost_path(hexmap, a, b)
    middle = plain[len(plain) // 2]
    detour = least_cost_path(hexmap, a, b, avoid={middle})
    assert middle not in detour and detour[0] == a and detour[-1] == b
