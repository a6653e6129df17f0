"""Resolving phases: exactly once, in one transaction, then on to the next window.

``resolve_due_phase(window_id, now=...)`` is the one way a phase resolves. It locks the window,
checks it is due (its deadline passed, or every awaited seat is ready), claims it with a
conditional update (0 rows: another worker got there first), reads the ready order sheets
(a seat without one stands still and is told so), runs the engine with the campaign's seeded dice,
inserts the new state version and its events, runs the automatic phases that follow straight
through, and opens the next window with its deadline. All of it is one transaction: a crash
leaves no half-written state, and the unique (campaign, number) of state versions makes a
duplicate resolution fail to insert. Emails, and the seats' map pictures of the new version
(``maps.picture_queue``), are queued only when the transaction commits.
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, Func, IntegerField, Q
from django.utils import timezone

from campaign import signals
from campaign.models import (
    Campaign,
    CampaignStatus,
    PhaseWindow,
    Seat,
    StateVersion,
    WindowStatus,
)
from campaign.models import (
    Event as EventRow,
)
from campaign.services import (
    caretaker,
    deadlines,
    fateclock,
    gameplay,
    outgoing,
    queue,
    standstill,
    viewcache,
)
from rules.events import Event, event_from_dict
from rules.state import Phase, State

logger = logging.getLogger(__name__)

# A turn has nine phases: a chain of automatic phases longer than this is a bug, not a campaign.
MAX_AUTOMATIC = 40


@dataclass
class Notices:
    """Emails to queue when the transaction commits: (kind, seat id) per resolution."""

    since_version: int
    opened: list[tuple[str, int]] = field(default_factory=list)
    resolved: list[int] = field(default_factory=list)
    over: bool = False
    early: str = ""  # the phase the organiser resolved before its deadline
    # The campaign's seats as the resolution read them, and the last version it made: what
    # the emails and map pictures queued after it need not read again.
    seats: list[Seat] | None = None
    latest: StateVersion | None = None
    # The window it opened (None: the campaign is over), and the versions it made with their
    # events, when it made them all (``Writes.written``): one resolution's emails start from
    # these in the process that resolved it (``email._HANDOFFS``).
    window: PhaseWindow | None = None
    written: list[tuple[StateVersion, list[dict]]] | None = None

    def events(self) -> list[tuple[int, Event]]:
        """Every event written, as (turn, engine event): what reading their rows back gives
        (``email._events_since``), without the query; made only for emails that use it."""
        return [
            (version.turn, event_from_dict(e)) for version, events in self.written for e in events
        ]


def _kind_of(phase: Phase) -> str:
    return phase.value


class Writes:
    """The state versions one resolution makes, with their events, inserted together
    (``flush``): the versions (``insert_versions``), then all their events in one query, not
    one per version. Flushed before anything refers to a version (a window) and before the
    resolution returns."""

    def __init__(self) -> None:
        self.versions: list[StateVersion] = []
        self.events: list[tuple[StateVersion, list[dict]]] = []
        self.written: list[tuple[StateVersion, list[dict]]] = []  # flushed, in order

    def add(self, version: StateVersion, events: list[dict]) -> None:
        self.versions.append(version)
        self.events.append((version, events))

    def flush(self) -> None:
        if not self.versions:
            return
        insert_versions(self.versions)
        insert_event_rows(
            [row for version, events in self.events for row in _event_rows(version, events)]
        )
        self.written += self.events
        self.versions, self.events = [], []


def insert_versions(versions: list[StateVersion]) -> None:
    """Insert new state versions, their ids set as ``save`` would. On PostgreSQL, two or more
    in two statements whatever their number: their ids taken from the table's sequence, then
    the rows by ``COPY`` (a resolution makes four on average: the phase played and the
    automatic ones after it). A multi-row ``INSERT`` is slower there (Django sends the rows as
    arrays, ``UNNEST``, and psycopg escapes each 25 KiB state into an array literal), and one
    ``INSERT`` a version is a round trip each. Elsewhere, and for one version, ``save``. A
    number taken already raises IntegrityError, as an ``INSERT`` would."""
    if connection.vendor != "postgresql" or len(versions) < 2:
        for version in versions:
            version.save(force_insert=True)
        return
    meta = StateVersion._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [meta.db_table, len(versions)],
        )
        ids = sorted(row[0] for row in cursor.fetchall())
        copy_rows(
            cursor,
            meta.db_table,
            ["id", *(f.column for f in fields)],
            (
                [pk, *(f.get_db_prep_save(getattr(version, f.attname), connection) for f in fields)]
                for version, pk in zip(versions, ids, strict=True)
            ),
        )
    for version, pk in zip(versions, ids, strict=True):
        version.pk = pk
        version._state.adding = False
        version._state.db = connection.alias


def insert_version(
    campaign: Campaign,
    number: int,
    outcome: gameplay.Outcome,
    *,
    orders: dict,
    extra_events: list[dict],
    now: datetime,
    writes: Writes | None = None,
) -> tuple[StateVersion, State | None]:
    """Insert one state version with its events (with ``writes``, when it is flushed); an
    IntegrityError if the number exists. A phase that closes a turn draws a card of fate first
    when the clock strikes every turn. Returns the version and its state decoded (the card of
    fate applied), when the engine gave it decoded."""
    outcome = fateclock.at_turn_end(campaign, outcome)
    state = outcome.state
    version = StateVersion(
        campaign=campaign,
        number=number,
        turn=state["turn"],
        resolved_phase=outcome.phase.value,
        phase=state["phase"],
        state=state,
        rolls=outcome.rolls,
        seed_epoch=campaign.seed_epoch,
        reports=outcome.reports,
        orders=orders,
        created=now,
    )
    if writes is not None:
        writes.add(version, extra_events + outcome.events)
    else:
        version.save(force_insert=True)
        store_events(version, extra_events + outcome.events)
    return version, outcome.decoded


def _event_rows(version: StateVersion, events: list[dict]) -> list[EventRow]:
    return [
        EventRow(
            campaign_id=version.campaign_id,
            version=version,
            seq=i,
            rule=e.get("rule", ""),
            kind=e["kind"],
            text=e["text"],
            public=e.get("audience") == "public",
            armies=[] if e.get("audience") == "public" else list(e.get("audience") or []),
            data=e.get("data") or {},
        )
        for i, e in enumerate(events)
    ]


def store_events(version: StateVersion, events: list[dict]) -> None:
    insert_event_rows(_event_rows(version, events))


EVENT_COLUMNS = (
    "campaign_id",
    "version_id",
    "seq",
    "rule",
    "kind",
    "text",
    "public",
    "armies",
    "data",
)


def insert_event_rows(rows: list[EventRow]) -> None:
    """Insert event rows (their ids are not read back). On PostgreSQL by ``COPY`` (psycopg's
    ``Cursor.copy``): a resolution writes a few rows per phase, and an ``INSERT`` through
    ``bulk_create`` costs 2.3x as much (a season's 1,400 rows in 150 batches: 0.40 s against
    0.17 s, ``bench/event_insert_bench.py``). Elsewhere ``bulk_create``."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        EventRow.objects.bulk_create(rows)
        return
    with connection.cursor() as cursor:
        copy_rows(
            cursor,
            EventRow._meta.db_table,
            EVENT_COLUMNS,
            (
                (
                    row.campaign_id, row.version_id, row.seq, row.rule, row.kind, row.text,
                    row.public, json.dumps(row.armies), json.dumps(row.data),
                )
                for row in rows
            ),
        )  # fmt: skip


def copy_rows(cursor, table: str, columns, rows) -> None:
    """``COPY`` ``rows`` (values in the order of ``columns``) into ``table`` through
    ``cursor`` (PostgreSQL, psycopg's ``Cursor.copy``). Errors are raised as Django's
    (``wrap_database_errors``): a broken constraint is an IntegrityError, as an INSERT's is."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(c) for c in columns)
    with (
        connection.wrap_database_errors,
        cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)


def open_next(
    campaign: Campaign,
    version: StateVersion,
    *,
    now: datetime,
    notices: Notices | None = None,
    state: State | None = None,
    seats: list[Seat] | None = None,
    writes: Writes | None = None,
    keep_deadline: tuple[str, int, datetime] | None = None,
) -> PhaseWindow | None:
    """From ``version``, run automatic phases straight through until a phase waits for
    players (open its window and return it) or the campaign ends (return None). ``state`` is
    the version's state decoded, when the caller just made it (it is not read again), and
    ``seats`` the campaign's seats when the caller has them. The versions made (and those in
    ``writes``, the caller's) are inserted together before a window refers to one.
    ``keep_deadline``: (phase, turn, deadline) of the window just resolved: a window opened
    again for the same phase and turn (a deployment not complete) keeps that deadline."""
    writes = Writes() if writes is None else writes
    seats = list(campaign.seats.all()) if seats is None else seats
    settings = gameplay.rule_settings(campaign)
    hexmap = gameplay.load_campaign_map(campaign.map_name)
    for _ in range(MAX_AUTOMATIC):
        if state is None:
            state = gameplay.read_state(version.state)
        # Kept for this process's emails and map pictures once the version is committed.
        transaction.on_commit(functools.partial(viewcache.remember_state, version, state))
        if notices is not None:
            notices.latest = version
        if state.ended:
            writes.flush()
            Campaign.objects.filter(id=campaign.id).update(status=CampaignStatus.ENDED, ended=now)
            campaign.status, campaign.ended = CampaignStatus.ENDED, now  # (as the row now is)
            signals.campaign_ended.send(Campaign, campaign=campaign)  # the book, by the worker
            if notices is not None:
                notices.over = True
            return None
        if gameplay.awaits_tabletop(state):
            writes.flush()
            window = PhaseWindow.objects.create(
                campaign=campaign,
                version=version,
                phase=state.phase.value,
                turn=state.turn,
                owing=[],
                opened_at=now,
                deadline=None,
                status=WindowStatus.PAUSED if campaign.paused else WindowStatus.OPEN,
            )
            if notices is not None:
                notices.window = window
                notices.opened += [
                    ("battle-pending", s.id) for s in gameplay.battle_seats(seats, state)
                ]
            return window
        owing = gameplay.seats_owing(seats, state, state.phase, hexmap)
        if owing:
            kind = _kind_of(state.phase)
            deadline = deadlines.deadline_for(
                campaign.deadline_policy, kind, now, campaign.time_zone
            )
            if keep_deadline is not None and keep_deadline[:2] == (kind, state.turn):
                deadline = keep_deadline[2]
            writes.flush()
            window = PhaseWindow.objects.create(
                campaign=campaign,
                version=version,
                phase=state.phase.value,
                turn=state.turn,
                owing=[str(s.code) for s in owing],
                opened_at=now,
                deadline=deadline,
                status=WindowStatus.PAUSED if campaign.paused else WindowStatus.OPEN,
                remaining=(deadline - now) if campaign.paused else None,
            )
            if notices is not None:
                notices.window = window
                email_kind = "battle-pending" if state.phase is Phase.BATTLE else "phase-opened"
                notices.opened += [(email_kind, s.id) for s in owing]
            return window
        outcome = gameplay.run_phase(
            state, {}, seed=campaign.seed, settings=settings, map_name=campaign.map_name
        )
        version, state = insert_version(
            campaign, version.number + 1, outcome, orders={}, extra_events=[], now=now,
            writes=writes,
        )  # fmt: skip
    raise RuntimeError(f"{campaign}: more than {MAX_AUTOMATIC} automatic phases in a row")


def is_due(window: PhaseWindow, seats: list[Seat], ready_ids: set[int], now: datetime) -> bool:
    """Due when the deadline has passed, or when every seat the window waits for (absent
    players and seats on the caretaker excepted) is ready; a window owed only by seats on the
    caretaker (or away) is due at once when one of them is on the caretaker: it answers now."""
    if window.deadline is not None and window.deadline <= now:
        return True
    owed = [s for s in seats if window.owes(s)]
    handed = [s for s in owed if caretaker.on_caretaker(s, now)]
    awaited = [s for s in owed if not s.is_absent(now) and s not in handed]
    if not awaited:
        return bool(handed)
    return all(s.id in ready_ids for s in awaited)


def resolve_due_phase(
    window_id: int,
    *,
    now: datetime,
    force: bool = False,
    extra_orders: dict | None = None,
    early: bool = False,
) -> StateVersion | None:
    """Resolve the window's phase if it is due (or ``force``); the new version, or None when
    there was nothing to do (not due, paused, or already resolved by someone else).

    ``early``: the organiser resolves it before its deadline ("Resolve now"): the seats that
    have not pressed Ready are treated by the campaign's policy (the caretaker gives their
    orders under the caretaker policy, ``caretaker.style_for``; otherwise they stand still,
    ``standstill``), without counting it as missed or holding them; a deployment that stays
    open keeps its deadline; every seat is told.

    ``extra_orders`` are orders that come from no seat, in the engine's format: the tabletop's
    battle results (``{"battle_results": [...]}``, 9.5) entered for a battle phase waiting for
    them (a window with no deadline, see ``gameplay.awaits_tabletop``).
    """
    try:
        with transaction.atomic():
            version, notices = _resolve(
                window_id, now=now, force=force, extra_orders=extra_orders or {}, early=early
            )
            if version is not None:
                # In the resolution's transaction: its emails are in the outbox if it commits.
                outgoing.queue_after_resolution(version.campaign_id, notices)
                signals.version_stored.send(
                    Campaign, campaign=version.campaign, latest=notices.latest, seats=notices.seats
                )
                # The seats' views of the new version, made before the first player asks.
                queue.on_commit(queue.WARM_SEAT_PAGES, notices.latest.id, robust=True)
    except IntegrityError as exc:
        # Another resolution inserted the same version number first: nothing to do.
        logger.info("window %s was resolved by another worker (%s)", window_id, exc)
        return None
    return version


def _resolve(window_id: int, *, now: datetime, force: bool, extra_orders: dict, early: bool):
    window = (
        PhaseWindow.objects.select_for_update(of=("self",))
        .select_related("campaign", "version")
        .defer("version__state", "version__orders")
        .filter(id=window_id)
        .first()
    )
    if window is None or window.status != WindowStatus.OPEN:
        return None, None
    campaign = window.campaign
    if campaign.paused or campaign.status != CampaignStatus.RUNNING:
        return None, None
    seats = list(campaign.seats.select_related("user"))  # (the emails' recipients)
    sheets = {s.seat_id: s for s in window.order_sheets.all()}
    ready_ids = {seat_id for seat_id, sheet in sheets.items() if sheet.ready}
    if not force and not is_due(window, seats, ready_ids, now):
        return None, None
    if not force and caretaker.give_grace(window, seats, ready_ids, now):
        return None, None  # the grace policy moved the deadline once (issue 35)
    # Claimed as resolved at once: the whole resolution is this transaction, so no one sees the
    # window between the claim and the end (a failure rolls the claim back with the rest); the
    # condition on its status is what makes it exactly once where rows are not locked (SQLite).
    claimed = PhaseWindow.objects.filter(id=window.id, status=WindowStatus.OPEN).update(
        status=WindowStatus.RESOLVED, resolved_at=now
    )
    if not claimed:
        return None, None

    phase = Phase(window.phase)
    # Decoded once per process: the resolution before this one left it (viewcache).
    state = viewcache.version_state(window.version)
    hexmap = gameplay.load_campaign_map(campaign.map_name)
    by_deadline = window.deadline is not None and window.deadline <= now
    early = early and not by_deadline
    settings = gameplay.rule_settings(campaign)
    chosen = {s.power: s.leaders for s in seats}
    per_seat, extra_events, used, back, to_hold = [], [], {}, [], []
    for seat in seats:
        if not window.owes(seat):
            continue
        sheet = sheets.get(seat.id)
        absent = seat.is_absent(now)
        if sheet is not None and sheet.ready:
            orders, rejections = gameplay.seat_orders(
                seat, sheet.draft, chosen.get(seat.power), phase=phase, state=state, hexmap=hexmap
            )
            per_seat.append(orders)
            extra_events += rejections
            used[seat.power] = {"orders": orders, "by_organiser": sheet.entered_by_organiser}
            if seat.missed_in_a_row:
                back.append(seat.id)
        elif phase is Phase.DEPLOYMENT:
            standing, events = standstill.standing_deployment(
                seat, sheet.draft if sheet is not None else None, state, hexmap, settings,
                absent=absent, early=early,
            )  # fmt: skip
            orders, rejections = gameplay.seat_orders(
                seat, standing, chosen.get(seat.power), phase=phase, state=state, hexmap=hexmap
            )
            per_seat.append(orders)
            extra_events += events + rejections
            if standing:
                used[seat.power] = {"orders": orders, "from_draft": True}
        else:
            style = caretaker.style_for(
                seat, campaign, now=now, by_deadline=by_deadline, early=early, absent=absent
            )
            if style:  # the caretaker gives the orders, through the page's checks (issue 35)
                draft = caretaker.orders_for(seat, phase, state, hexmap, style)
                orders, rejections = gameplay.seat_orders(
                    seat, draft, chosen.get(seat.power), phase=phase, state=state, hexmap=hexmap
                )
                per_seat.append(orders)
                extra_events += [caretaker.played_event(seat, phase, style), *rejections]
                used[seat.power] = {"orders": orders, "caretaker": style}
                if caretaker.holds(
                    seat, campaign, by_deadline=by_deadline, early=early, absent=absent
                ):
                    to_hold.append((seat, style, absent))
            else:
                drafted = sheet is not None and standstill.unsent(sheet.draft, phase)
                extra_events.append(
                    standstill.missing_event(
                        seat, phase, absent=absent, early=early, drafted=drafted
                    )
                )
        # A deadline the caretaker covered (it gave the seat's orders, by the policy or a hand
        # over) is no miss: the count and the flag are of deadlines nobody covered (issue 43).
        handed = caretaker.on_caretaker(seat, now) or used.get(seat.power, {}).get("caretaker")
        if (sheet is None or not sheet.ready) and by_deadline and not absent and not handed:
            seat.missed_in_a_row += 1
            Seat.objects.filter(id=seat.id).update(missed_in_a_row=seat.missed_in_a_row)
            caretaker.count_miss(seat)
            if seat.missed_in_a_row == int(campaign.reminders.get("flag_after_missed", 2)):
                outgoing.queue_organiser_flag(seat.id)

    for seat, style, absent in to_hold:  # the following windows do not wait (issue 43)
        why = "its player being away" if absent else f"its {phase.value} orders missing"
        caretaker.hold(seat, style, turn=window.turn, now=now, why=why)
    if back:  # seats that gave orders again after missing some
        Seat.objects.filter(id__in=back).update(missed_in_a_row=0)
    if extra_orders:
        per_seat.append(extra_orders)
        used["tabletop"] = {"orders": extra_orders}
    outcome = gameplay.run_phase(
        state,
        gameplay.merge_orders(per_seat),
        seed=campaign.seed,
        settings=settings,
        map_name=campaign.map_name,
    )
    writes = Writes()
    version, state = insert_version(
        campaign,
        window.version.number + 1,
        outcome,
        orders=used,
        extra_events=extra_events,
        now=now,
        writes=writes,
    )
    notices = Notices(
        since_version=window.version.number, seats=seats, early=window.phase if early else ""
    )
    # A deployment that stays open (3) keeps the deadline it had while that is still ahead:
    # the organiser's extension is never replaced by a fresh deadline.
    kept = window.deadline if window.deadline is not None and window.deadline > now else None
    open_next(
        campaign, version, now=now, notices=notices, state=state, seats=seats, writes=writes,
        keep_deadline=(window.phase, window.turn, kept) if kept else None,
    )  # fmt: skip
    writes.flush()  # (open_next has inserted them; nothing left)
    notices.resolved = [s.id for s in seats if not s.reserve]
    notices.written = writes.written
    return version, notices


class JSONArrayLength(Func):
    """The length of a JSON array column (SQLite's ``json_array_length``, PostgreSQL's
    ``jsonb_array_length``)."""

    function = "json_array_length"
    output_field = IntegerField()

    def as_postgresql(self, compiler, connection, **extra_context):
        return self.as_sql(compiler, connection, function="jsonb_array_length", **extra_context)


def due_window_ids(now: datetime) -> list[int]:
    """Open windows of running, unpaused campaigns that are due: deadline passed, or every
    awaited seat ready (the sweep's query).

    Its cost does not grow with the campaigns that are not due: the passed deadlines come from
    the index on (status, deadline) (``window_due_idx``); "every seat ready" is one aggregate
    query that returns only the windows whose ready sheets are as many as the seats they owe
    (or that owe a seat of a campaign with an absent player: absent players need not be
    ready), which ``is_due`` then checks on those alone."""
    live = PhaseWindow.objects.filter(
        status=WindowStatus.OPEN,
        campaign__status=CampaignStatus.RUNNING,
        campaign__paused=False,
    )
    due = set(live.filter(deadline__lte=now).values_list("id", flat=True))
    with_absent = set(  # (and seats on the caretaker: neither is waited for)
        Seat.objects.filter(Q(absent_until__gt=now) | ~Q(caretaker_style="")).values_list(
            "campaign_id", flat=True
        )
    )
    maybe = set(
        live.filter(Q(deadline__isnull=True) | Q(deadline__gt=now))
        .annotate(
            ready_n=Count("order_sheets", filter=Q(order_sheets__ready=True)),
            owed_n=JSONArrayLength("owing"),
        )
        .filter(Q(ready_n__gt=0) | Q(campaign_id__in=with_absent))
        .filter(Q(ready_n__gte=F("owed_n")) | Q(campaign_id__in=with_absent))
        .values_list("id", flat=True)
    )
    if maybe:
        due |= _due_among(maybe, now)
    return sorted(due)


def _due_among(window_ids: set[int], now: datetime) -> set[int]:
    """Which of these windows are open and due (``is_due``): three reads, however many."""
    windows = list(PhaseWindow.objects.filter(id__in=window_ids, status=WindowStatus.OPEN))
    ready_ids: dict[int, set[int]] = {}
    for window_id, seat_id in PhaseWindow.objects.filter(
        id__in=window_ids, order_sheets__ready=True
    ).values_list("id", "order_sheets__seat_id"):
        ready_ids.setdefault(window_id, set()).add(seat_id)
    seats_of: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(campaign__in={w.campaign_id for w in windows}):
        seats_of.setdefault(seat.campaign_id, []).append(seat)
    return {
        w.id
        for w in windows
        if is_due(w, seats_of.get(w.campaign_id, []), ready_ids.get(w.id, set()), now)
    }


def queue_resolution(window_id: int) -> None:
    """Queue the resolve task when the current transaction commits (an organiser's action)."""
    queue.on_commit(queue.RESOLVE_PHASE, window_id)


def queue_resolution_when_due(window_id: int) -> None:
    """A seat became ready: once that commits, queue the resolve task if the window is now due
    (``is_due``), not for every Ready. Four of a campaign's five Readys used to send the worker
    a task that found the phase not due; at a deadline hour those were most of its queue, ahead
    of the warming of the pages of the phases that had resolved (docs/performance.md, "The
    fourth pass"). Looked at after the commit, so of two players pressing Ready at once the
    later look sees both; the worker decides again (``resolve_due_phase``), and the sweep still
    finds what no Ready queued."""

    def look() -> None:
        if _due_among({window_id}, timezone.now()):
            queue.now(queue.RESOLVE_PHASE, window_id)

    transaction.on_commit(look)
