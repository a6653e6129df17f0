"""Orders by email from an IMAP mailbox (issue 29): every unread mail of ``IMAP_URL`` read by
``orders.mailorders.receive``, then flagged read. A mail is flagged only once it has been taken
(read, answered or dropped), so a crash between the two leaves it for the next poll, where its
Message-ID, already on record, keeps it from being taken twice.

``IMAP_URL``: ``imaps://user:password@host:993/INBOX`` (TLS from the first byte) or
``imap://…:143/INBOX`` (STARTTLS, which is required: a password never crosses in clear).
``IMAP_CA_FILE`` names a CA bundle for a server whose certificate is not in the system's.

Whatever the server says, the poll holds no more of a mail than ``ORDERS_MAIL_MAX_BYTES`` and
one byte (docs/security.md): it asks for that much (``BODY.PEEK[]<0.N>``), a larger mail is
dropped on its size (``RFC822.SIZE``) or on those bytes, and ``Bounded`` keeps imaplib, which
reads (and allocates first) a literal of any size the server announces, to what was asked.
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
from orders.mailsize import DRAIN_MOST, drain, read_at_most

log = logging.getLogger(__name__)


@dataclass
class Polled:
    seen: int = 0
    read: int = 0
    dropped: int = 0
    closed: int = 0


_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
LINE_MOST = 1_000_000  # imaplib's own bound on a line (``imaplib._MAXLINE``): a long SEARCH


class TooLarge(imaplib.IMAP4.abort):
    """The server sent more than was asked: the connection is closed, its rest never read
    (imaplib wraps it in a plain ``abort``: ``Bounded.refused`` says it was this)."""


class Bounded:
    """An IMAP connection that holds at most ``most + 1`` bytes of a literal (a mail) and, in
    one answer of the server, that and one line's worth: imaplib alone reads, allocating it
    first, a literal of whatever size the server announces, and any number of lines. A literal
    larger than asked (a server that sends the whole mail for a partial fetch) gives its first
    ``most + 1`` bytes, the rest read and thrown away, so the conversation goes on and the mail
    is dropped as oversized; one larger than ``DRAIN_MOST`` is refused unread (``TooLarge``)."""

    def __init__(self, *args, most: int, **kwargs) -> None:
        self.most = most
        self.refused = ""
        self.budget = most + 1 + LINE_MOST
        self.left = self.budget  # the greeting comes before any command
        super().__init__(*args, **kwargs)

    def send(self, data: bytes) -> None:
        self.left = self.budget  # a new command: a new answer
        super().send(data)

    def read(self, size: int) -> bytes:
        if size <= self.most + 1:
            self._spend(size)
            return super().read(size)
        if size > DRAIN_MOST:
            raise self._refuse(f"a literal of {size} bytes announced; {self.most + 1} were asked")
        kept = read_at_most(self.file, self.most)
        self._spend(len(kept))
        rest = size - len(kept)
        if drain(self.file, rest) < rest:
            raise self._refuse(f"a literal of {size} bytes not sent in time")
        return kept

    def readline(self) -> bytes:
        most = min(LINE_MOST, self.left)
        line = self.file.readline(most + 1)
        if len(line) > most:
            raise self._refuse(f"a line or an answer of more than {most} bytes")
        self._spend(len(line))
        return line

    def _refuse(self, why: str) -> TooLarge:
        self.refused = why
        return TooLarge(why)

    def _spend(self, size: int) -> None:
        if size > self.left:
            raise self._refuse(f"an answer of more than {self.budget} bytes")
        self.left -= size


class BoundedIMAP4(Bounded, imaplib.IMAP4):
    pass


class BoundedIMAP4_SSL(Bounded, imaplib.IMAP4_SSL):  # noqa: N801 - imaplib's name, bounded
    pass


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
    most = settings.ORDERS_MAIL_MAX_BYTES
    if parts.scheme == "imaps":
        conn = BoundedIMAP4_SSL(host, parts.port or 993, ssl_context=context, timeout=30, most=most)
    else:
        conn = BoundedIMAP4(host, parts.port or 143, timeout=30, most=most)
        conn.starttls(ssl_context=context)
    counts = Polled()
    try:
        conn.login(unquote(parts.username or ""), unquote(parts.password or ""))
        conn.select(unquote(parts.path.strip("/")) or "INBOX")
        _status, found = conn.uid("SEARCH", None, "UNSEEN")
        for uid in (found[0] or b"").split():
            size = _size(conn, uid)
            if size is not None and size > most:
                # Dropped unread: the server says its size first, so a mail as large as the
                # server takes is never fetched (the fetch below is bounded, for a server that
                # says none or a false one).
                oversized(size, downloaded=False)  # (logged)
                conn.uid("STORE", uid, "+FLAGS", "(\\Seen)")
                counts.seen += 1
                counts.dropped += 1
                continue
            # The limit and a byte, whatever size it said (or none, or a false one).
            _status, data = conn.uid("FETCH", uid, f"(BODY.PEEK[]<0.{most + 1}>)")
            raw = next((d[1] for d in data if isinstance(d, tuple)), None)
            if raw is None:
                continue
            try:
                if len(raw) > most:
                    outcome = oversized(len(raw), downloaded=False, whole=False)
                else:
                    outcome = receive(raw, now=now)
            except DatabaseError:
                raise  # left unread for the next poll
            except Exception:  # noqa: BLE001 - one unreadable mail must not block the rest
                log.exception("orders mailbox: mail %s could not be read and is dropped", uid)
                outcome = Outcome("dropped", "unreadable")
            conn.uid("STORE", uid, "+FLAGS", "(\\Seen)")
            counts.seen += 1
            setattr(counts, outcome.status, getattr(counts, outcome.status) + 1)
    except imaplib.IMAP4.abort:
        if not conn.refused:
            raise
        # Out of step with the server (its answer is left unread): no logout, the next poll
        # starts afresh; the mails taken so far are flagged, the one it was on is not.
        log.error(
            "orders mailbox: the server sent more than was asked (%s): poll stopped", conn.refused
        )
    finally:
        try:
            if conn.refused:
                conn.shutdown()
            else:
                conn.logout()
        except (imaplib.IMAP4.error, OSError):
            log.warning("orders mailbox: the logout failed", exc_info=False)
    return counts
