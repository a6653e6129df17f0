"""The battle phase (9, 10.1): meetings, decisions, 4:1, the battle setup, battle results."""

import dataclasses

import pytest

from maps.core.compact import compact_map
from rules.armies import Alliance, Army
from rules.battle import battle_phase, meeting_hexes
from rules.battlesetup import turn_date
from rules.dice import Dice
from rules.events import EventKind
from rules.orders import (
    BattleDecision,
    BattleResult,
    Choice,
    Orders,
    Outcome,
    battle_result_from_dict,
)
from rules.rulesettings import DEFAULT_SETTINGS as S
from rules.sides import commander_of, outnumbers, sides_at
from rules.state import Garrison, LeaderState, Phase, SiegeTrain, State

pytestmark = pytest.mark.pure

MAP = compact_map(
    {
        "terrain": ["c c c c c c c c", "c c c r c c c c", "c c c c c c c c"],
        "areas": {"Saxony": ["0101", "0201", "0301", "0102", "0202", "0103"], "Austria": "*"},
        "rivers": [{"name": "Elbe", "class": "minor", "sides": ["0402/4"]}],
        "cities": [
            {"name": "Torgau", "hex": "0102", "size": "square", "fortress": True},
            {"name": "Glatz", "hex": "0802", "size": "circled dot", "fortress": True},
        ],
    }
)
H = "0402"


def leader(key, army, points, hex_=H, **kw):
    return LeaderState(key, army, hex_, points, **kw)


def state_with(*leaders, **kw):
    base = {
        "turn": 5,
        "phase": Phase.BATTLE,
        "leaders": leaders,
        "control": {"Torgau": "prussia", "Glatz": "austria"},
        "garrisons": (Garrison("Torgau", Army.PRUSSIA, 100), Garrison("Glatz", Army.AUSTRIA, 100)),
    }
    base.update(kw)
    return State(**base)


def run(state, **orders):
    return battle_phase(state, Orders(**orders), Dice("t"), MAP, S)


def fight(army, hex_=H):
    return BattleDecision(hex_, army, Choice.FIGHT)


@pytest.mark.parametrize(
    ("turn", "date"),
    [(1, "April I"), (4, "May II"), (15, "November I"), (16, "November II"), (18, "December II")],
)
def test_turn_dates(turn, date):
    assert turn_date(turn) == date


@pytest.mark.parametrize(
    ("big", "small", "ratio", "yes"),
    [
        (400, 100, 4, True),
        (399, 100, 4, False),
        (300, 100, 3, True),
        (1, 0, 4, True),
        (0, 0, 4, False),
    ],
)
def test_outnumbering(big, small, ratio, yes):
    assert outnumbers(big, small, ratio) is yes


def test_the_commander_comes_from_the_largest_country():
    s = state_with(
        leader("charles", Army.AUSTRIA, 400),
        leader("browne", Army.AUSTRIA, 200),
        leader("saxe", Army.EMPIRE, 500),
        leader("bevern", Army.PRUSSIA, 900),
    )
    side = sides_at(s, H)[Alliance.AUSTRIAN]
    assert side.commander.key == "charles"  # Austria 600 > Empire 500
    assert commander_of(side.forces).key == "charles"


def test_only_hexes_with_both_alliances_outside_are_meetings():
    s = state_with(
        leader("bevern", Army.PRUSSIA, 300),
        leader("daun", Army.AUSTRIA, 300),
        leader("lacy", Army.AUSTRIA, 300, hex_="0102"),
        leader("ziethen", Army.PRUSSIA, 300, hex_="0102", inside=True),
    )
    assert meeting_hexes(s) == [H]


def test_no_decision_means_no_wish_to_fight():
    s = state_with(leader("bevern", Army.PRUSSIA, 300), leader("daun", Army.AUSTRIA, 300))
    result = run(s, battle=(BattleDecision(H, Army.PRUSSIA, Choice.DECLINE),))
    assert result.complete and result.state.pending_battles == ()
    assert [e.kind for e in result.events] == [EventKind.NO_BATTLE]


@pytest.mark.parametrize("who", [Army.PRUSSIA, Army.AUSTRIA])
def test_either_side_wishing_is_enough(who):
    s = state_with(leader("bevern", Army.PRUSSIA, 300), leader("daun", Army.AUSTRIA, 300))
    result = run(s, battle=(fight(who),))
    assert not result.complete
    assert [b.id for b in result.state.pending_battles] == ["t5-0402"]


def test_the_setup_describes_the_battle():
    s = state_with(
        leader("frederick", Army.PRUSSIA, 900, supplied=False, turns_in_hex=1),
        leader("daun", Army.AUSTRIA, 600, demoralized=True),
    )
    result = run(s, battle=(fight(Army.AUSTRIA),))
    setup = next(e for e in result.events if "setup" in e.data).data["setup"]
    assert setup["terrain"] == "rough" and setup["date"] == "June I"
    assert setup["rivers"] == [{"side": 4, "class": "minor", "name": "Elbe"}]
    assert setup["city"]["name"] in ("Torgau", "Glatz")
    prussian, austrian = setup["sides"]["prussian"], setup["sides"]["austrian"]
    assert prussian["unsupplied_forces"] == ["frederick"]
    assert prussian["field_works"]["inches"] == 12
    assert austrian["demoralized_forces"] == ["daun"]
    assert austrian["leaders"][0]["tactical_ir"] == 0
    assert austrian["size_class"] == "B"
    assert setup["stakes"]["austrian defeated"] == {"prussia": 2, "austria": -3}
    assert setup["stakes"]["prussian retired"] == {"austria": 2, "prussia": -1}
    private = next(e for e in result.events if "setup" in e.data)
    assert private.audience == frozenset({Army.PRUSSIA, Army.AUSTRIA})


def test_four_to_one_takes_the_smaller_force_prisoner():
    s = state_with(
        leader("frederick", Army.PRUSSIA, 1200),
        leader("daun", Army.AUSTRIA, 300),
        siege_trains=(SiegeTrain("austria-1", Army.AUSTRIA, H),),
    )
    result = run(s, battle=(fight(Army.PRUSSIA),))
    st = result.state
    assert result.complete
    assert not st.has_leader("daun") and st.leader("frederick").points == 1200
    assert st.siege_train("austria-1").army is Army.PRUSSIA
    assert [(p.army, p.held_by, p.points) for p in st.prisoners] == [
        (Army.AUSTRIA, Army.PRUSSIA, 300)
    ]
    assert st.victory_points == {"prussia": 1, "austria": -1}


def test_retiring_needs_a_march_order():
    s = state_with(leader("bevern", Army.PRUSSIA, 500), leader("daun", Army.AUSTRIA, 400))
    result = run(s, battle=(fight(Army.PRUSSIA), BattleDecision(H, Army.AUSTRIA, Choice.RETIRE)))
    assert any(e.kind is EventKind.ORDER_REJECTED and e.rule == "10.1" for e in result.events)
    assert result.state.pending_battles


def test_a_retiring_force_leaves_the_rest_of_its_side_to_fight():
    s = state_with(
        leader("bevern", Army.PRUSSIA, 900),
        leader("daun", Army.AUSTRIA, 400),
        leader("saxe", Army.EMPIRE, 300, marched=True),
    )
    result = run(
        s,
        battle=(
            fight(Army.PRUSSIA),
            fight(Army.AUSTRIA),
            BattleDecision(H, Army.EMPIRE, Choice.RETIRE),
        ),
    )
    st = result.state
    assert [r.leaders for r in st.retreats] == [("saxe",)]
    assert st.pending_battles[0].points == {"prussia": 900, "austria": 400}


def _battle(s, result):
    first = run(s, battle=(fight(Army.PRUSSIA),))
    return battle_phase(first.state, Orders(battle_results=(result,)), Dice("t"), MAP, S)


def test_results_apply_losses_and_the_defeated_side_routs_demoralized():
    s = state_with(
        leader("bevern", Army.PRUSSIA, 1000),
        leader("daun", Army.AUSTRIA, 700),
        leader("lacy", Army.AUSTRIA, 300),
    )
    result = _battle(
        s,
        BattleResult(
            "t5-0402", Alliance.AUSTRIAN, Outcome.DEFEATED, (("austria", 100), ("prussia", 50))
        ),
    )
    st = result.state
    assert result.complete and st.pending_battles == ()
    assert (st.leader("daun").points, st.leader("lacy").points) == (630, 270)
    assert st.leader("bevern").points == 950
    assert st.leader("daun").demoralized and st.leader("lacy").demoralized
    assert not st.leader("bevern").demoralized
    assert st.retreats[0].kind == "rout" and st.retreats[0].mp == 10
    assert st.victory_points == {"prussia": 2, "austria": -3}


def test_a_result_for_no_waiting_battle_is_rejected_and_the_phase_waits():
    s = state_with(leader("bevern", Army.PRUSSIA, 1000), leader("daun", Army.AUSTRIA, 700))
    result = _battle(s, BattleResult("t5-9999", Alliance.AUSTRIAN, Outcome.DEFEATED))
    assert not result.complete
    assert any(e.kind is EventKind.ORDER_REJECTED for e in result.events)


def test_a_side_losing_every_point_is_captured_with_its_leaders():
    s = state_with(leader("bevern", Army.PRUSSIA, 1000), leader("daun", Army.AUSTRIA, 700))
    result = _battle(
        s, BattleResult("t5-0402", Alliance.AUSTRIAN, Outcome.DEFEATED, (("austria", 900),))
    )
    assert not result.state.has_leader("daun")
    assert result.state.captives[0].leader == "daun"


def test_frederick_captured_ends_the_campaign():
    s = state_with(
        leader("frederick", Army.PRUSSIA, 1000),
        leader("daun", Army.AUSTRIA, 700),
        leader("henry", Army.PRUSSIA, 300),
    )
    result = _battle(
        s, BattleResult("t5-0402", Alliance.PRUSSIAN, Outcome.DEFEATED, captured=("frederick",))
    )
    st = result.state
    assert st.ended and st.frederick_taken_by == "austria"
    assert st.leader("henry").points == 1300  # Frederick's points pass to the next leader
    assert any(e.rule == "12" and e.kind is EventKind.CAMPAIGN_ENDS for e in result.events)


def test_the_phase_never_changes_its_input():
    s = state_with(leader("bevern", Army.PRUSSIA, 1000), leader("daun", Army.AUSTRIA, 700))
    before = dataclasses.replace(s)
    _battle(s, BattleResult("t5-0402", Alliance.AUSTRIAN, Outcome.RETIRED))
    assert s == before


def test_the_numbers_of_a_battle_go_to_the_armies_that_fought_only():
    s = state_with(
        leader("bevern", Army.PRUSSIA, 1000),
        leader("daun", Army.AUSTRIA, 700),
        leader("broglie", Army.FRANCE, 500, hex_="0101"),
    )
    result = _battle(
        s, BattleResult("t5-0402", Alliance.AUSTRIAN, Outcome.DEFEATED, (("austria", 100),))
    )
    with_points = [e for e in result.events if "loss" in e.data or "points" in e.text]
    assert with_points
    assert all(not e.visible_to(Army.FRANCE) for e in with_points)
    public = [e.text for e in result.events if e.public and e.kind is EventKind.ROUTED]
    assert public == ["Daun's force is defeated at 0402 (10.1)."]


def test_a_state_waiting_for_results_survives_json():
    import json

    from rules.state import state_from_dict, state_to_dict

    s = state_with(
        leader("bevern", Army.PRUSSIA, 1000, marched=True),
        leader("daun", Army.AUSTRIA, 700),
        leader("saxe", Army.EMPIRE, 300, marched=True),
    )
    waiting = run(
        s, battle=(fight(Army.PRUSSIA), BattleDecision(H, Army.EMPIRE, Choice.RETIRE))
    ).state
    assert waiting.pending_battles and waiting.retreats
    assert state_from_dict(json.loads(json.dumps(state_to_dict(waiting)))) == waiting


def test_losses_that_leave_the_commander_in_chief_outnumbered_are_reported():
    """3.2.6 "at any time": Daun (rank 2) loses his points while Charles (rank 1) stands
    elsewhere with fewer than a subordinate; the owner is told after the results."""
    s = state_with(
        leader("bevern", Army.PRUSSIA, 1000),
        leader("charles", Army.AUSTRIA, 700),
        leader("browne", Army.AUSTRIA, 600, hex_="0101"),
    )
    result = _battle(
        s, BattleResult("t5-0402", Alliance.AUSTRIAN, Outcome.DEFEATED, (("austria", 200),))
    )
    cic = [e for e in result.events if e.kind is EventKind.COMMANDER_IN_CHIEF]
    assert cic and cic[0].rule == "3.2.6" and cic[0].visible_to(Army.AUSTRIA)
    clean = _battle(
        s, BattleResult("t5-0402", Alliance.AUSTRIAN, Outcome.DEFEATED, (("austria", 50),))
    )
    assert not [e for e in clean.events if e.kind is EventKind.COMMANDER_IN_CHIEF]


def test_points_surrendered_on_the_tabletop_become_prisoners_of_war():
    """13.2: "surrendered according to the rules of a tactical battle"; prisoners are part of
    the losses (9.5) and are held by the enemy commander's army."""
    s = state_with(leader("bevern", Army.PRUSSIA, 1000), leader("daun", Army.AUSTRIA, 700))
    result = _battle(
        s,
        battle_result_from_dict(
            {
                "battle": "t5-0402",
                "loser": "austrian",
                "outcome": "defeated",
                "losses": {"austria": 200, "prussia": 50},
                "prisoners": {"austria": 120, "prussia": 80},
            }
        ),
    )
    st = result.state
    assert st.leader("daun").points == 500
    # Prussia's 80 exceed its 50 losses: only 50 can have surrendered.
    assert {(p.army, p.held_by, p.points) for p in st.prisoners} == {
        (Army.AUSTRIA, Army.PRUSSIA, 120),
        (Army.PRUSSIA, Army.AUSTRIA, 50),
    }
    # The words fit a tabletop battle and a quick resolution alike (the result does not say).
    told = [e.text for e in result.events if e.kind is EventKind.PRISONERS]
    assert (
        "120 of the Austrian points lost at 0402 were taken prisoner in the battle: they are "
        "prisoners of the Prussian army (13.2)." in told
    )
    assert not any("tabletop" in t for t in told)
