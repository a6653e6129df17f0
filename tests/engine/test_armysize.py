"""Whether every army can deploy at a size (3, 3.2.1, 3.2.3, 3.2.4, 3.2.6): rules.armysize."""

import pytest

from maps.core.loader import load_map
from rules.armies import Army
from rules.armysize import check_size, fortresses_of, least_size, shareable_fortresses
from rules.deployment import army_points_from
from rules.rulesettings import RuleSettings

SETTINGS = RuleSettings()


@pytest.fixture(scope="module")
def hexmap():
    return load_map()


def by_sweden(n: int) -> dict[str, int]:
    return army_points_from(Army.SWEDEN, n, SETTINGS)


def test_the_map_gives_the_empire_eighteen_fortresses_four_west_of_the_rhine(hexmap):
    forts = fortresses_of(hexmap)
    assert len(forts[Army.EMPIRE]) == 18
    assert shareable_fortresses(hexmap) == ["Julich", "Koblenz", "Liege", "Mainz"]
    assert {a: len(f) for a, f in forts.items() if a is not Army.EMPIRE} == {
        Army.AUSTRIA: 9, Army.FRANCE: 32, Army.HANOVER: 13, Army.PRUSSIA: 20,
        Army.RUSSIA: 2, Army.SWEDEN: 1,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("sweden", "empire", "least", "room", "given", "france_least", "can_deploy", "has_room"),
    [
        # Below 750 the Empire cannot garrison its 14 fortresses East of the Rhine and lead.
        (150, 600, 750, 1001, 4, 1850, False, False),
        (187, 748, 750, 1001, 4, 1850, False, False),
        (188, 752, 750, 1001, 4, 1850, True, False),
        # The rulebook's example (3): France must garrison 3 of the four (3.2.4).
        (200, 800, 800, 1001, 3, 1800, True, False),
        # 1,000: all 18 garrisoned by the Empire, but its two leaders cannot both lead a
        # force of 50 with the commander-in-chief's the larger (3.2.1, 3.2.6).
        (250, 1000, 950, 1001, 0, 1650, True, False),
        (251, 1004, 950, 1001, 0, 1650, True, True),
        (300, 1200, 950, 1001, 0, 1650, True, True),
    ],
)
def test_the_empire_against_3_2(
    hexmap, sweden, empire, least, room, given, france_least, can_deploy, has_room
):
    check = check_size(hexmap, SETTINGS, by_sweden(sweden))
    rows = {a.army: a for a in check.armies}
    e, f = rows[Army.EMPIRE], rows[Army.FRANCE]
    assert (e.points, e.least, e.room, e.given) == (empire, least, room, given)
    assert (f.taken, f.least) == (given, france_least)
    assert (check.can_deploy, check.every_army_has_room) == (can_deploy, has_room)


def test_a_refusal_says_which_army_and_why(hexmap):
    problems = check_size(hexmap, SETTINGS, by_sweden(150)).problems(SETTINGS)
    assert problems == [
        "Empire has 600 points; it needs at least 750: 14 fortresses garrisoned by 50 points "
        "each (3.2.3) and 50 points with its leaders (3.2.1), France garrisoning 4 of its 4 "
        "fortresses West of the Rhine (3.2.4)."
    ]


@pytest.mark.parametrize(
    ("army", "least", "room"),
    [
        (Army.AUSTRIA, 9 * 50 + 50, 9 * 50 + 8 * 50 + 1),
        (Army.PRUSSIA, 20 * 50 + 50, 20 * 50 + 10 * 50),  # exempt from 3.2.6
        (Army.HANOVER, 13 * 50 + 50, 13 * 50 + 4 * 50 + 1),
        (Army.RUSSIA, 2 * 50 + 50, 2 * 50 + 4 * 50 + 1),
        (Army.SWEDEN, 50 + 50, 50 + 50),  # one leader: no subordinate to outdo
    ],
)
def test_the_other_armies_need_their_fortresses_and_leaders(hexmap, army, least, room):
    row = next(a for a in check_size(hexmap, SETTINGS, by_sweden(300)).armies if a.army is army)
    assert (row.least, row.room) == (least, room)


def test_france_short_of_points_leaves_the_empire_short(hexmap):
    points = {**by_sweden(200), "france": 32 * 50 + 50 + 50}  # room for one fortress only
    rows = {a.army: a for a in check_size(hexmap, SETTINGS, points).armies}
    assert rows[Army.FRANCE].taken == rows[Army.EMPIRE].given == 1
    assert rows[Army.FRANCE].can_deploy and not rows[Army.EMPIRE].can_deploy


def test_an_army_left_out_takes_no_share(hexmap):
    armies = tuple(a for a in Army if a is not Army.FRANCE)  # placed by a historical opening
    rows = {a.army: a for a in check_size(hexmap, SETTINGS, by_sweden(200), armies).armies}
    assert Army.FRANCE not in rows
    assert rows[Army.EMPIRE].given == 0 and not rows[Army.EMPIRE].can_deploy


def test_the_least_sizes(hexmap):
    def fits(points):
        return check_size(hexmap, SETTINGS, points).can_deploy

    def room(points):
        return check_size(hexmap, SETTINGS, points).every_army_has_room

    assert least_size(by_sweden, fits, high=100_000) == 188
    assert least_size(by_sweden, room, high=100_000) == 251
    assert least_size(lambda n: {"x": n}, lambda p: p["x"] > 10**7, high=100) is None


def test_when_france_has_nothing_to_spare_the_refusal_says_so(hexmap):
    problems = check_size(hexmap, SETTINGS, army_points_from(Army.SWEDEN, 75, SETTINGS)).problems(
        SETTINGS
    )
    empire = next(p for p in problems if p.startswith("Empire"))
    assert empire.endswith(
        "; France has no points to spare for its 4 fortresses West of the Rhine (3.2.4)."
    )
    assert "Sweden has 75 points; it needs at least 100: 1 fortress garrisoned" in problems[-1]
