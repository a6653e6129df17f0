"""Changing sides (13.8): the alliance of an army is a property of the state, and every rule that
asks "friend or enemy?" follows it."""

import dataclasses
from pathlib import Path

import pytest

from maps.core.compact import compact_map
from rules.armies import Alliance, Army, Seat
from rules.betweencampaigns import between_campaigns_from_dict, lending_to
from rules.linked import changing_armies
from rules.orders import battle_result_from_dict
from rules.rulesettings import DEFAULT_SETTINGS as S
from rules.scenario import load_scenario, run_scenario
from rules.state import State, state_from_dict, state_to_dict
from rules.victory import enemies, final_table, fortress_vps, surrendering_armies

pytestmark = pytest.mark.pure

CASEBOOK = Path(__file__).resolve().parent.parent / "casebook"


def test_the_alliances_of_1_2_are_the_default():
    state = State()
    assert state.armies_of(Alliance.PRUSSIAN) == (Army.HANOVER, Army.PRUSSIA)
    assert state.is_enemy(Army.PRUSSIA, Army.SWEDEN)
    assert not state.is_enemy(Army.RUSSIA, Army.SWEDEN)


def test_an_army_that_changed_sides_fights_for_the_other_alliance():
    state = State(changed_sides=(Army.SWEDEN,))
    assert state.alliance_of(Army.SWEDEN) is Alliance.PRUSSIAN
    assert state.is_enemy(Army.RUSSIA, Army.SWEDEN)
    assert not state.is_enemy(Army.PRUSSIA, Army.SWEDEN)
    assert state.armies_of(Alliance.PRUSSIAN) == (Army.HANOVER, Army.PRUSSIA, Army.SWEDEN)
    assert Army.SWEDEN.alliance is Alliance.AUSTRIAN  # the historical default is unchanged
    assert enemies(state, Army.RUSSIA, Army) == [Army.HANOVER, Army.PRUSSIA, Army.SWEDEN]


def test_the_change_survives_the_json_round_trip():
    state = State(changed_sides=(Army.AUSTRIA,))
    again = state_from_dict(state_to_dict(state))
    assert again == state and again.is_enemy(Army.AUSTRIA, Army.EMPIRE)


@pytest.mark.parametrize(
    "choices, changing",
    [
        ({"change_sides": ["austria"]}, [Army.AUSTRIA, Army.EMPIRE]),
        ({"change_sides": ["austria"], "own_course": ["empire"]}, [Army.AUSTRIA]),
        ({"change_sides": ["empire"]}, [Army.EMPIRE]),
        ({"change_sides": ["russia"]}, [Army.RUSSIA, Army.SWEDEN]),
        ({"change_sides": ["russia"], "own_course": ["sweden"]}, [Army.RUSSIA]),
        ({"change_sides": ["france"]}, [Army.FRANCE]),
    ],
)
def test_the_empire_and_sweden_follow_their_players_unless_told_otherwise(choices, changing):
    found, _ = changing_armies(between_campaigns_from_dict(choices))
    assert found == changing


def _former_allies(changed: bool):
    scenario = load_scenario(CASEBOOK / "13_08_former_allies_are_enemies.json")
    sides = (Army.SWEDEN,) if changed else ()
    scenario = dataclasses.replace(
        scenario, state=dataclasses.replace(scenario.state, changed_sides=sides)
    )
    return run_scenario(scenario)


def test_without_the_change_the_casebook_case_has_no_enemies():
    """The control of 13_08_former_allies_are_enemies: same state, Sweden still Russia's ally."""
    outcome = _former_allies(changed=False)
    assert outcome.reports == ()
    assert not outcome.state.pending_battles
    assert all(x.supplied for x in outcome.state.leaders)
    changed = _former_allies(changed=True)
    assert changed.state.pending_battles and len(changed.reports) == 3


def test_a_battle_result_naming_an_army_reads_its_alliance_from_the_state():
    item = {"battle": "t2-0503", "loser": "austria", "outcome": "retired"}
    result = battle_result_from_dict(item)
    assert result.loser_army is Army.AUSTRIA
    state = State(changed_sides=(Army.AUSTRIA,))
    assert state.alliance_of(result.loser_army) is Alliance.PRUSSIAN


def test_lending_follows_the_alliances_of_now():
    assert "russia" in lending_to(State(), "austria")
    changed = State(changed_sides=(Army.AUSTRIA,))
    assert "russia" not in lending_to(changed, "austria")  # an enemy now
    assert "empire" not in lending_to(changed, "austria")
    assert "austria" in lending_to(changed, "britain")  # opposed to France now
    assert "sweden" not in lending_to(State(), "britain")


MAP = compact_map(
    {
        "terrain": ["c c c c c c c c"],
        "areas": {"Saxony": ["0101", "0201"], "Austria": "*"},
        "cities": [
            {"name": "Dresden", "hex": "0101", "size": "star", "fortress": True},
            {"name": "Prague", "hex": "0601", "size": "star", "fortress": True},
            {"name": "Vienna", "hex": "0701", "size": "circled star"},
            {"name": "Budapest", "hex": "0801", "size": "star", "fortress": True},
        ],
    }
)


def test_victory_counts_the_players_alliance_of_now():
    start = {"Dresden": "prussia", "Prague": "austria", "Vienna": "austria", "Budapest": "austria"}
    changed = State(
        changed_sides=(Army.AUSTRIA, Army.EMPIRE),
        initial_control=start,
        control={**start, "Prague": "russia"},
        victory_points={"austria": 5, "prussia": 2, "russia": 1},
    )
    table = final_table(changed, MAP, S)
    # Austria 5 and Prussia 2 + Dresden 2 (12.5) for the Prussian alliance; Russia 1 + Prague.
    assert table.alliances == {"prussian": 5 + 2 + 2, "austrian": 1 + 10}
    assert fortress_vps(changed, MAP, Seat.RUSSIA) == [("Prague", 10)]
    # 12.6: Austria's home star cities in the hands of France, now its enemy.
    lost = dict.fromkeys(("Prague", "Vienna", "Budapest"), "france")
    assert Army.AUSTRIA in surrendering_armies(dataclasses.replace(changed, control=lost), MAP)
    assert Army.AUSTRIA not in surrendering_armies(State(control=lost), MAP)
