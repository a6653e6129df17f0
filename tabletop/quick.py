"""The optional quick resolution: a battle the club will not fight on the table, resolved with
the Combat Results Table and Percentage Loss Table of SPI's *Frederick the Great*, as printed
in the player aid of the revised game (``spi_crt.py`` holds both tables, cell by cell, with the
line of the source each comes from; docs/quick-resolution.md says how they were read). Every
result says it was not fought on the table.

The procedure (SPI 9.0-9.4, mapped onto Der Grosse König):

1. The attacker (SPI 9.0: "The Player who elects to attack is the Attacker"): the side the
   organiser names; else the only side whose player chose to fight in the battle phase (9);
   else (both chose to fight, or no choice is known) the side with the first option to attack,
   whose commander has the higher tactical IR (ties: a die each, again until they differ). A
   side that may not attack passes the option to the other (SPI 9.0): a demoralized side (SPI
   9.14, 11.14) and a side below 33% of the other (SPI 9.47). At 4:1 there is no battle (9):
   the smaller force is taken prisoner.
2. The attacker's points as a percentage of the defender's, rounded down to a column (SPI 9.31).
3. One die, plus the attacker's commander's tactical IR, minus the defender's (SPI 9.23; zero
   when demoralized, 10.2, or without a leader, SPI 9.24), minus 2 in a rough hex (SPI 9.22's
   mountain hex), minus 2 when the defender holds field works (9.4; SPI has none: they count as
   the one defensive modifier SPI has). The table's rows run from -2 to 9; beyond, its ends.
4. The cell gives each side's loss: a percentage, "L" (the lowest-ranked leader present is
   killed, SPI 9.44), "P" (the entire force is captured, SPI 9.43). A force's strength in SPI
   strength points is its points over ``points_per_strength_point`` (halves up, at least one);
   the Percentage Loss Table gives the strength points lost (SPI 9.32), and the force loses that
   share of its points.
5. The victor (SPI 9.0): each side adds the enemy strength points it eliminated to its
   commander's IR. The higher total wins and takes the difference, in strength points, as
   prisoners from the loser (kept apart from the points eliminated: they become prisoners of
   war, 13.2), which is routed (10.1: defeated outright, demoralized). Equal totals: the attacker
   retires (rule 10: after every battle one force must retreat).

>>> battle = QuickBattle(
...     "t5-2114",
...     (QuickSide("Prussians", 1000, (QuickLeader("Frederick", 1, 3),)),
...      QuickSide("Austrians", 1000, (QuickLeader("Daun", 2, 2),))),
...     Terrain.CLEAR,
...     attacker="Prussians",
... )
>>> result = resolve(battle, roll=lambda name: 1)
>>> result.column, result.adjusted, str(result.cell)
('100-149%', 2, '15/10L')
>>> [(s.name, s.losses, s.prisoners, s.outcome.value) for s in result.sides]
[('Prussians', 150, 0, 'victor'), ('Austrians', 100, 100, 'routed')]
>>> result.side("Austrians").killed, result.side("Austrians").points_left
(('Daun',), 800)
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
from tabletop.spi_crt import (
    COLUMNS,
    CRT,
    Cell,
    Loss,
    column_for,
    die_row,
    round_half_up,
    strength_points_lost,
)

Roll = Callable[[str], int]
METHOD = (
    "Quick resolution with the combat results and loss tables of SPI's Frederick the Great:"
    " not fought on the table."
)
ROUGH_HEX = -2  # SPI 9.22: "Two (2) is subtracted ... in a Mountain hex"
FIELD_WORKS = -2  # 9.4, counted as SPI's one defensive modifier (docs/quick-resolution.md)


@dataclass(frozen=True)
class QuickLeader:
    name: str
    rank: int
    tactical: int


@dataclass(frozen=True)
class QuickSide:
    """One side of the battle; its commander (9.2) is the first leader. ``elects_to_attack``:
    its player chose to fight in the battle phase (9); ``field_works``: inches of works (9.4)."""

    name: str
    points: int
    leaders: tuple[QuickLeader, ...] = ()
    demoralized: bool = False
    unsupplied: bool = False
    elects_to_attack: bool = False
    field_works: int = 0

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
    """One side after the battle. ``losses``: points eliminated (SPI 9.32); ``prisoners``:
    points taken prisoner (SPI 9.0's difference, or all of them on "P" or at 4:1), never
    counted in ``losses``. ``strength`` and ``strength_lost``: the same in SPI strength points
    (prisoners not included)."""

    name: str
    points: int
    losses: int
    prisoners: int
    killed: tuple[str, ...]
    captured: tuple[str, ...]
    outcome: QuickOutcome
    demoralized: bool
    strength: int = 0
    strength_lost: int = 0

    @property
    def points_lost(self) -> int:
        """Everything the force no longer has: eliminated and taken prisoner."""
        return self.losses + self.prisoners

    @property
    def points_left(self) -> int:
        return self.points - self.points_lost


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


def strength_of(points: int, points_per_strength_point: int) -> int:
    """A force's SPI strength points: its points over the points per strength point, to the
    nearest, halves up, and at least one.

    >>> strength_of(1000, 50), strength_of(1024, 50), strength_of(1025, 50), strength_of(10, 50)
    (20, 20, 21, 1)
    """
    return max(1, round_half_up(Fraction(points, points_per_strength_point)))


def resolve(battle: QuickBattle, roll: Roll) -> QuickResult:
    """Resolve ``battle`` with the SPI tables; ``roll(name)`` returns one die (1-6)."""
    steps: list[Step] = [Step("quick resolution", METHOD)]
    first, second = battle.sides
    big, small = (first, second) if first.points >= second.points else (second, first)
    if big.points >= 4 * small.points:
        return _overwhelmed(battle, big, small, steps)

    attacker, defender = _attacker(battle, roll, steps)
    pps = battle.points_per_strength_point
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
    parts = [f"die {die}", f"+{attacker.rating} ({attacker.name}'s commander)"]
    parts.append(f"-{defender.rating} ({defender.name}'s commander)")
    adjusted = die + attacker.rating - defender.rating
    if battle.terrain is Terrain.ROUGH:
        adjusted += ROUGH_HEX
        parts.append(f"{ROUGH_HEX} (rough hex, as SPI's mountain hex, 9.22)")
    if defender.field_works > 0:
        adjusted += FIELD_WORKS
        parts.append(
            f'{FIELD_WORKS} ({defender.name} defend {defender.field_works}" of field works, 9.4)'
        )
    row = die_row(adjusted)
    where = "" if row == adjusted else f", the table's {'first' if row > adjusted else 'last'}"
    steps.append(Step("SPI 9.23", f"{' '.join(parts)} = {adjusted}: row {row}{where}."))
    cell = CRT[column][row]
    steps.append(
        Step(
            "SPI 9.6",
            f"Result {cell} (attacker/defender; {cell.source.value}, {cell.where}).",
        )
    )

    hits = {attacker.name: _hit(attacker, cell.attacker, pps)}
    hits[defender.name] = _hit(defender, cell.defender, pps)
    for side in (attacker, defender):
        hit = hits[side.name]
        if hit.captured:
            steps.append(Step("SPI 9.43", f"{side.name}: the entire force is captured."))
        else:
            steps.append(
                Step(
                    "SPI 9.32",
                    f"{side.name}, {hit.strength} strength points ({pps} points each): loses"
                    f" {hit.strength_lost} by the Percentage Loss Table, {hit.lost} of"
                    f" {side.points} points.",
                )
            )
        for name in hit.killed:
            steps.append(Step("SPI 9.44", f"{name}, the lowest-ranked leader present, is killed."))

    results = _victor(attacker, defender, hits, steps)
    return QuickResult(
        battle_id=battle.battle_id,
        attacker=attacker.name,
        defender=defender.name,
        percent=percent,
        column=column_label,
        die=die,
        adjusted=adjusted,
        row=str(row),
        cell=cell,
        sides=(results[first.name], results[second.name]),
        steps=tuple(steps),
    )


# ---- who attacks (SPI 9.0) ----------------------------------------------------------------


def _refusal(side: QuickSide, other: QuickSide) -> str | None:
    """Why ``side`` may not attack ``other``, or None."""
    if side.demoralized:
        return "a demoralized force may not attack (SPI 9.14, 11.14)"
    percent = side.points * 100 // other.points
    if percent < 33:
        return f"at {percent}% no attack may be made (SPI 9.47)"
    return None


def _attacker(battle: QuickBattle, roll: Roll, steps: list[Step]) -> tuple[QuickSide, QuickSide]:
    first, second = battle.sides

    def other(side: QuickSide) -> QuickSide:
        return second if side is first else first

    able = [s for s in battle.sides if _refusal(s, other(s)) is None]
    if len(able) == 1:
        attacker, barred = able[0], other(able[0])
        electing = [s.name for s in battle.sides if s.elects_to_attack]
        chosen = battle.attacker or (electing[0] if len(electing) == 1 else None)
        passes = (
            "; the option to attack passes to the other side" if chosen != attacker.name else ""
        )
        steps.append(
            Step(
                "SPI 9.0",
                f"{attacker.name} attack: {barred.name} may not, {_refusal(barred, attacker)}"
                f"{passes}.",
            )
        )
        return attacker, barred
    attacker, why = _preferred(battle, roll)
    if not able:
        why += f"; both sides are demoralized, so {attacker.name} attack all the same (9)"
    steps.append(Step("SPI 9.0", f"{attacker.name} attack: {why}."))
    return attacker, other(attacker)


def _preferred(battle: QuickBattle, roll: Roll) -> tuple[QuickSide, str]:
    """The side that attacks when both may: the one named, the one that elected to attack, or
    the one with the first option (SPI 9.0)."""
    first, second = battle.sides
    if battle.attacker is not None:
        named = first if battle.attacker == first.name else second
        return named, battle.attacker_reason
    electing = [s for s in battle.sides if s.elects_to_attack]
    if len(electing) == 1:
        return electing[0], "the only side that chose to fight (9), the side that elects to attack"
    known = "both chose to fight" if electing else "no choice to fight is known"
    if first.rating != second.rating:
        holder = first if first.rating > second.rating else second
        return holder, f"{known}; the first option goes to the higher IR ({holder.rating})"
    attempt = 1
    while attempt <= 50:
        a = roll(roll_name(battle.battle_id, f"first-option:{_slug(first.name)}:{attempt}"))
        b = roll(roll_name(battle.battle_id, f"first-option:{_slug(second.name)}:{attempt}"))
        if a != b:
            holder = first if a > b else second
            return holder, (
                f"{known}; equal IRs, for the first option {first.name} roll {a},"
                f" {second.name} roll {b}"
            )
        attempt += 1
    raise RuntimeError("the dice never differ: check the roll callable")


# ---- losses and the victor (SPI 9.0, 9.3, 9.4) --------------------------------------------


@dataclass(frozen=True)
class _Hit:
    """What one half of a cell does to a side."""

    strength: int
    strength_lost: int
    lost: int
    killed: tuple[str, ...]
    captured: bool


def _hit(side: QuickSide, loss: Loss, pps: int) -> _Hit:
    strength = strength_of(side.points, pps)
    if loss.captured:
        return _Hit(strength, 0, 0, (), True)
    lost_sp = strength_points_lost(strength, loss.percent)
    lost = min(side.points, round_half_up(Fraction(side.points * lost_sp, strength)))
    killed: tuple[str, ...] = ()
    if loss.leader and side.leaders:
        lowest = max(side.leaders, key=lambda x: (x.rank, x is not side.commander, x.name))
        killed = (lowest.name,)
    return _Hit(strength, lost_sp, lost, killed, False)


def _rating_after(side: QuickSide, killed: tuple[str, ...]) -> int:
    """The commander's IR once "L" has struck (SPI 9.44: before the victor is decided)."""
    if side.demoralized:
        return 0
    alive = [x for x in side.leaders if x.name not in killed]
    return alive[0].tactical if alive else 0


def _victor(
    attacker: QuickSide, defender: QuickSide, hits: dict[str, _Hit], steps: list[Step]
) -> dict[str, SideResult]:
    a_hit, d_hit = hits[attacker.name], hits[defender.name]
    if a_hit.captured or d_hit.captured:
        gone, other = (attacker, defender) if a_hit.captured else (defender, attacker)
        return {
            gone.name: _captured(gone, hits[gone.name].strength),
            other.name: _side(other, hits[other.name], QuickOutcome.VICTOR, 0),
        }
    a_total = d_hit.strength_lost + _rating_after(attacker, a_hit.killed)
    d_total = a_hit.strength_lost + _rating_after(defender, d_hit.killed)
    steps.append(
        Step(
            "SPI 9.0",
            f"{attacker.name}: {d_hit.strength_lost} enemy strength points eliminated +"
            f" commander {_rating_after(attacker, a_hit.killed)} = {a_total}; {defender.name}:"
            f" {a_hit.strength_lost} + {_rating_after(defender, d_hit.killed)} = {d_total}.",
        )
    )
    if a_total == d_total:
        steps.append(
            Step("10", f"A draw: {attacker.name} break off the attack and retire (10.1.2).")
        )
        return {
            attacker.name: _side(attacker, a_hit, QuickOutcome.RETIRED, 0),
            defender.name: _side(defender, d_hit, QuickOutcome.VICTOR, 0),
        }
    victor, loser = (attacker, defender) if a_total > d_total else (defender, attacker)
    l_hit = hits[loser.name]
    difference = abs(a_total - d_total)
    wanted = round_half_up(Fraction(difference * loser.points, l_hit.strength))
    taken = min(wanted, loser.points - l_hit.lost)
    steps.append(
        Step(
            "SPI 9.0",
            f"{victor.name} win by {difference} and take {difference} strength points,"
            f" {taken} points, of {loser.name} prisoner (prisoners of war, 13.2);"
            f" {loser.name} are routed and demoralized (10.1).",
        )
    )
    return {
        victor.name: _side(victor, hits[victor.name], QuickOutcome.VICTOR, 0),
        loser.name: _side(loser, l_hit, QuickOutcome.ROUTED, taken),
    }


def _side(side: QuickSide, hit: _Hit, outcome: QuickOutcome, prisoners: int) -> SideResult:
    lost = min(hit.lost, side.points)
    prisoners = min(prisoners, side.points - lost)  # SPI 9.45: the excess is ignored
    captured: tuple[str, ...] = ()
    if lost + prisoners >= side.points:
        # Only leaders left (SPI 9.46): they are captured.
        captured = tuple(x.name for x in side.leaders if x.name not in hit.killed)
    leaderless = len(hit.killed) + len(captured) >= len(side.leaders)
    demoralized = (
        side.demoralized
        or outcome is QuickOutcome.ROUTED
        or side.unsupplied  # 10.2.4
        or leaderless  # 9.5
    )
    return SideResult(
        name=side.name,
        points=side.points,
        losses=lost,
        prisoners=prisoners,
        killed=hit.killed,
        captured=captured,
        outcome=outcome,
        demoralized=demoralized,
        strength=hit.strength,
        strength_lost=hit.strength_lost,
    )


def _captured(side: QuickSide, strength: int) -> SideResult:
    """The whole force taken prisoner (SPI 9.43; 9 at 4:1): no points eliminated."""
    return SideResult(
        name=side.name,
        points=side.points,
        losses=0,
        prisoners=side.points,
        killed=(),
        captured=tuple(x.name for x in side.leaders),
        outcome=QuickOutcome.CAPTURED,
        demoralized=True,
        strength=strength,
    )


def _overwhelmed(
    battle: QuickBattle, big: QuickSide, small: QuickSide, steps: list[Step]
) -> QuickResult:
    pps = battle.points_per_strength_point
    steps.append(
        Step(
            "9",
            f"{big.name} outnumber {small.name} {big.points} to {small.points}, 4:1 or more:"
            f" no battle; {small.name} are taken prisoner.",
        )
    )
    results = {
        big.name: SideResult(
            name=big.name,
            points=big.points,
            losses=0,
            prisoners=0,
            killed=(),
            captured=(),
            outcome=QuickOutcome.VICTOR,
            demoralized=False,
            strength=strength_of(big.points, pps),
        ),
        small.name: _captured(small, strength_of(small.points, pps)),
    }
    first, second = battle.sides
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
        sides=(results[first.name], results[second.name]),
        steps=tuple(steps),
    )
