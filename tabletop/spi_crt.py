"""The combat tables of SPI's *Frederick the Great*, transcribed cell by cell for the quick
resolution (``quick.py``; docs/quick-resolution.md says how each cell was read). Pure data.

The sources are the project's seeds (``/work/shared/seeds/``), cited by line number:

- ``003``: ``003_bebf3e77dac1991f.txt``, the player aid of the revised game (*Friedrich der
  Große, Campaigns of the Soldier King*, "Original map by Redmond A. Simonsen - Revised by Luca
  Marcolungo", line 138). Its "COMBAT results TABLE" (lines 121-136) has one line per adjusted
  die roll from -2 to 9; its "TABLE of LOSSES" (lines 89-102) one line per band of five strength
  points. Both are legible. The OCR kept ten of the CRT's fourteen numbers per line: the
  attacker's and defender's losses of five of the seven columns (see ``PLAYER_AID_COLUMNS``).
- ``000``: ``000_d5290ebde7618467.txt``, the 1975 rules with the mapsheet, where the CRT is
  scanned twice (lines 2203-2385 and 2439-2623), garbled, with seven rows. The two columns the
  player aid lost (200-299% and 400% or more) come from there.

>>> str(lookup(120, 1)), lookup(120, 1).where
('20L/10', '003 line 128')
>>> strength_points_lost(19, 15)  # SPI 9.32's example
3
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

PLAYER_AID = "003_bebf3e77dac1991f.txt"
RULES = "000_d5290ebde7618467.txt"


class Source(Enum):
    """Where a cell of the CRT comes from."""

    PLAYER_AID = "read in the player aid (003)"
    RULES = "read in the 1975 mapsheet (000)"
    RULES_PARTLY = "half read in the 1975 mapsheet (000), the other half reconstructed"
    RECONSTRUCTED = "reconstructed (in no scan)"


@dataclass(frozen=True)
class Loss:
    """One side's half of a result (SPI 9.41-9.44): a percentage, "L" (the lowest-ranked leader
    is killed), "P" (the whole force is captured); "•" is no effect."""

    percent: int = 0
    leader: bool = False
    captured: bool = False

    def __str__(self) -> str:
        if self.captured:
            return "P"
        text = str(self.percent) if self.percent else "•"
        return text + ("L" if self.leader else "")

    @classmethod
    def parse(cls, text: str) -> Loss:
        text = text.strip()
        if text == "P":
            return cls(captured=True)
        leader = text.endswith("L")
        number = text.removesuffix("L")
        return cls(percent=0 if number == "•" else int(number), leader=leader)


@dataclass(frozen=True)
class Cell:
    attacker: Loss
    defender: Loss
    source: Source
    where: str

    def __str__(self) -> str:
        return f"{self.attacker}/{self.defender}"


# Columns: the attacker's strength as a percentage of the defender's (SPI 9.31, 9.47), the
# headings of 003 line 123 and of both scans of 000.
COLUMNS: tuple[tuple[int, str], ...] = (
    (33, "33-65%"),
    (66, "66-99%"),
    (100, "100-149%"),
    (150, "150-199%"),
    (200, "200-299%"),
    (300, "300-399%"),
    (400, "400% or more"),
)
# Rows: the adjusted die roll (SPI 9.23), 003 lines 125-136: -2 to 9, one line each.
LOWEST_DIE, HIGHEST_DIE = -2, 9
DIE_ROWS = tuple(range(LOWEST_DIE, HIGHEST_DIE + 1))

# The five columns the player aid's OCR kept, in the order of its ten numbers per line. The
# fifth pair is 300-399%, not 200-299%: its first two cells (10/25, 10/25L) are those of the
# 1975 table's 300-399% column (000 lines 2338-2340, 2573-2575), whose 200-299% column begins
# 10/10, 10L/20 (000 lines 2317-2319); the first four pairs likewise begin as the 1975 table's
# first four columns (25/5, 20/5, 25/10, 15/10).
PLAYER_AID_COLUMNS = (33, 66, 100, 150, 300)


@dataclass(frozen=True)
class CrtLine:
    """One line of the player aid's CRT: the die, the line of 003, the OCR's ten numbers as
    printed (between the die labels), and the transcription, one cell per PLAYER_AID_COLUMNS."""

    die: int
    line: int
    printed: str
    cells: tuple[str, str, str, str, str]


# CrtLine(die, line of 003, the printed numbers, (33-65, 66-99, 100-149, 150-199, 300-399))
CRT_LINES: tuple[CrtLine, ...] = (
    CrtLine(-2, 125, "25 | 5 | 20 | 5 | 25 | 10 | 15 | 10 | 10 | 25",
            ("25/5", "20/5", "25/10", "15/10", "10/25")),
    CrtLine(-1, 126, "25L | 5 | 20 | 5L | 25L | 10 | 15 | 10L | 10 | 25L",
            ("25L/5", "20/5L", "25L/10", "15/10L", "10/25L")),
    CrtLine(0, 127, "25 | 5L | 25L | 10 | 25 | 10L | 10L | 10 | 20L | 25",
            ("25/5L", "25L/10", "25/10L", "10L/10", "20L/25")),
    CrtLine(1, 128, "25L | 5 | 25 | 10L | 20L | 10 | 10L | 10L | 20 | 25L",
            ("25L/5", "25/10L", "20L/10", "10L/10L", "20/25L")),
    CrtLine(2, 129, "25 | 5L | 25L | 10 | 15 | 10L | 15L | 20 | 10 | 20L",
            ("25/5L", "25L/10", "15/10L", "15L/20", "10/20L")),
    CrtLine(3, 130, "25 | 5 | 25 | 10 | 20 | 10 | 20 | 10 | 25 | 10",
            ("25/5", "25/10", "20/10", "20/10", "25/10")),
    CrtLine(4, 131, "20 | 5 | 20 | 10 | 15 | 20 | 10 | 20 | 10 | 25",
            ("20/5", "20/10", "15/20", "10/20", "10/25")),
    CrtLine(5, 132, "20L | 5 | 20 | 10L | 15L | 20 | 10 | 20L | 10L | 25",
            ("20L/5", "20/10L", "15L/20", "10/20L", "10L/25")),
    CrtLine(6, 133, "20 | 10L | 20L | 20 | 10 | 20L | 10L | 25 | 10 | 40L",
            ("20/10L", "20L/20", "10/20L", "10L/25", "10/40L")),
    CrtLine(7, 134, "20L | 10 | 20 | 25L | 10L | 20 | 10 | 25L | 10L | 40",
            ("20L/10", "20/25L", "10L/20", "10/25L", "10L/40")),
    CrtLine(8, 135, "20 | 20L | 10L | 10 | 10 | 25L | 10L | 25 | 10 | 40L",
            ("20/20L", "10L/10", "10/25L", "10L/25", "10/40L")),
    # "-" is the only dash of the table: no effect, the key's "•" (000 lines 2385, 2623).
    CrtLine(9, 136, "5 | 10 | 5 | 10 | 10 | 25 | 5 | 20 | - | P",
            ("5/10", "5/10", "10/25", "5/20", "•/P")),
)  # fmt: skip

# 200-299%, lost by the player aid's OCR: the 1975 table's column (000, scan 1 lines 2317-2327,
# scan 2 lines 2557-2563), whose seven rows span two die values each (-2 or less, -1 to 0, 1 to
# 2, ..., 9 or more: the row labels of 000 lines 2377-2383 and 2613-2621).
#       lowest die, highest die, cell, source, where
_RULES_200: tuple[tuple[int, int, str, Source, str], ...] = (
    (LOWEST_DIE, -2, "10/10", Source.RULES, "000 lines 2317, 2557 ('JO' alone)"),
    (-1, 0, "10L/20", Source.RULES, "000 lines 2319, 2559"),
    (1, 2, "10/20", Source.RULES_PARTLY, "000 line 2321 ('10' alone)"),
    (3, 4, "10L/25", Source.RULES, "000 line 2323"),
    (5, 6, "10L/40", Source.RULES, "000 lines 2325, 2561"),
    (7, 8, "•/40", Source.RULES_PARTLY, "000 lines 2327, 2563 ('•' alone)"),
    (9, HIGHEST_DIE, "•/P", Source.RECONSTRUCTED, "000: in no scan"),
)
# 400% or more, lost too: "• p" in the rows of the 1975 table (000 lines 2359-2371 and
# 2594-2606), but for the fifth row (5 to 6), "•" alone in both scans (lines 2367, 2602). The
# campaign never uses the column: at 4:1 or more there is no battle (Der Grosse König 9).
_RULES_400 = ("•/P", Source.RULES, "000 lines 2359-2371, 2594-2606")
_RULES_400_FIFTH = ("•/P", Source.RULES_PARTLY, "000 lines 2367, 2602 ('•' alone)")


def _cell(text: str, source: Source, where: str) -> Cell:
    attacker, defender = text.split("/")
    return Cell(Loss.parse(attacker), Loss.parse(defender), source, where)


def _build_crt() -> dict[int, dict[int, Cell]]:
    crt: dict[int, dict[int, Cell]] = {low: {} for low, _ in COLUMNS}
    for line in CRT_LINES:
        for column, text in zip(PLAYER_AID_COLUMNS, line.cells, strict=True):
            crt[column][line.die] = _cell(text, Source.PLAYER_AID, f"003 line {line.line}")
    for low, high, text, source, where in _RULES_200:
        for die in range(low, high + 1):
            crt[200][die] = _cell(text, source, where)
    for die in DIE_ROWS:
        crt[400][die] = _cell(*(_RULES_400_FIFTH if die in (5, 6) else _RULES_400))
    return crt


# The Combat Results Table (SPI 9.6): CRT[column][die] for die in DIE_ROWS.
CRT: dict[int, dict[int, Cell]] = _build_crt()


def column_for(percent: int) -> int:
    """The CRT column (its lowest percentage) for an attack at ``percent`` (SPI 9.31, 9.47).

    >>> column_for(33), column_for(99), column_for(100), column_for(1000)
    (33, 66, 100, 400)
    """
    if percent < 33:
        raise ValueError("no attack may be made at less than 33% (SPI 9.47)")
    return max(low for low, _ in COLUMNS if low <= percent)


def die_row(adjusted: int) -> int:
    """The CRT row for an adjusted die roll: the table's own from -2 to 9; below and above,
    its first and last (as SPI 9.47 resolves an attack above 400% on the 400% column).

    >>> die_row(-5), die_row(0), die_row(12)
    (-2, 0, 9)
    """
    return min(HIGHEST_DIE, max(LOWEST_DIE, adjusted))


def lookup(percent: int, adjusted: int) -> Cell:
    """The Combat Results Table's cell for an attack at ``percent`` with this adjusted die."""
    return CRT[column_for(percent)][die_row(adjusted)]


# ---- the Percentage Loss Table (SPI 9.32, 9.33) -------------------------------------------

LOSS_PERCENTAGES = (5, 10, 15, 20, 25, 40)


@dataclass(frozen=True)
class LossLine:
    """One line of 003's TABLE of LOSSES: the band of strength points, the line, the OCR's
    numbers as printed, and the strength points lost at 5, 10, 15, 20, 25 and 40%."""

    low: int
    high: int
    line: int
    printed: str
    lost: tuple[int, int, int, int, int, int]


# Every printed line but the last has a seventh number under no heading: top to bottom they are
# the 40% column again without its "5" (1, 3, 7, 9, ... 19), a stray copy made by the OCR.
LOSS_LINES: tuple[LossLine, ...] = (
    LossLine(1, 5, 93, "1 | 1 | 1 | 1 | 1 | 1 | 1", (1, 1, 1, 1, 1, 1)),
    LossLine(6, 10, 94, "1 | 1 | 1 | 2 | 2 | 3 | 3", (1, 1, 1, 2, 2, 3)),
    LossLine(11, 15, 95, "1 | 1 | 2 | 3 | 3 | 5 | 7", (1, 1, 2, 3, 3, 5)),
    # 20% of 16-20 is 3 here and in 000 ("16 thru 20" ... "2 3 3 5 7", lines 2424, 2433).
    LossLine(16, 20, 96, "1 | 2 | 3 | 3 | 5 | 7 | 9", (1, 2, 3, 3, 5, 7)),
    LossLine(21, 25, 97, "1 | 2 | 3 | 5 | 6 | 9 | 11", (1, 2, 3, 5, 6, 9)),
    LossLine(26, 30, 98, "1 | 3 | 4 | 6 | 7 | 11 | 13", (1, 3, 4, 6, 7, 11)),
    LossLine(31, 35, 99, "2 | 3 | 5 | 7 | 8 | 13 | 15", (2, 3, 5, 7, 8, 13)),
    LossLine(36, 40, 100, "2 | 4 | 6 | 8 | 10 | 15 | 17", (2, 4, 6, 8, 10, 15)),
    LossLine(41, 45, 101, "2 | 4 | 6 | 9 | 11 | 17 | 19", (2, 4, 6, 9, 11, 17)),
    LossLine(46, 50, 102, "2 | 5 | 7 | 10 | 12 | 19 | ", (2, 5, 7, 10, 12, 19)),
)
LARGEST_IN_TABLE = LOSS_LINES[-1].high


def round_half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2))


def band_rule(strength: int, percent: int) -> int:
    """The rule the printed table follows in all but one of its 60 cells: the band of five
    strength points loses ``percent`` of its middle strength, to the nearest point, halves up,
    and at least one (16-20 at 20% is printed 3, not 4)."""
    middle = (strength - 1) // 5 * 5 + 3
    return max(1, round_half_up(Fraction(middle * percent, 100)))


def strength_points_lost(strength: int, percent: int) -> int:
    """The strength points a force of ``strength`` loses at ``percent`` (SPI 9.32, 9.33): the
    printed table up to 50; above it, which SPI does not print, the table's own rule
    (``band_rule``), never more than the force.

    >>> [strength_points_lost(20, p) for p in LOSS_PERCENTAGES]
    [1, 2, 3, 3, 5, 7]
    >>> strength_points_lost(64, 25), strength_points_lost(3, 0)
    (16, 0)
    """
    if strength <= 0 or percent <= 0:
        return 0
    if percent not in LOSS_PERCENTAGES:
        raise ValueError(f"the Percentage Loss Table has no {percent}% column")
    if strength > LARGEST_IN_TABLE:
        return min(strength, band_rule(strength, percent))
    line = next(x for x in LOSS_LINES if x.low <= strength <= x.high)
    return min(strength, line.lost[LOSS_PERCENTAGES.index(percent)])
