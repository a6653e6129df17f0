"""What an audience knows of one state version: its ``View``, read from the database.

The projection (``campaign.projection``) decides the fog of war; this module only reads what it
needs from the database, so the player pages (``orders.access``) and the map pictures drawn by
the worker (``maps.pictures``) show one and the same view of a version for a seat.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, TextField
from django.db.models.functions import Cast

from campaign.models import Event, Seat, StateVersion
from campaign.projection import View, Viewer, project
from rules.armies import Army
from rules.events import Event as EngineEvent
from rules.events import EventKind
from rules.state import State, state_from_dict


def seat_viewer(seat: Seat) -> Viewer:
    """The seat as an audience: its armies, and its allies' secrets when the campaign shares
    them (``allies_share``)."""
    return Viewer.for_armies(
        seat.armies,
        allies_share=bool((seat.campaign.options or {}).get("allies_share", False)),
        label=seat.label,
    )


def _reports_for(seat: Seat, kind: EventKind) -> Q:
    """The events of ``kind`` that ``seat``'s view may keep, chosen in SQL: public ones and
    those addressed to one of its armies (the projection drops the others). With
    ``allies_share`` its allies' too, and who is an ally depends on the state (13.8): then
    every one is read and the projection chooses. Portable: the armies' JSON list is matched
    as text (``"prussia"`` with its quotes, so that ``"russia"`` never matches it)."""
    q = Q(kind=kind.value)
    if (seat.campaign.options or {}).get("allies_share", False):
        return q
    mine = Q(public=True)
    for army in seat.armies:
        mine |= Q(armies_text__contains=f'"{army}"')
    return q & mine


class VersionNews:
    """What every seat's view of one version reads alike, read once for them all (the worker
    that prepares the seats' pages, ``orders.warmup``): the events of this turn and the last,
    every reconnaissance event before them, and this turn's dice, read at the first view that
    needs them. Each seat's view takes from it only the rows its own query would read
    (``for_seat``: the same choice as ``_reports_for``), in the same order, so a seat's
    projection is handed no other seat's report.

    What one version's news read is kept in the process for the campaign's next version
    (``_Kept``): a version's events and dice never change once written, so the next warm-up
    reads only the versions made since, with their events (two light queries instead of the
    turn's whole news), unless a roll back took away the version kept: then it reads it all,
    as the first one does. Kept with them, what each audience was told of each event (``told``,
    ``projection.project(told=)``, by the audience's armies): an earlier turn's report is not
    projected again for the same seat at every version."""

    def __init__(self, version: StateVersion) -> None:
        self.version = version
        self._rows: list[Row] | None = None
        self._rolls: list | None = None
        # What each audience was told of these rows' events (``project(told=)``), kept too.
        self.told: dict = {}

    def _read(self) -> list[Row]:
        if self._rows is None:
            self._load()
        return self._rows  # type: ignore[return-value]

    def rolls(self) -> list:
        if self._rolls is None:
            self._load()
        return self._rolls  # type: ignore[return-value]

    def _load(self) -> None:
        version = self.version
        found = _since_kept(version)
        if found is None:
            found = _news_rows(version), _turn_rolls(version), {}
        self._rows, self._rolls, self.told = found
        with _kept_lock:
            _kept.pop(version.campaign_id, None)
            _kept[version.campaign_id] = _Kept(
                (version.id, version.created), version.number, version.turn, *found
            )
            while len(_kept) > KEPT_CAMPAIGNS:
                _kept.pop(next(iter(_kept)))

    def for_seat(self, seat: Seat) -> list[tuple[int, EngineEvent]]:
        """(turn, event) of the rows ``seat``'s own query reads (``seat_view``)."""
        recent = self.version.turn - 1
        share = bool((seat.campaign.options or {}).get("allies_share", False))
        own = set(seat.armies)
        recon = EventKind.RECONNAISSANCE.value
        return [
            (turn, event)
            for turn, kind, public, armies, event in self._read()
            if turn >= recent or (kind == recon and (share or public or own.intersection(armies)))
        ]


# An event row as ``VersionNews`` keeps it: (turn, kind, public, armies, the engine's event).
Row = tuple[int, str, bool, list, EngineEvent]


@dataclass(frozen=True)
class _Kept:
    """What ``VersionNews`` read for one version: its rows and its turn's dice."""

    version: tuple[int, datetime]  # the version's row id and creation time
    number: int
    turn: int
    rows: list[Row]
    rolls: list
    told: dict  # ``VersionNews.told``


# The last version's news each campaign's warm-up read in this process, by campaign id.
_kept: dict[int, _Kept] = {}
_kept_lock = threading.Lock()
KEPT_CAMPAIGNS = 64


def _news_rows(version: StateVersion, *, after: int | None = None) -> list[Row]:
    """The rows of the events of ``version``'s turn and the last and every reconnaissance
    event up to it, in the order made; ``after``: only those of the versions numbered above
    it."""
    rows = Event.objects.filter(
        campaign_id=version.campaign_id,
        version__campaign_id=version.campaign_id,  # the versions by (campaign, number)
        version__number__lte=version.number,
    ).filter(Q(version__turn__gte=version.turn - 1) | Q(kind=EventKind.RECONNAISSANCE.value))
    if after is not None:
        rows = rows.filter(version__number__gt=after)
    return [
        (turn, kind, public, armies or [], _event(rule, kind, text, data, public, armies))
        for turn, kind, public, armies, rule, text, data in rows.order_by(
            "version__number", "seq"
        ).values_list("version__turn", "kind", "public", "armies", "rule", "text", "data")
    ]


def _since_kept(version: StateVersion) -> tuple[list[Row], list, dict] | None:
    """``version``'s rows and dice made from those kept for an earlier version of its campaign
    and the versions made since; None when nothing is kept, or the version kept is gone (a
    roll back) or is not an earlier one (nor of an earlier or the same turn)."""
    kept = _kept.get(version.campaign_id)
    if kept is None or kept.number > version.number or kept.turn > version.turn:
        return None
    if kept.number == version.number:
        same = kept.version == (version.id, version.created)
        return (kept.rows, kept.rolls, kept.told) if same else None
    since = list(
        StateVersion.objects.filter(
            campaign_id=version.campaign_id,
            number__gte=kept.number,
            number__lte=version.number,
        )
        .order_by("number")
        .values_list("id", "created", "number", "turn", "rolls")
    )
    if not since or (since[0][0], since[0][1]) != kept.version or since[-1][0] != version.id:
        return None  # the version kept was rolled back (or this one is no longer the same)
    recent = version.turn - 1
    recon = EventKind.RECONNAISSANCE.value
    rows = [row for row in kept.rows if row[0] >= recent or row[1] == recon]
    rows += _news_rows(version, after=kept.number)
    rolls = list(kept.rolls) if kept.turn == version.turn else []
    for _, _, _, turn, made in since[1:]:
        if turn == version.turn:
            rolls.extend(made or [])
    # what each audience was told of the events still read (the others' let go)
    still = {id(row[4]) for row in rows}
    told = {
        audience: {key: was for key, was in seen.items() if key in still}
        for audience, seen in kept.told.items()
    }
    return rows, rolls, told


def _event(rule: str, kind: str, text: str, data, public: bool, armies) -> EngineEvent:
    """A stored event row as the projection reads one (``projection._as_event``)."""
    audience = None if public else _audience(tuple(armies))
    return EngineEvent(rule, EventKind(kind), text, dict(data), audience)


@functools.lru_cache(maxsize=256)
def _audience(armies: tuple[str, ...]) -> frozenset[Army]:
    """The armies of a stored event's audience (a few lists of army names recur in every
    row)."""
    return frozenset(Army.parse(a) for a in armies)


def _turn_rolls(version: StateVersion) -> list:
    """The dice of ``version``'s turn up to it, in the order made (on every database)."""
    rolls = []
    for v in (
        StateVersion.objects.filter(
            campaign_id=version.campaign_id, turn=version.turn, number__lte=version.number
        )
        .only("rolls")
        .order_by("number")
    ):
        rolls.extend(v.rolls or [])
    return rolls


def seat_view(
    seat: Seat,
    version: StateVersion,
    *,
    turn: int | None = None,
    state: State | None = None,
    news: VersionNews | None = None,
) -> View:
    """The seat's view of ``version``: its state, the events up to it (with the reports they
    carry) and this turn's dice. Three queries whatever the number of forces; ``state`` is the
    version's decoded state when the caller has it (``viewcache.version_state``).

    Pages read the events of this turn and the last (and every reconnaissance report, for the
    map); ``turn`` reads the events of that one turn instead (the handover page's earlier
    turns, one page each). An event is projected alone against the state, so the events of a
    turn read so are those of that turn in a view of the whole history. ``news``: the rows of
    ``version`` read once for every seat (``VersionNews``), which then reads none itself."""
    state = state if state is not None else state_from_dict(version.state)
    if news is not None and turn is None and news.version.id == version.id:
        events, rolls = news.for_seat(seat), news.rolls()
        return project(state, seat_viewer(seat), events=events, rolls=rolls, told=news.told)
    events = Event.objects.annotate(armies_text=Cast("armies", TextField())).filter(
        campaign_id=version.campaign_id,
        version__campaign_id=version.campaign_id,  # the versions by (campaign, number)
        version__number__lte=version.number,
    )
    if turn is not None:
        events = events.filter(version__turn=turn)
    else:
        events = events.filter(
            Q(version__turn__gte=version.turn - 1) | _reports_for(seat, EventKind.RECONNAISSANCE)
        )
    events = (
        events.select_related("version")
        .only("rule", "kind", "text", "public", "armies", "data", "version__turn")
        .order_by("version__number", "seq")
    )
    rolls = _turn_rolls(version)
    return project(state, seat_viewer(seat), events=events, rolls=rolls)


def umpire_view(version: StateVersion, *, state: State | None = None) -> View:
    """Everything, for the non-playing umpire: every force with its points, every garrison and
    siege train, every event and roll of this turn and the last."""
    events = (
        Event.objects.filter(
            campaign_id=version.campaign_id,
            version__campaign_id=version.campaign_id,
            version__number__lte=version.number,
            version__turn__gte=version.turn - 1,
        )
        .select_related("version")
        .only("rule", "kind", "text", "public", "armies", "data", "version__turn")
        .order_by("version__number", "seq")
    )
    state = state if state is not None else state_from_dict(version.state)
    return project(
        state, Viewer.umpire_view(), events=events,
        rolls=version.rolls or [],
    )  # fmt: skip
