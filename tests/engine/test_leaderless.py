"""Points left without a leader after a battle (9.5): they hold their hex, trace supply, suffer
attrition, join a leader of their country, and leave the map with their army."""

import pytest

from maps.core.compact import compact_map
from maps.core.hexgrid import parse_hex_id
from rules.armies import Army
from rules.attrition import army_totals, attrition_phase
from rules.betweencampaigns import BetweenCampaigns
from rules.board import Board
from rules.dice import Dice
from rules.leaderless import add_leaderless, join_leaderless
from rules.linked import make_peace
from rules.orders import Orders
from rules.rulesettings import DEFAULT_SETTINGS as S
from rules.state import Garrison, LeaderlessPoints, LeaderState, Phase, State
from rules.supply import supply_phase
from rules.winterquarters import winter_quarters

pytestmark = pytest.mark.pure

MAP = compact_map(
    {
        "terrain": ["c c c c c c c c c c c c"],
        "cities": [{"name": "Torgau", "hex": "0101", "size": "square", "fortress": True}],
    }
)
BODY = LeaderlessPoints(Army.EMPIRE, "0301", 200)


def test_they_hold_their_hex_against_the_enemy_like_a_force():
    board = Board(State(leaderless=(BODY,)), MAP)
    assert parse_hex_id("0301") in board.enemy_occupied(Army.PRUSSIA.alliance)
    assert parse_hex_id("0301") not in board.enemy_occupied(Army.AUSTRIA.alliance)


def test_an_enemy_fortress_does_not_supply_them():
    state = State(
        phase=Phase.SUPPLY,
        leaderless=(BODY,),
        garrisons=(Garrison("Torgau", Army.PRUSSIA, 200),),
    )
    result = supply_phase(state, Orders(), Dice("x"), MAP, S)
    assert result.state.leaderless[0].supplied is False


def test_an_imperial_fortress_supplies_them():
    state = State(
        leaderless=(LeaderlessPoints(Army.EMPIRE, "0301", 200, supplied=False),),
        garrisons=(Garrison("Torgau", Army.AUSTRIA, 200),),
    )
    result = supply_phase(state, Orders(), Dice("x"), MAP, S)
    assert result.state.leaderless[0].supplied


def test_unsupplied_in_winter_they_lose_twenty_percent():
    state = State(turn=17, leaderless=(LeaderlessPoints(Army.EMPIRE, "0301", 200, False),))
    result = attrition_phase(state, Orders(), Dice("x"), MAP, S)
    assert result.state.leaderless[0].points == 160
    assert army_totals(result.state)[Army.EMPIRE] == 160


def test_supplied_in_summer_they_lose_nothing():
    state = State(turn=5, leaderless=(BODY,))
    assert attrition_phase(state, Orders(), Dice("x"), MAP, S).state.leaderless == (BODY,)


def test_points_left_twice_in_a_hex_merge():
    state = add_leaderless(State(leaderless=(BODY,)), Army.EMPIRE, "0301", 50, True)
    assert state.leaderless == (LeaderlessPoints(Army.EMPIRE, "0301", 250),)


def test_only_a_leader_of_their_country_outside_in_the_hex_takes_them():
    others = (
        LeaderState("daun", Army.AUSTRIA, "0301", 500),  # another country
        LeaderState("stolberg", Army.EMPIRE, "0301", 100, inside=True),  # not outside
    )
    state, events = join_leaderless(State(leaders=others, leaderless=(BODY,)))
    assert state.leaderless == (BODY,) and not events
    state, events = join_leaderless(
        State(leaders=(LeaderState("saxe", Army.EMPIRE, "0301", 100),), leaderless=(BODY,))
    )
    assert state.leaderless == () and events[0].rule == "9.5"
    assert state.leader("saxe").points == 300 and state.leader("saxe").demoralized


def test_winter_quarters_put_them_in_the_nearest_friendly_fortress_to_its_limit():
    state = State(
        turn=18,
        control={"Torgau": "austria"},
        leaderless=(LeaderlessPoints(Army.EMPIRE, "0601", 1000, supplied=False),),
    )
    state, events = winter_quarters(state, MAP, BetweenCampaigns(), S)
    assert state.leaderless == ()
    assert [(g.city, g.army, g.points) for g in state.garrisons] == [("Torgau", Army.EMPIRE, 800)]
    assert events[0].data["dismissed"] == 200


def test_they_leave_the_map_with_their_army_at_peace():
    prussians = LeaderlessPoints(Army.PRUSSIA, "0501", 90)
    state = State(leaderless=(BODY, prussians))
    state, _ = make_peace(state, BetweenCampaigns(peace=(Army.EMPIRE,)))
    assert state.leaderless == (prussians,)
