"""The optional quick resolution with the tables of SPI Frederick the Great
(docs/quick-resolution.md; the tables themselves: test_spi_crt.py)."""

import pytest

from maps.core.model import Terrain
from rules.dice import Dice
from tabletop.quick import (
    QuickBattle,
    QuickLeader,
    QuickOutcome,
    QuickSide,
    resolve,
    strength_of,
)

pytestmark = pytest.mark.pure

FREDERICK = QuickLeader("Frederick", 1, 3)
SEYDLITZ = QuickLeader("Seydlitz", 14, 2)
ZIETHEN = QuickLeader("Ziethen", 9, 2)
DAUN = QuickLeader("Daun", 2, 2)
LACY = QuickLeader("Lacy", 6, 1)
HILDBURGHAUSEN = QuickLeader("Hildburghausen", 5, 0)


def dice(**fixed):
    """A roll callable that knows only the rolls a test expects, by name."""
    names = {k.replace("__", ":").replace("_", "-"): v for k, v in fixed.items()}

    def roll(name):
        assert name in names, f"unexpected roll {name}"
        return names[name]

    return roll


def battle(a_points=1000, b_points=1000, terrain=Terrain.CLEAR, attacker="Prussians", **kw):
    prussians = QuickSide("Prussians", a_points, kw.pop("a_leaders", (FREDERICK, SEYDLITZ)),
                          **kw.pop("a", {}))  # fmt: skip
    austrians = QuickSide(
        "Austrians", b_points, kw.pop("b_leaders", (DAUN, LACY)), **kw.pop("b", {})
    )
    return QuickBattle("b1", (prussians, austrians), terrain, attacker=attacker, **kw)


def rules(result):
    return [s.rule for s in result.steps]


# ---- the battle ------------------------------------------------------------------------------


def test_a_quick_battle_step_by_step():
    # 1000 v 1000: 100%; die 1 + 3 (Frederick) - 2 (Daun) = 2: "15/10L" (003 line 129).
    result = resolve(battle(), dice(quick_battle__b1__combat=1))
    assert (result.column, result.row, str(result.cell)) == ("100-149%", "2", "15/10L")
    assert result.cell.where == "003 line 129"
    prussians, austrians = result.sides
    # 20 strength points each: 15% is 3 (150 points), 10% is 2 (100 points); Lacy, the
    # lowest-ranked Austrian, is killed. Prussians 2 + 3 = 5, Austrians 3 + 2 (Daun) = 5: a draw,
    # and the attacker retires.
    assert (prussians.strength, prussians.strength_lost, prussians.losses) == (20, 3, 150)
    assert (austrians.strength, austrians.strength_lost, austrians.losses) == (20, 2, 100)
    assert austrians.killed == ("Lacy",)
    assert prussians.outcome is QuickOutcome.RETIRED and austrians.outcome is QuickOutcome.VICTOR
    assert prussians.prisoners == austrians.prisoners == 0
    assert result.fought_on_table is False
    assert "not fought on the table" in result.method
    assert rules(result) == [
        "quick resolution", "SPI 9.0", "SPI 9.31", "SPI 9.23", "SPI 9.6", "SPI 9.32",
        "SPI 9.32", "SPI 9.44", "SPI 9.0", "10",
    ]  # fmt: skip


def test_the_engines_named_dice_can_be_passed_in():
    roll = Dice("campaign-1", fixed={"quick-battle:b1:combat": 1}).roll
    assert str(resolve(battle(), roll).cell) == "15/10L"


def test_the_victor_takes_the_difference_as_prisoners_kept_apart_from_the_losses():
    # Die 6 + 3 - 2 = 7: "10L/20". Prussians lose 2 SP (100 points) and Seydlitz; Austrians
    # 3 SP (150 points). Prussians 3 + 3 = 6 against 2 + 2 = 4: 2 SP, 100 points, prisoners.
    result = resolve(battle(), dice(quick_battle__b1__combat=6))
    assert str(result.cell) == "10L/20"
    prussians, austrians = result.sides
    assert (prussians.losses, prussians.prisoners, prussians.killed) == (100, 0, ("Seydlitz",))
    assert (austrians.losses, austrians.prisoners) == (150, 100)
    assert (austrians.points_lost, austrians.points_left) == (250, 750)
    assert austrians.outcome is QuickOutcome.ROUTED and austrians.demoralized
    assert prussians.outcome is QuickOutcome.VICTOR and not prussians.demoralized
    assert any("prisoners of war, 13.2" in s.text for s in result.steps)


def test_a_forces_points_follow_its_strength_points():
    # 1024 points are 20 SP; die 1: "15/10L": 15% of 20 SP is 3, 3/20 of 1024 points is 154.
    result = resolve(battle(a_points=1024), dice(quick_battle__b1__combat=1))
    assert str(result.cell) == "15/10L"
    assert result.side("Prussians").strength == 20
    assert result.side("Prussians").losses == 154


@pytest.mark.parametrize(
    ("points", "pps", "strength"), [(1000, 50, 20), (1025, 50, 21), (10, 50, 1), (3200, 50, 64)]
)
def test_strength_points_are_points_over_points_per_strength_point(points, pps, strength):
    assert strength_of(points, pps) == strength


def test_a_rough_hex_takes_two_from_the_die():
    result = resolve(battle(terrain=Terrain.ROUGH), dice(quick_battle__b1__combat=3))
    assert result.adjusted == 3 + 3 - 2 - 2


def test_the_row_is_kept_within_the_table():
    result = resolve(battle(a_leaders=(ZIETHEN,), terrain=Terrain.ROUGH, b={"field_works": 12}),
                     dice(quick_battle__b1__combat=1))  # fmt: skip
    assert (result.adjusted, result.row) == (1 + 2 - 2 - 2 - 2, "-2")
    assert any("= -3: row -2, the table's first." in s.text for s in result.steps)
    hero = QuickLeader("A hero of legend", 1, 5)
    high = resolve(battle(a_leaders=(hero,), b_leaders=()), dice(quick_battle__b1__combat=6))
    assert (high.adjusted, high.row) == (11, "9")
    assert any("= 11: row 9, the table's last." in s.text for s in high.steps)


def test_a_demoralized_commander_counts_as_zero():
    result = resolve(
        battle(attacker=None, b={"demoralized": True}), dice(quick_battle__b1__combat=3)
    )
    assert result.adjusted == 3 + 3 - 0


def test_l_kills_the_lowest_ranked_leader():
    # Die 5 + 3 - 2 = 6: "10/20L" at 100%: Lacy (rank 6) rather than Daun (rank 2).
    result = resolve(battle(), dice(quick_battle__b1__combat=5))
    assert str(result.cell) == "10/20L"
    assert result.side("Austrians").killed == ("Lacy",)


def test_p_captures_the_whole_force_and_its_leaders_as_prisoners():
    # 1500 v 400: 375%; die 6 + 3 - 0 = 9: "•/P" (003 line 136).
    result = resolve(
        battle(a_points=1500, b_points=400, b_leaders=(HILDBURGHAUSEN,)),
        dice(quick_battle__b1__combat=6),
    )
    assert str(result.cell) == "•/P"
    austrians = result.side("Austrians")
    assert austrians.outcome is QuickOutcome.CAPTURED
    assert (austrians.losses, austrians.prisoners) == (0, 400)
    assert austrians.captured == ("Hildburghausen",)
    assert result.side("Prussians").points_lost == 0


def test_leaders_left_alone_are_captured():
    # 150 v 60 points: 250%; 3 SP against 1 SP. Die 1 + 3 - 2 = 2: "10/20": the Austrians lose
    # their one strength point, all 60 points; Daun and Lacy are left alone (SPI 9.46).
    result = resolve(battle(a_points=150, b_points=60), dice(quick_battle__b1__combat=1))
    austrians = result.side("Austrians")
    assert (austrians.losses, austrians.prisoners) == (60, 0)
    assert austrians.captured == ("Daun", "Lacy")
    assert austrians.points_left == 0


def test_four_to_one_is_no_battle_and_the_smaller_force_is_taken_prisoner():
    result = resolve(battle(a_points=2000, b_points=500), dice())
    assert result.cell is None
    austrians = result.side("Austrians")
    assert austrians.outcome is QuickOutcome.CAPTURED
    assert (austrians.losses, austrians.prisoners) == (0, 500)
    assert result.side("Prussians").points_lost == 0
    assert result.steps[-1].rule == "9"


def test_equal_totals_are_a_draw_and_the_attacker_retires():
    result = resolve(battle(), dice(quick_battle__b1__combat=1))
    assert result.side("Prussians").outcome is QuickOutcome.RETIRED
    assert result.side("Austrians").outcome is QuickOutcome.VICTOR
    assert result.loser.name == "Prussians"


def test_an_unsupplied_victor_is_demoralized_after_the_battle():
    result = resolve(battle(a={"unsupplied": True}), dice(quick_battle__b1__combat=6))
    prussians = result.side("Prussians")
    assert prussians.outcome is QuickOutcome.VICTOR and prussians.demoralized


def test_losses_and_prisoners_never_exceed_the_points_present():
    for die in range(1, 7):
        for a, b in ((1000, 300), (300, 1000), (1000, 1000), (3000, 800), (120, 60), (60, 30)):
            for works in (0, 12):
                made = battle(a_points=a, b_points=b, b={"field_works": works})
                result = resolve(made, dice(quick_battle__b1__combat=die))
                for side in result.sides:
                    assert side.losses >= 0 and side.prisoners >= 0
                    assert side.points_lost <= side.points


# ---- field works (9.4) -----------------------------------------------------------------------


def test_a_defender_in_field_works_takes_two_from_the_die():
    result = resolve(battle(b={"field_works": 24}), dice(quick_battle__b1__combat=3))
    assert result.adjusted == 3 + 3 - 2 - 2
    assert any('Austrians defend 24" of field works, 9.4' in s.text for s in result.steps)


def test_field_works_and_a_rough_hex_both_count():
    made = battle(terrain=Terrain.ROUGH, b={"field_works": 12})
    assert resolve(made, dice(quick_battle__b1__combat=5)).adjusted == 5 + 3 - 2 - 2 - 2


def test_the_attackers_field_works_do_nothing():
    result = resolve(battle(a={"field_works": 36}), dice(quick_battle__b1__combat=3))
    assert result.adjusted == 3 + 3 - 2


# ---- who attacks (SPI 9.0) -------------------------------------------------------------------


def test_the_side_the_organiser_names_attacks():
    result = resolve(battle(attacker="Austrians"), dice(quick_battle__b1__combat=3))
    assert (result.attacker, result.defender) == ("Austrians", "Prussians")
    assert result.adjusted == 3 + 2 - 3


def test_the_only_side_that_chose_to_fight_attacks_even_with_the_lower_ir():
    made = battle(attacker=None, b={"elects_to_attack": True})
    result = resolve(made, dice(quick_battle__b1__combat=3))
    assert result.attacker == "Austrians"
    assert any("the only side that chose to fight" in s.text for s in result.steps)


def test_when_both_chose_to_fight_the_first_option_goes_to_the_higher_ir():
    made = battle(attacker=None, a={"elects_to_attack": True}, b={"elects_to_attack": True})
    result = resolve(made, dice(quick_battle__b1__combat=3))
    assert result.attacker == "Prussians"
    assert any("both chose to fight" in s.text for s in result.steps)


def test_with_no_choice_known_the_higher_ir_attacks():
    result = resolve(battle(attacker=None), dice(quick_battle__b1__combat=1))
    assert result.attacker == "Prussians"


def test_equal_irs_roll_for_the_first_option():
    roll = dice(
        quick_battle__b1__first_option__prussians__1=4,
        quick_battle__b1__first_option__austrians__1=4,
        quick_battle__b1__first_option__prussians__2=2,
        quick_battle__b1__first_option__austrians__2=5,
        quick_battle__b1__combat=3,
    )
    made = battle(
        attacker=None,
        a_leaders=(ZIETHEN,),
        a={"elects_to_attack": True},
        b={"elects_to_attack": True},
    )
    assert resolve(made, roll).attacker == "Austrians"


def test_a_demoralized_side_may_not_attack_even_when_named():
    result = resolve(battle(a={"demoralized": True}), dice(quick_battle__b1__combat=3))
    assert result.attacker == "Austrians"
    assert any("SPI 9.14" in s.text for s in result.steps)


def test_a_demoralized_side_that_chose_to_fight_passes_the_option():
    made = battle(attacker=None, a={"demoralized": True, "elects_to_attack": True})
    result = resolve(made, dice(quick_battle__b1__combat=3))
    assert result.attacker == "Austrians"
    assert "the option to attack passes to the other side" in result.steps[1].text


def test_a_side_that_chose_to_fight_against_a_demoralized_one_simply_attacks():
    made = battle(attacker=None, b={"demoralized": True, "elects_to_attack": False},
                  a={"elects_to_attack": True})  # fmt: skip
    result = resolve(made, dice(quick_battle__b1__combat=3))
    assert result.attacker == "Prussians"
    assert result.steps[1].text == (
        "Prussians attack: Austrians may not, a demoralized force may not attack (SPI 9.14, 11.14)."
    )


def test_when_both_are_demoralized_the_first_option_still_decides():
    roll = dice(
        quick_battle__b1__first_option__prussians__1=6,
        quick_battle__b1__first_option__austrians__1=1,
        quick_battle__b1__combat=3,
    )
    made = battle(attacker=None, a={"demoralized": True}, b={"demoralized": True})
    result = resolve(made, roll)
    assert (result.attacker, result.adjusted) == ("Prussians", 3)


def test_below_33_percent_the_stronger_side_attacks():
    result = resolve(battle(a_points=300, b_points=1000), dice(quick_battle__b1__combat=3))
    assert result.attacker == "Austrians"
    assert result.percent == 333
    assert any("SPI 9.47" in s.text for s in result.steps)


@pytest.mark.parametrize(
    "make",
    [
        lambda: battle(attacker="Swedes"),
        lambda: battle(a_points=0),
        lambda: battle(points_per_strength_point=0),
    ],
)
def test_it_rejects_an_impossible_battle(make):
    with pytest.raises(ValueError):
        make()
