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

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import Q
from django.urls import reverse
from django.utils.dateformat import format as date_format
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
    finds the same; a campaign with no news moment yet has none after the visit either, and
    the first letter or act sets it). The deadline hour's reloads write nothing (issue 44).
    Whether it wrote."""
    if (
        since is not None
        and told is not None
        and not told
        and since.version is not None
        and latest is not None
        and since.version_pk == latest.id
        and not _after(seat.campaign.news_at, since)  # (no news at all: none since either)
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
    seat: Seat, since: Since, *, latest: StateVersion | None, window: PhaseWindow | None = None
) -> CatchUp:
    """``catch_up``, kept beside the seat's view of ``latest`` under every input it reads
    besides the database's rows: the visit it counts from, the campaign's news moment
    (``Campaign.news_at``: a letter written or an act of the organiser since moves it, so a
    list kept before them is never served after) and the open window's deadline and grace.
    The worker that resolved the phase makes it for each seat's last visit (``orders.warmup``),
    so the first dashboard after a resolution finds it made."""
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
        seat, latest, key, lambda: catch_up(seat, since, latest=latest, window=window)
    )


def catch_up(
    seat: Seat,
    since: Since,
    *,
    latest: StateVersion | None,
    window: PhaseWindow | None = None,
) -> CatchUp:
    """What changed for ``seat`` after ``since``, as the seat may know it: ``latest`` is the
    campaign's latest version (read already), ``window`` its open window (for a deadline moved
    by grace). No state is decoded: friend and foe are the latest version's, kept
    (``viewcache.alliances``)."""
    if latest is None:
        return CatchUp(since, ())
    code = seat.code
    ranked: list[tuple[int, Line]] = []
    # A version made after the visit: by its row id, so that a phase the organiser rolled back
    # and that was resolved again counts, though its number was seen before.
    moved = since.version is None or latest.id > since.version_pk
    if moved:
        ranked += _phases(seat, since, latest)
        ranked += _caretaker(seat, since)
    # A battle is set up, and decided, by a phase resolved: none is new without a version.
    ranked += _battles(seat, since, _seat_battles(seat, since) if moved else [])
    # Letters and the organiser's acts only when the campaign had news after the visit
    # (``Campaign.news_at``), or, for a courier's letter, a phase resolved since.
    news = _after(seat.campaign.news_at, since) or seat.campaign.news_at is None
    if news or moved:
        ranked += [
            (FIRST, Line(f"A letter from the {sender}", reverse("letters", args=[code])))
            for sender in _letters(seat, since, latest.number)
        ]
    if news:
        ranked += _actions(seat, since)
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
        ranked.append((FIRST, Line(text, reverse("orders:dashboard", args=[code]))))
    return _cut(since, ranked, code)


def _cut(since: Since, ranked: list[tuple[int, Line]], code) -> CatchUp:
    """At most ``MAX_LINES``: the first by priority, in their order, and one line for the rest,
    linking to the seat's (``code``) history."""
    if len(ranked) <= MAX_LINES:
        return CatchUp(since, tuple(line for _, line in ranked))
    history = reverse("orders:history", args=[code])
    keep = MAX_LINES - 1
    chosen = sorted(range(len(ranked)), key=lambda i: (ranked[i][0], i))[:keep]
    more = len(ranked) - keep
    lines = [ranked[i][1] for i in sorted(chosen)]
    lines.append(Line(f"and {more} more in the history", history))
    return CatchUp(since, tuple(lines), more)


def _after(moment: datetime | None, since: Since) -> bool:
    return moment is not None and (since.at is None or moment > since.at)


def _phases(seat: Seat, since: Since, latest: StateVersion) -> list[tuple[int, Line]]:
    """A line per turn with phases resolved since, each followed by the seat's own forces'
    events of that turn, as its projection tells them."""
    versions = StateVersion.objects.filter(campaign_id=seat.campaign_id)
    if since.version is not None:
        # the seen one too, for the turn of the next
        versions = versions.filter(id__gte=since.version_pk)
    # Each phase resolved, under the turn it was played in: the turn of the version it was
    # resolved from (the retreats and rallies of turn 1 make a version of turn 2).
    by_turn: dict[int, list[tuple[int, str]]] = {}
    before = (None, None)  # the number and turn of the version before
    for pk, number, turn, phase in versions.order_by("number").values_list(
        "id", "number", "turn", "resolved_phase"
    ):
        new = since.version is None or pk > since.version_pk
        if phase and new:
            played_in = before[1] if before[0] == number - 1 else turn
            by_turn.setdefault(played_in, []).append((number, phase))
        before = (number, turn)
    if not by_turn:
        return []
    events = _own_events(seat, since)
    viewer = seat_viewer(seat)
    if events:  # friend and foe as the latest state has them, kept (no state decoded)
        viewer = viewer.with_alliances(viewcache.alliances(latest))
    deploying = latest.phase == Phase.DEPLOYMENT.value and not latest.turn > 1
    code = seat.code
    out: list[tuple[int, Line]] = []
    for turn, resolved in by_turn.items():
        last = resolved[-1][0]
        words = [PHASE_WORDS.get(phase, phase.replace("-", " ")) for _, phase in resolved]
        if len(words) == 1:
            text = f"Turn {turn}: the {words[0]} phase resolved"
        else:
            text = f"Turn {turn}: {len(words)} phases resolved, {words[0]} to {words[-1]}"
        out.append((FIRST, Line(text, reverse("orders:report_version", args=[code, last]))))
        numbers = {n for n, _ in resolved}
        for number, event in events:
            if number not in numbers:
                continue
            for told in bound_news_lines(viewer, deploying, events=[(turn, event)]):
                url = reverse("orders:report_version", args=[code, number])
                out.append((SECOND, Line(told, url)))
    return out


def _caretaker(seat: Seat, since: Since) -> list[tuple[int, Line]]:
    """One line for the turns since the visit in which the caretaker gave the seat's orders
    ("The caretaker gave your orders in turns 2 and 3"), each turn a link to the report of
    the phase it played. Its events are public and name the seat (``data["seat"]``); one that
    says it gave nothing (a forced march it never makes, ``data["gave"]`` false) is no turn."""
    rows = Event.objects.filter(campaign_id=seat.campaign_id, kind=EventKind.CARETAKER.value)
    if since.version is not None:
        rows = rows.filter(version_id__gt=since.version_pk)
    played = []
    for data, number, turn in rows.order_by("version__number", "seq").values_list(
        "data", "version__number", "version__turn"
    ):
        data = data if isinstance(data, dict) else {}
        if data.get("seat") == seat.power and data.get("gave") is not False:
            played.append((number, turn))
    if not played:
        return []
    # The version a phase made is of the turn it was played in, but a turn's last phase makes
    # the next turn's first version: the report's turn is the version before's (one query).
    before = dict(
        StateVersion.objects.filter(
            campaign_id=seat.campaign_id, number__in={n - 1 for n, _t in played}
        ).values_list("number", "turn")
    )
    turns: dict[int, int] = {}  # turn -> the number of the first version it played in
    for number, turn in played:
        turns.setdefault(before.get(number - 1, turn), number)
    code = seat.code
    links = tuple(
        (f"turn {t}", reverse("orders:report_version", args=[code, n])) for t, n in turns.items()
    )
    names = [str(t) for t in turns]
    said = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    text = f"The caretaker gave your orders in turn{'s' if len(names) > 1 else ''} {said}"
    return [(FIRST, Line(text, links[0][1], links))]


def _own_events(seat: Seat, since: Since) -> list[tuple[int, EngineEvent]]:
    """The events since the visit that concern the seat's armies, by version number: those
    addressed to them, and the public ones whose numbers name one. The projection still decides
    what of them the seat reads (``news_lines``)."""
    rows = Event.objects.filter(campaign_id=seat.campaign_id, kind__in=FORCE_KINDS)
    if since.version is not None:
        rows = rows.filter(version_id__gt=since.version_pk)
    armies = set(seat.armies)
    out = []
    for e in rows.order_by("version__number", "seq").values(
        "rule", "kind", "text", "data", "public", "armies", "version__number"
    ):
        data = e["data"] if isinstance(e["data"], dict) else {}
        named = {str(data.get(k)) for k in ARMY_KEYS if data.get(k)}
        if not (armies & set(e["armies"] or ()) or (e["public"] and armies & named)):
            continue
        audience = None if e["public"] else frozenset(Army(a) for a in e["armies"] or ())
        event = EngineEvent(e["rule"], EventKind(e["kind"]), e["text"], data, audience)
        out.append((e["version__number"], event))
    return out


def _battles(seat: Seat, since: Since, battles: list[Battle]) -> list[tuple[int, Line]]:
    """The battles of the seat's armies set up or decided since (their dates are the
    organiser's acts, ``_actions``)."""
    out = []
    for b in battles:
        url = reverse("battles:battle", args=[seat.campaign.code, b.code])
        if b.applied_at is not None and _after(b.applied_at, since):
            out.append((FIRST, Line(f"The battle at {b.hex} (turn {b.turn}) is decided", url)))
        elif _after(b.created, since):
            out.append((FIRST, Line(f"A battle at {b.hex} to fight on the tabletop", url)))
    return out


def _letters(seat: Seat, since: Since, latest: int) -> list[str]:
    """The senders of the letters that reached the seat since: arrived by a phase resolved
    since, or written since and delivered at once. Their words stay on the letters page."""
    rows = Letter.objects.filter(recipients=seat, arrives_version__lte=latest)
    if since.version is not None:
        rows = rows.filter(Q(arrives_version__gt=since.version) | Q(sent__gt=since.at))
    return list(rows.order_by("sent", "id").values_list("sender__label", flat=True))


def _actions(seat: Seat, since: Since) -> list[tuple[int, Line]]:
    """The organiser's acts since, from the log every player reads; an act on a battle links
    to the battle when the seat's armies are in it (its battles read only then)."""
    rows = OrganiserAction.objects.filter(campaign_id=seat.campaign_id, kind__in=TOLD_ACTIONS)
    if since.at is not None:
        rows = rows.filter(created__gt=since.at)
    actions = list(rows.order_by("created", "id").values_list("kind", "text", "data"))
    if not actions:
        return []
    battles = []
    if any(kind == OrganiserActionKind.BATTLE for kind, _, _ in actions):
        battles = _seat_battles(seat)
    mine = {str(b.code) for b in battles}
    log = reverse("action_log", args=[seat.campaign.code])
    out = []
    for _kind, text, data in actions:
        battle = str((data if isinstance(data, dict) else {}).get("battle", ""))
        url = log
        if battle in mine:
            url = reverse("battles:battle", args=[seat.campaign.code, battle])
        out.append((FIRST, Line(text, url)))
    return out


def _seat_battles(seat: Seat, since: Since | None = None) -> list[Battle]:
    """The campaign's battles the seat's armies are in (a few a season); with ``since``, only
    those set up or decided after it."""
    rows = Battle.objects.filter(campaign_id=seat.campaign_id)
    if since is not None and since.at is not None:
        rows = rows.filter(Q(created__gt=since.at) | Q(applied_at__gt=since.at))
    return [b for b in rows.order_by("created", "id") if side_of_seat(b, seat) is not None]
