"""The optional quick resolution: a battle the club will not fight on the table, resolved with
the Combat Results Table and Percentage Loss Table of SPI's *Frederick the Great* (1975).

The source is an OCR of the SPI rules and mapsheet, garbled in places: docs/quick-resolution.md
says cell by cell what was read, what was reconstructed and how. Each cell here carries that
mark (``Source``). Every result says it was not fought on the table.

The procedure (SPI 9.0-9.6, mapped onto Der Grosse König):

1. The attacker is the side the organiser names; else the side whose commander has the higher
   tactical IR (SPI 9.0: the first option to attack goes to the higher Initiative Value; ties
   roll a die each). A demoralized side may not attack (SPI 9.14) and its commander's IRs count
   as zero (10.2).
2. The attacker's points as a percentage of the defender's, rounded down to a column
   (SPI 9.31); below 33% the stronger side is the attacker instead (SPI 9.47 forbids the attack),
   400% or more uses the 400% column. At 4:1 there is no battle at all (9): the smaller force is
   taken prisoner.
3. One die, plus the attacker's commander's tactical IR, minus the defender's commander's, minus
   2 in a rough hex (SPI 9.22's mountain hex), gives the row (SPI 9.23).
4. The cell gives each side's percentage loss, "L" (the lowest-ranked leader present is killed,
   SPI 9.44) and "P" (the entire force is captured, SPI 9.43). A percentage of a force's points
   is rounded to the nearest point, halves up (the rounding of the Percentage Loss Table, 9.33).
5. The victor: each side adds the enemy strength points it eliminated to its commander's IR
   (SPI 9.0; ``points_per_strength_point`` campaign points make one SPI strength point). The
   higher total wins and takes the difference, in strength points, as prisoners from the loser,
   which is routed (10.1: defeated outright, demoralized). Equal totals: the attacker retires
   (rule 10: after every battle one force must retreat).

>>> battle = QuickBattle(
...     "t5-2114",
...     (QuickSide("Prussians", 1000, (QuickLeader("Frederick", 1, 3),)),
...      QuickSide("Austrians", 1000, (QuickLeader("Daun", 2, 2),))),
...     Terrain.CLEAR,
...     attacker="Prussians",
... )
>>> result = resolve(battle, roll=lambda name: 1)
>>> result.column, result.adjusted, result.row, str(result.cell)
('100-149%', 2, '1 to 2', '20/20')
>>> [(s.name, s.losses, s.prisoners, s.outcome.value) for s in result.sides]
[('Prussians', 200, 0, 'victor'), ('Austrians', 250, 50, 'routed')]
>>> result.fought_on_table
False
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from maps.core.model import Terrain

Roll = Callable[[str], int]
METHOD = (
    "Quick resolution with the combat results and loss tables of SPI's Frederick the Great:"
    " not fought on the table."
)


class Source(Enum):
    """How a cell of the tables was obtained from the OCR (docs/quick-resolution.md)."""

    READ = "read"
    PARTLY_READ = "partly read"
    RECONSTRUCTED = "reconstructed"


@dataclass(frozen=True)
class Loss:
    """One side's half of a result: a percentage, "L" (a leader killed), "P" (all captured)."""

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
        number = text.rstrip("L")
        return cls(percent=0 if number == "•" else int(number), leader=leader)


@dataclass(frozen=True)
class Cell:
    attacker: Loss
    defender: Loss
    source: Source

    def __str__(self) -> str:
        return f"{self.attacker}/{self.defender}"


# Columns: the attacker's strength as a percentage of the defender's (SPI 9.31, 9.47).
COLUMNS: tuple[tuple[int, str], ...] = (
    (33, "33-65%"),
    (66, "66-99%"),
    (100, "100-149%"),
    (150, "150-199%"),
    (200, "200-299%"),
    (300, "300-399%"),
    (400, "400% or more"),
)
# Rows: the adjusted die roll (SPI 9.23), lowest first.
ROWS: tuple[tuple[int, str], ...] = (
    (-99, "-2 or less"),
    (-1, "-1 to 0"),
    (1, "1 to 2"),
    (3, "3 to 4"),
    (5, "5 to 6"),
    (7, "7 to 8"),
    (9, "9 or more"),
)

R, PR, X = Source.READ, Source.PARTLY_READ, Source.RECONSTRUCTED
# The Combat Results Table (SPI 9.6), one column per list, rows as ROWS; see the docs for how
# each cell was obtained.
_CRT_TEXT: dict[int, tuple[tuple[str, Source], ...]] = {
    33: (("25/5", R), ("25L/5", R), ("20L/10", R), ("15/10", PR), ("10/10", X), ("10/15", X),
         ("10/20", X)),
    66: (("20/5", R), ("25/10L", R), ("25L/25L", R), ("15/10", PR), ("10/20", X), ("10/25", X),
         ("10/25L", X)),
    100: (("25/10", R), ("20L/10", R), ("20/20", R), ("15L/20", R), ("10L/20", R), ("10/25", R),
          ("10/25L", X)),
    150: (("15/10", R), ("10/10L", R), ("10/20", R), ("10/20L", R), ("10/25L", R), ("10/40", X),
          ("5/40L", X)),
    200: (("10/10", R), ("10L/20", R), ("10/20", PR), ("10L/25", R), ("10L/40", R), ("•/40", PR),
          ("•/P", X)),
    300: (("10/25", R), ("10/25L", R), ("10/40L", R), ("•/40L", PR), ("•/P", R), ("•/P", PR),
          ("•/P", X)),
    400: (("•/P", R), ("•/P", R), ("•/P", R), ("•/P", R), ("•/P", PR), ("•/P", R), ("•/P", R)),
}  # fmt: skip


def _cell(text: str, source: Source) -> Cell:
    attacker, defender = text.split("/")
    return Cell(Loss.parse(attacker), Loss.parse(defender), source)


CRT: dict[int, tuple[Cell, ...]] = {
    column: tuple(_cell(text, source) for text, source in cells)
    for column, cells in _CRT_TEXT.items()
}

LOSS_PERCENTAGES = (5, 10, 15, 20, 25, 40)


def column_for(percent: int) -> int:
    """The CRT column (its lowest percentage) for an attack at ``percent`` (SPI 9.31, 9.47).

    >>> column_for(33), column_for(99), column_for(100), column_for(1000)
    (33, 66, 100, 400)
    """
    if percent < 33:
        raise ValueError("no attack may be made at less than 33% (SPI 9.47)")
    return max(low for low, _ in COLUMNS if low <= percent)


def row_for(adjusted: int) -> int:
    """The index of the CRT row for an adjusted die roll.

    >>> row_for(-5), row_for(0), row_for(6), row_for(12)
    (0, 1, 4, 6)
    """
    return max(i for i, (low, _) in enumerate(ROWS) if low <= adjusted)


def lookup(percent: int, adjusted: int) -> Cell:
    """The Combat Results Table's cell for an attack at ``percent`` with this adjusted die."""
    return CRT[column_for(percent)][row_for(adjusted)]


def round_half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2))


def percentage_loss(strength: int, percent: int) -> int:
    """The Percentage Loss Table (SPI 9.33) as reconstructed: forces in bands of five strength
    points (1-5, 6-10, ...), each band losing the percentage of its middle strength, to the
    nearest point, halves up.

    >>> [percentage_loss(48, p) for p in LOSS_PERCENTAGES]
    [2, 5, 7, 10, 12, 19]
    >>> percentage_loss(19, 15)  # SPI 9.32's example
    3
    """
    if strength <= 0:
        return 0
    middle = (strength - 1) // 5 * 5 + 3
    return min(strength, round_half_up(Fraction(middle * percent, 100)))


def points_lost(points: int, percent: int) -> int:
    """A percentage of a force's campaign points, to the nearest point, halves up."""
    return min(points, round_half_up(Fraction(points * percent, 100)))


# ---- the battle ---------------------------------------------------------------------------


@dataclass(frozen=True)
class QuickLeader:
    name: str
    rank: int
    tactical: int


@dataclass(frozen=True)
class QuickSide:
    """One side of the battle; its commander (9.2) is the first leader."""

    name: str
    points: int
    leaders: tuple[QuickLeader, ...] = ()
    demoralized: bool = False
    unsupplied: bool = False

    @property
    def commander(self) -> QuickLeader | None:
        return self.leaders[0] if self.leaders else None

    @property
    def rating(self) -> int:
        """The commander's tactical IR in this battle: zero when demoralized (10.2) or without
        a leader (SPI 9.24)."""
        if self.demoralized or self.commander is None:
            return 0
        return self.commander.tactical


@dataclass(frozen=True)
class QuickBattle:
    battle_id: str
    sides: tuple[QuickSide, QuickSide]
    terrain: Terrain
    attacker: str | None = None
    points_per_strength_point: int = 50
    attacker_reason: str = "named by the organiser"

    def __post_init__(self) -> None:
        names = [s.name for s in self.sides]
        if len(set(names)) != 2:
            raise ValueError("the two sides need different names")
        if self.attacker is not None and self.attacker not in names:
            raise ValueError(f"the attacker must be one of {names}")
        if any(s.points <= 0 for s in self.sides):
            raise ValueError("each side needs points to fight a battle")
        if self.points_per_strength_point <= 0:
            raise ValueError("points per strength point must be more than zero")


class QuickOutcome(Enum):
    VICTOR = "victor"
    RETIRED = "retired"
    ROUTED = "routed"
    CAPTURED = "captured"


@dataclass(frozen=True)
class SideResult:
    name: str
    points: int
    losses: int
    prisoners: int
    killed: tuple[str, ...]
    captured: tuple[str, ...]
    outcome: QuickOutcome
    demoralized: bool

    @property
    def points_left(self) -> int:
        return self.points - self.losses


@dataclass(frozen=True)
class Step:
    rule: str
    text: str


@dataclass(frozen=True)
class QuickResult:
    battle_id: str
    attacker: str
    defender: str
    percent: int
    column: str
    die: int
    adjusted: int
    row: str
    cell: Cell | None
    sides: tuple[SideResult, SideResult]
    steps: tuple[Step, ...]
    fought_on_table: bool = False
    method: str = METHOD

    def side(self, name: str) -> SideResult:
        return next(s for s in self.sides if s.name == name)

    @property
    def loser(self) -> SideResult:
        return next(s for s in self.sides if s.outcome is not QuickOutcome.VICTOR)

    @property
    def victor(self) -> SideResult:
        return next(s for s in self.sides if s.outcome is QuickOutcome.VICTOR)


def roll_name(battle_id: str, what: str) -> str:
    return f"quick-battle:{battle_id}:{what}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def resolve(battle: QuickBattle, roll: Roll) -> QuickResult:
    """Resolve ``battle`` with the SPI tables; ``roll(name)`` returns one die (1-6)."""
    steps: list[Step] = [Step("quick resolution", METHOD)]
    first, second = battle.sides
    big, small = (first, second) if first.points >= second.points else (second, first)
    if big.points >= 4 * small.points:
        return _overwhelmed(battle, big, small, steps)

    attacker, defender = _attacker(battle, roll, steps)
    percent = attacker.points * 100 // defender.points
    if percent < 33:
        steps.append(
            Step(
                "SPI 9.47",
                f"{attacker.name} at {percent}% may not attack: {defender.name} attacks instead.",
            )
        )
        attacker, defender = defender, attacker
        percent = attacker.points * 100 // defender.points
    column = column_for(percent)
    column_label = dict(COLUMNS)[column]
    steps.append(
        Step(
            "SPI 9.31",
            f"{attacker.name} {attacker.points} points against {defender.name} {defender.points}:"
            f" {percent}%, the {column_label} column.",
        )
    )

    die = roll(roll_name(battle.battle_id, "combat"))
    terrain = -2 if battle.terrain is Terrain.ROUGH else 0
    adjusted = die + attacker.rating - defender.rating + terrain
    row = row_for(adjusted)
    row_label = ROWS[row][1]
    parts = [f"die {die}", f"+{attacker.rating} ({attacker.name}'s commander)"]
    parts.append(f"-{defender.rating} ({defender.name}'s commander)")
    if terrain:
        parts.append("-2 (rough hex, as SPI's mountain hex, 9.22)")
    steps.append(Step("SPI 9.23", f"{' '.join(parts)} = {adjusted}: the {row_label} row."))
    cell = CRT[column][row]
    steps.append(
        Step("SPI 9.6", f"Result {cell} (attacker/defender; this cell is {cell.source.value}).")
    )

    losses = {
        attacker.name: _apply(attacker, cell.attacker),
        defender.name: _apply(defender, cell.defender),
    }
    for side in (attacker, defender):
        lost, killed, captured = losses[side.name]
        if captured:
            steps.append(Step("SPI 9.43", f"{side.name}: the entire force is captured."))
        else:
            steps.append(Step("SPI 9.33", f"{side.name} loses {lost} of {side.points} points."))
        for name in killed:
            steps.append(Step("SPI 9.44", f"{name}, the lowest-ranked leader present, is killed."))

    results = _victor(battle, attacker, defender, losses, steps)
    return QuickResult(
        battle_id=battle.battle_id,
        attacker=attacker.name,
        defender=defender.name,
        percent=percent,
        column=column_label,
        die=die,
        adjusted=adjusted,
        row=row_label,
        cell=cell,
        sides=tuple(results[s.name] for s in battle.sides),  # type: ignore[arg-type]
        steps=tuple(steps),
    )


def _attacker(battle: QuickBattle, roll: Roll, steps: list[Step]) -> tuple[QuickSide, QuickSide]:
    first, second = battle.sides
    if battle.attacker is not None:
        attacker = first if battle.attacker == first.name else second
        steps.append(Step("SPI 9.0", f"{attacker.name} attack ({battle.attacker_reason})."))
        return attacker, second if attacker is first else first
    able = [s for s in battle.sides if not s.demoralized]
    if len(able) == 1:
        steps.append(Step("SPI 9.14", f"{able[0].name} attack: a demoralized force may not."))
        return able[0], second if able[0] is first else first
    if first.rating != second.rating:
        attacker = first if first.rating > second.rating else second
        steps.append(Step("SPI 9.0", f"{attacker.name} attack: their commander has the higher IR."))
        return attacker, second if attacker is first else first
    attempt = 1
    while True:
        a = roll(roll_name(battle.battle_id, f"first-option:{_slug(first.name)}:{attempt}"))
        b = roll(roll_name(battle.battle_id, f"first-option:{_slug(second.name)}:{attempt}"))
        if a != b:
            attacker = first if a > b else second
            steps.append(
                Step("SPI 9.0", f"Equal IRs: {first.name} roll {a}, {second.name} roll {b};"
                     f" {attacker.name} attack.")
            )  # fmt: skip
            return attacker, second if attacker is first else first
        attempt += 1
        if attempt > 50:
            raise RuntimeError("the dice never differ: check the roll callable")


def _apply(side: QuickSide, loss: Loss) -> tuple[int, tuple[str, ...], bool]:
    """Points lost, leaders killed and whether the whole force is captured."""
    if loss.captured:
        return side.points, (), True
    lost = points_lost(side.points, loss.percent)
    killed: tuple[str, ...] = ()
    if loss.leader and side.leaders:
        lowest = max(side.leaders, key=lambda x: (x.rank, x is not side.commander, x.name))
        killed = (lowest.name,)
    return lost, killed, False


def _victor(
    battle: QuickBattle,
    attacker: QuickSide,
    defender: QuickSide,
    losses: dict[str, tuple[int, tuple[str, ...], bool]],
    steps: list[Step],
) -> dict[str, SideResult]:
    pps = battle.points_per_strength_point
    a_lost, a_killed, a_captured = losses[attacker.name]
    d_lost, d_killed, d_captured = losses[defender.name]
    if a_captured or d_captured:
        gone, other = (attacker, defender) if a_captured else (defender, attacker)
        return {
            gone.name: _side(gone, *losses[gone.name], QuickOutcome.CAPTURED, prisoners=None),
            other.name: _side(other, *losses[other.name], QuickOutcome.VICTOR, prisoners=0),
        }

    def rating_after(side: QuickSide, killed: tuple[str, ...]) -> int:
        if side.demoralized:
            return 0
        alive = [x for x in side.leaders if x.name not in killed]
        return alive[0].tactical if alive else 0

    a_total = Fraction(d_lost, pps) + rating_after(attacker, a_killed)
    d_total = Fraction(a_lost, pps) + rating_after(defender, d_killed)
    steps.append(
        Step(
            "SPI 9.0",
            f"{attacker.name}: {_sp(Fraction(d_lost, pps))} enemy strength points eliminated +"
            f" commander {rating_after(attacker, a_killed)} = {_sp(a_total)}; {defender.name}:"
            f" {_sp(Fraction(a_lost, pps))} + {rating_after(defender, d_killed)} = {_sp(d_total)}"
            f" ({pps} points to the strength point).",
        )
    )
    if a_total == d_total:
        steps.append(
            Step("10", f"A draw: {attacker.name} break off the attack and retire (10.1.2).")
        )
        return {
            attacker.name: _side(attacker, a_lost, a_killed, False, QuickOutcome.RETIRED, 0),
            defender.name: _side(defender, d_lost, d_killed, False, QuickOutcome.VICTOR, 0),
        }
    victor, loser = (attacker, defender) if a_total > d_total else (defender, attacker)
    v_lost, v_killed, _ = losses[victor.name]
    l_lost, l_killed, _ = losses[loser.name]
    difference = abs(a_total - d_total)
    prisoners = min(loser.points - l_lost, round_half_up(difference * pps))
    steps.append(
        Step(
            "SPI 9.0",
            f"{victor.name} win and take {prisoners} points of {loser.name} prisoner;"
            f" {loser.name} are routed and demoralized (10.1).",
        )
    )
    return {
        victor.name: _side(victor, v_lost, v_killed, False, QuickOutcome.VICTOR, 0),
        loser.name: _side(loser, l_lost, l_killed, False, QuickOutcome.ROUTED, prisoners),
    }


def _side(
    side: QuickSide,
    lost: int,
    killed: tuple[str, ...],
    captured_all: bool,
    outcome: QuickOutcome,
    prisoners: int | None,
) -> SideResult:
    if captured_all:
        return SideResult(
            name=side.name,
            points=side.points,
            losses=side.points,
            prisoners=side.points,
            killed=(),
            captured=tuple(x.name for x in side.leaders),
            outcome=QuickOutcome.CAPTURED,
            demoralized=True,
        )
    total = lost + (prisoners or 0)
    captured: tuple[str, ...] = ()
    if total >= side.points:
        # Only leaders left (SPI 9.46): they are captured.
        total = side.points
        captured = tuple(x.name for x in side.leaders if x.name not in killed)
    leaderless = len(killed) + len(captured) >= len(side.leaders)
    demoralized = (
        side.demoralized
        or outcome is QuickOutcome.ROUTED
        or side.unsupplied  # 10.2.4
        or leaderless  # 9.5
    )
    return SideResult(
        name=side.name,
        points=side.points,
        losses=total,
        prisoners=prisoners or 0,
        killed=killed,
        captured=captured,
        outcome=outcome,
        demoralized=demoralized,
    )


def _overwhelmed(
    battle: QuickBattle, big: QuickSide, small: QuickSide, steps: list[Step]
) -> QuickResult:
    steps.append(
        Step(
            "9",
            f"{big.name} outnumber {small.name} {big.points} to {small.points}, 4:1 or more:"
            f" no battle; {small.name} are taken prisoner.",
        )
    )
    results = {
        big.name: SideResult(big.name, big.points, 0, 0, (), (), QuickOutcome.VICTOR, False),
        small.name: SideResult(
            small.name,
            small.points,
            small.points,
            small.points,
            (),
            tuple(x.name for x in small.leaders),
            QuickOutcome.CAPTURED,
            True,
        ),
    }
    return QuickResult(
        battle_id=battle.battle_id,
        attacker=big.name,
        defender=small.name,
        percent=big.points * 100 // small.points,
        column="none (4:1, rule 9)",
        die=0,
        adjusted=0,
        row="none",
        cell=None,
        sides=tuple(results[s.name] for s in battle.sides),  # type: ignore[arg-type]
        steps=tuple(steps),
    )


def _sp(value: Fraction) -> str:
    return f"{float(value):g}"
