"""``manage.py receivemail``: read one mail on standard input, as a Postfix or Exim pipe hands
it over, and take the orders in it (orders.mailorders, docs/email-orders.md).

Exit status 0 when the mail was read, answered or dropped (a dropped mail must not bounce: a
bounce to a robot is how two robots start talking); 75 (EX_TEMPFAIL) when the site could not
take it now (the database is down), so that the mail server keeps it and tries again.
"""

from __future__ import annotations

import logging
import sys

from django.core.management.base import BaseCommand
from django.db import DatabaseError

from orders.mailorders import receive

EX_TEMPFAIL = 75
log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Read one mail on standard input and take the orders in it."

    def handle(self, **options):
        raw = sys.stdin.buffer.read()
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
