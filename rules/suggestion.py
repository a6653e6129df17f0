"""Shortcuts for a seat's secret deployment (3): the minimum garrisons (3.2.3, 3.2.4) and a
suggested legal deployment of one army that the player then adjusts.

Nothing here is a rule of its own: the suggestion is an ordinary deployment that
``rules.deployment.check_deployment`` checks like anyone's. The shares of 3.2.4 are decided the
same way on every seat, without either seat seeing the other's secret deployment: the Empire
leaves its fortresses West of the Rhine to the French exactly when its own points cannot
garrison every fortress of its areas and still give its commander-in-chief a force
(``empire_leaves_west``), and then the French suggestion garrisons them.

>>> from maps.core.loader import load_map
>>> from rules.rulesettings import RuleSettings
>>> hexmap, settings = load_map(), RuleSettings()
>>> share = west_share(hexmap, settings)
>>> share.cities, share.points
(('Julich', 'Koblenz', 'Liege', 'Mainz'), 200)
>>> least_points(Army.EMPIRE, hexmap, settings, west_to_france=False)
950
>>> empire_leaves_west(hexmap, settings, {"empire": 800})
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from maps.core.model import City, HexMap
from rules.armies import CLOSED_NEUTRALS, CONTROLLED_AREAS, LABELS, Army
from rules.deployment import Violation, check_deployment, west_of_rhine
from rules.leaders import leader
from rules.orders import Deployment
from rules.rulesettings import RuleSettings


@dataclass(frozen=True)
class WestShare:
    """What 3.2.4 lets the Empire leave to the French: its fortresses West of the Rhine, and the
    points their minimum garrisons (3.2.3) would take from the Empire."""

    cities: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Suggestion:
    """A suggested deployment of one army, or why there is none (``deployment`` is None and
    ``reason`` says what is missing, with the figures)."""

    army: Army
    deployment: Deployment | None
    reason: str = ""
    violations: tuple[Violation, ...] = ()


def west_share(hexmap: HexMap, settings: RuleSettings) -> WestShare:
    """The Imperial fortresses West of the Rhine French points may garrison (3.2.4)."""
    west = west_of_rhine(hexmap)
    cities = sorted(c.name for c in hexmap.fortresses if c.area == "Empire" and c.hex in west)
    return WestShare(tuple(cities), settings.min_garrison_points * len(cities))


def fortresses_to_garrison(army: Army, hexmap: HexMap, *, west_to_france: bool) -> list[City]:
    """The fortresses ``army`` garrisons with at least the minimum (3.2.3): those of its areas
    (not Denmark's nor the United Provinces', 3.3); with ``west_to_france`` the Empire's West of
    the Rhine go from the Empire to France (3.2.4)."""
    west = west_of_rhine(hexmap)
    out = []
    for city in hexmap.fortresses:
        if city.area in CLOSED_NEUTRALS:
            continue
        imperial_west = city.area == "Empire" and city.hex in west
        if city.area in CONTROLLED_AREAS[army]:
            if army is Army.EMPIRE and imperial_west and west_to_france:
                continue
            out.append(city)
        elif army is Army.FRANCE and imperial_west and west_to_france:
            out.append(city)
    return sorted(out, key=lambda c: c.name)


def least_points(
    army: Army, hexmap: HexMap, settings: RuleSettings, *, west_to_france: bool
) -> int:
    """The fewest points with which ``army`` can deploy: the minimum garrison of every fortress
    it must hold (3.2.3, 3.2.4) and one force of at least 50 points for its leaders, the others
    standing with it (3.2.1)."""
    forts = fortresses_to_garrison(army, hexmap, west_to_france=west_to_france)
    leaders = settings.min_leader_points if settings.leaders.get(army.value, 0) else 0
    return settings.min_garrison_points * len(forts) + leaders


def empire_leaves_west(hexmap: HexMap, settings: RuleSettings, army_points: dict[str, int]) -> bool:
    """Whether the Empire leaves its fortresses West of the Rhine to the French (3.2.4): when its
    points do not reach every fortress of its areas and a force for its leaders."""
    points = army_points.get(Army.EMPIRE.value, 0)
    return points < least_points(Army.EMPIRE, hexmap, settings, west_to_france=False)


def minimum_garrisons(
    army: Army,
    hexmap: HexMap,
    settings: RuleSettings,
    current: dict[str, int],
    *,
    west_to_france: bool,
) -> dict[str, int]:
    """``current`` garrisons with every fortress ``army`` must hold raised to the minimum
    (3.2.3, 3.2.4); larger garrisons are kept."""
    out = dict(current)
    for city in fortresses_to_garrison(army, hexmap, west_to_france=west_to_france):
        out[city.name] = max(out.get(city.name, 0), settings.min_garrison_points)
    return out


def suggest_deployment(
    army: Army,
    hexmap: HexMap,
    settings: RuleSettings,
    points: int,
    leaders: Sequence[str],
    *,
    west_to_france: bool,
) -> Suggestion:
    """A legal deployment of ``army`` with ``points`` and its chosen ``leaders``: the minimum
    garrison in every fortress it must hold (3.2.3, 3.2.4), the leaders at the army's largest
    fortresses (outside the walls), each with an equal share of half the points left when that
    share reaches 50 (3.2.1), otherwise all standing with the commander-in-chief; the
    commander-in-chief takes the rest and the siege trains (3.2.2), so his force is the largest
    (3.2.6)."""
    name = LABELS[army]
    keys = sorted(leaders, key=lambda k: (leader(k).rank, k))
    if len(keys) != settings.leaders.get(army.value, 0):
        return Suggestion(
            army,
            None,
            f"{name} has {len(keys)} leaders chosen; the Deployment Chart gives "
            f"{settings.leaders.get(army.value, 0)} (3.4): choose them first.",
        )
    forts = fortresses_to_garrison(army, hexmap, west_to_france=west_to_france)
    garrisons = [(c.name, settings.min_garrison_points) for c in forts]
    left = points - sum(p for _c, p in garrisons)
    need = least_points(army, hexmap, settings, west_to_france=west_to_france)
    if keys and left < settings.min_leader_points:
        return Suggestion(
            army,
            None,
            f"{name} cannot deploy with {points} points: its {len(forts)} fortresses need "
            f"{len(forts)} × {settings.min_garrison_points} points (3.2.3) and its leaders a force "
            f"of at least {settings.min_leader_points} (3.2.1), {need} in all.",
        )
    home = sorted(
        (c for c in forts if c.area in CONTROLLED_AREAS[army]), key=lambda c: (-c.bastions, c.name)
    ) or sorted(
        (c for c in hexmap.cities if c.area in CONTROLLED_AREAS[army]),
        key=lambda c: (-c.size.buildings, c.name),
    )
    share = left // (2 * max(len(keys), 1))
    stacked = share < settings.min_leader_points
    placed: list[list] = []
    for i, key in enumerate(keys):
        where = home[0 if stacked else i % len(home)].hex_id
        placed.append([key, where, 0 if stacked or i == 0 else share, False])
    if placed:
        placed[0][2] = left - sum(x[2] for x in placed[1:])
    cic_hex = placed[0][1] if placed else home[0].hex_id
    trains = tuple(
        (f"{army.value}-{n + 1}", cic_hex, False)
        for n in range(settings.siege_trains.get(army.value, 0))
    )
    deployment = Deployment(
        army,
        tuple((k, h, p, i) for k, h, p, i in placed),
        tuple(garrisons),
        trains,
    )
    partner = _partner(army, west_to_france, hexmap, settings)
    checked = check_deployment(deployment, hexmap, settings, points, partner)
    violations = tuple(v for v in checked if not v.others_may_cover)
    return Suggestion(army, deployment, "", violations)


def _partner(
    army: Army, west_to_france: bool, hexmap: HexMap, settings: RuleSettings
) -> dict[Army, Deployment]:
    """For checking the Empire's suggestion: the French garrisons 3.2.4 counts on."""
    if army is not Army.EMPIRE or not west_to_france:
        return {}
    share = west_share(hexmap, settings)
    return {
        Army.FRANCE: Deployment(
            Army.FRANCE, garrisons=tuple((c, settings.min_garrison_points) for c in share.cities)
        )
    }


def deployment_spec(deployment: Deployment) -> dict:
    """A deployment as a seat's draft keeps it (``rules.orders.deployment_from_dict`` reads it)."""
    return {
        "leaders": {k: {"hex": h, "points": p, "inside": i} for k, h, p, i in deployment.leaders},
        "garrisons": dict(deployment.garrisons),
        "siege_trains": {t: {"hex": h, "inside": i} for t, h, i in deployment.siege_trains},
    }
