"""The retreat/rally phase (10): retreat paths, honors-of-war withdrawals, rally, contagion."""

import pytest

from maps.core.compact import compact_map
from maps.core.hexgrid import hex_id, parse_hex_id
from rules.armies import Alliance, Army
from rules.dice import Dice
from rules.events import EventKind
from rules.orders import Orders
from rules.retreat import plan_retreat, retreat_rally_phase
from rules.rulesettings import DEFAULT_SETTINGS as S
from rules.state import Garrison, LeaderState, Phase, Retreat, State, Withdrawal

pytestmark = pytest.mark.pure

# Two rows; a marsh and a rough hex on the way East; fortresses at both ends.
MAP = compact_map(
    {
        "terrain": ["c c m r c c c c", "c c c c c c c c"],
        "areas": {"Saxony": ["0101", "0201", "0102", "0202"], "Austria": "*"},
        "cities": [
            {"name": "Torgau", "hex": "0101", "size": "square", "fortress": True},
            {"name": "Glatz", "hex": "0801", "size": "circled dot", "fortress": True},
            {"name": "Olmutz", "hex": "0802", "size": "square", "fortress": True},
        ],
    }
)
CONTROL = {"Torgau": "prussia", "Glatz": "austria", "Olmutz": "austria"}


def state_with(*leaders, **kw):
    return State(
        turn=kw.pop("turn", 6),
        phase=Phase.RETREAT_RALLY,
        leaders=leaders,
        control=kw.pop("control", CONTROL),
        **kw,
    )


def plan(state, start, alliance, mp):
    p = plan_retreat(state, MAP, parse_hex_id(start), alliance, mp)
    return [hex_id(h) for h in p.path], p.spent, p.target, p.reached


def test_a_rout_runs_to_the_nearest_friendly_fortress_and_stops_there():
    s = state_with(LeaderState("daun", Army.AUSTRIA, "0402", 500))
    path, spent, target, reached = plan(s, "0402", Alliance.AUSTRIAN, 10)
    assert target in ("Glatz", "Olmutz") and reached
    assert spent == 8 and path[-1] in ("0801", "0802")


def test_a_retirement_spends_its_five_mps_and_no_more():
    s = state_with(LeaderState("daun", Army.AUSTRIA, "0402", 500))
    path, spent, _t, reached = plan(s, "0402", Alliance.AUSTRIAN, 5)
    # Glatz and Olmutz are equally near; the tie goes to the one further North (Glatz).
    assert (path, spent, reached) == (["0402", "0501", "0601"], 4, False)


def test_terrain_costs_apply():
    # From 0201 toward Glatz along row 1: marsh (3) then rough (4); row 2 is cheaper.
    s = state_with(LeaderState("bevern", Army.PRUSSIA, "0801", 100))
    path, spent, target, _r = plan(s, "0601", Alliance.PRUSSIAN, 5)
    assert target == "Torgau"
    assert spent <= 5 and "0401" not in path  # 0501 -> 0401 would cost 4 more


def test_never_into_an_enemy_hex_even_to_reach_the_fortress():
    s = state_with(
        LeaderState("daun", Army.AUSTRIA, "0702", 500),
        LeaderState("bevern", Army.PRUSSIA, "0801", 100),
    )
    path, _spent, target, reached = plan(s, "0702", Alliance.AUSTRIAN, 10)
    assert "0801" not in path and target == "Olmutz" and reached


def test_with_no_friendly_fortress_reachable_the_force_falls_back_as_far_as_it_can():
    s = state_with(LeaderState("daun", Army.AUSTRIA, "0402", 500), control={})
    path, spent, target, reached = plan(s, "0402", Alliance.AUSTRIAN, 5)
    # As far as possible in hexes (2), then the most MPs spent (marsh 0301: 2 + 3).
    assert (path, spent, target, reached) == (["0402", "0302", "0301"], 5, None, False)


def run(state, rolls=None):
    return retreat_rally_phase(state, Orders(), Dice("r", fixed=rolls or {}), MAP, S)


def test_the_group_retreats_together_and_goes_inside():
    s = state_with(
        LeaderState("daun", Army.AUSTRIA, "0602", 500, demoralized=True),
        LeaderState("lacy", Army.AUSTRIA, "0602", 300, demoralized=True),
        retreats=(Retreat("0602", "rout", 10, ("daun", "lacy")),),
        garrisons=(Garrison("Olmutz", Army.AUSTRIA, 100),),
    )
    st = run(s, {"rally:daun:t6": 6}).state
    assert {st.leader(k).hex for k in ("daun", "lacy")} == {"0801"}  # Glatz, the tie-break
    assert st.leader("daun").inside and st.leader("lacy").inside
    assert st.retreats == ()


@pytest.mark.parametrize(
    ("key", "roll", "rallied"),
    [
        ("frederick", 6, True),
        ("daun", 3, True),
        ("daun", 4, False),
        ("charles", 1, True),
        ("charles", 2, False),
        ("maurice", 1, False),
    ],
)
def test_rally_needs_at_most_tactical_plus_strategic_ir(key, roll, rallied):
    from rules.leaders import leader

    army = leader(key).army
    s = state_with(LeaderState(key, army, "0501", 300, demoralized=True))
    result = run(s, {f"rally:{key}:t6": roll})
    assert result.state.leader(key).demoralized is not rallied
    kind = EventKind.RALLIED if rallied else EventKind.RALLY_FAILED
    assert [e.kind for e in result.events if e.rule == "10.3"] == [kind]


def test_honors_withdrawal_moves_the_garrison_and_hands_over_the_fortress():
    s = state_with(
        LeaderState("maurice", Army.PRUSSIA, "0801", 50, inside=True),
        garrisons=(Garrison("Glatz", Army.PRUSSIA, 150), Garrison("Torgau", Army.PRUSSIA, 60)),
        control={**CONTROL, "Glatz": "prussia"},
        withdrawals=(
            Withdrawal("Glatz", Army.PRUSSIA, "Torgau", 150, ("maurice",), (), "austria"),
        ),
    )
    st = run(s).state
    assert st.control["Glatz"] == "austria" and st.garrisons_of("Glatz") == []
    assert st.garrisons_of("Torgau")[0].points == 210
    assert st.leader("maurice").hex == "0101" and st.leader("maurice").held_until_turn == 7


def test_the_last_turn_ends_with_the_victory_table():
    s = state_with(LeaderState("daun", Army.AUSTRIA, "0501", 300), turn=18)
    result = run(s)
    assert [e.rule for e in result.events if e.kind is EventKind.CAMPAIGN_ENDS] == ["12"]


@pytest.mark.parametrize("start", ["0402", "0601", "0102", "0702"])
def test_the_bounded_search_chooses_as_the_map_core_does(start):
    from maps.core.paths import nearest
    from rules.board import Board
    from rules.retreat import nearest_target, retreat_cost

    s = state_with(LeaderState("bevern", Army.PRUSSIA, "0801", 100))
    h = parse_hex_id(start)
    cost = retreat_cost(MAP, Board(s, MAP).enemy_occupied(Alliance.AUSTRIAN) - {h})
    targets = [c.hex for c in MAP.fortresses if c.hex != h]
    assert nearest_target(MAP, h, targets, cost) == nearest(MAP, h, targets, cost=cost)
    assert (
        nearest_target(MAP, h, [parse_hex_id("0801")], retreat_cost(MAP, {parse_hex_id("0801")}))
        is None
    )
