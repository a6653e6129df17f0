"""``manage.py receivemail``: read one mail on standard input, as a Postfix or Exim pipe hands
it over, and take the orders in it (orders.mailorders, docs/email-orders.md).

Exit status 0 when the mail was read, answered or dropped (a dropped mail must not bounce: a
bounce to a robot is how two robots start talking); 75 (EX_TEMPFAIL) when the site could not
take it now (the database is down), so that the mail server keeps it and tries again.

At most ``ORDERS_MAIL_MAX_BYTES`` and one byte more are kept: a larger mail is dropped, and the
rest of it is read 64 kB at a time and thrown away (``orders.mailsize.drain``, to 64 MB or 60 s),
so what the mail server hands over costs no more memory than the limit and the mail server
never sees a broken pipe. Postfix's pipe and Exim's pipe transport both ignore a broken pipe
(EPIPE) from a command that exits 0 (Postfix ``pipe_command.c``, Exim ``transports/pipe.c``),
but a mail server that took it for a failed delivery would retry the mail for days or bounce
it: read to its end, the mail is a delivery to every one of them (docs/operations.md).
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import DatabaseError

from orders.mailorders import oversized, receive
from orders.mailsize import drain, read_at_most

EX_TEMPFAIL = 75
log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Read one mail on standard input and take the orders in it."

    def handle(self, **options):
        most = settings.ORDERS_MAIL_MAX_BYTES
        raw = read_at_most(sys.stdin.buffer, most)
        if len(raw) > most:
            drain(sys.stdin.buffer)
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
