"""Deployment (3, 3.1, 3.2, 3.3, 3.4): placing leaders, points and siege trains before turn 1.

``check_deployment`` returns every restriction a deployment breaks, each as a ``Violation`` with
its rule number and a sentence naming the leader, fortress or hex concerned. The deployment phase
applies each army's deployment once it is valid; the campaign moves on to supply when all seven
armies are deployed.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from maps.core.hexgrid import Hex, HexIdError, hex_id, parse_hex_id
from maps.core.model import City, HexMap
from rules.armies import (
    ADJECTIVES,
    CLOSED_NEUTRALS,
    CONTROLLED_AREAS,
    LABELS,
    Army,
    siege_train_name,
)
from rules.dice import Dice
from rules.events import Event, EventKind, private
from rules.leaders import UnknownLeader, leader, leaders_of
from rules.orders import Deployment, OrderError, Orders, deployment_from_dict
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.state import Garrison, LeaderState, SiegeTrain, State

MUNSTER = "Munster"
# 3.2.5: the book spells the last one "Schweidenitz"; maps may write "Schweidnitz".
AUSTRIAN_ANSWERS = ("Dresden", "Glatz", "Schweidnitz", "Schweidenitz")
RHINE = "Rhine"


@dataclass(frozen=True)
class Violation:
    rule: str
    text: str
    # Another seat's secret deployment may still put it right (the French garrisoning an Empire
    # fortress West of the Rhine, 3.2.4): a seat is told, but not kept from submitting.
    others_may_cover: bool = False
    # The hex concerned, for a page to link to ("" when none: the army as a whole).
    where: str = ""
    # "ungarrisoned" for a fortress short of its minimum garrison (3.2.3): pages list these
    # together, by the fortress's name.
    kind: str = ""


def west_of_rhine(hexmap: HexMap) -> frozenset[Hex]:
    """Empire hexes West of the Rhine (3.2.4)."""
    return _west_of_rhine(hexmap)


@functools.lru_cache(maxsize=8)
def _west_of_rhine(hexmap: HexMap) -> frozenset[Hex]:
    return frozenset(h for h in west_bank(hexmap, RHINE) if hexmap.area(h) == "Empire")


@functools.lru_cache(maxsize=8)
def west_bank(hexmap: HexMap, river: str) -> frozenset[Hex]:
    """Hexes West of ``river``. Walking East along its row from a hex, a line crosses the river
    an odd number of times if the hex lies West of it: a river running North-South must cross
    every row it passes through by a West/East hexside, so the parity of those crossings tells
    the bank. Rows the river never crosses have no West bank."""
    west = set()
    by_row: dict[int, list[Hex]] = {}
    for h in hexmap.hexes:
        by_row.setdefault(h.r, []).append(h)
    for row in by_row.values():
        row.sort(key=lambda h: -h.q)
        count = 0
        for h in row:
            if count % 2 == 1:
                west.add(h)
            if hexmap.river_name(h, 1) == river:
                count += 1
    return frozenset(west)


def may_deploy_in(
    army: Army, h: Hex, hexmap: HexMap, *, others: dict[Army, Deployment], fortress: City | None
) -> bool:
    """May ``army`` place leaders or points in ``h`` (3.2.1, 3.2.4, 3.2.5)?"""
    area = hexmap.area(h)
    if area in CONTROLLED_AREAS[army]:
        return True
    if army is Army.FRANCE and area == "Empire" and h in west_of_rhine(hexmap):
        return True
    if army is Army.HANOVER and fortress is not None and fortress.name == MUNSTER:
        return True
    if army is Army.AUSTRIA and fortress is not None and fortress.name in AUSTRIAN_ANSWERS:
        return _hanover_in_munster(others, hexmap)
    return False


def _hanover_in_munster(others: dict[Army, Deployment], hexmap: HexMap) -> bool:
    hanover = others.get(Army.HANOVER)
    if hanover is None:
        return False
    if any(city == MUNSTER and points > 0 for city, points in hanover.garrisons):
        return True
    try:
        munster = hexmap.city(MUNSTER).hex
    except KeyError:
        return False
    return any(_safe_hex(h) == munster for _k, h, _p, _i in hanover.leaders)


def _safe_hex(text: str) -> Hex | None:
    try:
        return parse_hex_id(text)
    except HexIdError:
        return None


def check_deployment(
    deployment: Deployment,
    hexmap: HexMap,
    settings: RuleSettings,
    army_points: int | None,
    others: dict[Army, Deployment] | None = None,
) -> list[Violation]:
    """Every restriction of 3 that ``deployment`` breaks ([] if none).

    ``others`` are the other armies' deployments, for the exceptions of 3.2.4 and 3.2.5 and for
    fortresses garrisoned by an ally.
    """
    others = others or {}
    army = deployment.army
    v: list[Violation] = []
    name = LABELS[army]

    # 3.1.1, 3.4: the number of leaders; Frederick must be one of the Prussian leaders.
    wanted = settings.leaders[army.value]
    keys = [k for k, _h, _p, _i in deployment.leaders]
    if len(keys) != wanted:
        v.append(
            Violation(
                "3.4", f"{name} deploys {len(keys)} leaders; the Deployment Chart gives {wanted}."
            )
        )
    if len(set(keys)) != len(keys):
        v.append(Violation("3.1.1", f"{name} lists a leader twice."))
    if army is Army.PRUSSIA and "frederick" not in keys:
        v.append(Violation("3.1.1", "The Prussian player must include Frederick."))

    placed: list[tuple[str, Hex, int, bool]] = []
    for key, hex_text, points, inside in deployment.leaders:
        try:
            table = leader(key)
        except UnknownLeader as exc:
            v.append(Violation("14", str(exc)))
            continue
        if table.army is not army:
            v.append(
                Violation(
                    "3.1.1", f"{table.name} is a leader of {LABELS[table.army]}, not of {name}."
                )
            )
            continue
        h = _safe_hex(hex_text)
        if h is None or h not in hexmap:
            v.append(Violation("3.2.1", f"{table.name}: {hex_text!r} is not a hex of the map."))
            continue
        fortress = hexmap.fortress_at(h)
        if not may_deploy_in(army, h, hexmap, others=others, fortress=fortress):
            v.append(
                Violation(
                    "3.2.1",
                    f"{table.name} at {hex_text} is in {hexmap.area(h)}, "
                    f"which {name} does not control.",
                    where=hex_text,
                )
            )
        if points < 0:
            v.append(Violation("3", f"{table.name} has a negative number of points."))
        if inside and fortress is None:
            v.append(
                Violation(
                    "11.3",
                    f"{table.name} is inside a fortress at {hex_text}, "
                    "but there is no fortress there.",
                    where=hex_text,
                )
            )
        placed.append((key, h, points, inside))

    # 3.2.1: at least 50 points unless with a force led by another leader.
    for key, h, points, inside in placed:
        stacked = any(k != key and hh == h and ii == inside for k, hh, _p, ii in placed)
        if points < settings.min_leader_points and not stacked:
            v.append(
                Violation(
                    "3.2.1",
                    f"{leader(key).name} has {points} points; a leader "
                    f"alone needs at least {settings.min_leader_points}.",
                    where=hex_id(h),
                )
            )

    # Garrisons: fortresses only, in controlled areas (or the exceptions), bastion limit.
    garrisoned: dict[str, int] = {}
    given_to_garrisons = sum(max(points, 0) for _c, points in deployment.garrisons)
    for city_name, points in deployment.garrisons:
        try:
            city = hexmap.city(city_name)
        except KeyError:
            v.append(Violation("3.2.2", f"{city_name!r} is not a city of the map."))
            continue
        if not city.fortress:
            v.append(
                Violation(
                    "3.2.2",
                    f"{city.name} is not a fortress; points must be with a "
                    "leader or in a fortress.",
                )
            )
            continue
        if points <= 0:
            v.append(
                Violation(
                    "3.2.3", f"The garrison of {city.name} must have points.", where=city.hex_id
                )
            )
            continue
        if not may_deploy_in(army, city.hex, hexmap, others=others, fortress=city):
            v.append(
                Violation(
                    "3.2.3",
                    f"{city.name} is in {city.area}, which {name} does not control.",
                    where=city.hex_id,
                )
            )
        with_leader = any(hh == city.hex and ii for _k, hh, _p, ii in placed)
        limit = settings.garrison_points_per_bastion * city.bastions
        if not with_leader and points > limit:
            v.append(
                Violation(
                    "2.3.4",
                    f"The garrison of {city.name} has {points} points; "
                    f"without a leader its {city.bastions} bastions hold "
                    f"{limit}.",
                    where=city.hex_id,
                )
            )
        garrisoned[city.name] = garrisoned.get(city.name, 0) + points

    # 3.2.5: Austria may use only one of Dresden, Glatz or Schweidnitz.
    if army is Army.AUSTRIA:
        used = {c for c in garrisoned if c in AUSTRIAN_ANSWERS}
        used |= {
            f.name
            for _k, h, _p, _i in placed
            if (f := hexmap.fortress_at(h)) is not None
            and f.name in AUSTRIAN_ANSWERS
            and hexmap.area(h) not in CONTROLLED_AREAS[army]
        }
        if len(used) > 1:
            v.append(
                Violation(
                    "3.2.5",
                    "Austria may deploy in only one of Dresden, Glatz or "
                    f"Schweidnitz, not {', '.join(sorted(used))}.",
                )
            )

    # 3.2.3: every fortress of a controlled area garrisoned by at least 50 points.
    for city in hexmap.fortresses:
        if city.area not in CONTROLLED_AREAS[army] or city.area in CLOSED_NEUTRALS:
            continue
        own = garrisoned.get(city.name, 0)
        if own >= settings.min_garrison_points:
            continue
        if _held_by_other(city, others, settings, hexmap):
            continue
        hint = ""
        french_may = army is Army.EMPIRE and city.hex in west_of_rhine(hexmap)
        if french_may:
            hint = (
                " It lies West of the Rhine: French points may garrison it instead (3.2.4), "
                "so agree it with the French player if the Empire's points do not reach."
            )
        v.append(
            Violation(
                "3.2.3",
                f"{city.name} must be garrisoned by at least "
                f"{settings.min_garrison_points} {ADJECTIVES[army]} points "
                f"(it has {own}).{hint}",
                others_may_cover=french_may and Army.FRANCE not in others,
                where=city.hex_id,
                kind="ungarrisoned",
            )
        )

    # 3.2.2: siege trains with a leader or in a fortress.
    wanted_trains = settings.siege_trains[army.value]
    if len(deployment.siege_trains) != wanted_trains:
        v.append(
            Violation(
                "3.4",
                f"{name} deploys {len(deployment.siege_trains)} siege trains; "
                f"the Deployment Chart gives {wanted_trains}.",
            )
        )
    for tid, hex_text, _inside in deployment.siege_trains:
        h = _safe_hex(hex_text)
        if h is None or h not in hexmap:
            v.append(
                Violation(
                    "3.2.2", f"{_cap(siege_train_name(tid))}: {hex_text!r} is not a hex of the map."
                )
            )
            continue
        fortress = hexmap.fortress_at(h)
        with_leader = any(hh == h for _k, hh, _p, _i in placed)
        in_fortress = fortress is not None and fortress.name in garrisoned
        if not (with_leader or in_fortress):
            v.append(
                Violation(
                    "3.2.2",
                    f"{_cap(siege_train_name(tid))} at {hex_text} must be with a "
                    f"{ADJECTIVES[army]} leader or in a fortress "
                    f"{name} garrisons.",
                    where=hex_text,
                )
            )

    # 3: the army's total.
    total = sum(p for _k, _h, p, _i in placed) + given_to_garrisons
    if army_points is not None and total != army_points:
        v.append(Violation("3", f"{name} deploys {total} points; its army has {army_points}."))

    # 3.2.6: the commander-in-chief's force larger than any other (Prussia exempt).
    if army is not Army.PRUSSIA and placed:
        v.extend(_cic_violations(army, [(k, h, p, i) for k, h, p, i in placed]))
    return v


def _held_by_other(
    city: City, others: dict[Army, Deployment], settings: RuleSettings, hexmap: HexMap
) -> bool:
    """A fortress garrisoned under an exception (3.2.4, 3.2.5) by another army."""
    for other, dep in others.items():
        for name, points in dep.garrisons:
            if name == city.name and points >= settings.min_garrison_points:
                return may_deploy_in(other, city.hex, hexmap, others=others, fortress=city)
    return False


def _cic_violations(army: Army, placed: list[tuple[str, Hex, int, bool]]) -> list[Violation]:
    forces: dict[tuple[Hex, bool], list[tuple[str, int]]] = {}
    for key, h, points, inside in placed:
        forces.setdefault((h, inside), []).append((key, points))
    cic = min((k for k, _h, _p, _i in placed), key=lambda k: leader(k).rank)
    cic_force = next(f for f in forces.values() if any(k == cic for k, _p in f))
    cic_points = sum(p for _k, p in cic_force)
    out = []
    for (force_hex, _inside), members in forces.items():
        if members is cic_force:
            continue
        points = sum(p for _k, p in members)
        if points >= cic_points:
            commander = min((k for k, _p in members), key=lambda k: leader(k).rank)
            out.append(
                Violation(
                    "3.2.6",
                    f"The commander-in-chief {leader(cic).name} "
                    f"({cic_points} points) must have a larger force than "
                    f"{leader(commander).name} ({points} points).",
                    where=hex_id(force_hex),
                )
            )
    return out


def cic_problems(state: State, army: Army) -> list[Violation]:
    """3.2.6 checked on a state (kept true afterwards; Prussia exempt)."""
    if army is Army.PRUSSIA:
        return []
    placed = [
        (x.key, parse_hex_id(x.hex), x.points, x.inside) for x in state.leaders if x.army is army
    ]
    return _cic_violations(army, placed) if placed else []


def apply_deployment(state: State, deployment: Deployment, hexmap: HexMap) -> State:
    army = deployment.army
    leaders = [x for x in state.leaders if x.army is not army] + [
        LeaderState(key=k, army=army, hex=h, points=p, inside=i)
        for k, h, p, i in deployment.leaders
    ]
    garrisons = [g for g in state.garrisons if g.army is not army] + [
        Garrison(hexmap.city(c).name, army, p) for c, p in deployment.garrisons
    ]
    trains = [t for t in state.siege_trains if t.army is not army] + [
        SiegeTrain(t, army, h, i) for t, h, i in deployment.siege_trains
    ]
    return dataclasses.replace(
        state,
        leaders=tuple(leaders),
        garrisons=tuple(sorted(garrisons, key=lambda g: (g.city, g.army.value))),
        siege_trains=tuple(sorted(trains, key=lambda t: t.id)),
        deployed=tuple(a for a in Army if a in state.deployed or a is army),
    )


def initial_control(state: State, hexmap: HexMap) -> dict[str, str]:
    """2.3: every city of a controlled area is its country's; a fortress garrisoned under an
    exception (3.2.4, 3.2.5) belongs to the garrison's country."""
    control = {}
    for city in hexmap.cities:
        for army, areas in CONTROLLED_AREAS.items():
            if city.area in areas:
                control[city.name] = army.value
    for g in state.garrisons:
        control[g.city] = g.army.value
    return control


def army_points_from(army: Army, points: int, settings: RuleSettings) -> dict[str, int]:
    """Every army's total from one army's, by the point ratios of the Deployment Chart (3).

    >>> army_points_from(Army.SWEDEN, 200, RuleSettings())["prussia"]
    3200
    """
    unit = points / settings.point_ratio[army.value]
    return {a.value: round(settings.point_ratio[a.value] * unit) for a in Army}


def check_army_points(army_points: dict[str, int], settings: RuleSettings) -> list[Violation]:
    """3: "the rating listed on the Deployment Chart (3.4) must be adhered to"."""
    if len(army_points) < len(Army):
        missing = ", ".join(a.value for a in Army if a.value not in army_points)
        return [
            Violation(
                "3", f"The players must agree on the points of every army; missing: {missing}."
            )
        ]
    anchor = Army.SWEDEN
    wanted = army_points_from(anchor, army_points[anchor.value], settings)
    wrong = [a for a in Army if army_points[a.value] != wanted[a.value]]
    return [
        Violation(
            "3",
            f"{LABELS[a]} has {army_points[a.value]} points; the Deployment Chart's "
            f"ratio ({settings.point_ratio[a.value]:g} to Sweden's "
            f"{settings.point_ratio[anchor.value]:g}) gives {wanted[a.value]}.",
        )
        for a in wrong
    ]


def deployment_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 0 (3): check and apply each army's deployment."""
    events: list[Event] = []
    ratio_problems = check_army_points(state.army_points, settings)
    if ratio_problems:
        text = " ".join(f"({p.rule}) {p.text}" for p in ratio_problems)
        events.append(
            Event(
                "3",
                EventKind.DEPLOYMENT_REJECTED,
                f"No deployment can be made yet: {text}",
                {"violations": [{"rule": p.rule, "text": p.text} for p in ratio_problems]},
            )
        )
        return Resolution(state, tuple(events), complete=False)
    given = {d.army: d for d in orders.deployment}
    for army in Army:
        if army in given or army not in state.deployed:
            continue
        given.setdefault(army, deployment_of(state, army))
    for army, dep in sorted(given.items(), key=lambda kv: kv[0].value):
        if army in state.deployed and dep == deployment_of(state, army):
            continue
        others = {a: d for a, d in given.items() if a is not army}
        points = state.army_points.get(army.value)
        problems = check_deployment(dep, hexmap, settings, points, others)
        if problems:
            events.append(
                Event(
                    "3.2",
                    EventKind.DEPLOYMENT_REJECTED,
                    f"The deployment of {LABELS[army]} breaks "
                    f"{len(problems)} restriction{'s' if len(problems) > 1 else ''}: "
                    + " ".join(f"({p.rule}) {p.text}" for p in problems),
                    {
                        "army": army.value,
                        "violations": [{"rule": p.rule, "text": p.text} for p in problems],
                    },
                    private(army),
                )
            )
            continue
        state = apply_deployment(state, dep, hexmap)
        where = ", ".join(f"{leader(k).name} at {h}" for k, h, _p, _i in dep.leaders)
        events.append(
            Event(
                "3.1.1",
                EventKind.DEPLOYED,
                f"{LABELS[army]} has deployed: {where}.",
                {"army": army.value, "leaders": {k: h for k, h, _p, _i in dep.leaders}},
            )
        )
    complete = all(a in state.deployed for a in Army)
    if complete:
        # Control set before deployment (a historical opening's, issue 18) stands, unless
        # a garrison of another country holds the city.
        control = {**initial_control(state, hexmap), **state.control}
        control.update({g.city: g.army.value for g in state.garrisons})
        state = dataclasses.replace(state, control=control, initial_control=dict(control))
    return Resolution(state, tuple(events), complete=complete)


def deployment_of(state: State, army: Army) -> Deployment:
    """The army's deployment as the state holds it (a historical opening's, or one resolved)."""
    return Deployment(
        army,
        tuple((x.key, x.hex, x.points, x.inside) for x in state.leaders if x.army is army),
        tuple((g.city, g.points) for g in state.garrisons if g.army is army),
        tuple((t.id, t.hex, t.inside) for t in state.siege_trains if t.army is army),
    )


def sample_deployments(
    hexmap: HexMap, settings: RuleSettings, army_points: dict[str, int]
) -> dict[Army, Deployment]:
    """A legal deployment of all seven armies, for demonstrations, benches and tests.

    Each army takes its highest-ranking leaders (Frederick is rank 1); every fortress of its
    areas gets the minimum garrison (the French also take the Empire's fortresses West of the
    Rhine, 3.2.4); the leaders stand at the army's fortresses, largest first, the
    commander-in-chief with the siege trains and the most points (3.2.6).
    """
    west = west_of_rhine(hexmap)
    garrison_of: dict[str, Army] = {}
    for city in sorted(hexmap.fortresses, key=lambda c: c.name):
        if city.area in CLOSED_NEUTRALS:
            continue
        for army, areas in CONTROLLED_AREAS.items():
            if city.area in areas:
                garrison_of[city.name] = army
        if city.area == "Empire" and city.hex in west:
            garrison_of[city.name] = Army.FRANCE
    out: dict[Army, Deployment] = {}
    for army in Army:
        total = army_points[army.value]
        forts = [c for c in hexmap.fortresses if garrison_of.get(c.name) is army]
        garrisons = [(c.name, settings.min_garrison_points) for c in forts]
        home = sorted(
            (c for c in forts if c.area in CONTROLLED_AREAS[army]),
            key=lambda c: (-c.bastions, c.name),
        ) or sorted(
            (c for c in hexmap.cities if c.area in CONTROLLED_AREAS[army]),
            key=lambda c: (-c.size.buildings, c.name),
        )
        chosen = sorted(leaders_of(army), key=lambda x: x.rank)[: settings.leaders[army.value]]
        left = total - sum(p for _c, p in garrisons)
        share = left // (2 * max(len(chosen), 1))
        stacked = share < settings.min_leader_points  # too few points: all with the CIC
        leaders = []
        for i, x in enumerate(chosen):
            where = home[0 if stacked else i % len(home)].hex_id
            leaders.append([x.key, where, 0 if stacked or i == 0 else share, False])
        leaders[0][2] = left - sum(x[2] for x in leaders[1:])
        trains = tuple(
            (f"{army.value}-{n + 1}", leaders[0][1], False)
            for n in range(settings.siege_trains[army.value])
        )
        out[army] = Deployment(
            army,
            tuple(tuple(x) for x in leaders),
            tuple(garrisons),
            trains,  # type: ignore[misc]
        )
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def read_deployment(army: Army, spec: dict) -> tuple[Deployment, list[str]]:
    try:
        return deployment_from_dict(army.value, spec), []
    except (OrderError, ValueError, KeyError, TypeError) as exc:
        return Deployment(army), [f"The draft cannot be read: {exc}"]


def placed_by_opening(army: Army, dep: dict, state: State) -> bool:
    """The army stands as the campaign's opening placed it, and the draft leaves it so."""
    return army in state.deployed and not isinstance(dep.get(army.value), dict)


def army_violations(
    armies: list[str],
    army: Army,
    dep: dict,
    state: State,
    hexmap: HexMap | None,
    settings: RuleSettings,
) -> tuple[Deployment, list[Violation]]:
    """The army's deployment read from a seat's draft (``dep``: army -> its draft), and every
    restriction of 3 it breaks (the seat's other ``armies`` count for the exceptions; another
    seat's never: they are secret). The deployment page's check and the deadline's are this one
    (orders.deploy_checks, campaign.services.standstill)."""
    if placed_by_opening(army, dep, state):
        return deployment_of(state, army), []
    spec = dep.get(army.value) if isinstance(dep.get(army.value), dict) else {}
    deployment, unread = read_deployment(army, spec)
    if unread:
        return deployment, [Violation("3", p) for p in unread]
    if hexmap is None:
        return deployment, []
    others = {}
    for other in armies:
        a = Army.parse(other)
        if other == army.value:
            continue
        if placed_by_opening(a, dep, state):
            others[a] = deployment_of(state, a)
        elif isinstance(dep.get(other), dict):
            others[a], _ = read_deployment(a, dep[other])
    return deployment, check_deployment(
        deployment, hexmap, settings, state.army_points.get(army.value), others
    )
