"""Since you last looked: what changed for a seat since its player's last visit, in at most
ten lines, each a link to the page where it is told. The dashboard opens with it and the
daily digest begins with it (docs/catch-up.md).

Only what the seat may know, read from what it already reads: the phases resolved (every seat
sees the list of versions on its history page), the events of the campaign's log that concern
its own armies, passed through the seat's projection (``campaign.projection.news_lines``, the
same filter as its reports and emails: an event another seat alone may read never reaches it,
and a public one is masked as the projection masks it), the battles its armies are in, the
letters addressed to it, and the organiser's log, which every player reads. Never the state.

Worked example: a Prussian player away for two turns comes back to::

    Turn 1: 10 phases resolved, deployment to retreat and rally   -> the report of its last
    Frederick's force loses 160 points: 5% siege + 10% winter (7.1) -> the report that told it
    Turn 2: the march phase resolved                                -> its report
    A letter from the Hanoverian player                             -> the letters page
    Extended the march deadline of turn 2 by 24 hours.              -> the organiser's log

and, with more than ten, the least important (his forces' events) give way to one last line,
"and 7 more in the history", linking to the history page.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.core.cache import cache
from django.db import connection
from django.db.models import Q
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.dateformat import format as date_format
from django.utils.text import capfirst
from django.utils.timezone import localtime

from battles.models import Battle
from battles.services.records import side_of_seat
from campaign.models import (
    Event,
    OrganiserAction,
    OrganiserActionKind,
    PhaseWindow,
    Seat,
    StateVersion,
)
from campaign.projection import bound_news_lines
from campaign.services import viewcache
from campaign.services.knowledge import seat_viewer
from letters.models import Letter
from orders.models import SeatVisit
from rules.armies import Army
from rules.events import Event as EngineEvent
from rules.events import EventKind
from rules.state import Phase

MAX_LINES = 10

# What the engine tells that changes a seat's forces (losses and gains, captures, orders
# refused): the kinds worth a line of their own. Marches, supply and reconnaissance stay in the
# reports the phase lines link to.
FORCE_KINDS = frozenset(
    k.value
    for k in (
        EventKind.ORDER_REJECTED,
        EventKind.DEPLOYMENT_REJECTED,
        EventKind.UNSUPPLIED,
        EventKind.FORCED_MARCH_FAILED,
        EventKind.CITY_CONTROL,
        EventKind.ATTRITION,
        EventKind.BATTLE,
        EventKind.RETIRED,
        EventKind.ROUTED,
        EventKind.RETREAT,
        EventKind.DEMORALIZED,
        EventKind.RALLIED,
        EventKind.RALLY_FAILED,
        EventKind.BREACH,
        EventKind.HONORS_OF_WAR,
        EventKind.SURRENDER,
        EventKind.FORTRESS_CAPTURED,
        EventKind.LEADER_CAPTURED,
        EventKind.LEADER_KILLED,
        EventKind.SIEGE_TRAIN_CAPTURED,
        EventKind.PRISONERS,
        EventKind.VICTORY_POINTS,
        EventKind.ARMY_SURRENDERS,
        EventKind.FATE,
    )
)
# The organiser's acts that change a player's game (the log has them all).
TOLD_ACTIONS = frozenset(
    {
        OrganiserActionKind.PAUSED,
        OrganiserActionKind.RESUMED,
        OrganiserActionKind.EXTENDED,
        OrganiserActionKind.ROLLED_BACK,
        OrganiserActionKind.REPLACED,
        OrganiserActionKind.ENDED,
        OrganiserActionKind.RESOLVED_NOW,
        OrganiserActionKind.OPTIONS,
        OrganiserActionKind.RESEEDED,
        OrganiserActionKind.REOPENED,
        OrganiserActionKind.BATTLE,
        OrganiserActionKind.NEXT_YEAR,
        OrganiserActionKind.CARETAKER,
        OrganiserActionKind.POLICY,
    }
)
# (The caretaker's events name the seat it played, ``data["seat"]``: one line for all of them,
# ``_caretaker``.)
# The army named in a public event's numbers (``data``): the event is about that army.
ARMY_KEYS = ("army", "from", "by", "loser", "winner")

PHASE_WORDS = {"march-allocation": "march allocation", "retreat-rally": "retreat and rally"}

# Priority of a line when more than ten compete: the phases, letters, battles and the
# organiser's acts first, then the forces' events (which the phase's report repeats).
FIRST, SECOND = 0, 1


@dataclass(frozen=True)
class Since:
    """The seat's last visit: the campaign's latest version number then and the moment.
    ``version`` None: never (everything counts)."""

    version: int | None = None
    at: datetime | None = None
    version_pk: int = 0  # that version's row id (``SeatVisit.seen_version_pk``)


@dataclass(frozen=True)
class Line:
    text: str
    url: str
    more: tuple[tuple[str, str], ...] = ()  # links of their own within the line (label, url)


@dataclass(frozen=True)
class CatchUp:
    since: Since
    lines: tuple[Line, ...]  # at most MAX_LINES, the last one "and N more" when cut
    more: int = 0  # how many lines gave way to the last

    def __bool__(self) -> bool:
        return bool(self.lines)


def last_visit(seat: Seat) -> Since:
    """The seat's last visit of its dashboard: read with the seat by ``orders.access``
    (``select_related("visit")``), else one query."""
    try:
        visit = seat.visit
    except SeatVisit.DoesNotExist:
        return Since()
    if visit.user_id != seat.user_id:  # another player's: the seat changed hands since
        return Since()
    return Since(visit.seen_version, visit.seen_at, visit.seen_version_pk)


def record_visit(
    seat: Seat,
    latest: StateVersion | None,
    *,
    now: datetime,
    since: Since | None = None,
    told: CatchUp | None = None,
) -> bool:
    """The seat's player has seen the dashboard at ``now``: one statement, an upsert that
    SQLite and PostgreSQL both speak (``bulk_create``'s would add a transaction around it).
    Not even that when the visit changes nothing (``since``, the visit it was ``told`` from,
    saw this version and it told nothing new: the next visit counts from the same moment and
    finds the same). The deadline hour's reloads write nothing (issue 44). Whether it wrote.

    Never by the campaign's news moment (``Campaign.news_at``): it moves with every letter and
    every act logged, another seat's too (a letter between two others, orders another seat
    mailed), and a visit written for news the seat does not read would show its player "Your
    last visit" moved, telling him that something he may not know happened (secrecy audit of
    30 November 2026, second; ``tests/fog/test_mail_orders_log.py``). Such news, unread, is
    unread again on the next visit: the list is the same."""
    if (
        since is not None
        and told is not None
        and not told
        and since.version is not None
        and latest is not None
        and since.version_pk == latest.id
    ):
        return False
    table = connection.ops.quote_name(SeatVisit._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (seat_id, user_id, seen_at, seen_version, seen_version_pk) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (seat_id) DO UPDATE SET user_id = "
            "excluded.user_id, seen_at = excluded.seen_at, seen_version = "
            "excluded.seen_version, seen_version_pk = excluded.seen_version_pk",
            [
                seat.id,
                seat.user_id,
                connection.ops.adapt_datetimefield_value(now),
                latest.number if latest is not None else 0,
                latest.id if latest is not None else 0,
            ],
        )
    return True


def kept_catch_up(
    seat: Seat,
    since: Since,
    *,
    latest: StateVersion | None,
    window: PhaseWindow | None = None,
    shared: Shared | None = None,
) -> CatchUp:
    """``catch_up``, kept beside the seat's view of ``latest`` under every input it reads
    besides the database's rows: the visit it counts from, the campaign's news moment
    (``Campaign.news_at``: a letter written or an act of the organiser since moves it, so a
    list kept before them is never served after) and the open window's deadline and grace.
    The worker that resolved the phase makes it for each seat's last visit (``orders.warmup``,
    with one ``Shared`` for all the seats), so the first dashboard after a resolution finds it
    made."""
    if latest is None:
        return CatchUp(since, ())
    news = seat.campaign.news_at
    key = ":".join(
        str(x)
        for x in (
            "catchup",
            since.version_pk if since.version is not None else "never",
            since.at.timestamp() if since.at else "",
            news.timestamp() if news else "",
            window.id if window is not None else "",
            window.deadline.timestamp() if window is not None and window.deadline else "",
            window.graced_from.timestamp() if window is not None and window.graced_from else "",
        )
    )
    return viewcache.derived(
        seat,
        latest,
        key,
        lambda: catch_up(seat, since, latest=latest, window=window, shared=shared),
    )


def catch_up(
    seat: Seat,
    since: Since,
    *,
    latest: StateVersion | None,
    window: PhaseWindow | None = None,
    shared: Shared | None = None,
) -> CatchUp:
    """What changed for ``seat`` after ``since``, as the seat may know it: ``latest`` is the
    campaign's latest version (read already), ``window`` its open window (for a deadline moved
    by grace), ``shared`` the campaign's rows read once for several seats (the worker's). No
    state is decoded: friend and foe are the latest version's, kept (``viewcache.alliances``)."""
    if latest is None:
        return CatchUp(since, ())
    shared = shared if shared is not None else Shared(seat.campaign_id)
    code = seat.code
    ranked: list[tuple[int, Line]] = []
    hidden = 0
    # A version made after the visit: by its row id, so that a phase the organiser rolled back
    # and that was resolved again counts, though its number was seen before.
    moved = since.version is None or latest.id > since.version_pk
    if moved:
        told = _told(seat, since, latest, shared)
        ranked += _phases(seat, told)
        ranked += _caretaker(seat, told)
        hidden = told.hidden
    # A battle is set up, and decided, by a phase resolved: none is new without a version.
    ranked += _battles(seat, since, _seat_battles(seat, shared, since) if moved else [])
    # Letters and the organiser's acts only when the campaign had news after the visit
    # (``Campaign.news_at``), or, for a courier's letter, a phase resolved since.
    news = _after(seat.campaign.news_at, since) or seat.campaign.news_at is None
    if news or moved:
        ranked += [
            (FIRST, Line(f"A letter from the {sender}", _url("letters", code)))
            for sender in shared.letters(seat, since, latest.number)
        ]
    if news:
        ranked += _actions(seat, since, shared)
    if window is not None and window.graced_from and _after(window.graced_from, since):
        when = "later"
        if window.deadline is not None:
            zone = ZoneInfo(seat.campaign.time_zone)
            when = date_format(localtime(window.deadline, zone), "D j M, H:i T")
        # (the grace runs from the sweep that gave it, a minute or so after the old deadline)
        moved = ""
        if window.deadline is not None:
            hours = int((window.deadline - window.graced_from).total_seconds() // 3600)
            moved = f" by {hours} hour{'' if hours == 1 else 's'} of grace,"
        text = f"The {window.phase} deadline moved{moved} to {when}, for the seats missing"
        ranked.append((FIRST, Line(text, _url("orders:dashboard", code))))
    return _cut(since, ranked, code, hidden)


def _cut(since: Since, ranked: list[tuple[int, Line]], code, hidden: int = 0) -> CatchUp:
    """At most ``MAX_LINES``: the first by priority, in their order, and one line for the rest,
    linking to the seat's (``code``) history. ``hidden``: the forces' lines left out of
    ``ranked`` (``Told.hidden``), all after its own forces' lines: they never outrank them."""
    if len(ranked) + hidden <= MAX_LINES:
        return CatchUp(since, tuple(line for _, line in ranked))
    history = _url("orders:history", code)
    keep = MAX_LINES - 1
    chosen = sorted(range(len(ranked)), key=lambda i: (ranked[i][0], i))[:keep]
    more = len(ranked) + hidden - keep
    lines = [ranked[i][1] for i in sorted(chosen)]
    lines.append(Line(f"and {more} more in the history", history))
    return CatchUp(since, tuple(lines), more)


def _after(moment: datetime | None, since: Since) -> bool:
    return moment is not None and (since.at is None or moment > since.at)


def _url(name: str, *args) -> str:
    """``reverse``, kept per process (``_path``): the lines of a season name the same pages of
    the same seats warm-up after warm-up."""
    return _path(get_urlconf(), get_script_prefix(), name, args)


@functools.lru_cache(maxsize=4096)
def _path(urlconf, prefix: str, name: str, args: tuple) -> str:
    return reverse(name, args=args, urlconf=urlconf)


# The kinds of event the versions since a visit are read for: the forces' and the caretaker's.
TOLD_KINDS = FORCE_KINDS | {EventKind.CARETAKER.value}


@dataclass(frozen=True)
class TurnTold:
    """A turn with phases resolved since the visit: its phases (version number, phase), in
    order, and the first of the lines its phases told of the seat's forces (``Told``)."""

    turn: int
    resolved: tuple[tuple[int, str], ...]
    lines: tuple[Line, ...] = ()


@dataclass(frozen=True)
class Told:
    """What the versions made after a visit tell a seat, up to one version (``at``): the turns
    with phases resolved, the first ``MAX_LINES`` lines of its forces' events and how many
    more (``hidden``: the forces' lines give way first and in their order, so those after the
    first ten are never shown, only counted), and the turns the caretaker played. Kept per
    seat and visit (``_told``) and extended by the next versions' rows alone: a seat away all
    season costs a warm-up what one back yesterday does."""

    at: tuple[int, int, int, float] | None = None  # the version: id, number, turn, created
    last: tuple[int, int] | None = None  # number and turn of the last version from the visit on
    turns: tuple[TurnTold, ...] = ()
    hidden: int = 0
    caretaker: tuple[tuple[int, int], ...] = ()  # (turn, number of the first version it played)
    told_as: tuple | None = None  # what the forces' lines were told under (``_told_as``)


class Shared:
    """A campaign's rows that every seat's catch-up at one version reads alike, read once: the
    versions (and their events of ``TOLD_KINDS``) after a version, its battles, its
    organiser's acts. The worker's warm-up makes one for all the seats; each seat still keeps
    only what its own armies may know (``_fold``, ``_seat_battles``)."""

    def __init__(self, campaign_id: int, *, every_seat: bool = False) -> None:
        """``every_seat``: made for all the campaign's seats (the worker's), so the letters to
        them are read once too (``letters``)."""
        self.campaign_id = campaign_id
        self.every_seat = every_seat
        self._after: dict[tuple, tuple[list[tuple], dict[int, list[dict]]] | None] = {}
        self._battles: list[Battle] | None = None
        self._actions: list[tuple] | None = None
        self._letters: tuple[int, dict[int, list[tuple]]] | None = None

    def letters(self, seat: Seat, since: Since, latest: int) -> list[str]:
        """``_letters``; for every seat, the letters that reached any of the campaign's seats
        by ``latest`` read once, each seat given those addressed to it."""
        if not self.every_seat:
            return _letters(seat, since, latest)
        if self._letters is None or self._letters[0] != latest:
            by_seat: dict[int, list[tuple]] = {}
            rows = Letter.recipients.through.objects.filter(
                letter__campaign_id=self.campaign_id, letter__arrives_version__lte=latest
            ).order_by("letter__sent", "letter__id")
            for seat_id, sender, arrives, sent in rows.values_list(
                "seat_id", "letter__sender__label", "letter__arrives_version", "letter__sent"
            ):
                by_seat.setdefault(seat_id, []).append((sender, arrives, sent))
            self._letters = (latest, by_seat)
        return [
            sender
            for sender, arrives, sent in self._letters[1].get(seat.id, ())
            if since.version is None
            or arrives > since.version
            or (since.at is not None and sent > since.at)
        ]

    def after(self, at: tuple | None, since_pk: int | None, latest: StateVersion):
        """The versions after ``at`` (a ``Told.at``; None: from the first) up to ``latest``,
        as (id, number, turn, resolved phase, created), and their events of ``TOLD_KINDS``
        made after the visit (``since_pk``) by version id; None when ``at``'s version is no
        longer there (rolled back)."""
        key = (at, since_pk, latest.id, latest.number)
        if key not in self._after:
            self._after[key] = self._read_after(at, since_pk, latest)
        return self._after[key]

    def _read_after(self, at, since_pk, latest):
        rows = StateVersion.objects.filter(campaign_id=self.campaign_id, number__lte=latest.number)
        if at is not None:
            rows = rows.filter(number__gte=at[1])
        versions = list(
            rows.order_by("number").values_list("id", "number", "turn", "resolved_phase", "created")
        )
        if at is not None:
            if not versions or (versions[0][0], versions[0][4].timestamp()) != (at[0], at[3]):
                return None
            versions = versions[1:]
        ids = [v[0] for v in versions if since_pk is None or v[0] > since_pk]
        events: dict[int, list[dict]] = {}
        if ids:
            for e in (
                Event.objects.filter(
                    campaign_id=self.campaign_id, kind__in=TOLD_KINDS, version_id__in=ids
                )
                .order_by("version__number", "seq")
                .values("rule", "kind", "text", "data", "public", "armies", "version_id")
            ):
                events.setdefault(e["version_id"], []).append(e)
        return versions, events

    def battles(self) -> list[Battle]:
        """The campaign's battles (a few a season), oldest first."""
        if self._battles is None:
            self._battles = list(
                Battle.objects.filter(campaign_id=self.campaign_id).order_by("created", "id")
            )
        return self._battles

    def actions(self) -> list[tuple]:
        """The organiser's acts a player is told of (``TOLD_ACTIONS``), oldest first: created,
        kind, text, data."""
        if self._actions is None:
            self._actions = list(
                OrganiserAction.objects.filter(campaign_id=self.campaign_id, kind__in=TOLD_ACTIONS)
                .order_by("created", "id")
                .values_list("created", "kind", "text", "data")
            )
        return self._actions


def _told_key(seat: Seat, since_pk: int | None) -> str:
    """Where the seat's ``Told`` since a visit is kept: one per seat, visit and audience (its
    armies, whether allies share), and the code that tells it (``viewcache.code_stamp``); the
    version it reaches is in the value, checked against the versions there now."""
    share = bool((seat.campaign.options or {}).get("allies_share", False))
    armies = ",".join(sorted(seat.armies))
    since = "never" if since_pk is None else since_pk
    return (
        f"{viewcache.PREFIX}:told:c{seat.campaign_id}:s{seat.id}:{armies}:share{int(share)}"
        f":since{since}:{viewcache.code_stamp()}"
    )


def _told_as(seat: Seat, latest: StateVersion) -> tuple:
    """What the seat's forces' lines are told under at ``latest``: its label, whether the state
    is a deployment phase, friend and foe as ``latest`` has them (kept, no state
    decoded). A ``Told`` made under others is made again from the visit on."""
    deploying = latest.phase == Phase.DEPLOYMENT.value  # (on any turn, as ``project``)
    return (seat.label, deploying, tuple(viewcache.alliances(latest).items()))


def _told(seat: Seat, since: Since, latest: StateVersion, shared: Shared) -> Told:
    """What the versions after ``since`` up to ``latest`` tell the seat: its ``Told`` kept
    from an earlier version, extended by the versions made since (``_fold``), else made from
    the visit on; kept again for the next."""
    since_pk = since.version_pk if since.version is not None else None
    key = _told_key(seat, since_pk)
    told = cache.get(key)
    stamp = (latest.id, latest.number, latest.turn, latest.created.timestamp())
    as_now = functools.cache(lambda: _told_as(seat, latest))
    if (
        not isinstance(told, Told)
        or told.at is None
        or told.at[1] > latest.number
        or (told.told_as is not None and told.told_as != as_now())
    ):
        told = Told()
    if told.at == stamp:
        return told
    rows = shared.after(told.at, since_pk, latest)
    if rows is None:  # its version was rolled back: from the visit on
        told = Told()
        rows = shared.after(None, since_pk, latest)
    told = _fold(seat, since_pk, told, *rows, as_now)
    if told.at == stamp:
        cache.set(key, told, viewcache.TIMEOUT)
    return told


def _fold(
    seat: Seat,
    since_pk: int | None,
    told: Told,
    versions: list[tuple],
    events: dict[int, list[dict]],
    as_now: Callable[[], tuple],
) -> Told:
    """``told`` extended by ``versions`` (the ones after its own, in order) and their
    ``events``: each phase resolved after the visit under the turn it was played in (the turn
    of the version before it, when that one counts: the retreats and rallies of turn 1 make a
    version of turn 2), with the lines its events of the seat's own forces tell through the
    seat's projection; the turns the caretaker gave the seat's orders in."""
    turns = {t.turn: (list(t.resolved), list(t.lines)) for t in told.turns}
    caretaker = dict(told.caretaker)
    at, last, hidden, told_as = told.at, told.last, told.hidden, told.told_as
    armies = set(seat.armies)
    code = seat.code
    viewer = None
    for pk, number, turn, phase, created in versions:
        new = since_pk is None or pk > since_pk
        rows = events.get(pk, ()) if new else ()
        if phase and new:
            played_in = last[1] if last is not None and last[0] == number - 1 else turn
            resolved, lines = turns.setdefault(played_in, ([], []))
            resolved.append((number, phase))
            for event in _own_events(rows, armies):
                if viewer is None:  # friend and foe as the latest state has them, kept
                    told_as = as_now()
                    viewer = seat_viewer(seat).with_alliances(dict(told_as[2]))
                for text in bound_news_lines(viewer, told_as[1], events=[(played_in, event)]):
                    lines.append(Line(text, _url("orders:report_version", code, number)))
        if since_pk is None or pk >= since_pk:  # (the seen one too, for the turn of the next)
            last = (number, turn)
        for row in rows:
            data = row["data"] if isinstance(row["data"], dict) else {}
            if row["kind"] != EventKind.CARETAKER.value or data.get("seat") != seat.power:
                continue
            if data.get("gave") is not False:  # the report's turn: the version before's
                before = at[2] if at is not None and at[1] == number - 1 else turn
                caretaker.setdefault(before, number)
        at = (pk, number, turn, created.timestamp())
    kept = []
    room = MAX_LINES
    for turn, (resolved, lines) in turns.items():
        hidden += max(0, len(lines) - room)
        kept.append(TurnTold(turn, tuple(resolved), tuple(lines[:room])))
        room = max(0, room - len(lines))
    return Told(at, last, tuple(kept), hidden, tuple(caretaker.items()), told_as)


def _phases(seat: Seat, told: Told) -> list[tuple[int, Line]]:
    """A line per turn with phases resolved since, each followed by the seat's own forces'
    events of that turn, as its projection tells them."""
    code = seat.code
    out: list[tuple[int, Line]] = []
    for t in told.turns:
        last = t.resolved[-1][0]
        words = [PHASE_WORDS.get(phase, phase.replace("-", " ")) for _, phase in t.resolved]
        if len(words) == 1:
            text = f"Turn {t.turn}: the {words[0]} phase resolved"
        else:
            text = f"Turn {t.turn}: {len(words)} phases resolved, {words[0]} to {words[-1]}"
        out.append((FIRST, Line(text, _url("orders:report_version", code, last))))
        out += [(SECOND, line) for line in t.lines]
    return out


def _caretaker(seat: Seat, told: Told) -> list[tuple[int, Line]]:
    """One line for the turns since the visit in which the caretaker gave the seat's orders
    ("The caretaker gave your orders in turns 2 and 3"), each turn a link to the report of
    the phase it played. Its events are public and name the seat (``data["seat"]``); one that
    says it gave nothing (a forced march it never makes, ``data["gave"]`` false) is no turn."""
    if not told.caretaker:
        return []
    code = seat.code
    links = tuple((f"turn {t}", _url("orders:report_version", code, n)) for t, n in told.caretaker)
    names = [str(t) for t, _n in told.caretaker]
    said = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    text = f"The caretaker gave your orders in turn{'s' if len(names) > 1 else ''} {said}"
    return [(FIRST, Line(text, links[0][1], links))]


def _own_events(rows, armies: set[str]) -> list[EngineEvent]:
    """Of a version's event rows, the forces' events that concern the seat's ``armies``: those
    addressed to them, and the public ones whose numbers name one. The projection still decides
    what of them the seat reads (``news_lines``)."""
    out = []
    for e in rows:
        if e["kind"] not in FORCE_KINDS:
            continue
        data = e["data"] if isinstance(e["data"], dict) else {}
        named = {str(data.get(k)) for k in ARMY_KEYS if data.get(k)}
        if not (armies & set(e["armies"] or ()) or (e["public"] and armies & named)):
            continue
        audience = None if e["public"] else frozenset(Army(a) for a in e["armies"] or ())
        out.append(EngineEvent(e["rule"], EventKind(e["kind"]), e["text"], data, audience))
    return out


def _battles(seat: Seat, since: Since, battles: list[Battle]) -> list[tuple[int, Line]]:
    """The battles of the seat's armies set up or decided since (their dates are the
    organiser's acts, ``_actions``)."""
    out = []
    for b in battles:
        url = _url("battles:battle", seat.campaign.code, b.code)
        if b.applied_at is not None and _after(b.applied_at, since):
            out.append((FIRST, Line(f"{capfirst(b.named)} (turn {b.turn}) is decided", url)))
        elif _after(b.created, since):
            out.append((FIRST, Line(f"{capfirst(b.named)}: to fight on the tabletop", url)))
    return out


def _letters(seat: Seat, since: Since, latest: int) -> list[str]:
    """The senders of the letters that reached the seat since: arrived by a phase resolved
    since, or written since and delivered at once. Their words stay on the letters page."""
    rows = Letter.objects.filter(recipients=seat, arrives_version__lte=latest)
    if since.version is not None:
        rows = rows.filter(Q(arrives_version__gt=since.version) | Q(sent__gt=since.at))
    return list(rows.order_by("sent", "id").values_list("sender__label", flat=True))


def _actions(seat: Seat, since: Since, shared: Shared) -> list[tuple[int, Line]]:
    """The organiser's acts since, from the log every player reads; an act on a battle links
    to the battle when the seat's armies are in it (its battles read only then)."""
    actions = [
        (kind, text, data)
        for created, kind, text, data in shared.actions()
        if since.at is None or created > since.at
    ]
    if not actions:
        return []
    battles = []
    if any(kind == OrganiserActionKind.BATTLE for kind, _, _ in actions):
        battles = _seat_battles(seat, shared)
    mine = {str(b.code) for b in battles}
    log = _url("action_log", seat.campaign.code)
    out = []
    for _kind, text, data in actions:
        battle = str((data if isinstance(data, dict) else {}).get("battle", ""))
        url = log
        if battle in mine:
            url = _url("battles:battle", seat.campaign.code, battle)
        out.append((FIRST, Line(text, url)))
    return out


def _seat_battles(seat: Seat, shared: Shared, since: Since | None = None) -> list[Battle]:
    """The campaign's battles the seat's armies are in (a few a season); with ``since``, only
    those set up or decided after it."""
    return [
        b
        for b in shared.battles()
        if (
            since is None
            or since.at is None
            or b.created > since.at
            or (b.applied_at is not None and b.applied_at > since.at)
        )
        and side_of_seat(b, seat) is not None
    ]
