"""The siege phase (11): blockade or siege, the Siege Chart, breaches, honors of war."""

import pytest

from maps.core.compact import compact_map
from rules.armies import Army
from rules.dice import Dice
from rules.events import EventKind
from rules.investment import investments
from rules.orders import HonorsDecision, Orders
from rules.rulesettings import DEFAULT_SETTINGS as S
from rules.siege import SiegeFactors, garrison_limit, siege_phase
from rules.state import Garrison, LeaderState, Phase, SiegeTrain, State

pytestmark = pytest.mark.pure

MAP = compact_map(
    {
        "terrain": ["c c c c c c c c"],
        "areas": {"Saxony": ["0101", "0201", "0301", "0401"], "Austria": "*"},
        "cities": [
            {"name": "Torgau", "hex": "0301", "size": "square", "fortress": True},
            {"name": "Kosel", "hex": "0101", "size": "dot", "fortress": True},
            {"name": "Glatz", "hex": "0801", "size": "circled dot", "fortress": True},
        ],
    }
)
T = "0301"


# besieger IR, garrison IR, besieger points, garrison points, besieger trains, garrison trains,
# consecutive turns besieged -> total modifier
@pytest.mark.parametrize(
    ("numbers", "total"),
    [
        ((1, 0, 500, 100, 2, 1, 3), 7),  # the example of 11.6: +1 +2 +2 -1 +3
        ((0, 0, 200, 100, 1, 0, 1), 2),  # 2:1 is nothing for the besiegers
        ((0, 0, 300, 100, 1, 0, 1), 3),  # 3:1 +1
        ((0, 2, 100, 200, 1, 0, 1), -1),  # garrison 2:1 -1, its leader -2
        ((0, 0, 100, 300, 1, 0, 1), 0),  # garrison 3:1 -2
        ((3, 0, 100, 400, 1, 0, 2), 2),  # garrison 4:1 -4
    ],
)
def test_the_siege_chart(numbers, total):
    assert SiegeFactors(*numbers).total(S) == total


def test_garrison_limit_is_100_per_bastion():
    assert garrison_limit(MAP.city("Torgau"), S) == 800


def besieged(turns_in_hex=1, supplied=True, trains=1, besieged_turns=0, garrison=200, **kw):
    return State(
        turn=4,
        phase=kw.pop("phase", Phase.SIEGE),
        leaders=(
            LeaderState(
                "daun", Army.AUSTRIA, T, 1000, turns_in_hex=turns_in_hex, supplied=supplied
            ),
        )
        + kw.pop("extra", ()),
        garrisons=(Garrison("Torgau", Army.PRUSSIA, garrison), Garrison("Kosel", Army.PRUSSIA, 50)),
        siege_trains=tuple(SiegeTrain(f"austria-{i + 1}", Army.AUSTRIA, T) for i in range(trains)),
        control={"Torgau": "prussia", "Kosel": "prussia", "Glatz": "austria"},
        besieged_turns={"Torgau": besieged_turns} if besieged_turns else {},
        **kw,
    )


def run(state, roll, honors=()):
    dice = Dice("s", fixed={f"siege:Torgau:t{state.turn}": roll})
    return siege_phase(state, Orders(honors=tuple(honors)), dice, MAP, S)


@pytest.mark.parametrize(
    ("kw", "why"),
    [
        ({"trains": 0}, "no siege train"),
        ({"supplied": False}, "unsupplied"),
        ({"turns_in_hex": 0}, "complete turn"),
    ],
)
def test_otherwise_it_is_only_a_blockade(kw, why):
    result = run(besieged(besieged_turns=3, **kw), [6, 6])
    assert result.state.blockaded == ("Torgau",)
    assert "Torgau" not in result.state.besieged_turns  # the consecutive count starts again
    blockade = [e for e in result.events if e.kind is EventKind.BLOCKADE]
    assert why in blockade[0].text


def test_a_siege_counts_consecutive_turns_and_rolls_two_dice():
    result = run(besieged(besieged_turns=1), [1, 1])
    # 2 + IR 2 + 4:1 (5:1) 2 + train 1 + 2 turns = 9
    siege = next(e for e in result.events if e.kind is EventKind.SIEGE)
    assert siege.data["total"] == 9 and siege.data["turns"] == 2
    assert result.state.besieged_turns == {"Torgau": 2}
    assert result.state.blockaded == ()


def test_a_demoralized_besieger_has_no_leader_factor():
    state = besieged()
    state = state.with_leader("daun", demoralized=True)
    result = run(state, [1, 1])
    siege = next(e for e in result.events if e.kind is EventKind.SIEGE)
    assert siege.data["total"] == 2 + 2 + 1 + 1


def test_a_breach_with_honors_granted_sends_the_garrison_away():
    result = run(besieged(besieged_turns=5), [3, 3])
    st = result.state
    assert [w.to_city for w in st.withdrawals] == ["Kosel"]
    assert st.withdrawals[0].points == 200 and st.withdrawals[0].captor == "austria"
    assert "Torgau" not in st.besieged_turns
    assert st.victory_points == {}


def test_a_garrison_denied_honors_surrenders_by_default():
    result = run(besieged(besieged_turns=5), [3, 3], [HonorsDecision("Torgau", "deny")])
    st = result.state
    assert st.garrisons_of("Torgau") == []
    assert st.control["Torgau"] == "austria"
    assert st.victory_points == {"austria": 1, "prussia": -1}


def test_an_even_fight_leaves_an_empty_fortress_with_its_old_master():
    result = run(
        besieged(besieged_turns=5, garrison=1000),
        [6, 6],
        [HonorsDecision("Torgau", "deny", "fight")],
    )
    st = result.state
    assert st.garrisons_of("Torgau") == [] and st.leader("daun").points == 0
    assert st.control["Torgau"] == "prussia"
    assert st.victory_points == {}


def test_forces_retreating_this_turn_do_not_besiege():
    from rules.state import Retreat

    state = besieged(besieged_turns=2, retreats=(Retreat(T, "rout", 10, ("daun",)),))
    assert investments(state, MAP) == []
    result = run(state, [6, 6])
    assert not any(e.kind in (EventKind.SIEGE, EventKind.BREACH) for e in result.events)


def test_the_battle_phase_names_the_sieges_ahead_and_the_siege_phase_clears_them():
    from rules.battle import battle_phase

    state = besieged(besieged_turns=1, phase=Phase.BATTLE)
    after_battle = battle_phase(state, Orders(), Dice("s"), MAP, S).state
    assert after_battle.honors_pending == ("Torgau",)
    blockade = besieged(trains=0, phase=Phase.BATTLE)
    assert battle_phase(blockade, Orders(), Dice("s"), MAP, S).state.honors_pending == ()
    after_siege = run(after_battle, [1, 1]).state
    assert after_siege.honors_pending == ()
