"""The optional quick resolution with the tables of SPI Frederick the Great (docs)."""

import pytest

from campaign.engine.dice import Dice
from campaign.tabletop.quick import (
    COLUMNS,
    CRT,
    LOSS_PERCENTAGES,
    ROWS,
    QuickBattle,
    QuickLeader,
    QuickOutcome,
    QuickSide,
    Source,
    column_for,
    lookup,
    percentage_loss,
    points_lost,
    resolve,
    row_for,
)
from maps.core.model import Terrain

pytestmark = pytest.mark.pure

FREDERICK = QuickLeader("Frederick", 1, 3)
SEYDLITZ = QuickLeader("Seydlitz", 14, 2)
ZIETHEN = QuickLeader("Ziethen", 9, 2)
DAUN = QuickLeader("Daun", 2, 2)
LACY = QuickLeader("Lacy", 6, 1)


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


# ---- the tables ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("percent", "column"),
    [(33, 33), (65, 33), (66, 66), (99, 66), (100, 100), (149, 100), (150, 150), (199, 150),
     (200, 200), (299, 200), (300, 300), (399, 300), (400, 400), (2500, 400)],
)  # fmt: skip
def test_the_ratio_is_rounded_down_to_a_column(percent, column):
    assert column_for(percent) == column


def test_no_attack_below_33_percent():
    with pytest.raises(ValueError, match="33%"):
        column_for(32)


@pytest.mark.parametrize(
    ("adjusted", "row"),
    [(-6, 0), (-2, 0), (-1, 1), (0, 1), (1, 2), (2, 2), (3, 3), (4, 3), (5, 4), (6, 4), (7, 5),
     (8, 5), (9, 6), (14, 6)],
)  # fmt: skip
def test_the_adjusted_die_picks_a_row(adjusted, row):
    assert row_for(adjusted) == row


def test_every_column_has_a_cell_for_every_row():
    assert set(CRT) == {low for low, _ in COLUMNS}
    for cells in CRT.values():
        assert len(cells) == len(ROWS)
        for cell in cells:
            for loss in (cell.attacker, cell.defender):
                assert loss.captured or loss.percent in (0, *LOSS_PERCENTAGES)


# Cells read plainly in the OCR (both scans where both have them): docs/quick-resolution.md.
@pytest.mark.parametrize(
    ("percent", "adjusted", "cell"),
    [
        (50, -3, "25/5"),
        (50, 0, "25L/5"),
        (50, 2, "20L/10"),
        (80, -2, "20/5"),
        (80, -1, "25/10L"),
        (80, 1, "25L/25L"),
        (120, -2, "25/10"),
        (120, 0, "20L/10"),
        (120, 2, "20/20"),
        (120, 4, "15L/20"),
        (120, 6, "10L/20"),
        (120, 8, "10/25"),
        (170, -2, "15/10"),
        (170, 0, "10/10L"),
        (170, 6, "10/25L"),
        (250, -2, "10/10"),
        (250, 0, "10L/20"),
        (250, 4, "10L/25"),
        (250, 6, "10L/40"),
        (350, -2, "10/25"),
        (350, 0, "10/25L"),
        (350, 2, "10/40L"),
        (350, 6, "•/P"),
        (400, -2, "•/P"),
        (900, 10, "•/P"),
    ],
)
def test_crt_cells_as_read(percent, adjusted, cell):
    found = lookup(percent, adjusted)
    assert str(found) == cell
    assert found.source is Source.READ


def test_reconstructed_cells_are_marked():
    sources = [c.source for cells in CRT.values() for c in cells]
    assert sources.count(Source.READ) >= 25
    assert Source.RECONSTRUCTED in sources and Source.PARTLY_READ in sources


@pytest.mark.parametrize(
    ("strength", "losses"),
    [
        (48, (2, 5, 7, 10, 12)),  # the "46 thru 50" row, read
        (38, (2, 4, 6, 8, 10)),  # a row read without its label: 36 thru 40
    ],
)
def test_the_percentage_loss_table_as_read(strength, losses):
    assert tuple(percentage_loss(strength, p) for p in LOSS_PERCENTAGES[:5]) == losses


def test_the_percentage_loss_example_of_spi_9_32():
    assert percentage_loss(19, 15) == 3


def test_a_band_loses_the_same_points():
    assert {percentage_loss(s, 25) for s in range(46, 51)} == {12}


@pytest.mark.parametrize(
    ("points", "percent", "lost"), [(1000, 15, 150), (333, 5, 17), (10, 40, 4)]
)
def test_campaign_points_lose_their_percentage_halves_up(points, percent, lost):
    assert points_lost(points, percent) == lost


# ---- the battle ----------------------------------------------------------------------------


def test_a_quick_battle_step_by_step():
    # 1000 v 1000: 100%; die 1 + 3 (Frederick) - 2 (Daun) = 2: "20/20".
    result = resolve(battle(), dice(quick_battle__b1__combat=1))
    assert (result.column, result.row, str(result.cell)) == ("100-149%", "1 to 2", "20/20")
    prussians, austrians = result.sides
    # Each eliminated 200 points = 4 SP; Prussians 4 + 3 against Austrians 4 + 2: one SP of
    # prisoners (50 points) and the Austrians rout.
    assert (prussians.losses, prussians.outcome) == (200, QuickOutcome.VICTOR)
    assert (austrians.losses, austrians.prisoners, austrians.outcome) == (
        250,
        50,
        QuickOutcome.ROUTED,
    )
    assert austrians.demoralized and not prussians.demoralized
    assert result.fought_on_table is False
    assert "not fought on the table" in result.method
    assert any(s.rule == "SPI 9.6" for s in result.steps)


def test_the_engines_named_dice_can_be_passed_in():
    roll = Dice("campaign-1", fixed={"quick-battle:b1:combat": 1}).roll
    assert str(resolve(battle(), roll).cell) == "20/20"


def test_a_rough_hex_takes_two_from_the_die():
    result = resolve(battle(terrain=Terrain.ROUGH), dice(quick_battle__b1__combat=3))
    assert result.adjusted == 3 + 3 - 2 - 2


def test_a_demoralized_commander_counts_as_zero():
    result = resolve(battle(a={"demoralized": True}), dice(quick_battle__b1__combat=3))
    assert result.adjusted == 3 + 0 - 2


def test_l_kills_the_lowest_ranked_leader():
    # Die 3 + 3 - 2 = 4: "15L/20" at 100%.
    result = resolve(battle(), dice(quick_battle__b1__combat=3))
    assert str(result.cell) == "15L/20"
    assert result.side("Prussians").killed == ("Seydlitz",)


def test_p_captures_the_whole_force_and_its_leaders():
    result = resolve(battle(a_points=1500, b_points=400), dice(quick_battle__b1__combat=4))
    austrians = result.side("Austrians")
    assert austrians.outcome is QuickOutcome.CAPTURED
    assert austrians.losses == 400 and austrians.captured == ("Daun", "Lacy")


def test_four_to_one_is_no_battle():
    result = resolve(battle(a_points=2000, b_points=500), dice())
    assert result.cell is None
    assert result.side("Austrians").outcome is QuickOutcome.CAPTURED
    assert result.side("Prussians").losses == 0
    assert result.steps[-1].rule == "9"


def test_the_higher_ir_attacks_when_nobody_is_named():
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
    result = resolve(battle(attacker=None, a_leaders=(ZIETHEN,)), roll)
    assert result.attacker == "Austrians"


def test_a_demoralized_side_may_not_attack():
    result = resolve(
        battle(attacker=None, a={"demoralized": True}), dice(quick_battle__b1__combat=3)
    )
    assert result.attacker == "Austrians"


def test_below_33_percent_the_stronger_side_attacks():
    result = resolve(battle(a_points=300, b_points=1000), dice(quick_battle__b1__combat=3))
    assert result.attacker == "Austrians"
    assert result.percent == 333


def test_equal_totals_are_a_draw_and_the_attacker_retires():
    # Die 1, Prussians without Frederick: 1 + 2 - 2 = 1: "20/20"; 4 + 2 against 4 + 2.
    result = resolve(battle(a_leaders=(ZIETHEN,)), dice(quick_battle__b1__combat=1))
    assert result.side("Prussians").outcome is QuickOutcome.RETIRED
    assert result.side("Austrians").outcome is QuickOutcome.VICTOR
    assert result.loser.name == "Prussians"


def test_an_unsupplied_victor_is_demoralized_after_the_battle():
    result = resolve(battle(a={"unsupplied": True}), dice(quick_battle__b1__combat=1))
    prussians = result.side("Prussians")
    assert prussians.outcome is QuickOutcome.VICTOR and prussians.demoralized


def test_losses_never_exceed_the_points_present():
    for die in range(1, 7):
        for a, b in ((1000, 300), (300, 1000), (1000, 1000), (3000, 800)):
            result = resolve(battle(a_points=a, b_points=b), dice(quick_battle__b1__combat=die))
            for side in result.sides:
                assert 0 <= side.losses <= side.points


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
