"""A mail read no further than ``ORDERS_MAIL_MAX_BYTES`` allows, from the mail server's pipe
(``manage.py receivemail``) or from an IMAP server (``orders.mailbox``): at most the limit and one
byte more are kept (one more than allowed says the mail is too large), and what comes after it
is read in chunks and thrown away, to a hard cap in bytes and in time (docs/security.md).

Thrown away rather than left unread: a mail server's pipe that the command leaves unread sees a
broken pipe, which Postfix and Exim both ignore for a command that exits 0, but not every mail
server need; an IMAP answer left unread past a point leaves the rest of the conversation
unreadable.
"""

from __future__ import annotations

import time

CHUNK = 64 * 1024
# Above what mail servers take by default (Postfix's message_size_limit 10 MB, Exim's 50 MB):
# a mail that long is thrown away whole; the cap only stops a stream without end.
DRAIN_MOST = 64 * 1024 * 1024
DRAIN_SECONDS = 60


def read_at_most(stream, most: int) -> bytes:
    """The bytes of ``stream`` up to ``most + 1`` (one more than allowed says it is too large),
    read in chunks of at most 64 kB: a stream of any size, or one that never ends, costs no
    more. A stream may hand fewer bytes than asked (a pipe): read until enough, or its end."""
    parts, held = [], 0
    while held <= most:
        part = stream.read(min(CHUNK, most + 1 - held))
        if not part:
            break
        parts.append(part)
        held += len(part)
    return b"".join(parts)


def drain(stream, most: int = DRAIN_MOST, seconds: float = DRAIN_SECONDS) -> int:
    """Read what is left of ``stream`` and throw it away, 64 kB at a time, until its end,
    ``most`` bytes or ``seconds`` (checked between reads): how many bytes were thrown away.
    Never more than ``most`` is read, so what follows in the stream stays for its reader.

    >>> import io
    >>> drain(io.BytesIO(b"x" * 200_000), most=150_000)
    150000
    """
    read = getattr(stream, "read1", stream.read)  # whatever has come, not a wait for a whole chunk
    end = time.monotonic() + seconds
    gone = 0
    while gone < most and time.monotonic() < end:
        part = read(min(CHUNK, most - gone))
        if not part:
            break
        gone += len(part)
    return gone
