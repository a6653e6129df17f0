"""What each side may spend on the tabletop (rules 3 and 9).

Campaign points become tabletop points by a campaign setting (``Scale``: 1:1 as the rulebook has
it; clubs with small collections set a smaller ratio). Points buy units of the same country (9),
with two exceptions: Hanoverian points buy British, Hessian or any other units allied to Hanover,
and Empire points buy Saxon, Bavarian, Wurttemburger or any other Reichsarmee units. The rulebook
tells players to restrict the British share (9): ``Scale.british_share`` is that restriction.

Rule 3 warns that a player may "bring together more points in a battle than he can represent on
the tabletop": when a player has recorded the size of his painted collection, the budget says so.

>>> budget = side_budget("Prussian alliance", [Contingent(Army.HANOVER, 1200, "Hanoverian")])
>>> hanover = budget.armies[0]
>>> hanover.tabletop_points, hanover.british_cap
(1200, 300)
>>> [n.label for n in hanover.buys]
['Hanoverian', 'British', 'Hessian', 'Brunswicker', 'other units allied to Hanover']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.armies import ADJECTIVES, Army
from rules.contingents import BUYS, Nationality

DEFAULT_BRITISH_SHARE = Fraction(1, 4)


@dataclass(frozen=True)
class Scale:
    """The campaign settings for the tabletop: ``ratio`` tabletop points per campaign point, and
    the largest share of Hanoverian points that may buy British units (None: no limit)."""

    ratio: Fraction = Fraction(1)
    british_share: Fraction | None = DEFAULT_BRITISH_SHARE

    def __post_init__(self) -> None:
        if Fraction(self.ratio) <= 0:
            raise ValueError("the scale ratio must be more than zero")
        share = self.british_share
        if share is not None and not 0 <= Fraction(share) <= 1:
            raise ValueError("the British share is between 0 and 1")

    def tabletop(self, campaign_points: int) -> int:
        """Campaign points in tabletop points, rounded to the nearest point (halves up)."""
        exact = Fraction(campaign_points) * Fraction(self.ratio)
        return int(exact + Fraction(1, 2)) if exact >= 0 else -int(-exact + Fraction(1, 2))


@dataclass(frozen=True)
class Contingent:
    """One army's points in the battle and the player who commands them at the table."""

    army: Army
    points: int
    player: str = ""


@dataclass(frozen=True)
class ArmyBudget:
    army: Army
    campaign_points: int
    tabletop_points: int
    buys: tuple[Nationality, ...]
    british_cap: int | None = None
    player: str = ""

    @property
    def description(self) -> str:
        what = ", ".join(n.label for n in self.buys)
        line = f"{ADJECTIVES[self.army]} points: {self.tabletop_points} (buy {what})"
        if self.british_cap is not None:
            line += f"; at most {self.british_cap} on British units"
        return line


@dataclass(frozen=True)
class SideBudget:
    side: str
    armies: tuple[ArmyBudget, ...]
    warnings: tuple[str, ...] = ()

    @property
    def campaign_points(self) -> int:
        return sum(a.campaign_points for a in self.armies)

    @property
    def tabletop_points(self) -> int:
        return sum(a.tabletop_points for a in self.armies)

    def of(self, army: Army) -> ArmyBudget:
        for a in self.armies:
            if a.army is army:
                return a
        raise KeyError(army)


def side_budget(
    side: str,
    contingents: Iterable[Contingent],
    scale: Scale | None = None,
    collections: Mapping[str, int] | None = None,
) -> SideBudget:
    """Each army's tabletop points for one side, with rule 3's warning per player.

    ``collections`` maps a player to the tabletop points of his painted collection.
    """
    scale = scale or Scale()
    by_army: dict[Army, int] = {}
    players: dict[Army, str] = {}
    for c in contingents:
        if c.points < 0:
            raise ValueError(f"{ADJECTIVES[c.army]} points cannot be negative")
        by_army[c.army] = by_army.get(c.army, 0) + c.points
        players.setdefault(c.army, c.player)
    armies = []
    for army in sorted(by_army, key=lambda a: a.value):
        tabletop = scale.tabletop(by_army[army])
        cap = None
        if army is Army.HANOVER and scale.british_share is not None:
            cap = int(Fraction(tabletop) * Fraction(scale.british_share))
        armies.append(
            ArmyBudget(
                army=army,
                campaign_points=by_army[army],
                tabletop_points=tabletop,
                buys=BUYS[army],
                british_cap=cap,
                player=players[army],
            )
        )
    warnings = []
    for player, painted in sorted((collections or {}).items()):
        needed = sum(a.tabletop_points for a in armies if a.player == player)
        if needed > painted:
            warnings.append(
                f"{player}: this battle needs {needed} tabletop points but the painted collection"
                f" holds {painted} (3: more points than can be represented on the tabletop)."
            )
    return SideBudget(side=side, armies=tuple(armies), warnings=tuple(warnings))


def check_purchase(budget: SideBudget, bought: Mapping[tuple[Army, Nationality], int]) -> list[str]:
    """What is wrong with a side's purchase (points spent per army and contingent), if anything."""
    problems = []
    spent: dict[Army, int] = {}
    for (army, nationality), points in sorted(
        bought.items(), key=lambda kv: (kv[0][0].value, kv[0][1].value)
    ):
        if points < 0:
            problems.append(f"{nationality.label}: points spent cannot be negative.")
            continue
        try:
            allowed = budget.of(army)
        except KeyError:
            problems.append(f"There are no {ADJECTIVES[army]} points in this battle.")
            continue
        if nationality not in allowed.buys:
            problems.append(f"{ADJECTIVES[army]} points cannot buy {nationality.label} units (9).")
        cap = allowed.british_cap
        if nationality is Nationality.BRITISH and cap is not None and points > cap:
            problems.append(
                f"{points} points of British units is more than the campaign's limit of {cap} (9)."
            )
        spent[army] = spent.get(army, 0) + points
    for army, total in spent.items():
        try:
            allowed_points = budget.of(army).tabletop_points
        except KeyError:
            continue
        if total > allowed_points:
            problems.append(
                f"{total} {ADJECTIVES[army]} points spent, but only {allowed_points} are available."
            )
    return problems


# ---- the optional suggested order of battle ---------------------------------------------------


@dataclass(frozen=True)
class UnitCost:
    """One line of a club's points table: a unit type, its contingent and its cost."""

    unit_type: str
    nationality: Nationality
    cost: int


@dataclass(frozen=True)
class OrderOfBattle:
    army: Army
    units: tuple[tuple[UnitCost, int], ...]
    spent: int
    left: int

    def lines(self) -> list[str]:
        return [
            f"{count} × {u.nationality.label} {u.unit_type} ({u.cost} each)"
            for u, count in self.units
        ]


class UnitCostError(ValueError):
    """A club's points table could not be read."""


def parse_unit_costs(text: str) -> tuple[UnitCost, ...]:
    """A club's points table, one unit a line: ``unit type, contingent, cost``.

    >>> parse_unit_costs("Musketeers, Prussian, 120\\n# comment\\nHussars, Prussian, 90")[1]
    UnitCost(unit_type='Hussars', nationality=<Nationality.PRUSSIAN: 'prussian'>, cost=90)
    """
    costs = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 3 or not parts[0]:
            raise UnitCostError(f"line {number}: write 'unit type, contingent, cost'")
        try:
            nationality = Nationality.parse(parts[1])
        except ValueError as e:
            raise UnitCostError(f"line {number}: {e}") from None
        try:
            cost = int(parts[2])
        except ValueError:
            raise UnitCostError(f"line {number}: the cost must be a whole number") from None
        if cost <= 0:
            raise UnitCostError(f"line {number}: the cost must be more than zero")
        costs.append(UnitCost(parts[0], nationality, cost))
    return tuple(costs)


def suggest_order_of_battle(budget: ArmyBudget, costs: Sequence[UnitCost]) -> OrderOfBattle:
    """A deterministic fill of one army's budget from a club's unit costs.

    Units the army may buy are taken in turn, its own country first, dearest first within a
    country, one of each per round, as long as they fit (and British units within the cap), until
    nothing more fits: a mixed force, the same every time.
    """
    order = {n: i for i, n in enumerate(budget.buys)}
    candidates = sorted(
        (u for u in costs if u.nationality in order),
        key=lambda u: (order[u.nationality], -u.cost, u.unit_type),
    )
    left = budget.tabletop_points
    british = 0
    counts: dict[UnitCost, int] = {}
    bought = True
    while bought:
        bought = False
        for u in candidates:
            if u.cost > left:
                continue
            if u.nationality is Nationality.BRITISH and budget.british_cap is not None:
                if british + u.cost > budget.british_cap:
                    continue
                british += u.cost
            counts[u] = counts.get(u, 0) + 1
            left -= u.cost
            bought = True
    units = tuple((u, counts[u]) for u in candidates if u in counts)
    return OrderOfBattle(
        army=budget.army, units=units, spent=budget.tabletop_points - left, left=left
    )
