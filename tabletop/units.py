"""Campaign points turned into the units of the club's tactical rules, grouped by wing (issue 14).

The rulebook leaves the order of battle to the tactical rules (9: "both players build armies
based on the number of points available to them"). The briefing suggests one that looks like an
army of the period, in the units of the rules the club plays (a campaign setting, or a briefing
option). Two systems are built in; the mapping is written in ``docs/tabletop.md``:

- ``prussias-glory``: *Prussia's Glory* (seed 002, p. 1: "Every Strength Point of infantry
  represents about 400 men, while every SP of cavalry represents about 200 men ... Artillery
  Units represent 10 to 20 cannons"). A campaign point is taken as ``MEN_PER_POINT`` men.
- ``per-battalion``: a generic points system in which a battalion, a cavalry regiment and a
  battery each cost about ``points_per_battalion`` tabletop points (default 50).

Both split a contingent's points by arm in the proportions of the armies of the 1750s
(``ARM_SHARES``: seven tenths foot, a fifth horse, a tenth guns) and lay them out as the armies
of the period formed: infantry in two lines in the centre with the guns, cavalry on both wings;
allied contingents form a wing or the reserve of their own.

>>> oob = order_of_battle([("prussia", "Frederick", 1000)], SYSTEMS["per-battalion"])
>>> [(w.name, [u.text for u in w.units]) for w in oob.wings]  # doctest: +NORMALIZE_WHITESPACE
[('Left wing', ['2 cavalry regiments']),
 ('Centre', ['14 battalions (8 in the first line, 6 in the second)', '2 batteries']),
 ('Right wing', ['2 cavalry regiments'])]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.armies import ADJECTIVES, Army

MEN_PER_POINT = 50
"""Men in one campaign point: the rulebook's example army (3) gives Prussia 3,200 points, and
Frederick's field army and garrisons of 1756 numbered about 150,000 men (about 47 a point)."""

ARM_SHARES = (
    ("infantry", Fraction(7, 10)),
    ("cavalry", Fraction(1, 5)),
    ("artillery", Fraction(1, 10)),
)
"""Share of a contingent's points by arm: the field armies of the Seven Years War had about one
horseman to three or four foot soldiers and three to four guns per thousand men."""


@dataclass(frozen=True)
class UnitSystem:
    """One tactical rules' units: what a point of each arm buys."""

    key: str
    name: str
    description: str
    minutes_per_turn: int
    points_per_battalion: int = 50

    def units(self, arm: str, points: Fraction) -> tuple[int, str]:
        """How many units of ``arm`` ``points`` tabletop points buy, and their name."""
        if self.key == "prussias-glory":
            men = points * MEN_PER_POINT
            if arm == "infantry":
                return _round(men / 400), "infantry SP"
            if arm == "cavalry":
                return _round(men / 200), "cavalry SP"
            # 10 to 20 guns a unit, three guns for each thousand men of the contingent
            guns = points / Fraction(ARM_SHARES[2][1]) * MEN_PER_POINT * 3 / 1000
            return max(1, _round(guns / 15)) if points else 0, "artillery units"
        name = {"infantry": "battalions", "cavalry": "cavalry regiments", "artillery": "batteries"}
        return int(points // self.points_per_battalion), name[arm]


SYSTEMS = {
    "prussias-glory": UnitSystem(
        "prussias-glory",
        "Prussia's Glory",
        f"a campaign point {MEN_PER_POINT} men, an infantry SP 400, a cavalry SP 200, an artillery "
        "unit 15 guns (3 a thousand men); a turn an hour",
        minutes_per_turn=60,
    ),
    "per-battalion": UnitSystem(
        "per-battalion",
        "points per battalion",
        "a battalion, a cavalry regiment or a battery about {ppb} tabletop points each; "
        "a turn half an hour",
        minutes_per_turn=30,
    ),
}
DEFAULT_SYSTEM = "per-battalion"


def system(key: str | None, points_per_battalion: int = 50) -> UnitSystem:
    """The unit system of a campaign setting or briefing option (the generic one by default)."""
    base = SYSTEMS.get(key or DEFAULT_SYSTEM, SYSTEMS[DEFAULT_SYSTEM])
    if base.key == "per-battalion":
        ppb = max(1, int(points_per_battalion))
        return UnitSystem(
            base.key,
            f"{ppb} points per battalion",
            base.description.format(ppb=ppb),
            base.minutes_per_turn,
            ppb,
        )
    return base


def _round(value: Fraction) -> int:
    return int(value + Fraction(1, 2))


@dataclass(frozen=True)
class Units:
    arm: str
    count: int
    name: str
    army: str
    text: str


@dataclass(frozen=True)
class Wing:
    name: str
    leaders: tuple[str, ...] = ()
    units: tuple[Units, ...] = ()


@dataclass(frozen=True)
class OrderOfBattle:
    system: UnitSystem
    wings: tuple[Wing, ...]
    notes: tuple[str, ...] = field(default=())


def _arms(army: str, points: int, units: UnitSystem) -> dict[str, tuple[int, str]]:
    return {arm: units.units(arm, Fraction(points) * share) for arm, share in ARM_SHARES}


def order_of_battle(
    contingents: Sequence[tuple[str, str, int]],
    units: UnitSystem,
    leaders: Sequence[tuple[str, str]] = (),
) -> OrderOfBattle:
    """The suggested order of battle of one side. ``contingents``: (army, player, tabletop points),
    the commander's country first; ``leaders``: (name, army) in order of command, the commander
    first. The commander's country forms the centre and both cavalry wings; each other country
    forms a wing of its own (the reserve), as allied contingents did."""
    if not contingents:
        return OrderOfBattle(units, ())
    main_army, _, main_points = contingents[0]
    adjective = ADJECTIVES.get(Army(main_army), main_army)
    arms = _arms(main_army, main_points, units)
    cavalry, cav_name = arms["cavalry"]
    infantry, inf_name = arms["infantry"]
    guns, gun_name = arms["artillery"]
    left_cav = cavalry // 2
    first = (infantry + 1) // 2 + (infantry // 8 if infantry > 3 else 0)
    first = min(first, infantry)
    own_leaders = [n for n, a in leaders if a == main_army]
    commander = own_leaders[:1]
    others = own_leaders[1:]
    # the next in command takes the right wing (the post of honour), then the left
    right = others[:1]
    left = others[1:2]
    centre_more = others[2:]

    def unit(arm: str, count: int, name: str, army: str, text: str | None = None) -> Units:
        return Units(arm, count, name, army, text or _plural(count, name))

    centre_units = []
    if infantry:
        centre_units.append(
            unit(
                "infantry",
                infantry,
                inf_name,
                main_army,
                f"{_plural(infantry, inf_name)} ({first} in the first line, "
                f"{infantry - first} in the second)",
            )
        )
    if guns:
        centre_units.append(unit("artillery", guns, gun_name, main_army))
    wings = [
        Wing("Left wing", tuple(left), (unit("cavalry", left_cav, cav_name, main_army),)),
        Wing("Centre", tuple(commander + centre_more), tuple(centre_units)),
        Wing(
            "Right wing",
            tuple(right),
            (unit("cavalry", cavalry - left_cav, cav_name, main_army),),
        ),
    ]
    wings = [
        Wing(w.name, w.leaders, tuple(u for u in w.units if u.count))
        for w in wings
        if any(u.count for u in w.units) or w.leaders
    ]
    for army, _, points in contingents[1:]:
        arms = _arms(army, points, units)
        label = ADJECTIVES.get(Army(army), army)
        wings.append(
            Wing(
                f"Reserve: the {label} contingent",
                tuple(n for n, a in leaders if a == army),
                tuple(unit(arm, c, name, army) for arm, (c, name) in arms.items() if c),
            )
        )
    notes = (
        f"{units.name}: {units.description}. Foot 7/10, horse 1/5, guns 1/10 of the points; "
        f"left and right as the {adjective} commander faces the enemy.",
    )
    return OrderOfBattle(units, tuple(wings), notes)


def _plural(count: int, name: str) -> str:
    if count == 1 and name.endswith("ies"):
        return f"1 {name[:-3]}y"
    if count == 1 and name.endswith("s") and not name.endswith("SP"):
        return f"1 {name[:-1]}"
    return f"{count} {name}"
