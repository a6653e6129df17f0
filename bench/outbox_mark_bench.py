"""Bench: an email's outbox row marked sent, the season's most frequent statement (208 of its
1,704, ``bench/season_services_bench.py --queries 10``), as ``mail.services.email._sent`` writes
it (one statement written once, run through the connection's cursor) against Django's
``filter(id=...).update(sent_at=...)`` (compiled anew at each call), on PostgreSQL.

    .venv/bin/python bench/outbox_mark_bench.py [--rows 1000] [--rounds 3]
        [--database postgres://postgres@127.0.0.1:5432/postgres]

A scratch database with ``2 x rows`` outbox rows; each way marks ``rows`` of them, alternately,
``rounds`` times. Prints the CPU time of this process (the database server's is not in it) and
the wall time per row, each round.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_bench import scratch_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with scratch_django(args.database, "dgk_outbox_mark"):
        run(args.rows, args.rounds)


def run(rows: int, rounds: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    from campaign.models import OutboxEmail
    from mail.services import email

    made = OutboxEmail.objects.bulk_create(
        OutboxEmail(batch="bench", kind="orders", ids={}, created=timezone.now())
        for _ in range(2 * rows)
    )
    ids = [row.id for row in made]

    def by_update(row_id: int) -> None:
        OutboxEmail.objects.filter(id=row_id).update(sent_at=timezone.now())

    ways = (("Django's update()", by_update, ids[:rows]), ("_sent", email._sent, ids[rows:]))
    for round_number in range(1, rounds + 1):
        for name, mark, chosen in ways:
            c0, t0 = time.process_time(), time.perf_counter()
            for row_id in chosen:
                mark(row_id)
            cpu = (time.process_time() - c0) / rows * 1000
            wall = (time.perf_counter() - t0) / rows * 1000
            print(
                f"round {round_number}: {name:>16}: {cpu:.3f} ms of CPU, {wall:.3f} ms wall a row"
            )
    marked = OutboxEmail.objects.filter(sent_at__isnull=False).count()
    print(f"rows marked sent: {marked} of {2 * rows}")


if __name__ == "__main__":
    main()
