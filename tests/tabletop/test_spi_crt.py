"""The SPI tables of the quick resolution against the player aid, cell by cell (the expected
cells below are typed from /work/shared/seeds/003_bebf3e77dac1991f.txt, lines 121-136 and
89-102; docs/quick-resolution.md)."""

import doctest

import pytest

from tabletop import quick, spi_crt
from tabletop.spi_crt import (
    COLUMNS,
    CRT,
    CRT_LINES,
    DIE_ROWS,
    LOSS_LINES,
    LOSS_PERCENTAGES,
    PLAYER_AID_COLUMNS,
    Source,
    band_rule,
    column_for,
    die_row,
    lookup,
    strength_points_lost,
)

pytestmark = pytest.mark.pure

# die: (line of 003, 33-65%, 66-99%, 100-149%, 150-199%, 200-299%, 300-399%, 400% or more).
# 200-299% and 400%+ are not in the player aid's OCR: the 1975 table's (000), two dice a row.
EXPECTED_ROWS = {
    -2: (125, "25/5", "20/5", "25/10", "15/10", "10/10", "10/25", "•/P"),
    -1: (126, "25L/5", "20/5L", "25L/10", "15/10L", "10L/20", "10/25L", "•/P"),
    0: (127, "25/5L", "25L/10", "25/10L", "10L/10", "10L/20", "20L/25", "•/P"),
    1: (128, "25L/5", "25/10L", "20L/10", "10L/10L", "10/20", "20/25L", "•/P"),
    2: (129, "25/5L", "25L/10", "15/10L", "15L/20", "10/20", "10/20L", "•/P"),
    3: (130, "25/5", "25/10", "20/10", "20/10", "10L/25", "25/10", "•/P"),
    4: (131, "20/5", "20/10", "15/20", "10/20", "10L/25", "10/25", "•/P"),
    5: (132, "20L/5", "20/10L", "15L/20", "10/20L", "10L/40", "10L/25", "•/P"),
    6: (133, "20/10L", "20L/20", "10/20L", "10L/25", "10L/40", "10/40L", "•/P"),
    7: (134, "20L/10", "20/25L", "10L/20", "10/25L", "•/40", "10L/40", "•/P"),
    8: (135, "20/20L", "10L/10", "10/25L", "10L/25", "•/40", "10/40L", "•/P"),
    9: (136, "5/10", "5/10", "10/25", "5/20", "•/P", "•/P", "•/P"),
}


@pytest.mark.parametrize("die", sorted(EXPECTED_ROWS))
def test_each_crt_row_is_the_player_aids(die):
    line, *cells = EXPECTED_ROWS[die]
    assert [str(CRT[low][die]) for low, _ in COLUMNS] == cells
    for low in PLAYER_AID_COLUMNS:
        assert CRT[low][die].source is Source.PLAYER_AID
        assert CRT[low][die].where == f"003 line {line}"
    for low in (200, 400):
        assert CRT[low][die].source is not Source.PLAYER_AID
        assert CRT[low][die].where.startswith("000")


@pytest.mark.parametrize("row", CRT_LINES, ids=lambda x: f"die {x.die}")
def test_the_transcription_is_the_printed_line_read_in_pairs(row):
    numbers = ["•" if x.strip() == "-" else x.strip() for x in row.printed.split("|")]
    assert len(numbers) == 10
    pairs = [f"{numbers[i]}/{numbers[i + 1]}" for i in range(0, 10, 2)]
    assert list(row.cells) == pairs


def test_the_table_has_twelve_rows_from_minus_two_to_nine_and_seven_columns():
    assert tuple(range(-2, 10)) == DIE_ROWS
    assert [x.die for x in CRT_LINES] == list(DIE_ROWS)
    assert [x.line for x in CRT_LINES] == list(range(125, 137))
    assert set(CRT) == {low for low, _ in COLUMNS}
    for cells in CRT.values():
        assert sorted(cells) == list(DIE_ROWS)
        for cell in cells.values():
            for loss in (cell.attacker, cell.defender):
                assert loss.captured or loss.percent in (0, *LOSS_PERCENTAGES)
                assert not (loss.captured and loss.leader)


def test_sixty_cells_come_from_the_player_aid():
    sources = [cell.source for cells in CRT.values() for cell in cells.values()]
    assert sources.count(Source.PLAYER_AID) == 60
    assert sources.count(Source.RULES) == 10 + 7  # 400%+ but at 5-6; 200-299% at -2 to 0, 3-6
    assert sources.count(Source.RULES_PARTLY) == 2 + 4  # 400%+ at 5-6; 200-299% at 1-2, 7-8
    assert sources.count(Source.RECONSTRUCTED) == 1  # 200-299% at 9


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
    ("adjusted", "row"), [(-6, -2), (-2, -2), (-1, -1), (0, 0), (5, 5), (9, 9), (14, 9)]
)
def test_the_adjusted_die_is_the_row_within_the_tables_ends(adjusted, row):
    assert die_row(adjusted) == row


def test_lookup_reads_column_and_row():
    assert str(lookup(120, 1)) == "20L/10"
    assert str(lookup(350, -5)) == "10/25"
    assert str(lookup(50, 12)) == "5/10"


# ---- the Percentage Loss Table ----------------------------------------------------------------

# (band, line of 003, strength points lost at 5, 10, 15, 20, 25, 40%)
EXPECTED_LOSSES = [
    ((1, 5), 93, (1, 1, 1, 1, 1, 1)),
    ((6, 10), 94, (1, 1, 1, 2, 2, 3)),
    ((11, 15), 95, (1, 1, 2, 3, 3, 5)),
    ((16, 20), 96, (1, 2, 3, 3, 5, 7)),
    ((21, 25), 97, (1, 2, 3, 5, 6, 9)),
    ((26, 30), 98, (1, 3, 4, 6, 7, 11)),
    ((31, 35), 99, (2, 3, 5, 7, 8, 13)),
    ((36, 40), 100, (2, 4, 6, 8, 10, 15)),
    ((41, 45), 101, (2, 4, 6, 9, 11, 17)),
    ((46, 50), 102, (2, 5, 7, 10, 12, 19)),
]


@pytest.mark.parametrize(("band", "line", "lost"), EXPECTED_LOSSES, ids=lambda x: str(x))
def test_each_loss_line_is_the_player_aids(band, line, lost):
    row = next(x for x in LOSS_LINES if (x.low, x.high) == band)
    assert row.line == line
    assert row.lost == lost
    for strength in range(band[0], band[1] + 1):
        assert tuple(strength_points_lost(strength, p) for p in LOSS_PERCENTAGES) == lost


def test_the_printed_lines_are_the_transcription_and_a_stray_column():
    sevenths = []
    for row in LOSS_LINES:
        numbers = [int(x) for x in row.printed.split("|") if x.strip()]
        assert tuple(numbers[:6]) == row.lost
        sevenths.extend(numbers[6:])
    # The seventh numbers, top to bottom, are the 40% column printed again without its "5".
    forty = [row.lost[-1] for row in LOSS_LINES]
    assert sevenths == [x for x in forty if x != 5]


def test_the_table_follows_its_band_rule_but_in_one_cell():
    odd = [
        (row.low, p)
        for row in LOSS_LINES
        for p, lost in zip(LOSS_PERCENTAGES, row.lost, strict=True)
        if band_rule(row.low, p) != lost
    ]
    assert odd == [(16, 20)]


def test_the_percentage_loss_example_of_spi_9_32():
    assert strength_points_lost(19, 15) == 3


def test_above_fifty_strength_points_the_band_rule_goes_on():
    # 61-65 (middle 63): 3.15, 6.3, 9.45, 12.6, 15.75, 25.2
    assert [strength_points_lost(64, p) for p in LOSS_PERCENTAGES] == [3, 6, 9, 13, 16, 25]


def test_no_loss_without_a_percentage_and_no_other_percentage():
    assert strength_points_lost(20, 0) == 0
    assert strength_points_lost(0, 25) == 0
    with pytest.raises(ValueError, match="30%"):
        strength_points_lost(20, 30)


@pytest.mark.parametrize("module", [spi_crt, quick])
def test_the_worked_examples_in_the_docstrings_hold(module):
    assert doctest.testmod(module).failed == 0
