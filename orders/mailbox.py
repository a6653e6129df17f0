"""Orders by email from an IMAP mailbox (issue 29): every unread mail of ``IMAP_URL`` read by
``orders.mailorders.receive``, then flagged read. A mail is flagged only once it has been taken
(read, answered or dropped), so a crash between the two leaves it for the next poll, where its
Message-ID, already on record, keeps it from being taken twice.

``IMAP_URL``: ``imaps://user:password@host:993/INBOX`` (TLS from the first byte) or
``imap://…:143/INBOX`` (STARTTLS, which is required: a password never crosses in clear).
``IMAP_CA_FILE`` names a CA bundle for a server whose certificate is not in the system's.
"""

from __future__ import annotations

import imaplib
import logging
import re
import ssl
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import unquote, urlparse

from django.conf import settings
from django.db import DatabaseError

from orders.mailorders import Outcome, oversized, receive

log = logging.getLogger(__name__)


@dataclass
class Polled:
    seen: int = 0
    read: int = 0
    dropped: int = 0
    closed: int = 0


_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


def _size(conn: imaplib.IMAP4, uid: bytes) -> int | None:
    """The mail's size as the server says it (``RFC822.SIZE``), or None if it says none."""
    _status, data = conn.uid("FETCH", uid, "(RFC822.SIZE)")
    for line in data or ():
        found = _SIZE.search(line if isinstance(line, bytes) else b"")
        if found:
            return int(found.group(1))
    return None


def poll(url: str, *, cafile: str = "", now: datetime | None = None) -> Polled:
    """Take every unread mail of the mailbox at ``url``."""
    parts = urlparse(url)
    context = ssl.create_default_context(cafile=cafile or None)
    host = parts.hostname or "localhost"
    if parts.scheme == "imaps":
        conn = imaplib.IMAP4_SSL(host, parts.port or 993, ssl_context=context, timeout=30)
    else:
        conn = imaplib.IMAP4(host, parts.port or 143, timeout=30)
        conn.starttls(ssl_context=context)
    counts = Polled()
    try:
        conn.login(unquote(parts.username or ""), unquote(parts.password or ""))
        conn.select(unquote(parts.path.strip("/")) or "INBOX")
        _status, found = conn.uid("SEARCH", None, "UNSEEN")
        for uid in (found[0] or b"").split():
            size = _size(conn, uid)
            if size is not None and size > settings.ORDERS_MAIL_MAX_BYTES:
                # Dropped unread: the server says its size first, so a mail as large as the
                # server takes is never held by the worker (mailorders.receive checks the
                # bytes again, for a server that says none).
                oversized(size, downloaded=False)  # (logged)
                conn.uid("STORE", uid, "+FLAGS", "(\\Seen)")
                counts.seen += 1
                counts.dropped += 1
                continue
            _status, data = conn.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = next((d[1] for d in data if isinstance(d, tuple)), None)
            if raw is None:
                continue
            try:
                outcome = receive(raw, now=now)
            except DatabaseError:
                raise  # left unread for the next poll
            except Exception:  # noqa: BLE001 - one unreadable mail must not block the rest
                log.exception("orders mailbox: mail %s could not be read and is dropped", uid)
                outcome = Outcome("dropped", "unreadable")
            conn.uid("STORE", uid, "+FLAGS", "(\\Seen)")
            counts.seen += 1
            setattr(counts, outcome.status, getattr(counts, outcome.status) + 1)
    finally:
        try:
            conn.logout()
        except (imaplib.IMAP4.error, OSError):
            log.warning("orders mailbox: the logout failed", exc_info=False)
    return counts
