"""Whether every army can deploy at a campaign's size (3, 3.2.1, 3.2.3, 3.2.4, 3.2.6).

The players agree the size of the armies before the campaign (3); the Deployment Chart's ratios
(3.4) then fix every army's points. A size is too small when an army cannot meet 3.2: each
fortress of its areas garrisoned by at least 50 of its points (3.2.3) and its leaders with at
least 50 points (3.2.1). Two figures per army (docs/rules-interpretations.md, "3.2 army size"):

- the **least** it can deploy with: one garrison of 50 in every fortress it must hold, the
  Empire's fortresses West of the Rhine left to the French as far as France has points for them
  (3.2.4), and every leader in one force of 50 (3.2.1 lets a leader stand with a force led by
  another). Below it the army cannot deploy at all: the set-up form refuses the size.
- **room**: the army deploys on its own, with no other seat's help: every fortress of its areas
  garrisoned by itself and every leader at the head of a force of his own, the
  commander-in-chief's the larger (3.2.6; Prussia exempt). The form shows the slack against it
  and says the least size that gives every army room.

Pure arithmetic on the map's fortresses; the rules engine's ``check_deployment`` stays the judge
of a real deployment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from maps.core.model import HexMap
from rules.armies import CLOSED_NEUTRALS, CONTROLLED_AREAS, LABELS, Army
from rules.deployment import west_of_rhine
from rules.rulesettings import RuleSettings


@dataclass(frozen=True)
class ArmyRoom:
    """One army's points against what 3.2 asks of it."""

    army: Army
    points: int
    fortresses: int  # fortresses of its areas (3.2.3)
    shareable: int  # of them, those an ally may garrison instead (3.2.4: the Empire's West)
    given: int  # fortresses of its areas another army must garrison for it to deploy (3.2.4)
    taken: int  # fortresses of another army's areas it garrisons for that army (3.2.4)
    leaders: int
    least: int  # the least points it can deploy with, the 3.2.4 split counted
    room: int  # the points to deploy on its own, every leader a force of his own

    @property
    def label(self) -> str:
        return LABELS[self.army]

    @property
    def can_deploy(self) -> bool:
        return self.points >= self.least

    @property
    def slack(self) -> int:
        """Points left once it has deployed on its own (negative: it needs help, or its leaders
        must share forces)."""
        return self.points - self.room


@dataclass(frozen=True)
class SizeCheck:
    armies: tuple[ArmyRoom, ...]

    @property
    def can_deploy(self) -> bool:
        return all(a.can_deploy for a in self.armies)

    @property
    def every_army_has_room(self) -> bool:
        return all(a.slack >= 0 for a in self.armies)

    def problems(self, settings: RuleSettings) -> list[str]:
        """Why an army cannot deploy at this size, one sentence each (empty: every army can)."""
        g, lead = settings.min_garrison_points, settings.min_leader_points
        out = []
        for a in self.armies:
            if a.can_deploy:
                continue
            held = a.fortresses - a.given + a.taken
            text = (
                f"{a.label} has {a.points} points; it needs at least {a.least}: {held} "
                f"{'fortress' if held == 1 else 'fortresses'} garrisoned by {g} points each "
                f"(3.2.3) and {lead} points with its leaders (3.2.1)"
            )
            if a.shareable and a.given:
                text += (
                    f", France garrisoning {a.given} of its {a.shareable} fortresses West of "
                    "the Rhine (3.2.4)"
                )
            elif a.shareable:
                text += (
                    f"; France has no points to spare for its {a.shareable} fortresses West of "
                    "the Rhine (3.2.4)"
                )
            out.append(text + ".")
        return out


def fortresses_of(hexmap: HexMap) -> dict[Army, list[str]]:
    """The fortresses each army must garrison (3.2.3): every fortress in its controlled areas."""
    out: dict[Army, list[str]] = {a: [] for a in Army}
    for city in hexmap.fortresses:
        if city.area in CLOSED_NEUTRALS:
            continue
        for army, areas in CONTROLLED_AREAS.items():
            if city.area in areas:
                out[army].append(city.name)
    return out


def shareable_fortresses(hexmap: HexMap) -> list[str]:
    """The Empire's fortresses West of the Rhine, which French points may garrison (3.2.4)."""
    west = west_of_rhine(hexmap)
    return sorted(c.name for c in hexmap.fortresses if c.area == "Empire" and c.hex in west)


def _leaders_alone(army: Army, settings: RuleSettings) -> int:
    """Points for every leader to head a force of his own, the commander-in-chief's larger than
    any other (3.2.1, 3.2.6; the Prussian army is exempt from 3.2.6)."""
    n = settings.leaders[army.value]
    extra = 1 if n > 1 and army is not Army.PRUSSIA else 0
    return n * settings.min_leader_points + extra


def check_size(
    hexmap: HexMap,
    settings: RuleSettings,
    army_points: dict[str, int],
    armies: tuple[Army, ...] | None = None,
) -> SizeCheck:
    """Every army's points against 3.2 (``armies``: those that deploy by rule 3; a historical
    opening places the others).

    Rulebook example (3): Sweden 200 gives the Empire 800 points. On the campaign map the
    Empire holds 18 fortresses, 4 of them West of the Rhine: with France garrisoning those four
    it needs 14 x 50 + 50 = 750 (it can deploy); on its own, 18 x 50 + 2 x 50 + 1 = 1001.
    """
    armies = tuple(Army) if armies is None else armies
    forts = fortresses_of(hexmap)
    west = shareable_fortresses(hexmap)
    g, lead = settings.min_garrison_points, settings.min_leader_points
    # 3.2.4: the fewest West-of-Rhine fortresses France must take for the Empire to deploy,
    # and the most it can take and still deploy itself.
    empire, france = Army.EMPIRE, Army.FRANCE
    share = len(west) if empire in armies and france in armies else 0
    empire_short = len(forts[empire]) * g + lead - army_points.get(empire.value, 0)
    need = min(share, max(0, -(-empire_short // g))) if share else 0
    france_spare = (army_points.get(france.value, 0) - len(forts[france]) * g - lead) // g
    need = min(need, max(france_spare, 0))  # (short of that, the Empire cannot deploy)
    given, taken = {empire: need}, {france: need}
    rows = []
    for army in armies:
        n_forts = len(forts[army])
        held = n_forts - given.get(army, 0) + taken.get(army, 0)
        rows.append(
            ArmyRoom(
                army=army,
                points=army_points.get(army.value, 0),
                fortresses=n_forts,
                shareable=share if army is empire else 0,
                given=given.get(army, 0),
                taken=taken.get(army, 0),
                leaders=settings.leaders[army.value],
                least=held * g + (lead if settings.leaders[army.value] else 0),
                room=n_forts * g + _leaders_alone(army, settings),
            )
        )
    return SizeCheck(tuple(rows))


def least_size(
    points_for: Callable[[int], dict[str, int]],
    fits: Callable[[dict[str, int]], bool],
    *,
    high: int = 1_000_000,
) -> int | None:
    """The least size ``n`` (1 to ``high``) whose points, ``points_for(n)``, ``fits``; None if
    none does. Sizes grow every army's points with them, so a bisection finds it.

    >>> least_size(lambda n: {"x": n}, lambda p: p["x"] >= 188)
    188
    """
    if not fits(points_for(high)):
        return None
    low = 1
    while low < high:
        mid = (low + high) // 2
        if fits(points_for(mid)):
            high = mid
        else:
            low = mid + 1
    return low
