"""Orders by email (issue 29): a player's reply to a call for orders, read, checked and confirmed.

One mail in, at most one answer out. The mail's reply address names the seat and the phase
window (``orders.replyaddress``); its new text (``orders.mailbody``) is read a line at
a time by the grammar (``orders.textorders``); what is understood goes onto the seat's draft
exactly as the orders page writes it, the page's own checks (``orders.pages.ready_problems``)
weigh it, READY submits it as the Ready button does, and the player gets the orders as the site
now holds them, the problems, and whether they are submitted.

Dropped with a log line and no answer, so that no two robots ever talk forever: a mail over
``ORDERS_MAIL_MAX_BYTES``; an automatic one (``Auto-Submitted``, ``Precedence: bulk``, an empty
return path, the site's own mail); one without a genuine token; one whose sender is not the
seat's player; one already read (its Message-ID). A reply to a window that has resolved is
answered "this phase has resolved", and nothing changes.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, make_msgid, parseaddr

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from campaign.models import OrganiserAction, PhaseWindow, Seat, WindowStatus
from campaign.services import actionlog, gameplay, viewcache
from campaign.services.resolution import queue_resolution_when_due
from orders import replyaddress
from orders.access import Access, SeatContext, _hexmap, _version, _view
from orders.forms import enemy_hexes
from orders.mailbody import reply_text
from orders.models import OrderSheet
from orders.pages import battle_hexes, draft_items, honors_roles, own_units, ready_problems
from orders.sheets import save_draft
from orders.textorders import (
    BATTLE,
    FORCED_MARCH,
    HONORS,
    MARCH,
    MAX_BODY_LINES,
    TRANSFERS,
    Line,
    Reading,
    Vocabulary,
    map_route,
    march_said,
    read_orders,
)

log = logging.getLogger(__name__)

MAIL_KINDS = {"march": (MARCH, TRANSFERS), "forced-march": (FORCED_MARCH,),
              "battle": (BATTLE,), "honors": (HONORS,)}  # fmt: skip
_TOKEN_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")

# Limits on one mail (issue 36, docs/email-orders.md); MAX_BODY_LINES is orders.textorders'.
MAX_MIME_DEPTH = 10  # multiparts inside multiparts: deeper is dropped unread
MAX_MIME_PARTS = 100  # parts in all
MAX_ANSWER_CHARS = 20_000  # the answer's text; what is over is cut, with a line saying so
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]+")


@dataclass
class Outcome:
    """What became of one mail: ``dropped`` (no answer), ``closed`` (answered: the phase has
    resolved), ``read`` (answered with the confirmation)."""

    status: str
    reason: str = ""
    seat: Seat | None = None
    reading: Reading | None = None
    problems: list[str] = field(default_factory=list)
    ready: bool = False
    units: dict[str, str] = field(default_factory=dict)  # the seat's units, key -> name
    positions: dict[str, str] = field(default_factory=dict)  # the hex each stands in


def clean(value: object, limit: int = 300) -> str:
    """A header value fit to be written back into a header: no CR, LF or other control
    character (each run one space), at most ``limit`` characters."""
    return _CONTROLS.sub(" ", str(value or "")).strip()[:limit]


def _header(msg: EmailMessage, name: str) -> str:
    """One header, decoded and cleaned; ``""`` when it is missing or cannot be decoded."""
    try:
        return clean(msg.get(name, ""))
    except (ValueError, TypeError, LookupError, IndexError, AttributeError, RecursionError):
        return ""  # (RecursionError: the header parser's on "From: ((((..." nested deep)


def too_nested(msg: EmailMessage) -> str:
    """Why the MIME tree of ``msg`` is too deep or too wide to read, or ``""`` (walked without
    recursion: a tree 1,200 deep must not raise RecursionError)."""
    stack, parts = [(msg, 0)], 0
    while stack:
        part, depth = stack.pop()
        parts += 1
        if depth > MAX_MIME_DEPTH:
            return f"MIME parts nested over {MAX_MIME_DEPTH} deep"
        if parts > MAX_MIME_PARTS:
            return f"over {MAX_MIME_PARTS} MIME parts"
        if part.is_multipart():
            stack.extend((p, depth + 1) for p in part.get_payload() or [])
    return ""


def receive(raw: bytes, *, now: datetime | None = None) -> Outcome:
    """Read one mail as it came from the mail server (bytes, headers and all)."""
    now = now or timezone.now()
    if len(raw) > settings.ORDERS_MAIL_MAX_BYTES:
        return oversized(len(raw), downloaded=True)
    if raw.lower().count(b"multipart/") > MAX_MIME_PARTS:
        return _drop(f"over {MAX_MIME_PARTS} multipart headers")
    try:
        msg = message_from_bytes(raw, policy=policy.default)
    except RecursionError:
        return _drop("MIME parts nested too deep to parse")
    nested = too_nested(msg)
    if nested:
        return _drop(nested, msg)
    robot = automatic(msg)
    if robot:
        return _drop(f"automatic mail ({robot})", msg)
    found = replyaddress.read([a for _n, a in getaddresses(_all(msg, _TOKEN_HEADERS))])
    if found is None:
        return _drop("no genuine reply token", msg)
    seat = Seat.objects.select_related("campaign", "user").filter(id=found.seat_id).first()
    window = PhaseWindow.objects.filter(id=found.window_id).first()
    if seat is None or window is None or window.campaign_id != seat.campaign_id:
        return _drop("the token's seat or window is gone", msg)
    sender = parseaddr(_header(msg, "From"))[1].lower()
    if not seat.user or not seat.user.email or sender != seat.user.email.lower():
        return _drop(f"sender {sender!r} is not the player of seat {seat.id}", msg)
    message_id = _header(msg, "Message-ID")
    if message_id and _already_read(seat, message_id):
        return _drop(f"replayed {message_id}", msg)
    open_now = seat.campaign.open_window()
    if open_now is None or open_now.id != window.id or window.status != WindowStatus.OPEN:
        _answer(msg, seat, window, "email/orders-closed.txt", {})
        log.info("orders by mail: seat %s answered for closed window %s", seat.id, window.id)
        return Outcome("closed", "the phase has resolved", seat)
    if not window.owes(seat):
        _answer(msg, seat, window, "email/orders-closed.txt", {"not_owed": True})
        return Outcome("closed", "no orders are owed by this seat now", seat)
    outcome = _apply(msg, seat, window, message_id, now)
    if outcome.status == "closed":  # resolved between the check above and the lock
        _answer(msg, seat, window, "email/orders-closed.txt", {})
        return outcome
    _answer(msg, seat, window, "email/orders-received.txt", _confirmation(seat, window, outcome))
    return outcome


def automatic(msg: EmailMessage) -> str:
    """Why ``msg`` was sent by a robot (an auto-reply, a bounce, a list, this site), or ``""``."""
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(msg, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for header in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress-Reply", "X-DGK-Kind"):
        if msg.get(header) is not None:
            return header
    if msg.get("Return-Path") is not None and parseaddr(_header(msg, "Return-Path"))[1] == "":
        return "empty return path"
    sender = parseaddr(_header(msg, "From"))[1].lower()
    if sender.startswith(("mailer-daemon@", "postmaster@")) or not sender:
        return f"sender {sender or 'missing'}"
    return ""


def _all(msg: EmailMessage, headers) -> list[str]:
    found = []
    for h in headers:
        try:
            found += [clean(v, 2000) for v in (msg.get_all(h) or [])]
        except (ValueError, TypeError, LookupError, IndexError, AttributeError, RecursionError):
            continue
    return found


def oversized(size: int, *, downloaded: bool, whole: bool = True) -> Outcome:
    """A mail over ``ORDERS_MAIL_MAX_BYTES``, dropped (``downloaded``: False when the mailbox's
    server said its size and it was never fetched, or only its first bytes were; ``whole``:
    False when keeping stopped one byte past the limit, so ``size`` is only what was kept: the
    pipe's rest is thrown away, the mailbox's is never downloaded)."""
    most = settings.ORDERS_MAIL_MAX_BYTES
    if not whole:
        rest = "thrown away" if downloaded else "not downloaded"
        return _drop(f"oversized: more than {most} bytes, the rest {rest}")
    unread = "" if downloaded else ", not downloaded"
    return _drop(f"oversized: {size} bytes > {most}{unread}")


def _drop(reason: str, msg: EmailMessage | None = None) -> Outcome:
    mid = _header(msg, "Message-ID") if msg is not None else ""
    log.warning("orders by mail: dropped %s (%s)", mid or "a mail", reason)
    return Outcome("dropped", reason)


def _already_read(seat: Seat, message_id: str) -> bool:
    """Whether this seat's mail ``message_id`` was read before. The seat's own mails only: a
    mail of another seat's that carried the same Message-ID must not drop this one, or its
    player would learn that the other seat mailed orders (secrecy audit of 30 November 2026,
    second; ``tests/fog/test_mail_orders_log.py``)."""
    return OrganiserAction.objects.filter(
        campaign=seat.campaign, kind="mail-orders", data__message_id=message_id,
        data__seat=str(seat.code),
    ).exists()  # fmt: skip


def vocabulary(access: Access, window: PhaseWindow) -> Vocabulary:
    """What the seat may name in this window, from its own view of the state."""
    version = _version(access.campaign)
    view = _view(access, version)
    hexmap = _hexmap(access.campaign)
    forced = window.phase == "forced-march"
    units = own_units(view, leaders_only=False)
    positions = {}
    for key in units:
        x = view.leader(key)
        if x is not None:
            positions[key] = x.hex
    positions.update({t.id: t.hex for t in view.siege_trains if t.id in units})
    enemies, forts = enemy_hexes(view, hexmap)
    return Vocabulary(
        phase=window.phase,
        units=units,
        positions=positions,
        places={c.name: c.hex_id for c in hexmap.cities},
        hexes=frozenset(hexmap.hex_id(h) for h in hexmap.hexes),
        route=map_route(hexmap, enemies, forts),
        leaders_only=forced,
        battles={b["hex"]: tuple(b["armies"]) for b in battle_hexes(view)},
        honors=honors_roles(view, hexmap),
        hexmap=hexmap,
    )


def _apply(
    msg: EmailMessage, seat: Seat, window: PhaseWindow, message_id: str, now: datetime
) -> Outcome:
    access = Access(seat, seat.campaign, own=True, user=seat.user)
    vocab = vocabulary(access, window)
    reading = read_orders(reply_text(msg), vocab)
    kinds = MAIL_KINDS.get(window.phase, ())
    refused: list[str] = []
    with transaction.atomic():
        # The window locked first, as a save on the page locks it too (``sheets.writable_sheet``,
        # there FOR SHARE): a resolution that has claimed it is waited for, and then it is no
        # longer open, so a mail is never answered as read onto a sheet the resolution did not
        # read.
        still_open = (
            PhaseWindow.objects.select_for_update(no_key=True)
            .filter(id=window.id, status=WindowStatus.OPEN)
            .values_list("id", flat=True)
            .first()
        )
        if still_open is None:
            return Outcome("closed", "the phase has resolved", seat)
        OrderSheet.objects.get_or_create(
            window=window, seat=seat, defaults={"campaign": seat.campaign}
        )
        sheet = OrderSheet.objects.select_for_update().get(window=window, seat=seat)
        if sheet.ready and reading.ready is False:
            sheet.ready, sheet.submitted_at = False, None  # NOT READY: taken back, as on the page
            sheet.save(update_fields=["ready", "submitted_at"])
        if sheet.ready and reading.orders:
            refused.append(
                "Your orders were already submitted, so nothing was changed: write NOT READY "
                "on a line of its own above your orders to change them."
            )
        elif reading.orders:
            draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
            for line in reading.orders:
                if line.kind not in kinds:
                    refused.append(f"Line {line.number}: not an order of the {window.phase} phase.")
                    continue
                why = _merge(draft, line, access)
                if why:
                    refused.append(f"Line {line.number}: {why}")
            save_draft(sheet, draft, access)
        sheet.mailed_at = now
        sheet.save(update_fields=["mailed_at"])
        problems = (
            ready_problems(SeatContext(access, window.version, window), sheet)
            if window.phase in MAIL_KINDS
            else []
        )
        made_ready = False
        if reading.ready and not sheet.ready and not problems and not refused:
            made_ready = bool(
                OrderSheet.objects.filter(id=sheet.id, ready=False).update(
                    ready=True, submitted_at=now, updated=now
                )
            )
            if made_ready:
                queue_resolution_when_due(window.id)
        actionlog.log(
            seat.campaign, seat.user, "mail-orders",
            f"The orders of the {seat.label} came by email"
            + (" and are submitted." if made_ready else "."),
            now=now, message_id=message_id, seat=str(seat.code),
        )  # fmt: skip
    outcome = Outcome(
        "read", seat=seat, reading=reading, problems=refused + problems,
        units=dict(vocab.units), positions=dict(vocab.positions),
    )  # fmt: skip
    outcome.ready = made_ready or (sheet.ready and reading.ready is not False)
    return outcome


def _merge(draft: dict, line: Line, access: Access) -> str:
    """Put one understood order onto the draft as the page would; a reason when it cannot go."""
    order = dict(line.order or {})
    if line.kind in (MARCH, FORCED_MARCH):
        items = [o for o in draft_items(draft, line.kind) if o.get("unit") != order["unit"]]
        draft[line.kind] = [*items, order] if order.get("path") else items
    elif line.kind == TRANSFERS:
        draft[TRANSFERS] = [*draft_items(draft, TRANSFERS), order]
    elif line.kind == BATTLE:
        items = draft_items(draft, BATTLE)
        for d in order["decisions"]:
            if d["choice"] == "retire":
                state = viewcache.version_state(_version(access.campaign))
                refused = gameplay.retire_refusal(access.campaign, state, d["hex"], d["army"])
                if refused:
                    return f"the {d['army']} force may not retire: {refused}."
            items = [o for o in items if (o.get("hex"), o.get("army")) != (d["hex"], d["army"])]
            items.append(d)
        draft[BATTLE] = items
    elif line.kind == HONORS:
        items = [o for o in draft_items(draft, HONORS) if o.get("city") != order["city"]]
        draft[HONORS] = [*items, order]
    return ""


def _confirmation(seat: Seat, window: PhaseWindow, outcome: Outcome) -> dict:
    sheet = OrderSheet.objects.get(window=window, seat=seat)
    units = outcome.units  # the names the mail was read with: no second view
    hexmap = _hexmap(seat.campaign)
    held = []
    for kind in MAIL_KINDS.get(window.phase, ()):
        for o in draft_items(sheet.draft, kind):
            held.append(_said(kind, o, units, outcome.positions, hexmap))
    return {
        "reading": outcome.reading,
        "held": held,
        "problems": outcome.problems,
        "ready": sheet.ready,
        "max_lines": MAX_BODY_LINES,
    }


def _said(kind: str, o: dict, units: dict[str, str], positions: dict[str, str], hexmap) -> str:
    if kind in (MARCH, FORCED_MARCH):
        unit = o.get("unit")
        return march_said(o, units.get(unit, unit), positions.get(unit), units, hexmap)
    if kind == TRANSFERS:
        return (
            f"Transfer of {o.get('points')} points from {units.get(o.get('from'), o.get('from'))}"
            f" to {units.get(o.get('to'), o.get('to'))}"
        )
    if kind == BATTLE:
        return f"{str(o.get('army', '')).capitalize()} at {o.get('hex')}: {o.get('choice')}"
    role = "besieger" if "besieger" in o else "garrison"
    return f"{o.get('city')}: {o.get(role)}"


def _answer(msg: EmailMessage, seat: Seat, window: PhaseWindow, template: str, ctx: dict) -> None:
    """The one answer to a player's mail, threaded under it, with the same reply address."""
    campaign = seat.campaign
    reply_to = replyaddress.address(window.id, seat.id)
    subject = _header(msg, "Subject") or clean(f"{campaign.name}: your orders")
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}"
    ctx = {
        **ctx,
        "seat": seat,
        "campaign": campaign,
        "window": window,
        "link": settings.SITE_URL + reverse("orders:orders", args=[seat.code]),
        "open_now": campaign.open_window(),
    }
    text = render_to_string(template, ctx)
    if len(text) > MAX_ANSWER_CHARS:
        text = (
            text[:MAX_ANSWER_CHARS]
            + f"\n\n[This answer was cut at {MAX_ANSWER_CHARS} characters; "
            + f"the orders page shows all: {ctx['link']}]\n"
        )
    headers = {"X-DGK-Kind": "orders-by-mail", "Auto-Submitted": "auto-replied",
               "Message-ID": make_msgid(domain="dgk.invalid")}  # fmt: skip
    original = _header(msg, "Message-ID")
    if original:
        headers["In-Reply-To"] = original
        headers["References"] = original
    mail = EmailMultiAlternatives(
        subject[:200], text, settings.DEFAULT_FROM_EMAIL, [seat.user.email],
        headers=headers, reply_to=[reply_to] if reply_to else None,
    )  # fmt: skip
    mail.send()
