"""Bench: what one request of each player page costs against the sign-in page, in one process.

    .venv/bin/python bench/page_cost_bench.py [--rounds 40] [--warmups 5] [--turns 3]
        [--database sqlite|postgres://postgres@127.0.0.1:5432/postgres] [--profile orders]

A throw-away site (a temporary SQLite file by default, or a scratch PostgreSQL database; DEBUG
off; the view cache in local memory, as ``./bin/run`` without Redis) with a five-seat campaign
on the bundled map played by the automatic players (``tests/seasons/real_season.py``) to the march
of turn ``--turns``. Django's test client requests, for the Prussian seat, the orders page, the
dashboard and the history page, and, signed out, the sign-in page and the bench's bare page
(``base.html`` alone, ``bench/urls.py``): ``--warmups`` rounds first (the view cache warm, the
templates compiled), then ``--rounds`` rounds, the pages taken in turn within each round so
the machine's load weighs on all alike. Prints each page's median and its ratio to the sign-in
page's median (issue 25's aim: orders and dashboard <= 3x).

No server and one client: this is the page's own cost. Under load the ratio of two pages' p95
measures the queue instead (docs/performance.md, "Page cost"); ``bench/page_ratio_bench.py``
measures that side.

``--profile PAGE`` runs pyinstrument (if installed) over ``--rounds`` warm requests of that page
and prints its tree instead.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORK = tempfile.mkdtemp(prefix="dgk-cost-")  # the SQLite file and the collected static files
PAGES = ("orders", "dashboard", "history", "sign-in", "bare")
BASE = "sign-in"


class Reached(Exception):
    """The season reached the march of the turn asked for."""


def configure(database: str) -> str | None:
    """Environment for a throw-away site; returns the scratch PostgreSQL database's name."""
    scratch = None
    if database == "sqlite":
        url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='dgk-cost-', dir=WORK)) / 'db.sqlite3'}"
    else:
        from bench.web_bench import admin_sql

        scratch = f"dgk_cost_{uuid.uuid4().hex[:8]}"
        admin_sql(database, f'CREATE DATABASE "{scratch}"')
        url = database.rsplit("/", 1)[0] + "/" + scratch
    os.environ.update(
        {
            "DATABASE_URL": url, "DEBUG": "0", "SECRET_KEY": "bench-" + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver", "CELERY_BROKER_URL": "",
            "REDIS_URL": "", "CACHE_URL": "", "EMAIL_URL": "console://", "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "bench.settings",
        }
    )  # fmt: skip
    return scratch


def season(turn: int):
    """A campaign played by the automatic players to the march of ``turn``."""
    from django.test import TestCase

    from campaign.models import organisers_group
    from tests.seasons.real_season import play_real_season
    from tests.standing import make_user

    organiser = make_user("cost-organiser")
    organiser.groups.add(organisers_group())
    found = []

    def stop_at_march(what, subject) -> None:
        campaign = subject if what == "start" else subject.campaign
        window = campaign.open_window()
        if window is not None and window.phase == "march" and window.turn == turn:
            found.append(campaign)
            raise Reached

    with contextlib.suppress(Reached):
        play_real_season(
            organiser, TestCase.captureOnCommitCallbacks, turns=turn, name="Cost season",
            prefix="cost", step=stop_at_march,
        )  # fmt: skip
    return found[0]


def requests(campaign) -> dict[str, tuple[object, str]]:
    """{page: (client, url)}: the Prussian seat's pages, and the signed-out pages."""
    from django.test import Client
    from django.urls import reverse

    seat = campaign.seats.select_related("user").get(power="prussia")
    player, stranger = Client(), Client()
    player.force_login(seat.user)
    return {
        "orders": (player, reverse("orders:orders", args=[seat.code])),
        "dashboard": (player, reverse("orders:dashboard", args=[seat.code])),
        "history": (player, reverse("orders:history", args=[seat.code])),
        "sign-in": (stranger, reverse("login")),
        "bare": (stranger, reverse("bench_bare")),
    }


def measure(pages: dict, rounds: int, warmups: int) -> tuple[dict, dict]:
    """Each page's times in ms, wall clock and this process's CPU time (on a shared machine
    the CPU time is the steadier: another process's load stretches the wall clock only)."""
    wall: dict[str, list[float]] = {name: [] for name in pages}
    cpu: dict[str, list[float]] = {name: [] for name in pages}
    for i in range(warmups + rounds):
        for name, (client, url) in pages.items():
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.get(url)
            elapsed, used = time.perf_counter() - t0, time.process_time() - c0
            assert response.status_code == 200, (name, response.status_code)
            if i >= warmups:
                wall[name].append(elapsed * 1000)
                cpu[name].append(used * 1000)
    return wall, cpu


def queries(pages: dict) -> dict[str, list[str]]:
    """The SQL each page runs, warm."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    out = {}
    for name, (client, url) in pages.items():
        with CaptureQueriesContext(connection) as ctx:
            client.get(url)
        out[name] = [q["sql"] for q in ctx.captured_queries]
    return out


def profile(pages: dict, name: str, rounds: int) -> None:
    """pyinstrument's tree of ``rounds`` warm requests of one page; with no pyinstrument,
    cProfile's 40 costliest calls (cumulative)."""
    client, url = pages[name]
    for _ in range(5):
        client.get(url)
    try:
        from pyinstrument import Profiler
    except ImportError:
        import cProfile
        import pstats

        with cProfile.Profile() as prof:
            for _ in range(rounds):
                client.get(url)
        pstats.Stats(prof).sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(40)
        return
    profiler = Profiler(interval=0.0002)
    profiler.start()
    for _ in range(rounds):
        client.get(url)
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--warmups", type=int, default=5)
    parser.add_argument("--turns", type=int, default=3, help="the march of this turn")
    parser.add_argument("--database", default="sqlite")
    parser.add_argument("--profile", choices=PAGES)
    parser.add_argument("--sql", action="store_true", help="print each page's queries")
    args = parser.parse_args()
    scratch = configure(args.database)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # As deployed: static files collected and named by their hash (WhiteNoise's manifest).
    settings.STATIC_ROOT = Path(tempfile.mkdtemp(prefix="static-", dir=WORK))
    try:
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("migrate", verbosity=0)
        call_command("rendertiles", verbosity=0)  # once: var/tiles, as ./bin/run draws them
        t0 = time.perf_counter()
        campaign = season(args.turns)
        window = campaign.open_window()
        pages = requests(campaign)
        print(
            f"{campaign.name}: the {window.phase} of turn {window.turn}, played in "
            f"{time.perf_counter() - t0:.0f} s; {settings.DATABASES['default']['ENGINE']}, "
            f"cache {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}, "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        if args.profile:
            profile(pages, args.profile, args.rounds)
            return
        wall, cpu = measure(pages, args.rounds, args.warmups)
        sql = queries(pages)
        if args.sql:
            for name, lines in sql.items():
                print(f"{name}:", *(f"  {line[:160]}" for line in lines), sep="\n")
        print(
            f"one process, Django's test client, medians of {args.rounds} after "
            f"{args.warmups} warm-ups (view cache warm); wall clock, then CPU time:"
        )
        base, base_cpu = statistics.median(wall[BASE]), statistics.median(cpu[BASE])
        for name in PAGES:
            median, median_cpu = statistics.median(wall[name]), statistics.median(cpu[name])
            aim = "  (aim <= 3x)" if name in ("orders", "dashboard") else ""
            print(
                f"  {name:10} {median:6.2f} ms = {median / base:5.2f}x sign-in;  CPU "
                f"{median_cpu:6.2f} ms = {median_cpu / base_cpu:5.2f}x;  "
                f"{len(sql[name])} queries{aim}"
            )
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
        if scratch:
            from django.db import connections

            from bench.web_bench import drop_scratch

            connections.close_all()
            drop_scratch(args.database, scratch)


if __name__ == "__main__":
    main()
