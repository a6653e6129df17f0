"""Bench: the season file of a whole season (issue 27), on PostgreSQL.

    .venv/bin/python bench/season_file_bench.py [--turns 18] [--runs 3]
        [--database postgres://postgres@127.0.0.1:5432/postgres]

A scratch database; a five-seat campaign on the bundled map played by the automatic players
(``tests/seasons/real_season.py``) for ``--turns`` turns; then, ``--runs`` times, the fastest kept:
the export (``seasonfile.export_campaign``, with secrets), the check of the file
(``seasonfile.loads``), the check of every value of its body (``seasonschema.check``, which
the import makes again first) and the import under new codes (``seasonimport.import_season``,
one transaction). Prints the rows, the file's size gzip'd and not, its depth, and the times.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_bench import scratch_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=18)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    with scratch_django(args.database, "dgk_seasonfile"), tempfile.TemporaryDirectory() as tmp:
        os.environ["MAP_PICTURES_DIR"] = tmp  # (the notes asking for pictures: not in var/)
        run(args)


def run(args) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import timezone

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)

    from campaign.models import organisers_group
    from seasons.services import seasonfile, seasonimport, seasonschema
    from tests.seasons.real_season import play_real_season
    from tests.standing import make_user

    @contextlib.contextmanager
    def capture(execute=True):
        yield []  # autocommit: on-commit callbacks run at once

    organiser = make_user("bench-organiser")
    organiser.groups.add(organisers_group())
    t = time.perf_counter()
    campaign, battles = play_real_season(organiser, capture, turns=args.turns, prefix="bench")
    played = time.perf_counter() - t
    times = {"export": [], "check": [], "schema": [], "import": []}
    for _ in range(args.runs):
        t = time.perf_counter()
        data = seasonfile.export_campaign(campaign, with_secrets=True)
        times["export"].append(time.perf_counter() - t)
        t = time.perf_counter()
        body = seasonfile.loads(data)
        times["check"].append(time.perf_counter() - t)
        t = time.perf_counter()
        seasonschema.check(body)
        times["schema"].append(time.perf_counter() - t)
        t = time.perf_counter()
        seasonimport.import_season(body, now=timezone.now(), new_code=True)
        times["import"].append(time.perf_counter() - t)
    events = sum(len(v["events"]) for v in body["versions"])
    print(
        f"season: {args.turns} turns played in {played:.1f} s; {len(body['versions'])} state "
        f"versions, {events} events, {len(body['windows'])} windows, {battles} battles"
    )
    print(
        f"file: {len(data) / 1024:,.0f} KiB gzip'd, "
        f"{len(gzip.decompress(data)) / 1024:,.0f} KiB of JSON, "
        f"{seasonfile.nesting_depth(gzip.decompress(data))} deep"
    )
    for what, runs in times.items():
        print(f"{what}: {min(runs):.2f} s (fastest of {len(runs)})")


if __name__ == "__main__":
    main()
