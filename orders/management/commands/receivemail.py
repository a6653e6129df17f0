"""``manage.py receivemail``: read one mail on standard input, as a Postfix or Exim pipe hands
it over, and take the orders in it (orders.mailorders, docs/email-orders.md).

Exit status 0 when the mail was read, answered or dropped (a dropped mail must not bounce: a
bounce to a robot is how two robots start talking); 75 (EX_TEMPFAIL) when the site could not
take it now (the database is down), so that the mail server keeps it and tries again.

At most ``ORDERS_MAIL_MAX_BYTES`` and one byte more are read: a larger mail is dropped with
the rest of it never read, so what the mail server hands over costs no more memory than the
limit (Postfix's pipe takes a command that exits 0 before reading all as a delivery: the
broken pipe is ignored, ``pipe_command.c``).
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import DatabaseError

from orders.mailorders import oversized, receive

EX_TEMPFAIL = 75
CHUNK = 64 * 1024
log = logging.getLogger(__name__)


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


class Command(BaseCommand):
    help = "Read one mail on standard input and take the orders in it."

    def handle(self, **options):
        most = settings.ORDERS_MAIL_MAX_BYTES
        raw = read_at_most(sys.stdin.buffer, most)
        if len(raw) > most:
            outcome = oversized(len(raw), downloaded=True, whole=False)
            self.stdout.write(f"receivemail: {outcome.status} ({outcome.reason})")
            return
        try:
            outcome = receive(raw)
        except DatabaseError as exc:
            self.stderr.write(f"receivemail: the database is not reachable, try later: {exc}")
            sys.exit(EX_TEMPFAIL)
        except Exception as exc:  # noqa: BLE001 - the last guard: a mail must never bounce
            log.exception("receivemail: a mail could not be read and is dropped")
            self.stdout.write(f"receivemail: dropped (unreadable: {type(exc).__name__})")
            return
        self.stdout.write(
            f"receivemail: {outcome.status}" + (f" ({outcome.reason})" if outcome.reason else "")
        )
