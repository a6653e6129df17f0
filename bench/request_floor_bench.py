"""Bench: what every signed-in request pays before its view does anything, and what the
dashboard and Ready cost on top, in one process (issue 44, the deadline hour at 200 players).

    .venv/bin/python bench/request_floor_bench.py [--rounds 200] [--warmups 20]
        [--database sqlite|postgres://postgres@127.0.0.1:5432/postgres]
        [--cache locmem|redis://127.0.0.1:6379/12] [--tree /tmp/h3-before]
        [--profile PAGE] [--sql]

A throw-away site as ``bench/deadline_hour.py`` sets it up (DEBUG off, static files collected,
one copy of the demo campaign: five seats, each its own player signed in beforehand, the march
of turn 1 open, every seat's pages warmed as the worker warms them when the phase opens), and
Django's test client, CSRF checked as a browser meets it, for the Prussian seat:

- ``sign-in``: the sign-in page, signed out (the floor the load bench divides by);
- ``bare``: ``base.html`` alone (``bench/urls.py``), signed in: the fixed cost of a signed-in
  page (the session, the user, the middleware, the base template);
- ``dashboard``: the dashboard reloaded (the hour's commonest request);
- ``ready``: Ready posted (a march saved beforehand), answered with its redirect; then
  ``after-ready``, the dashboard it leads to (the message shown); then ``unready`` (not part of
  the hour: it puts the sheet back for the next round).

Each round takes the pages in turn, so the machine's load weighs on all alike; the figures are
medians of ``--rounds`` after ``--warmups``, this process's CPU time (steadier than the wall
clock on a shared machine), and the statements each request runs. The resolution Ready asks for
is not run (a broker's message in production; ``queue.on_commit`` counted, not sent).

``--tree`` runs another checkout's code (``git worktree add --detach /tmp/h3-before HEAD``)
with this bench: run it alternately with and without to compare. ``--profile PAGE`` prints
cProfile's costliest calls over the rounds of that page (``PROFILE_SORT``, default tottime).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

PAGES = ("sign-in", "bare", "dashboard", "ready", "after-ready", "unready")
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def configure(database: str, cache: str, work: str) -> str | None:
    """Environment for a throw-away site; returns the scratch PostgreSQL database's name."""
    from bench.web_bench import scratch_site

    scratch = scratch_site(database, "dgk_floor", work, cache="" if cache == "locmem" else cache)
    os.environ["STATIC_ROOT"] = str(Path(work) / "static")
    # What the site writes at run time, here rather than in the checkout's var/.
    os.environ.update(
        {
            name: str(Path(work) / name.lower())
            for name in ("MAP_PICTURES_DIR", "SEASON_BOOKS_DIR", "BACKUP_DIR", "PHOTOS_DIR",
                         "EMAIL_FILE_PATH")
        }
    )  # fmt: skip
    return scratch


def site(work: Path):
    """The demo's copy, its sessions and one legal march per seat (``deadline_hour.setup``),
    the pages warmed; returns (the Prussian seat's plan entry, the plan)."""
    import json

    from django.core.management import call_command

    from bench import deadline_hour

    call_command("collectstatic", interactive=False, verbosity=0)
    deadline_hour.BURST_SIGNERS = 0  # one campaign, no burst
    plan_path = work / "plan.json"
    deadline_hour.setup(5, plan_path)
    deadline_hour.warm(plan_path)
    plan = json.loads(plan_path.read_text())
    return plan["players"][0], plan


def clients(player: dict, plan: dict):
    from django.test import Client

    signed = Client(enforce_csrf_checks=True)
    signed.cookies[plan["cookie_name"]] = player["session"]
    stranger = Client(enforce_csrf_checks=True)
    return signed, stranger


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--warmups", type=int, default=20)
    parser.add_argument("--database", default="sqlite")
    parser.add_argument("--cache", default="locmem")
    parser.add_argument("--tree", type=Path, help="another checkout's code, with this bench")
    parser.add_argument("--profile", choices=PAGES)
    parser.add_argument("--sql", action="store_true", help="print each page's statements")
    args = parser.parse_args()
    tree = (args.tree or Path(__file__).resolve().parent.parent).resolve()
    sys.path.insert(0, str(tree))
    os.chdir(tree)
    work = Path(tempfile.mkdtemp(prefix="dgk-floor-"))
    scratch = configure(args.database, args.cache, str(work))
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.services import queue

    queued: list[str] = []
    queue.on_commit = lambda task, *a, **k: queued.append(task)  # a broker's message
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    try:
        cache.clear()
        player, plan = site(work)
        code = player["seat"]
        signed, stranger = clients(player, plan)
        page = signed.get(f"/play/{code}/orders/?unit={player['unit']}")
        token = TOKEN.search(page.content.decode()).group(1)
        march = {"csrfmiddlewaretoken": token, "unit": player["unit"], "path": player["path"],
                 "marches": str(player["marches"]), "phase": "march"}  # fmt: skip
        saved = signed.post(f"/play/{code}/orders/march/", march, headers={"HX-Request": "true"})
        assert saved.status_code == 200 and "HX-Retarget" not in saved, "the march not saved"
        signed.get(f"/play/{code}/")  # the first visit recorded
        posted = {"csrfmiddlewaretoken": token, "phase": "march"}
        requests = {
            "sign-in": (stranger.get, "/accounts/login/", None, 200),
            "bare": (signed.get, "/bench/bare/", None, 200),
            "dashboard": (signed.get, f"/play/{code}/", None, 200),
            "ready": (signed.post, f"/play/{code}/orders/ready/", posted, 302),
            "after-ready": (signed.get, f"/play/{code}/", None, 200),
            "unready": (signed.post, f"/play/{code}/orders/unready/", posted, 302),
        }
        cpu: dict[str, list[float]] = {name: [] for name in PAGES}
        sql: dict[str, list[int]] = {name: [] for name in PAGES}
        said: dict[str, list[str]] = {}
        profiler = cProfile.Profile(time.process_time) if args.profile else None  # CPU
        for i in range(args.warmups + args.rounds):
            for name in PAGES:
                call, url, data, status = requests[name]
                if profiler is not None and name == args.profile and i >= args.warmups:
                    profiler.enable()
                with CaptureQueriesContext(connection) as ctx:
                    c0 = time.process_time()
                    response = call(url, data) if data is not None else call(url)
                    used = time.process_time() - c0
                if profiler is not None:
                    profiler.disable()
                assert response.status_code == status, (name, response.status_code)
                if name == "unready":  # its message is not part of the hour
                    signed.cookies.pop("messages", None)
                if name == "ready":
                    assert response["Location"].endswith(f"/play/{code}/"), response["Location"]
                if i >= args.warmups:
                    cpu[name].append(used * 1000)
                    sql[name].append(len(ctx.captured_queries))
                said[name] = [q["sql"] for q in ctx.captured_queries]
        asked = queued.count(queue.RESOLVE_PHASE)
        assert asked >= args.warmups + args.rounds, asked  # one resolution asked by each Ready
        if args.sql:
            for name in PAGES:
                print(f"{name}:", *(f"  {line[:200]}" for line in said[name]), sep="\n")
        print(
            f"{tree}: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, cache "
            f"{settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}, medians of "
            f"{args.rounds} after {args.warmups}, CPU ms; load average {os.getloadavg()[0]:.1f}"
        )
        base = statistics.median(cpu["sign-in"])
        for name in PAGES:
            median = statistics.median(cpu[name])
            print(
                f"  {name:12} CPU {median:6.2f} ms = {median / base:5.2f}x sign-in;  "
                f"{statistics.median(sql[name]):.0f} statements (most {max(sql[name])})"
            )
        if profiler is not None:
            stats = pstats.Stats(profiler).sort_stats(os.environ.get("PROFILE_SORT", "tottime"))
            stats.print_stats(os.environ.get("PROFILE_FILTER", ""), 45)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if scratch:
            from bench.web_bench import drop_scratch

            drop_scratch(args.database, scratch)


if __name__ == "__main__":
    main()
