"""Fog of war: what one audience may know of a campaign, computed in this one place.

Every output channel (page, htmx fragment, map image, email body, JSON) shows a ``View`` made
here, never a ``State``. The module is pure Python (no Django), like the engine it reads.

Audiences
---------
A ``Viewer`` is either a *seat* (the armies one player commands, 1.2) or the *umpire* (a
non-playing organiser, who sees everything). Each piece of information about an army is passed
through the serializer of the viewer's *relation* to that army:

- ``OWNER``: the viewer commands the army: forces with their points, garrisons with points,
  siege trains, marches of this turn;
- ``ALLY``: same alliance (1.2). With the campaign setting ``allies_share`` an ally is told what
  the owner knows (shown, never ordered); without it an ally is treated like an enemy;
- ``ENEMY``: only what the rules make public: every leader's position (3.1.1), the "U" and "D"
  markers on the counters (3.1.4), garrison chits without their strength (3.1.2), fortress
  control (2.3), every army's total strength (3).

Reconnaissance reports (8) are shown to the army they are addressed to (and its sharing allies),
with the turn they were made; they come as ``reports`` or are read from the engine's private
``reconnaissance`` events (their ``data`` holds hex, army, commander and points). One observation
is one report, however many ways it came, and a seat is told the event that carried it as that
report, not a second time among the events (the umpire reads the events).
Events are shown when their ``audience`` includes one of the
viewer's armies (or a sharing ally's), or is public. Named dice rolls are shown when the roll's
name mentions an army, a leader or a siege train of the viewer (or a sharing ally).
During deployment (3) nothing of another army is on the map: positions are plotted secretly and
become public when every army has deployed.

API (the whole of it)
---------------------
>>> from rules.armies import Seat
>>> from rules.state import State
>>> viewer = Viewer.seat(Seat.PRUSSIA, players=5)
>>> view = project(State(), viewer)
>>> view.turn, view.viewer_label
(1, 'Prussian player')
>>> view_to_dict(view)["phase"]
'deployment'

- ``Viewer.seat(seat, players, allies_share=False)``, ``Viewer.for_armies(["austria", "empire"],
  allies_share=..., label=...)`` (a stored seat), ``Viewer.umpire_view()``, ``Viewer.public()``
- ``project(state, viewer, *, events=(), reports=(), rolls=()) -> View``: ``events`` are engine
  ``Event`` objects, their dicts (``event_to_dict``, with an optional ``"turn"`` key), or
  stored ``campaign.models.Event`` rows (``select_related("version")``: the turn is the version's);
  ``reports`` are ``Report`` objects or dicts (``report_to_dict`` with a ``"turn"`` key), or
  ``(turn, Report)`` pairs; ``rolls`` are dicts as ``Dice.rolls_as_dicts`` writes them.
- ``view_to_dict(view)``: the JSON document of a view (what the JSON endpoint serves).
- ``report_lines(view)``: the turn report as plain sentences (for pages and email bodies), each
  with its rule unless its words cite it already (``cites``); a turn's routine supply (5) in
  one summary line, its exceptions on lines of their own (``event_items``).
- ``report_items(view)``, ``event_items(events)``: the same as ``ReportLine`` items, a summary
  holding the lines it folds (a page shows them under a ``<details>``).
- ``map_counters(view, hexmap)``: the overlay inputs of the map image (counters per hex), made
  only from the view, so the image can hold nothing the view does not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from campaign import reportlines
from campaign.eventfog import as_seen, roll_concerns, unit_army
from campaign.reportlines import ReportLine, cites, event_items
from rules.armies import ADJECTIVES, Army, Seat, armies_of, seat_map, siege_train_name
from rules.events import (
    Event,
    EventKind,
    Report,
    event_from_dict,
    report_from_dict,
)
from rules.state import Phase, State

__all__ = [
    "Relation",
    "Viewer",
    "View",
    "project",
    "view_to_dict",
    "report_lines",
    "report_items",
    "event_items",
    "ReportLine",
    "map_counters",
]


class Relation(Enum):
    """The viewer's relation to one army."""

    OWNER = "owner"
    ALLY = "ally"
    ENEMY = "enemy"


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the armies of one seat, the umpire, or the public (nobody's armies)."""

    armies: frozenset[Army] = frozenset()
    umpire: bool = False
    allies_share: bool = False
    label: str = "public"
    # Friend and foe as the state has them (1.2, 13.8); ``project`` binds it. Unbound, the
    # alliances of 1.2 apply.
    alliances: Mapping[Army, Any] | None = field(default=None, compare=False)

    def bound_to(self, state: State) -> Viewer:
        """The same viewer, with friend and foe taken from ``state`` (a change of sides, 13.8)."""
        return self.with_alliances({a: state.alliance_of(a) for a in Army})

    def with_alliances(self, alliances: Mapping[Army, Any]) -> Viewer:
        """The same viewer, with friend and foe as a state had them (``bound_to``, kept)."""
        return replace(self, alliances=dict(alliances))

    @classmethod
    def seat(cls, seat: Seat, players: int, *, allies_share: bool = False) -> Viewer:
        return cls(frozenset(armies_of(seat, players)), False, allies_share, seat.label)

    @classmethod
    def for_armies(
        cls, armies: Iterable[Army | str], *, allies_share: bool = False, label: str = "player"
    ) -> Viewer:
        """A seat given by its armies (a stored seat's ``armies`` list of army values)."""
        return cls(
            frozenset(Army.parse(a) if isinstance(a, str) else a for a in armies),
            False,
            allies_share,
            label,
        )

    @classmethod
    def umpire_view(cls) -> Viewer:
        return cls(frozenset(Army), True, True, "umpire")

    @classmethod
    def public(cls) -> Viewer:
        return cls()

    def relation(self, army: Army) -> Relation:
        if self.umpire or army in self.armies:
            return Relation.OWNER
        if self.alliances is None:
            friendly = not any(army.is_enemy_of(mine) for mine in self.armies)
        else:
            friendly = all(self.alliances[army] is self.alliances[mine] for mine in self.armies)
        if self.armies and friendly:
            return Relation.ALLY
        return Relation.ENEMY

    def knows(self, army: Army) -> bool:
        """True when the viewer may know this army's secrets (owner, umpire, sharing ally)."""
        relation = self.relation(army)
        return relation is Relation.OWNER or (relation is Relation.ALLY and self.allies_share)

    def informed(self) -> frozenset[Army]:
        """The armies whose secrets, reports, events and dice this viewer reads."""
        return frozenset(a for a in Army if self.knows(a))


# --- what a view holds ----------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderView:
    """A leader counter. ``points`` and the owner's bookkeeping are None when the viewer may not
    know them (3.1.2); the "U" and "D" markers are public (3.1.4)."""

    key: str
    name: str
    army: Army
    hex: str
    inside: bool
    relation: Relation
    points: int | None = None
    supplied: bool | None = None
    demoralized: bool | None = None
    held_until_turn: int | None = None
    field_works: int | None = None
    dropped_off: bool | None = None


@dataclass(frozen=True)
class ForceView:
    """A force (3.2.1): the leaders of one army in one hex on one side of the walls."""

    army: Army
    hex: str
    inside: bool
    relation: Relation
    leaders: tuple[LeaderView, ...]
    points: int | None = None
    supplied: bool | None = None
    demoralized: bool | None = None

    @property
    def commander(self) -> LeaderView:
        return self.leaders[0]


@dataclass(frozen=True)
class GarrisonView:
    """A garrison chit: its country is public, its strength secret (3.1.2)."""

    city: str
    army: Army
    relation: Relation
    points: int | None = None


@dataclass(frozen=True)
class LeaderlessView:
    """Points left with no leader of their country after a battle (9.5): seen in their hex like
    a garrison chit, their strength secret."""

    army: Army
    hex: str
    relation: Relation
    points: int | None = None
    supplied: bool | None = None


@dataclass(frozen=True)
class SiegeTrainView:
    id: str
    army: Army
    hex: str
    inside: bool

    @property
    def name(self) -> str:
        return siege_train_name(self.id)


@dataclass(frozen=True)
class ArmyTotal:
    """Every army's total strength is known to all (3): the agreed total and what is left."""

    army: Army
    agreed: int
    current: int


@dataclass(frozen=True)
class ReportView:
    """A reconnaissance report (8) addressed to one of the viewer's armies."""

    turn: int
    to: Army
    hex: str
    army: Army
    commander: str | None
    points: int
    inside: bool
    garrison: bool
    text: str
    rule: str = ""

    @property
    def uncited_rule(self) -> str:
        """The rule, unless the text cites it already (``cites``): what a line adds."""
        return "" if cites(self.text, self.rule) else self.rule


@dataclass(frozen=True)
class EventView:
    turn: int | None
    rule: str
    kind: str
    text: str
    public: bool
    # The army a supply line is about (5: the force's, as its text says), for the report's
    # summary of routine supply (``report_items``); "" for other events.
    army: str = ""

    @property
    def uncited_rule(self) -> str:
        """The rule, unless the text cites it already (``cites``): what a line adds."""
        return "" if cites(self.text, self.rule) else self.rule


@dataclass(frozen=True)
class RollView:
    name: str
    dice: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class View:
    """What one viewer may know of one state version."""

    viewer_label: str
    umpire: bool
    armies: tuple[Army, ...]  # the armies the viewer commands (all of them for the umpire)
    turn: int
    phase: Phase
    ended: bool
    forces: tuple[ForceView, ...]
    garrisons: tuple[GarrisonView, ...]
    siege_trains: tuple[SiegeTrainView, ...]
    control: dict[str, str]
    army_totals: tuple[ArmyTotal, ...]
    marches: dict[str, int]
    reports: tuple[ReportView, ...]
    events: tuple[EventView, ...]
    dice: tuple[RollView, ...]
    killed: tuple[str, ...]
    captives: tuple[tuple[str, str], ...]  # (leader, held by army)
    prisoners: tuple[tuple[str, str, int], ...]  # (army, held by, points), for the two concerned
    besieged: dict[str, int]
    honors_pending: tuple[str, ...]
    deployed: tuple[str, ...]
    victory_points: dict[str, int] = field(default_factory=dict)
    leaderless: tuple[LeaderlessView, ...] = ()

    def own_forces(self) -> tuple[ForceView, ...]:
        return tuple(f for f in self.forces if f.relation is Relation.OWNER)

    def leader(self, key: str) -> LeaderView | None:
        for force in self.forces:
            for x in force.leaders:
                if x.key == key:
                    return x
        return None


# --- the serializers, one per relation -----------------------------------------------------


def _leader_known(x, relation: Relation) -> LeaderView:
    return LeaderView(
        key=x.key,
        name=x.table.name,
        army=x.army,
        hex=x.hex,
        inside=x.inside,
        relation=relation,
        points=x.points,
        supplied=x.supplied,
        demoralized=x.demoralized,
        held_until_turn=x.held_until_turn,
        field_works=x.field_works,
        dropped_off=x.dropped_off,
    )


def _leader_public(x, relation: Relation) -> LeaderView:
    # The "U" and "D" status markers lie on the counters for all to see (3.1.4).
    return LeaderView(
        key=x.key,
        name=x.table.name,
        army=x.army,
        hex=x.hex,
        inside=x.inside,
        relation=relation,
        supplied=x.supplied,
        demoralized=x.demoralized,
    )


def _force(force, relation: Relation, known: bool) -> ForceView:
    """A force as seen by a viewer in ``relation`` to its army, who knows its secrets or not
    (``Viewer.knows``)."""
    if known:
        return ForceView(
            army=force.army,
            hex=force.hex,
            inside=force.inside,
            relation=relation,
            leaders=tuple(_leader_known(x, relation) for x in force.leaders),
            points=force.points,
            supplied=all(x.supplied for x in force.leaders),
            demoralized=force.demoralized,
        )
    return ForceView(
        army=force.army,
        hex=force.hex,
        inside=force.inside,
        relation=relation,
        leaders=tuple(_leader_public(x, relation) for x in force.leaders),
        supplied=all(x.supplied for x in force.leaders),
        demoralized=force.demoralized,
    )


def _garrison(g, relation: Relation, known: bool) -> GarrisonView:
    return GarrisonView(g.city, g.army, relation, g.points if known else None)


def _army_totals(state: State) -> tuple[ArmyTotal, ...]:
    current: dict[Army, int] = dict.fromkeys(Army, 0)
    for x in state.leaders:
        current[x.army] += x.points
    for g in state.garrisons:
        current[g.army] += g.points
    for p in state.leaderless:
        current[p.army] += p.points
    return tuple(
        ArmyTotal(a, int(state.army_points.get(a.value, 0)), current[a])
        for a in Army
        if a.value in state.army_points or current[a]
    )


# --- reports, events, dice -------------------------------------------------------------------


def _as_report(item: Any) -> tuple[int, Report]:
    if isinstance(item, tuple):
        turn, report = item
        return int(turn), report if isinstance(report, Report) else report_from_dict(report)
    if isinstance(item, Report):
        return 0, item
    data = dict(item)
    turn = int(data.pop("turn", 0))
    return turn, report_from_dict(data)


def _as_event(item: Any) -> tuple[int | None, Event]:
    if type(item) is tuple and isinstance(item[1], Event):  # (turn, event): the worker's
        return item[0], item[1]
    if isinstance(item, Event):
        return None, item
    if hasattr(item, "armies") and hasattr(item, "public") and hasattr(item, "kind"):
        # A stored event row (campaign.models.Event); select_related("version") for its turn.
        version = getattr(item, "version", None)
        turn = getattr(item, "turn", None) or getattr(version, "turn", None)
        audience = None if item.public else frozenset(Army.parse(a) for a in item.armies)
        return turn, Event(item.rule, EventKind(item.kind), item.text, dict(item.data), audience)
    if isinstance(item, tuple):
        return item[0], item[1] if isinstance(item[1], Event) else event_from_dict(item[1])
    data = dict(item)
    turn = data.pop("turn", None)
    return (int(turn) if turn is not None else None), event_from_dict(data)


def _report_of_event(turn: int | None, event: Event) -> ReportView | None:
    """A reconnaissance event (8) addressed to one army carries its report in ``data``."""
    data = event.data
    if event.kind is not EventKind.RECONNAISSANCE or event.audience is None:
        return None
    if len(event.audience) != 1 or not {"hex", "army", "points"} <= set(data):
        return None
    try:
        army = Army.parse(data["army"])
        points = int(data["points"])
    except (ValueError, TypeError):
        return None
    (to,) = event.audience
    garrison = bool(data.get("garrison", event.rule == "8.2" and data.get("commander") is None))
    return ReportView(
        turn or 0,
        to,
        str(data["hex"]),
        army,
        data.get("commander"),
        points,
        bool(data.get("inside", garrison)),
        garrison,
        event.text,
        event.rule,
    )


def _report_key(r: ReportView) -> tuple:
    return (r.turn, r.to, r.hex, r.army, r.inside)


def _once(reports: list[ReportView]) -> list[ReportView]:
    """Each observation once: the engine's ``Report`` and the report its event carries are the
    same fact (the same key, or the same words in the same turn: an event stored before its
    data said ``inside`` names a garrison seen two hexes away as a force). The first is kept,
    the engine's when both are given."""
    keys: set[tuple] = set()
    out = []
    for r in reports:
        key, words = _report_key(r), (r.turn, r.to, r.text)
        if key in keys or words in keys:
            continue
        keys |= {key, words}
        out.append(r)
    return out


# --- the projection --------------------------------------------------------------------------


def _news(
    viewer: Viewer,
    informed: frozenset[Army],
    deploying: bool,
    events: Iterable[Any],
    reports: Iterable[Any],
    seen: dict[int, tuple] | None = None,
) -> tuple[tuple[EventView, ...], tuple[ReportView, ...]]:
    """The events and reconnaissance reports ``viewer`` (bound to the state) may read.
    ``seen``: what this audience was told of each event before, by the event (``project``)."""
    seen_reports = []
    for item in reports:
        turn, report = _as_report(item)
        if report.to in informed:
            seen_reports.append(
                ReportView(
                    turn,
                    report.to,
                    report.hex,
                    report.army,
                    report.commander,
                    report.points,
                    report.inside,
                    report.garrison,
                    report.text,
                    report.rule,
                )
            )
    seen_events = []
    for item in events:
        turn, stored = _as_event(item)
        # (kept only for the caller's own events, which live as long as it keeps them)
        kept = seen is not None and (stored is item or (type(item) is tuple and stored is item[1]))
        told = seen.get(id(stored)) if kept else None
        if told is None or told[0] is not stored or told[1] != turn:
            told = (stored, turn, *_event_as_seen(turn, stored, viewer, informed, deploying))
            if kept:
                seen[id(stored)] = told
        # A reconnaissance event that carries its report to a seat is that report (8): told
        # once, as the report (the umpire's page lists the events alone).
        if told[2] is not None and (told[3] is None or viewer.umpire):
            seen_events.append(told[2])
        if told[3] is not None:
            seen_reports.append(told[3])
    seen_reports = _once(seen_reports)
    return tuple(seen_events), tuple(sorted(seen_reports, key=lambda r: (-r.turn, r.hex)))


def _event_as_seen(
    turn: int | None, stored: Event, viewer: Viewer, informed: frozenset[Army], deploying: bool
) -> tuple[EventView | None, ReportView | None]:
    """One event as ``viewer`` reads it, and the report it carries to him, if any."""
    event = as_seen(stored, informed, deploying, umpire=viewer.umpire)
    if event is None:
        return None, None
    army = ""
    if event.kind in (EventKind.SUPPLIED, EventKind.UNSUPPLIED):
        unit = unit_army(str(event.data.get("leader") or ""))
        army = unit.value if unit is not None else ""
    told = EventView(turn, event.rule, event.kind.value, event.text, event.public, army)
    report = _report_of_event(turn, event)
    return told, report if report is not None and report.to in informed else None


def news_lines(
    state: State, viewer: Viewer, *, events: Iterable[Any] = (), reports: Iterable[Any] = ()
) -> list[str]:
    """``report_lines(project(state, viewer, events=..., reports=...))`` without projecting
    the forces: an email's report needs the events and reports alone."""
    # As ``project``: a deployment phase on any turn (an opening may start later, 1756's on
    # turn 9), so an email tells of other armies' deployments no sooner than the pages do.
    deploying = state.phase is Phase.DEPLOYMENT
    return bound_news_lines(viewer.bound_to(state), deploying, events=events, reports=reports)


def bound_news_lines(
    viewer: Viewer, deploying: bool, *, events: Iterable[Any] = (), reports: Iterable[Any] = ()
) -> list[str]:
    """``news_lines`` for a viewer bound already (``Viewer.with_alliances``) and whether the
    state is a deployment phase: no state needed."""
    seen_events, seen_reports = _news(viewer, viewer.informed(), deploying, events, reports)
    return reportlines.lines(seen_events, seen_reports)


def project(
    state: State,
    viewer: Viewer,
    *,
    events: Iterable[Any] = (),
    reports: Iterable[Any] = (),
    rolls: Iterable[Mapping[str, Any]] = (),
    told: dict | None = None,
) -> View:
    """What ``viewer`` may know of ``state`` and of the events, reports and rolls given.

    ``told``: a dict the caller keeps from one call to the next (the worker's, for the versions
    of one campaign, ``knowledge.VersionNews``), where each event given as an engine ``Event``
    is kept with what this audience reads of it (by the audience's armies, whether it is the
    deployment and whether it is the umpire), so an event handed again, the same object, is
    not projected again: the view is the same with or without it."""
    viewer = viewer.bound_to(state)
    informed = viewer.informed()
    # A deployment phase, whatever turn it is (an opening may start later: 1756's on turn 9).
    deploying = state.phase is Phase.DEPLOYMENT

    # The viewer's relation to each army, and whether it knows the army's secrets (``knows``:
    # an army of ``informed``), once for the whole state rather than once per counter.
    relation = {a: viewer.relation(a) for a in Army}
    # Deployment is plotted secretly (3): other armies appear once every army has deployed.
    shown = informed if deploying else frozenset(Army)

    forces = tuple(
        _force(f, relation[f.army], f.army in informed) for f in state.forces() if f.army in shown
    )
    garrisons = tuple(
        _garrison(g, relation[g.army], g.army in informed)
        for g in state.garrisons
        if g.army in shown
    )
    leaderless = tuple(
        LeaderlessView(
            x.army,
            x.hex,
            relation[x.army],
            x.points if x.army in informed else None,
            x.supplied if x.army in informed else None,
        )
        for x in state.leaderless
        if x.army in shown
    )
    trains = tuple(
        SiegeTrainView(t.id, t.army, t.hex, t.inside)
        for t in state.siege_trains
        if t.army in informed  # never reported, not even by reconnaissance (8)
    )
    marches = {a: n for a, n in state.marches.items() if Army.parse(a) in informed}
    seen = None if told is None else told.setdefault((informed, deploying, viewer.umpire), {})
    seen_events, seen_reports = _news(viewer, informed, deploying, events, reports, seen)
    seen_rolls = tuple(
        RollView(str(r["name"]), tuple(int(d) for d in r.get("dice", ())), int(r["total"]))
        for r in rolls
        if viewer.umpire or roll_concerns(str(r["name"]), informed)
    )
    return View(
        viewer_label=viewer.label,
        umpire=viewer.umpire,
        armies=tuple(a for a in Army if a in viewer.armies),
        turn=state.turn,
        phase=state.phase,
        ended=state.ended,
        forces=forces,
        garrisons=garrisons,
        siege_trains=trains,
        control=dict(state.control),
        army_totals=_army_totals(state),
        marches=marches,
        reports=seen_reports,
        events=seen_events,
        dice=seen_rolls,
        killed=tuple(state.killed),
        captives=tuple((c.leader, c.held_by.value) for c in state.captives),
        prisoners=tuple(
            (p.army.value, p.held_by.value, p.points)
            for p in state.prisoners
            if p.army in informed or p.held_by in informed
        ),
        besieged=dict(state.besieged_turns),
        honors_pending=tuple(state.honors_pending),
        deployed=tuple(a.value for a in state.deployed),
        victory_points=dict(state.victory_points),
        leaderless=leaderless,
    )


# --- output helpers ----------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def view_to_dict(view: View) -> dict[str, Any]:
    """The JSON document of a view; fields the viewer may not know are null."""
    return _plain(view)


def report_lines(view: View, turn: int | None = None) -> list[str]:
    """The turn report in plain sentences: events of ``turn`` (all when None), then the
    reconnaissance reports of that turn; routine supply told in one line (``report_items``)."""
    return reportlines.lines(view.events, view.reports, turn)


def report_items(view: View, turn: int | None = None) -> list[ReportLine]:
    """``report_lines`` as ``ReportLine`` items, each summary with the lines it folds
    (``campaign.reportlines``)."""
    return reportlines.items(view.events, view.reports, turn)


@dataclass(frozen=True)
class Counter:
    """One counter drawn on the map image."""

    hex: str
    kind: str  # "force", "garrison", "leaderless", "siege-train", "report"
    army: Army
    label: str
    relation: Relation
    inside: bool = False
    flags: tuple[str, ...] = ()  # "D" demoralized, "U" unsupplied (3.1.4)
    name: str = ""  # the commander (a force), the country (a garrison), the train's id
    points: int | None = None  # None when the viewer may not know them


def map_counters(view: View, hexmap: Any = None) -> tuple[Counter, ...]:
    """The overlay of a seat's map image, made only from the view (never from a state).

    ``hexmap`` places garrisons at their city's hex; without it garrisons are left out.
    """
    out: list[Counter] = []
    for f in view.forces:
        names = ", ".join(x.name for x in f.leaders)
        label = names if f.points is None else f"{names} {f.points}"
        flags = tuple(flag for flag, on in (("D", f.demoralized), ("U", f.supplied is False)) if on)
        out.append(
            Counter(
                f.hex, "force", f.army, label, f.relation, f.inside, flags,
                f.commander.name, f.points,
            )
        )  # fmt: skip
    if hexmap is not None:
        for g in view.garrisons:
            try:
                where = hexmap.city(g.city).hex_id
            except KeyError:
                continue
            label = ADJECTIVES[g.army] if g.points is None else f"{ADJECTIVES[g.army]} {g.points}"
            out.append(
                Counter(
                    where, "garrison", g.army, label, g.relation, True, (),
                    ADJECTIVES[g.army], g.points,
                )
            )  # fmt: skip
    for x in view.leaderless:
        label = ADJECTIVES[x.army] if x.points is None else f"{ADJECTIVES[x.army]} {x.points}"
        out.append(
            Counter(x.hex, "leaderless", x.army, label, x.relation, False, ("D",), label, x.points)
        )
    for t in view.siege_trains:
        out.append(
            Counter(
                t.hex, "siege-train", t.army, siege_train_name(t.id), Relation.OWNER, t.inside,
                (), t.id,
            )
        )  # fmt: skip
    # A report is drawn where its force was seen, the latest of each force (or garrison) once.
    # An earlier turn's report of a force whose commander now stands elsewhere goes with him
    # (a leader's place is public, 3.1.1): left where it was made it read as the points of
    # whatever stands there now, the seat's own counters included (the tester's "271 (turn 1)"
    # beside his own Wedel).
    now_at = {
        x.key: f.hex for f in view.forces if f.relation is not Relation.OWNER for x in f.leaders
    }
    latest: dict[tuple, tuple[str, ReportView]] = {}
    for r in view.reports:
        moved = not r.garrison and r.commander and r.turn < view.turn
        here = now_at.get(r.commander, r.hex) if moved else r.hex
        key = ("force", r.commander) if r.commander and not r.garrison else (r.hex, r.army.value)
        latest.setdefault(key, (here, r))
    for here, r in latest.values():
        out.append(Counter(here, "report", r.army, f"{r.points} (turn {r.turn})", Relation.ENEMY))
    return tuple(out)


def seat_of_army(army: Army, players: int) -> Seat:
    return seat_map(players)[army]
