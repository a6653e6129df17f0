"""Every email: queued when the transaction commits, built and sent by the send_email task.

Content for a seat is made only from that seat's projection (``campaign.projection``): the
seat's own report and public facts, never another seat's secrets. A player chooses the kinds
they get (``Seat.email_kinds``); invitations and the organiser's alerts always go.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import connection
from django.db.models import Q
from django.template.loader import get_template, render_to_string
from django.urls import NoReverseMatch, get_resolver, get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from battles.services.mail import build_mail, seat_ids_to_tell
from campaign.models import (
    EMAIL_KINDS,
    Campaign,
    EmailMode,
    Invitation,
    OutboxEmail,
    PhaseWindow,
    Seat,
    StateVersion,
)
from campaign.models import Event as EventRow
from campaign.projection import Viewer, news_lines
from campaign.services import (
    caretaker,
    deadlines,
    outgoing,
    queue,
    silence,
    standstill,
    viewcache,
)
from campaign.services.plaintext import one_line
from feeds.services import tokens as calendar_tokens
from letters.services import press
from mail.services import emailmodes, mailcall
from orders.services import catchup
from rules.armies import Army
from rules.events import Event, EventKind
from rules.state import Phase
from seasons.services import war

logger = logging.getLogger(__name__)
TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "email"

SUBJECTS = {
    "phase-opened": "{campaign}: turn {turn}, {phase} orders are due",
    "battle-pending": "{campaign}: a battle is pending, fight or retire? (turn {turn})",
    "battle-table": "{campaign}: your battle goes to the tabletop (turn {turn})",
    "reminder": "{campaign}: {phase} orders due {due}",
    "last-reminder": "Last call, {campaign}: {phase} orders due {due}",
    "phase-resolved": "{campaign}: turn {turn}, the {done} phase is resolved",
    "campaign-over": "{campaign}: the campaign is over",
    "invitation": "You are invited to the campaign {campaign}",
    "handover": "{campaign}: you now command the {seat}",
    "caretaker": "{campaign}: the caretaker plays your seat for now",
    "organiser-missing": "{campaign}: orders still missing, deadline {due}",
    "organiser-flag": "{campaign}: the {seat} has missed {missed} deadlines in a row",
    "reseeded": "{campaign}: the organiser changed the dice seed",
    "rolled-back": "{campaign}: the organiser rolled back the {phase} phase of turn {turn}",
    "digest": "{campaign}: your daily digest (turn {turn})",
}
PASSWORD_RESET_SUBJECT = "Der Grosse König: choose a new password"
SIGNIN_SLOWED_SUBJECT = "Der Grosse König: wrong passwords tried for your name"


def _claim(outbox_id: int | None, now: datetime) -> bool:
    """Take the email ``outbox_id`` to send it; False when it is sent, or another process took
    it less than ``OUTBOX_RETRY_SECONDS`` ago (a process that died holding it loses it then).
    No outbox row (None): an email outside the outbox, always sent."""
    if outbox_id is None:
        return True
    stale = now - timedelta(seconds=settings.OUTBOX_RETRY_SECONDS)
    return bool(
        OutboxEmail.objects.filter(id=outbox_id, sent_at__isnull=True)
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale))
        .update(claimed_at=now)
    )


def _claim_batch(outbox_ids: list[int | None], now: datetime) -> set[int]:
    """``_claim`` for every row of a batch in one statement (``UPDATE ... RETURNING``, on
    PostgreSQL and SQLite alike): the ids taken. A row sent already, or taken by another
    process less than ``OUTBOX_RETRY_SECONDS`` ago, is not among them."""
    ids = [i for i in outbox_ids if i is not None]
    if not ids:
        return set()
    ops = connection.ops
    stale = now - timedelta(seconds=settings.OUTBOX_RETRY_SECONDS)
    sql = (
        f"UPDATE {ops.quote_name(OutboxEmail._meta.db_table)} SET claimed_at = %s"
        f" WHERE id IN ({', '.join(['%s'] * len(ids))}) AND sent_at IS NULL"
        " AND (claimed_at IS NULL OR claimed_at < %s) RETURNING id"
    )
    params = [ops.adapt_datetimefield_value(now), *ids, ops.adapt_datetimefield_value(stale)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[0] for row in cursor.fetchall()}


def _sent(outbox_id: int | None) -> None:
    """The outbox row ``outbox_id`` marked sent, in a statement written once (a batch marks
    each email as it goes: the season's most frequent statement, compiled by Django anew each
    time it was an ``update()``)."""
    if outbox_id is not None:
        ops = connection.ops
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {ops.quote_name(OutboxEmail._meta.db_table)} SET sent_at = %s"
                " WHERE id = %s",
                [ops.adapt_datetimefield_value(timezone.now()), outbox_id],
            )


def _release(outbox_id: int | None) -> None:
    if outbox_id is not None:
        OutboxEmail.objects.filter(id=outbox_id, sent_at__isnull=True).update(claimed_at=None)


def send_pending(*, now: datetime) -> int:
    """The worker's sweep: send the outbox's emails that nobody sent (their task lost with the
    broker, or its worker killed); how many were sent. Each batch in one session."""
    stale = now - timedelta(seconds=settings.OUTBOX_RETRY_SECONDS)
    rows = list(
        OutboxEmail.objects.filter(sent_at__isnull=True, created__lt=stale)
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale))
        .order_by("created", "id")
    )
    batches: dict[str, list[OutboxEmail]] = {}
    for row in rows:
        batches.setdefault(row.batch, []).append(row)
    sent = 0
    for key, pending in batches.items():
        logger.warning("sending %d email(s) of %s left in the outbox", len(pending), key)
        sent += deliver_many(
            [(row.kind, row.ids) for row in pending],
            key,
            outbox=[row.id for row in pending],
            now=now,
        )
    return sent


# --- building --------------------------------------------------------------------------------


def warm() -> tuple[int, int]:
    """Load once what every email needs: the URLconf (importing it imports every view, about
    0.1 s) with its index of names, and the email templates compiled. A worker process calls it
    when it starts (``tasks.warm_worker``), so that its first emails cost what the others do.
    Returns how many URL names and templates it loaded."""
    root = get_resolver()  # reverse_dict imports the URLconf and indexes its names
    resolvers = [root, *(sub for _prefix, sub in root.namespace_dict.values())]
    names = sum(len(r.reverse_dict) for r in resolvers)
    templates = [get_template(f"email/{path.name}") for path in sorted(TEMPLATES.glob("*.*"))]
    return names, len(templates)


def _url(name: str, *args, fallback: str = "home") -> str:
    return settings.SITE_URL + _path(get_urlconf(), get_script_prefix(), name, args, fallback)


@functools.lru_cache(maxsize=4096)
def _path(urlconf, prefix: str, name: str, args: tuple, fallback: str) -> str:
    """``reverse``, kept per process: an email names the same few pages of the same seats
    phase after phase (a path depends on nothing but these arguments)."""
    try:
        return reverse(name, args=args, urlconf=urlconf)
    except NoReverseMatch:
        return reverse(fallback, urlconf=urlconf)


class Shared:
    """What the emails built together (one resolution's, ``deliver_many``) read once: the seats,
    each campaign's latest version, open window and the events since a version."""

    def __init__(self, seat_ids: list[int] = (), handed=None) -> None:
        """``handed``: the ``resolution.Notices`` of the resolution these emails follow, when
        it ran in this process: its seats, version, window and events are not read again."""
        self._campaigns: dict[int, Campaign] = {}
        self._latest: dict[int, StateVersion | None] = {}
        self._window: dict[int, PhaseWindow | None] = {}
        self._events: dict[tuple[int, int | None], list[tuple[int, Event]]] = {}
        self._letters: dict[tuple, dict] = {}
        if handed is not None:
            self._seats = {s.id: s for s in handed.seats}
            campaign = handed.latest.campaign
            self._campaigns[campaign.id] = campaign
            self._latest[campaign.id] = handed.latest
            self._window[campaign.id] = handed.window
            self._events[campaign.id, handed.since_version] = handed.events()
            return
        rows = Seat.objects.select_related("campaign", "user").filter(id__in=seat_ids)
        self._seats = {s.id: s for s in rows} if seat_ids else {}

    def seat(self, seat_id: int) -> Seat | None:
        if seat_id not in self._seats:
            self._seats[seat_id] = (
                Seat.objects.select_related("campaign", "user").filter(id=seat_id).first()
            )
        seat = self._seats[seat_id]
        if seat is not None:  # one Campaign object per campaign, whatever the seat
            seat.campaign = self._campaigns.setdefault(seat.campaign_id, seat.campaign)
        return seat

    def latest(self, campaign: Campaign) -> StateVersion | None:
        """The campaign's latest version: the open window's (a window is open on the latest
        version until it is resolved, which closes it), read with the window; else its own
        query (the campaign is over)."""
        if campaign.id not in self._latest:
            window = self.window(campaign)
            self._latest[campaign.id] = (
                window.version if window is not None else latest_version(campaign)
            )
        return self._latest[campaign.id]

    def window(self, campaign: Campaign) -> PhaseWindow | None:
        if campaign.id not in self._window:
            self._window[campaign.id] = (
                campaign.open_windows()
                .select_related("version")
                .defer("version__state", "version__orders")
                .first()
            )
        return self._window[campaign.id]

    def letters(self, seat: Seat, since: int | None, latest: int) -> list:
        """``press.mailed_with`` for ``seat``, read for every seat of its campaign at once."""
        key = (seat.campaign_id, since, latest)
        if key not in self._letters:
            self._letters[key] = press.mailed_with_seats(seat.campaign, since, latest)
        return self._letters[key].get(seat.id, [])

    def events(self, campaign: Campaign, since: int | None) -> list[tuple[int, Event]]:
        if (campaign.id, since) not in self._events:
            self._events[campaign.id, since] = _events_since(campaign, since)
        return self._events[campaign.id, since]


def _events_since(campaign: Campaign, since_version: int | None) -> list[tuple[int, Event]]:
    """The events after ``since_version`` as (turn, engine event), made once for every seat
    whose email reports them; the state versions' JSON is not loaded (one narrow query)."""
    rows = EventRow.objects.filter(campaign=campaign)
    if since_version is not None:
        # The versions' campaign named too: PostgreSQL then finds them by the index on
        # (campaign, number) and their events by version, the same few rows late in a season
        # (not a hash of every event of the campaign).
        rows = rows.filter(version__campaign=campaign, version__number__gt=since_version)
    return [
        (
            e["version__turn"],
            Event(
                e["rule"],
                EventKind(e["kind"]),
                e["text"],
                e["data"],
                None if e["public"] else frozenset(Army(a) for a in e["armies"]),
            ),
        )
        for e in rows.order_by("version__number", "seq").values(
            "rule", "kind", "text", "data", "public", "armies", "version__turn"
        )
    ]


def _own_news(seat: Seat, events: list[tuple[int, Event]]) -> bool:
    armies = {Army(a) for a in seat.armies}
    return any(event.audience and armies & event.audience for _turn, event in events)


def latest_version(campaign: Campaign) -> StateVersion | None:
    """The campaign's latest version without its JSON state and orders: an email reads the
    state decoded, once per version (``viewcache.version_state``)."""
    return (
        StateVersion.objects.filter(campaign=campaign)
        .defer("state", "orders")
        .order_by("-number")
        .first()
    )


def seat_report(
    seat: Seat,
    since_version: int | None,
    *,
    latest: StateVersion | None = None,
    events: list[tuple[int, Event]] | None = None,
) -> list[str]:
    """The seat's report of the versions after ``since_version``, from its projection of the
    latest version (its state decoded once for every seat, ``viewcache.version_state``)."""
    campaign = seat.campaign
    latest = latest or latest_version(campaign)
    if latest is None:
        return []
    if events is None:
        events = _events_since(campaign, since_version)
    viewer = Viewer.for_armies(
        seat.armies, allies_share=bool(campaign.options.get("allies_share")), label=seat.label
    )
    state = viewcache.version_state(latest)
    # The events and reports of the seat's projection, without projecting its forces.
    return news_lines(state, viewer, events=events, reports=list(latest.reports))


def _recipient(seat: Seat) -> str:
    return seat.user.email if seat.user and seat.user.email else ""


def build(kind: str, shared: Shared | None = None, **ids) -> tuple | None:
    """(recipients, subject, text, html[, reply-to addresses, campaign code]) for one email, or
    None when nothing is to be sent.
    ``shared``: what the emails built with it read once (``deliver_many``)."""
    shared = shared or Shared()
    if kind == "battle":
        return _build_battle(**ids)
    if kind == "password-reset":
        return _build_password_reset(ids["user_id"])
    if kind == "signin-slowed":
        return _build_signin_slowed(ids["user_id"], ids["addresses"])
    ctx: dict = {"kind": kind, "site_url": settings.SITE_URL}
    to: list[str] = []
    seat = None
    latest: StateVersion | None = None
    if "seat_id" in ids:
        seat = shared.seat(ids["seat_id"])
        if seat is None:
            return None
    if kind == "invitation":
        invitation = (
            Invitation.objects.select_related("seat__campaign").filter(id=ids["invitation_id"])
        ).first()
        if invitation is None or invitation.accepted_at:
            return None
        seat = invitation.seat
        to = [invitation.email]
        ctx["link"] = _url("accept_invitation", invitation.token)
        if not seat.reserve:
            ctx["calendar"] = calendar_tokens.links(calendar_tokens.invitation_feed(invitation))
    elif kind in ("organiser-missing", "organiser-flag"):
        campaign = seat.campaign if seat else PhaseWindow.objects.get(id=ids["window_id"]).campaign
        to = [campaign.organiser.email] if campaign.organiser.email else []
        ctx["link"] = _url("organiser_board", campaign.code)
        ctx["missing"] = list(
            Seat.objects.filter(id__in=ids.get("seat_ids", [])).values_list("label", flat=True)
        )
        ctx["campaign"] = campaign
    else:
        if seat is None:
            return None
        always = ("handover", "caretaker", "reseeded", "rolled-back", "digest")
        if kind not in seat.email_kinds and kind not in always:
            return None
        latest = shared.latest(seat.campaign)
        mailed = ("phase-opened", "phase-resolved", "campaign-over", "digest")
        if kind in mailed and latest is not None:
            ctx["letters"] = shared.letters(seat, ids.get("since"), latest.number)
            ctx["letters_link"] = _url("letters", seat.code)
        last_call = kind == "reminder" and deadlines.is_last_step(
            seat.campaign.reminders, ids.get("step") or ids.get("hours") or 0
        )
        if not emailmodes.allows(seat, kind, last_call=last_call, letters=bool(ctx.get("letters"))):
            return None  # the player chose fewer emails (every phase / only due / digest)
        reported = ("phase-opened", "battle-pending", "phase-resolved", "campaign-over", "digest")
        events = shared.events(seat.campaign, ids.get("since")) if kind in reported else []
        if (
            kind == "phase-resolved"
            and not ids.get("early")
            and not ctx.get("letters")
            and not _own_news(seat, events)
        ):
            return None  # a phase that did nothing to this seat's forces: no email
        to = [_recipient(seat)] if _recipient(seat) else []
        ctx["link"] = _url("orders:dashboard", seat.code)
        ctx["orders_link"] = _url("orders:orders", seat.code)
        ctx["settings_link"] = _url("seat_settings", seat.code)
        if kind in reported:
            ctx["report"] = seat_report(seat, ids.get("since"), latest=latest, events=events)
            if latest is not None:  # the seat's own picture of it, drawn by the worker
                ctx["map_link"] = _url("orders:map", seat.code, latest.number)
        if kind == "handover":
            ctx["link"] = _url("orders:handover", seat.code)
        if kind == "caretaker":
            if not seat.caretaker_style:
                return None  # taken back before this email went: nothing to tell
            ctx["style"] = caretaker.STYLES.get(seat.caretaker_style, seat.caretaker_style)
        if kind == "digest":  # it begins with the dashboard's "Since you last looked"
            told = catchup.catch_up(
                seat, catchup.last_visit(seat), latest=latest, window=shared.window(seat.campaign)
            )
            ctx["catch_up"] = told
            ctx["catch_up_lines"] = [
                (x.text, "  ".join(settings.SITE_URL + u for _, u in x.more or (("", x.url),)))
                for x in told.lines
            ]
        ctx["dice_link"] = _url("campaign_dice", seat.campaign.code)
        if kind == "campaign-over" and war.war_shown(seat.campaign):
            ctx["war_link"] = _url("war", seat.campaign.code)  # the fog lifts (issue 28)
            ctx["book_link"] = _url("war_book", seat.campaign.code, "a4")
    if not to:
        return None
    campaign = ctx.get("campaign") or seat.campaign
    window = None
    if "window_id" in ids:
        window = PhaseWindow.objects.filter(id=ids["window_id"]).first()
    else:
        window = shared.window(campaign)
    if latest is None:
        latest = shared.latest(campaign)
    ctx.update(
        campaign=campaign,
        seat=seat,
        window=window,
        early=ids.get("early") or "",
        waiting_for=(
            [s.label for s in campaign.seats.filter(reserve=False) if window.owes(s)]
            if window is not None and kind == "phase-resolved" and window.phase == "deployment"
            else []
        ),
        owes=bool(window and seat and window.owes(seat)),
        hours=ids.get("hours"),
        # "in 6 hours", "in 1 hour", "within the hour" (the subject and the text say it)
        due=deadlines.due_in(int(ids["hours"])) if ids.get("hours") is not None else "",
        latest=latest,
        missed=seat.missed_in_a_row if seat else 0,
        # what a silence does under the campaign's policy (the call for orders says it)
        if_silent=(
            silence.if_silent(
                seat,
                campaign,
                window.phase,
                now=timezone.now(),
                graced=window.graced_from is not None,
            )
            if seat is not None and window is not None
            else ""
        ),
        policy=caretaker.policy(campaign),  # (the flag offers the caretaker in its style)
    )
    last = kind == "reminder" and deadlines.is_last_step(
        campaign.reminders, ids.get("step") or ids.get("hours") or 0
    )
    ctx["last"] = last
    titled = "last-reminder" if last else kind
    if kind == "battle-pending" and not (window and window.deadline):
        titled = "battle-table"  # no decision: the battle goes to the tabletop (its own subject)
    subject = SUBJECTS[titled].format(
        campaign=campaign.name,
        turn=(window.turn if window else latest.turn if latest else 1),
        phase=(window.phase if window else ""),
        done=(latest.resolved_phase if latest else ""),
        hours=ids.get("hours"),
        due=ctx["due"],
        seat=seat.label if seat else "",
        missed=ctx["missed"],
    )
    if kind in ("phase-opened", "reminder") and seat is not None:
        ctx.update(mailcall.call_for_orders(seat, window, latest))  # orders by mail (issue 29)
    if (
        kind == "reminder"
        and seat is not None
        and window is not None
        and window.phase != "deployment"
    ):
        # Orders saved but never sent are not used (the tester's lost march): the reminder
        # says so to the one player it concerns. (A legal deployment draft is used: 3.)
        draft = window.order_sheets.filter(seat=seat, ready=False).values_list("draft", flat=True)
        ctx["unsent"] = standstill.unsent(draft.first(), Phase(window.phase))
    template = f"email/{kind}.txt"
    text = render_to_string(template, ctx)
    html = render_to_string("email/message.html", {**ctx, "body": text})
    reply_to = [ctx["reply_address"]] if ctx.get("reply_address") else []
    return to, subject, text, html, reply_to, str(campaign.code)


def _build_password_reset(user_id: int) -> tuple | None:
    """The reset link, made in the worker (the token is valid until the password changes or
    PASSWORD_RESET_TIMEOUT passes)."""
    user = get_user_model().objects.filter(id=user_id, is_active=True).first()
    if user is None or not user.email or not user.has_usable_password():
        return None
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    ctx = {
        "user": user,
        "link": settings.SITE_URL + reverse("password_reset_confirm", args=[uid, token]),
        "site_url": settings.SITE_URL,
    }
    text = render_to_string("email/password-reset.txt", ctx)
    html = render_to_string("email/message.html", {**ctx, "body": text})
    return [user.email], PASSWORD_RESET_SUBJECT, text, html


def _build_signin_slowed(user_id: int, addresses: int) -> tuple | None:
    """The player told that sign-in for their name is slowed (``accounts.services.signin``)."""
    user = get_user_model().objects.filter(id=user_id, is_active=True).first()
    if user is None or not user.email:
        return None
    ctx = {
        "user": user,
        "addresses": addresses,  # 1: locked from one address (not slowed everywhere)
        "limit": settings.AXES_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        "most": settings.SIGNIN_SLOW_MAX_SECONDS,
        "reset_link": settings.SITE_URL + reverse("password_reset"),
        "site_url": settings.SITE_URL,
    }
    text = render_to_string("email/signin-slowed.txt", ctx)
    html = render_to_string("email/message.html", {**ctx, "body": text})
    return [user.email], SIGNIN_SLOWED_SUBJECT, text, html


def _build_battle(battle_id: int, battle_kind: str, **options) -> tuple | None:
    built = build_mail(battle_id, battle_kind, **options)
    if built is None:
        return None
    to, subject, text, ctx = built
    html = render_to_string("email/message.html", {**ctx, "body": text})
    return to, subject, text, html, [], str(ctx["campaign"].code)


PREFERENCES_SALT = "dgk.email-preferences"


def preferences_token(seat_id: int) -> str:
    """A signed token naming one seat: its emails' one-click link needs no sign-in."""
    return signing.dumps(seat_id, salt=PREFERENCES_SALT, compress=True)


def seat_of_token(token: str) -> Seat | None:
    try:
        seat_id = signing.loads(token, salt=PREFERENCES_SALT)
    except signing.BadSignature:
        return None
    return Seat.objects.select_related("campaign").filter(id=seat_id).first()


# The emails a one-click unsubscribe stops, and so the only ones that offer it
# (``List-Unsubscribe``): those a player chooses, and the digest of the digest mode. A battle's
# news, a seat handed over, a change of the dice seed, a rollback go whatever the choice (the
# campaign or the table waits for them): they carry the link to the choices in their text only.
UNSUBSCRIBABLE = frozenset((*EMAIL_KINDS, "digest"))


def unsubscribe(seat: Seat) -> None:
    """One click from a mail client: no more of the emails a player may choose, the digest
    with them (its mode back to "every phase", with none chosen). Invitations, hand-overs,
    battles and changes of the dice seed still go: they are not choices."""
    Seat.objects.filter(id=seat.id).update(email_kinds=[], email_mode=EmailMode.EVERY)


def deliver_many(
    batch: list[tuple[str, dict]],
    handoff: str | None = None,
    outbox: list[int] | None = None,
    *,
    now: datetime | None = None,
) -> int:
    """Build and send the emails of ``batch`` (kind, ids), reading what they share once (one
    resolution's emails) and sending them in one session with the mail server, opened at the
    first email to send; how many were sent. One that the mail server refuses is queued again
    alone (``send_email`` retries it), so the others are not sent twice; the session is then
    opened afresh for the rest. ``handoff``: the key of what the resolution left in this
    process, if it ran here (else it is read). ``outbox``: the emails' rows in the outbox, one
    for each of ``batch``: all are claimed in one statement before the first is built, and each
    is marked sent as soon as it is (those with nothing to send together, at the end), so a
    batch delivered twice (a task run again after its worker died) sends none twice; ``now``:
    the time of the claims (the real time by default)."""
    shared = Shared(
        [ids["seat_id"] for _, ids in batch if "seat_id" in ids], outgoing.taken(handoff)
    )
    rows = outbox if outbox is not None else [None] * len(batch)
    claimed = _claim_batch(rows, now or timezone.now())  # every row at once, before the first
    unsent: list[int] = []  # claimed rows with nothing to send: marked done in one statement
    mailer = None
    sent = 0
    try:
        for (kind, ids), row in zip(batch, rows, strict=True):
            if row is not None and row not in claimed:
                continue
            try:
                message = compose(kind, shared, **ids)
                if message is None:
                    if row is not None:
                        unsent.append(row)
                    continue
                if mailer is None:
                    mailer = _opened(get_connection())
                message.connection = mailer
                sent += message.send()
                _sent(row)  # at once: a worker that dies now sends it no second time
            except OSError:
                logger.warning("email %s %s refused; queued again alone", kind, ids)
                _release(row)
                _queue_now(kind, outbox_id=row, **ids)
                if mailer is not None:
                    _close(mailer)
                    mailer = _opened(mailer)
    finally:
        if mailer is not None:
            _close(mailer)
        if unsent:
            OutboxEmail.objects.filter(id__in=unsent).update(sent_at=timezone.now())
    return sent


def _opened(connection):
    """``connection`` with its session open. If the server cannot be reached now, each email
    tries on its own (the backend opens a session for one message when none is open) and one
    refused is queued again alone, as before there were sessions."""
    try:
        connection.open()
    except OSError:
        logger.warning("mail server unreachable; a batch's emails are tried one by one")
    return connection


def _close(connection) -> None:
    with contextlib.suppress(OSError):  # a session the server already dropped
        connection.close()


def _queue_now(kind: str, outbox_id: int | None = None, **ids) -> None:
    if outbox_id is None:
        queue.now(queue.SEND_EMAIL, kind, **ids)
        return
    try:
        queue.now(queue.SEND_EMAIL, kind, outbox_id=outbox_id, **ids)
    except Exception:  # the broker's error: the email stays in the outbox for the sweep
        logger.warning("email %s %s left in the outbox: it could not be queued", kind, ids)


def deliver(kind: str, shared: Shared | None = None, outbox_id: int | None = None, **ids) -> bool:
    """Build and send one email; False when there was nothing to send (or, ``outbox_id``, it
    was sent already). A refusal (OSError) is raised for the task to retry. A battle's news for
    its players (queued once, ``battle_results.notify``) is queued again as one email per seat
    (``_one_each``), each its own task: no player sees another's address, and one refused is
    retried alone."""
    if kind == "battle" and "seat_id" not in ids and not ids.get("organiser"):
        _one_each(**ids)
        return False
    if not _claim(outbox_id, timezone.now()):
        return False
    try:
        message = compose(kind, shared, **ids)
        sent = bool(message.send()) if message is not None else False
    except OSError:
        _release(outbox_id)
        raise
    _sent(outbox_id)
    return sent


def _one_each(battle_id: int, battle_kind: str, exclude_side: str | None = None) -> None:
    for seat_id in seat_ids_to_tell(battle_id, exclude_side):
        ids = {"battle_id": battle_id, "battle_kind": battle_kind, "seat_id": seat_id}
        queue.now(queue.SEND_EMAIL, "battle", **ids)


def compose(kind: str, shared: Shared | None = None, **ids) -> EmailMultiAlternatives | None:
    """The email ``kind`` for ``ids``, ready to send; None when there is nothing to send."""
    built = build(kind, shared, **ids)
    if built is None:
        return None
    to, subject, text, html, *more = built
    # The subjects are made from names (the campaign's, a seat's label): a line break in a row
    # older than the forms' check would make Django refuse the header (BadHeaderError), or
    # forge another. Written on one line instead (docs/security.md, "Names on one line").
    subject = one_line(subject)
    reply_to = more[0] if more else []  # a call for orders: the seat's reply address
    # What the email is about, for the players' mail filters (and the tests that count).
    headers = {"X-DGK-Kind": f"battle:{ids['battle_kind']}" if kind == "battle" else kind}
    if len(more) > 1:  # the campaign's code: the local outbox shows a campaign only its own
        headers["X-DGK-Campaign"] = more[1]
    if "seat_id" in ids and kind in UNSUBSCRIBABLE:  # (one click stops these; not the others)
        link = settings.SITE_URL + reverse(
            "email_preferences", args=[preferences_token(ids["seat_id"])]
        )
        headers["List-Unsubscribe"] = f"<{link}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject, text, settings.DEFAULT_FROM_EMAIL, to, headers=headers, reply_to=reply_to or None
    )
    message.attach_alternative(html, "text/html")
    return message


__all__ = ["Campaign", "deliver", "build"]
