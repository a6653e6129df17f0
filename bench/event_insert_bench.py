"""Bench: writing a season's event rows on PostgreSQL, by ``COPY`` (what a resolution does,
``resolution.insert_event_rows``) against Django's ``bulk_create``, measured in one run; and
its state versions, four a batch as a resolution writes them on average, by
``resolution.insert_versions`` (ids from the sequence, then ``COPY``) against one ``save``
each.

    .venv/bin/python bench/event_insert_bench.py [--database postgres://postgres@127.0.0.1:5432/postgres]

The rows are those of a real season: the engine's automatic players play one
(``rules.autoplay.play_season``) and every event of it is written, one batch per phase as a
resolution writes them, into a scratch database; each way five times, the fastest kept. The
versions are the season's states, each batch written alternately one way and the other, best
of five rounds.
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
    from campaign.services.resolution import _event_rows, insert_event_rows, insert_versions
    from maps.core.loader import load_map
    from rules.autoplay import play_season
    from rules.events import event_to_dict
    from rules.state import state_to_dict

    states: list[dict] = []
    season = play_season(
        load_map(),
        seed="season",
        on_phase=lambda state, _phase: states.append(state_to_dict(state)),
    )
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

    per_batch = 4
    numbers = iter(range(10_000, 10_000_000))

    def made(batch: list[dict]) -> list:
        return [
            StateVersion(campaign=campaign, number=next(numbers), turn=1, phase="march", state=s)
            for s in batch
        ]

    def each_saved(versions: list) -> None:
        for version in versions:
            version.save(force_insert=True)

    ways = {"insert_versions": insert_versions, "save each": each_saved}
    best = dict.fromkeys(ways, float("inf"))
    batches = [states[i : i + per_batch] for i in range(0, len(states), per_batch)]
    for _ in range(5):
        spent = dict.fromkeys(ways, 0.0)
        for batch in batches:
            for name, insert in ways.items():
                versions = made(batch)
                t = time.perf_counter()
                with transaction.atomic():
                    insert(versions)
                spent[name] += time.perf_counter() - t
        best = {name: min(best[name], spent[name]) for name in ways}
    fast, slow = best["insert_versions"], best["save each"]
    print(
        f"{len(states)} state versions, {per_batch} a batch: insert_versions {fast:.3f} s; "
        f"save each {slow:.3f} s; ratio {slow / fast:.1f}x"
    )


if __name__ == "__main__":
    main()
