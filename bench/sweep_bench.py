"""Bench: the deadline sweep's query (``due_window_ids``) at 5 campaigns and at 500, 5 of them
due, on PostgreSQL, measured in one run.

    .venv/bin/python bench/sweep_bench.py [--database postgres://postgres@127.0.0.1:5432/postgres]

Campaigns are rows only (a campaign, five seats with players, one open march window and its
state version), made in bulk in a scratch database. In each set, 5 campaigns are due (their
deadline passed); every other has a deadline tomorrow and ``--ready`` of its five seats ready (not
all: not due). Prints the median of 200 sweeps of each set and the ratio; the aim (issue 16) is
500 / 5 <= 2.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_bench import admin_sql  # noqa: E402


def make(n: int, due: int, tag: str, now, ready: int) -> None:
    from django.contrib.auth import get_user_model

    from campaign.models import Campaign, PhaseWindow, Seat, StateVersion
    from orders.models import OrderSheet

    user = get_user_model().objects.create_user(f"org-{tag}", password=None)
    campaigns = Campaign.objects.bulk_create(
        Campaign(name=f"{tag} {i}", organiser=user, status="running") for i in range(n)
    )
    versions = StateVersion.objects.bulk_create(
        StateVersion(campaign=c, number=1, turn=1, phase="march", state={}) for c in campaigns
    )
    seats = Seat.objects.bulk_create(
        Seat(campaign=c, power=p, label=p, armies=[p], user=user)
        for c in campaigns
        for p in ("austria", "france", "hanover", "prussia", "russia")
    )
    by_campaign: dict[int, list] = {}
    for s in seats:
        by_campaign.setdefault(s.campaign_id, []).append(s)
    windows = PhaseWindow.objects.bulk_create(
        PhaseWindow(
            campaign=c, version=v, phase="march", turn=1, opened_at=now - timedelta(days=1),
            owing=[str(s.code) for s in by_campaign[c.id]],
            deadline=now - timedelta(minutes=1) if i < due else now + timedelta(days=1),
        )
        for i, (c, v) in enumerate(zip(campaigns, versions, strict=True))
    )  # fmt: skip
    OrderSheet.objects.bulk_create(
        OrderSheet(campaign=w.campaign, window=w, seat=s, ready=True, draft={})
        for w in windows
        for s in by_campaign[w.campaign_id][:ready]
    )


def timed(now, runs: int = 200) -> tuple[float, int]:
    from campaign.services.resolution import due_window_ids

    found = due_window_ids(now)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        due_window_ids(now)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), len(found)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--ready", type=int, default=2, help="ready seats of 5, not-due ones")
    args = parser.parse_args()
    name = f"dgk_sweep_{uuid.uuid4().hex[:8]}"
    admin_sql(args.database, f'CREATE DATABASE "{name}"')
    os.environ.update(
        DATABASE_URL=args.database.rsplit("/", 1)[0] + "/" + name,
        DJANGO_SETTINGS_MODULE="dgk.settings", DEBUG="0", SECRET_KEY="bench-" + name,
        ALLOWED_HOSTS="localhost", CELERY_BROKER_URL="", REDIS_URL="", LOG_LEVEL="WARNING",
    )  # fmt: skip
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection
        from django.utils import timezone

        from campaign.models import Campaign

        call_command("migrate", verbosity=0)
        now = timezone.now()
        make(5, 5, "few", now, args.ready)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        few, found_few = timed(now)
        Campaign.objects.all().delete()
        make(500, 5, "many", now, args.ready)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        many, found_many = timed(now)
        print(f"sweep at 5 campaigns (5 due): median {few * 1000:.2f} ms, found {found_few}")
        print(
            f"sweep at 500 campaigns (5 due, 495 with {args.ready} of 5 seats ready): median "
            f"{many * 1000:.2f} ms, found {found_many}"
        )
        print(f"ratio 500 / 5: {many / few:.2f} (aim: <= 2)")
    finally:
        from django.db import connections

        connections.close_all()
        admin_sql(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
