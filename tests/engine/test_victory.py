"""Victory (12): the chart, the size classes, the sharing rule, fortresses, key cities,
surrender and Frederick."""

import dataclasses

import pytest

from maps.core.compact import compact_map
from rules.armies import Army, Seat
from rules.rulesettings import DEFAULT_SETTINGS as S
from rules.rulesettings import settings_from_dict
from rules.state import State
from rules.victory import (
    Row,
    SizeClass,
    apply_surrenders,
    award,
    chart_vps,
    final_table,
    fortress_vps,
    frederick_taken,
    key_city_vps,
    outcome_vps,
    share_vps,
    size_class,
    surrendering_armies,
)

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("points", "size"),
    [(0, "A"), (1, "A"), (500, "A"), (501, "B"), (1000, "B"), (1001, "C"), (9000, "C")],
)
def test_the_size_of_the_defeated_force(points, size):
    assert size_class(points, S).value == size


@pytest.mark.parametrize(
    ("row", "a", "b", "c"),
    [
        (Row.ENEMY_RETIRES, 1, 2, 3),
        (Row.ENEMY_DEMORALIZED, 1, 2, 4),
        (Row.FRIENDLY_RETIRES, 0, -1, -2),
        (Row.FRIENDLY_DEMORALIZED, -1, -3, -6),
    ],
)
def test_the_victory_point_chart(row, a, b, c):
    assert [chart_vps(row, size, S) for size in SizeClass] == [a, b, c]


def test_players_may_change_the_chart_by_consent():
    settings = settings_from_dict({"vp_enemy_demoralized": [2, 3, 5], "vp_size_bands": [400, 900]})
    assert chart_vps(Row.ENEMY_DEMORALIZED, size_class(450, settings), settings) == 3


@pytest.mark.parametrize(
    ("total", "points", "shares"),
    [
        (3, {Seat.AUSTRIA: 900, Seat.FRANCE: 400}, {Seat.AUSTRIA: 2, Seat.FRANCE: 1}),
        (4, {Seat.AUSTRIA: 900, Seat.FRANCE: 400}, {Seat.AUSTRIA: 2, Seat.FRANCE: 2}),
        (-3, {Seat.AUSTRIA: 300, Seat.FRANCE: 400}, {Seat.AUSTRIA: -1, Seat.FRANCE: -2}),
        (
            5,
            {Seat.AUSTRIA: 1, Seat.FRANCE: 2, Seat.RUSSIA: 3},
            {Seat.AUSTRIA: 1, Seat.FRANCE: 1, Seat.RUSSIA: 3},
        ),
        (1, {Seat.PRUSSIA: 500, Seat.HANOVER: 500}, {Seat.HANOVER: 1, Seat.PRUSSIA: 0}),
        (-6, {Seat.PRUSSIA: 10}, {Seat.PRUSSIA: -6}),
    ],
)
def test_points_are_shared_equally_odd_points_to_the_largest_force(total, points, shares):
    assert share_vps(total, points) == shares
    assert sum(share_vps(total, points).values()) == total


def test_one_player_commanding_two_armies_takes_the_whole_share():
    # 5 players: Austria and the Empire are both the Austrian player's (1.2).
    vps = outcome_vps({Army.PRUSSIA: 1200}, {Army.AUSTRIA: 600, Army.EMPIRE: 500}, True, S, 5)
    assert vps == {Seat.PRUSSIA: 4, Seat.AUSTRIA: -6}


def test_with_two_players_the_austrian_player_takes_the_french_share():
    vps = outcome_vps({Army.FRANCE: 700, Army.AUSTRIA: 200}, {Army.PRUSSIA: 300}, False, S, 2)
    assert vps == {Seat.AUSTRIA: 1, Seat.PRUSSIA: 0}


def test_award_adds_to_the_running_totals_with_an_event_each():
    state = State(victory_points={"prussia": 3})
    state, events = award(state, {Seat.PRUSSIA: 2, Seat.AUSTRIA: -1}, "12.2", "a battle")
    assert state.victory_points == {"prussia": 5, "austria": -1}
    assert [e.data["total"] for e in events] == [5, -1]
    assert all(e.rule == "12.2" for e in events)


MAP = compact_map(
    {
        "terrain": ["c c c c c c c c"],
        "areas": {
            "Saxony": ["0101", "0201"],
            "Poland": ["0301"],
            "Prussia": ["0401"],
            "Austria": "*",
        },
        "cities": [
            {"name": "Dresden", "hex": "0101", "size": "star", "fortress": True},
            {"name": "Torgau", "hex": "0201", "size": "square", "fortress": True},
            {"name": "Czenstochau", "hex": "0301", "size": "dot", "fortress": True},
            {"name": "Berlin", "hex": "0401", "size": "circled star"},
            {"name": "Prague", "hex": "0601", "size": "star", "fortress": True},
            {"name": "Vienna", "hex": "0701", "size": "circled star"},
            {"name": "Budapest", "hex": "0801", "size": "star", "fortress": True},
        ],
    }
)
START = {
    "Dresden": "prussia",
    "Torgau": "prussia",
    "Berlin": "prussia",
    "Prague": "austria",
    "Vienna": "austria",
    "Budapest": "austria",
}


def test_fortress_vps_only_for_enemy_fortresses_not_neutral_not_your_own():
    state = State(
        initial_control=START,
        control={
            **START,
            "Prague": "prussia",
            "Torgau": "prussia",
            "Czenstochau": "prussia",
            "Dresden": "austria",
        },
    )
    assert fortress_vps(state, MAP, Seat.PRUSSIA) == [("Prague", 10)]  # not Torgau, not Poland
    assert fortress_vps(state, MAP, Seat.AUSTRIA) == [("Dresden", 10)]


def test_an_ally_retaking_a_fortress_scores_nothing_for_it():
    state = State(initial_control=START, control={**START, "Prague": "france"})
    assert fortress_vps(state, MAP, Seat.FRANCE) == []


def test_key_cities_count_for_the_prussian_player_only():
    state = State(initial_control=START, control={**START, "Dresden": "prussia"})
    assert key_city_vps(state, MAP, Seat.PRUSSIA, S) == [("Berlin", 2), ("Dresden", 2)]
    assert key_city_vps(state, MAP, Seat.AUSTRIA, S) == []


def test_the_final_table_and_its_winners():
    state = State(
        initial_control=START,
        control={**START, "Prague": "prussia"},
        victory_points={"austria": 16, "prussia": -1},
    )
    table = final_table(state, MAP, S)
    totals = {r.seat: r.total for r in table.rows}
    assert totals[Seat.PRUSSIA] == -1 + 10 + 2 + 2  # Prague, Berlin, Dresden
    assert totals[Seat.AUSTRIA] == 16
    assert table.winners == (Seat.AUSTRIA,)
    assert table.alliances == {"prussian": 13, "austrian": 16}


def test_a_tie_gives_several_winners():
    table = final_table(State(victory_points={"austria": 3, "france": 3}), MAP, S)
    assert table.winners == (Seat.AUSTRIA, Seat.FRANCE)


def test_frederick_taken_ends_the_campaign_and_names_the_winner():
    state, events = frederick_taken(State(victory_points={"prussia": 50}), Army.RUSSIA, "killed")
    assert state.ended and state.frederick_taken_by == "russia"
    assert events[0].rule == "12.7"
    assert final_table(state, MAP, S).winners == (Seat.RUSSIA,)


def test_an_army_surrenders_only_when_every_home_star_city_is_lost():
    some = State(control={**START, "Vienna": "prussia", "Prague": "prussia"})
    assert surrendering_armies(some, MAP) == []
    allgone = dataclasses.replace(some, control={**some.control, "Budapest": "hanover"})
    assert surrendering_armies(allgone, MAP) == [Army.AUSTRIA]
    held_by_ally = dataclasses.replace(some, control={**some.control, "Budapest": "france"})
    assert surrendering_armies(held_by_ally, MAP) == []


def test_hanover_never_surrenders_while_britain_is_off_the_map():
    hanover_map = compact_map(
        {
            "terrain": ["c c c"],
            "areas": {"Hanover": "*"},
            "cities": [
                {"name": "Bremen", "hex": "0101"},
                {"name": "Brunswick", "hex": "0201"},
                {"name": "Hanover", "hex": "0301"},
            ],
        }
    )
    state = State(control={"Bremen": "france", "Brunswick": "france", "Hanover": "france"})
    assert surrendering_armies(state, hanover_map) == []


def test_a_surrendered_army_leaves_the_map():
    from rules.state import Garrison, LeaderState, SiegeTrain

    state = State(
        control={"Vienna": "prussia", "Prague": "prussia", "Budapest": "prussia"},
        leaders=(
            LeaderState("daun", Army.AUSTRIA, "0501", 500),
            LeaderState("saxe", Army.EMPIRE, "0501", 300),
        ),
        garrisons=(Garrison("Prague", Army.AUSTRIA, 50),),
        siege_trains=(SiegeTrain("austria-1", Army.AUSTRIA, "0501"),),
    )
    state, events = apply_surrenders(state, MAP)
    assert [x.key for x in state.leaders] == ["saxe"]
    assert state.garrisons == () and state.siege_trains == ()
    assert state.surrendered == (Army.AUSTRIA,)
    assert events[0].rule == "12.6"
