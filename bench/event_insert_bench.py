"""Bench: writing a season's event rows on PostgreSQL, by ``COPY`` (what a resolution does,
``resolution.insert_event_rows``) against Django's ``bulk_create``, measured in one run.

    .venv/bin/python bench/event_insert_bench.py [--database postgres://postgres@127.0.0.1:5432/postgres]

The rows are those of a real season: the engine's automatic players play one
(``rules.autoplay.play_season``) and every event of it is written, one batch per phase as a
resolution writes them, into a scratch database; each way five times, the fastest kept.
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
    args = parser.parse_args()
    with scratch_django(args.database, "dgk_events"):
        run()


def run() -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction

    call_command("migrate", verbosity=0)
    from campaign.models import Campaign, StateVersion
    from campaign.models import Event as EventRow
    from campaign.services.resolution import _event_rows, insert_event_rows
    from maps.core.loader import load_map
    from rules.autoplay import play_season
    from rules.events import event_to_dict

    season = play_season(load_map(), seed="season")
    events = [event_to_dict(e) for e in season.events]
    # One batch per phase resolution, as many events each on average.
    size = -(-len(events) // season.resolutions)
    batches = [events[i : i + size] for i in range(0, len(events), size)]
    organiser = get_user_model().objects.create_user("bench-organiser")
    campaign = Campaign.objects.create(name="Bench", organiser=organiser)
    versions = [
        StateVersion.objects.create(campaign=campaign, number=i, turn=1, state={})
        for i in range(len(batches))
    ]
    rows = sum(len(b) for b in batches)

    def timed(insert) -> float:
        best = float("inf")
        for _ in range(5):
            EventRow.objects.all().delete()
            t = time.perf_counter()
            with transaction.atomic():
                for version, events in zip(versions, batches, strict=True):
                    insert(_event_rows(version, events))
            best = min(best, time.perf_counter() - t)
        assert EventRow.objects.count() == rows
        return best

    copied = timed(insert_event_rows)
    bulk = timed(EventRow.objects.bulk_create)
    print(f"{rows} event rows in {len(batches)} phases (a season of the automatic players)")
    print(f"COPY: {copied:.3f} s; bulk_create: {bulk:.3f} s; ratio {bulk / copied:.1f}x")


if __name__ == "__main__":
    main()
