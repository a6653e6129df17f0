"""Bench: what each player page costs against a bare Django page, with one client and at
saturation, measured in one run (issues 16 and 25), and page time late in a season against
early.

    .venv/bin/python bench/page_ratio_bench.py [--clients 20] [--seconds 20] [--workers 4]
        [--turns 18] [--rounds 40] [--database postgres://postgres@127.0.0.1:5432/postgres]

1. A scratch PostgreSQL database. Two five-seat campaigns on the bundled map are played by the
   automatic players (``tests/seasons/real_season.py``, battles settled by the quick resolution),
   one to the march of turn 1, one to the march of turn ``--turns``; their orders, dashboard
   and handover pages are timed in this process, in turn (Django's test client; median of 15
   with the seat's view cached, and of 5 right after the cache is emptied): late / early.
2. Four campaigns deployed with the march open (``bench/web_bench.py``) and one in
   deployment. gunicorn serves the product with the bench's URLconf (``bench/urls.py``: one
   more page, ``/bench/bare/``, rendering ``base.html`` alone) through ``bench/wsgi.py``, which
   tallies every call of the map-drawing functions.
3. **One client** (the page's own cost): one signed-in client requests each page kind
   (orders, dashboard, deployment, battle, the organiser's board) and the bare page in turn,
   ``--rounds`` times after 5 warm-ups; prints each page's median and median / the bare
   page's median.
4. **Saturation** (what the server can serve): ``--clients`` clients request one page kind
   only, for ``--seconds`` / 2, then the bare page only as long; prints each page's requests
   per second and the bare page's / the page's (how many bare pages one page costs when every
   worker is busy).
5. **Mixed load**: ``--clients`` clients, each signed in, request their page then the bare
   page, in turn, for ``--seconds``; two more clients fetch map pictures (drawn beforehand, as
   the worker does) all the while. Prints p50 / p95 per page, and the number of maps drawn in
   web requests (the aim: none). The p95s are printed without a ratio: at saturation every
   request waits behind the others, so a p95 is mostly queue and the ratio of two p95s tends
   to 1 whatever the pages cost (docs/performance.md, "Page cost").

Aims: one client, orders and dashboard <= 3x the bare page (issue 25 measures them against the
sign-in page in one process: ``bench/page_cost_bench.py``); turn 18 / turn 1 <= 1.2.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_bench import (  # noqa: E402
    PYTHON,
    admin_sql,
    drop_scratch,
    free_port,
    make_campaign,
    pct,
    session_cookie,
    setup_django,
    wait_for,
)

PAGES_BY_TURN = ("orders", "dashboard", "handover")


class Reached(Exception):
    """The early season reached the march of turn 1: stop there."""


def seasons(turns: int) -> tuple[object, object]:
    """Two campaigns played by the automatic players: one stopped at the march of turn 1, one
    at the march of turn ``turns`` (after ``turns - 1`` whole turns)."""
    from django.test import TestCase

    from campaign.models import organisers_group
    from tests.seasons.real_season import play_real_season
    from tests.standing import make_user

    organiser = make_user("season-organiser")
    organiser.groups.add(organisers_group())
    early = []

    def stop_at_first_march(what, subject) -> None:
        campaign = subject if what == "start" else subject.campaign
        window = campaign.open_window()
        if window is not None and window.phase == "march":
            early.append(campaign)
            raise Reached

    with contextlib.suppress(Reached):
        play_real_season(
            organiser, TestCase.captureOnCommitCallbacks, turns=1, name="Early season",
            prefix="early", step=stop_at_first_march,
        )  # fmt: skip
    late, _ = play_real_season(
        organiser, TestCase.captureOnCommitCallbacks, turns=turns - 1, name="Long season",
        prefix="long",
    )  # fmt: skip
    return early[0], late


def time_pages(campaigns: dict[str, object], rounds: int = 15) -> dict:
    """Page times in ms of PAGES_BY_TURN for each campaign's Prussian seat, taken in turn (so
    that the machine's load weighs on both alike): {(campaign, page): (warm median, cold
    median)}; warm with the seat's view cached, cold right after the cache is emptied."""
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    urls, clients = {}, {}
    for label, campaign in campaigns.items():
        seat = campaign.seats.select_related("user").get(power="prussia")
        clients[label] = Client()
        clients[label].force_login(seat.user)
        for name in PAGES_BY_TURN:
            urls[label, name] = reverse(f"orders:{name}", args=[seat.code])
            assert clients[label].get(urls[label, name]).status_code == 200, (label, name)
    warm: dict = {key: [] for key in urls}
    cold: dict = {key: [] for key in urls}
    for i in range(rounds):
        for (label, name), url in urls.items():
            if i % 3 == 0:
                cache.clear()
                t0 = time.perf_counter()
                clients[label].get(url)
                cold[label, name].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            clients[label].get(url)
            warm[label, name].append(time.perf_counter() - t0)
    return {
        key: (statistics.median(warm[key]) * 1000, statistics.median(cold[key]) * 1000)
        for key in urls
    }


def deploying_campaign(people):
    from django.utils import timezone

    from campaign.models import Campaign, organisers_group
    from campaign.services import gameplay, setup
    from maps.core.loader import load_map
    from rules.autoplay import deployment_orders

    points, _ = deployment_orders(load_map(), gameplay.rule_settings(Campaign(rule_settings={})))
    people[0].groups.add(organisers_group())
    campaign = setup.create_campaign(
        people[0], name="Bench deployment", players=5, now=timezone.now(), army_points=points
    )
    for seat, user in zip(campaign.seats.filter(reserve=False), people[1:], strict=False):
        seat.user = user
        seat.save()
    setup.start_campaign(campaign, people[0], now=timezone.now())
    return campaign


def fetch(base: str, cookie: str, url: str) -> int:
    request = urllib.request.Request(base + url, headers={"Cookie": f"sessionid={cookie}"})
    with urllib.request.urlopen(request, timeout=30) as r:
        r.read()
        return r.status


def one_client(base: str, samples: dict[str, tuple[str, str]], rounds: int) -> dict:
    """Each page kind's and the bare page's times (s), one request at a time, in turn:
    {kind: [seconds]}. ``samples``: {kind: (cookie, url)}."""
    order = [*samples.items(), ("bare", (next(iter(samples.values()))[0], "/bench/bare/"))]
    times: dict[str, list[float]] = {kind: [] for kind, _ in order}
    for i in range(5 + rounds):
        for kind, (cookie, url) in order:
            t0 = time.perf_counter()
            fetch(base, cookie, url)
            if i >= 5:
                times[kind].append(time.perf_counter() - t0)
    return times


def saturate(base: str, targets: list[tuple[str, str]], clients: int, seconds: float) -> float:
    """Requests per second served to ``clients`` clients, each requesting its (cookie, url) of
    ``targets`` (taken in turn) as fast as the server answers, for ``seconds``."""
    done: list[int] = []
    until = time.time() + seconds

    def loop(cookie: str, url: str) -> None:
        n = 0
        while time.time() < until:
            with contextlib.suppress(Exception):
                fetch(base, cookie, url)
                n += 1
        done.append(n)

    threads = [
        threading.Thread(target=loop, args=targets[i % len(targets)]) for i in range(clients)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done) / (time.perf_counter() - t0)


def client_loop(base, cookie, kind, url, until, timings, errors, *, bare=True):
    while time.time() < until:
        for name, path in ((kind, url), ("bare", "/bench/bare/")) if bare else ((kind, url),):
            try:
                t0 = time.perf_counter()
                status = fetch(base, cookie, path)
                if status not in (200, 202):
                    errors.append(f"{name}: {status}")
                timings.setdefault(name, []).append(time.perf_counter() - t0)
            except Exception as exc:
                errors.append(f"{name}: {exc!r}"[:200])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--turns", type=int, default=18)
    parser.add_argument("--rounds", type=int, default=40, help="one client: rounds measured")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    name = f"dgk_ratio_{uuid.uuid4().hex[:8]}"
    admin_sql(args.database, f'CREATE DATABASE "{name}"')
    pictures_dir = tempfile.mkdtemp(prefix="bench-pictures-")
    render_log = Path(tempfile.mkdtemp()) / "renders.log"
    render_log.write_text("")
    server_log = render_log.with_name("server.log")
    env = {
        "DATABASE_URL": args.database.rsplit("/", 1)[0] + "/" + name,
        "DEBUG": "0", "SECRET_KEY": "bench-" + uuid.uuid4().hex,
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver", "CELERY_BROKER_URL": "",
        "REDIS_URL": "", "EMAIL_URL": "console://", "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "dgk.settings", "MAP_PICTURES_DIR": pictures_dir,
    }  # fmt: skip
    server = None
    try:
        full_env = {**os.environ, **env}
        for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=full_env, check=True)
        setup_django(env)
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.urls import reverse

        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        # The map widget asks the worker for its tiles (there is none here) and says so each time.
        logging.getLogger("maps.tiles").setLevel(logging.ERROR)
        t0 = time.perf_counter()
        early, long_season = seasons(args.turns)
        late = long_season.open_window()
        print(
            f"two seasons played in {time.perf_counter() - t0:.1f} s: one at the march of turn "
            f"{early.open_window().turn}, one at the {late.phase} of turn {late.turn}"
        )
        times = time_pages({"early": early, "late": long_season})
        for page in PAGES_BY_TURN:
            (w1, c1), (wn, cn) = times["early", page], times["late", page]
            print(
                f"  {page}: turn 1 {w1:.1f} ms (cold {c1:.1f}), turn {late.turn} {wn:.1f} ms "
                f"(cold {cn:.1f}): turn {late.turn} / turn 1 = {wn / w1:.2f} (cold "
                f"{cn / c1:.2f}; aim <= 1.2)"
            )

        users = get_user_model().objects

        def people(tag: str) -> list:
            return [users.create_user(f"{tag}-{i}", f"{tag}-{i}@example.org", "pw")
                    for i in range(6)]  # fmt: skip

        marching = [make_campaign(f"Bench {i}", "chart", people(f"c{i}")) for i in range(4)]
        deploying = deploying_campaign(people("d"))
        from battles.models import Battle
        from maps.pictures import draw_picture

        battles = list(Battle.objects.filter(campaign=long_season))
        kinds: list[tuple[str, object, str]] = []  # (page, user, url)
        for c in marching:
            for s in c.seats.filter(reserve=False).select_related("user"):
                kinds.append(("orders", s.user, reverse("orders:orders", args=[s.code])))
                kinds.append(("dashboard", s.user, reverse("orders:dashboard", args=[s.code])))
        for s in deploying.seats.filter(reserve=False).select_related("user"):
            kinds.append(("deployment", s.user, reverse("orders:deploy", args=[s.code])))
        for b in battles:
            kinds.append(
                ("battle", long_season.organiser,
                 reverse("battles:battle", args=[long_season.code, b.code]))
            )  # fmt: skip
        for c in marching:
            kinds.append(
                ("board", c.organiser, reverse("organiser_board", args=[c.code]))
            )  # fmt: skip
        by_kind: dict[str, list] = {}
        for k in kinds:
            by_kind.setdefault(k[0], []).append(k)
        # Orders take 8 of 20 clients, the other pages 3 each.
        shares = {"orders": 8, "dashboard": 3, "deployment": 3, "battle": 3, "board": 3}
        chosen = []
        for kind, n in shares.items():
            pool = by_kind.get(kind, [])
            count = max(1, n * args.clients // 20) if pool else 0
            chosen += [pool[i % len(pool)] for i in range(count)]
        map_clients = []
        for c in marching[:2]:
            s = c.seats.filter(reserve=False).select_related("user", "campaign").first()
            v = c.latest_version()
            draw_picture(v.id, s.id)  # as the worker does
            url = reverse("orders:map", args=[s.code, v.number])
            map_clients.append(("map picture", s.user, url))
        render_log.write_text("")  # the drawings above were the bench's, not a request's
        cookies = {u.id: session_cookie(u) for _, u, _ in kinds + map_clients}
        connection.close()

        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "bench.wsgi", "-b", f"127.0.0.1:{port}",
             "-w", str(args.workers), "--log-level", "warning"],
            cwd=ROOT,
            env={**full_env, "DJANGO_SETTINGS_MODULE": "bench.settings",
                 "BENCH_RENDER_LOG": str(render_log)},
            stderr=server_log.open("w"),  # the widget's "map tiles missing", once a request
        )  # fmt: skip
        wait_for(f"{base}/bench/bare/")

        def load(seconds: float):
            timings: dict[str, list[float]] = {}
            errors: list[str] = []
            until = time.time() + seconds
            threads = [
                threading.Thread(
                    target=client_loop,
                    args=(base, cookies[u.id], kind, url, until, timings, errors),
                    kwargs={"bare": kind != "map picture"},
                )
                for kind, u, url in chosen + map_clients
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return timings, errors

        load(5)  # warm-up: every worker loads the map, the templates and the views
        samples = {kind: (cookies[by_kind[kind][0][1].id], by_kind[kind][0][2])
                   for kind in shares if by_kind.get(kind)}  # fmt: skip
        alone = one_client(base, samples, args.rounds)
        bare = statistics.median(alone["bare"])
        print(
            f"one client, one request at a time (medians of {args.rounds} after 5 warm-ups; "
            f"{args.workers} workers, load average {os.getloadavg()[0]:.1f}):"
        )
        for kind, values in alone.items():
            median = statistics.median(values)
            aim = " (aim <= 3)" if kind in ("orders", "dashboard") else ""
            print(
                f"  {kind}: {median * 1000:.1f} ms"
                + ("" if kind == "bare" else f", {median / bare:.1f}x the bare page{aim}")
            )
        print(
            f"saturation: {args.clients} clients on one page each time, "
            f"{args.seconds / 2:.0f} s a page:"
        )
        bare_rate = saturate(
            base, [(c, "/bench/bare/") for c, _ in samples.values()], args.clients,
            args.seconds / 2,
        )  # fmt: skip
        print(f"  bare: {bare_rate:.1f} requests/s")
        for kind in samples:
            targets = [(cookies[u.id], url) for _, u, url in by_kind[kind] if u.id in cookies]
            rate = saturate(base, targets, args.clients, args.seconds / 2)
            print(
                f"  {kind}: {rate:.1f} requests/s; the bare page's / this page's = "
                f"{bare_rate / rate:.1f} (what one such page costs in bare pages)"
            )
        timings, errors = load(args.seconds)
        drawn = [line for line in render_log.read_text().splitlines() if line]
        total = sum(len(v) for v in timings.values())
        print(
            f"load: {len(chosen)} page clients (each: its page, then the bare page) and "
            f"{len(map_clients)} map-picture clients for {args.seconds:.0f} s against gunicorn "
            f"({args.workers} sync workers, PostgreSQL, {os.cpu_count()} CPUs, load average "
            f"{os.getloadavg()[0]:.1f}): {total} requests, {len(errors)} errors"
        )
        for kind in ("bare", *shares, "map picture"):
            values = timings.get(kind)
            if not values:
                print(f"  {kind}: no requests")
                continue
            print(
                f"  {kind}: n={len(values)} p50 {pct(values, 50):.0f} ms, "
                f"p95 {pct(values, 95):.0f} ms"
            )
        print(
            "  (no p95 ratios: at saturation a p95 is mostly the queue every request waits in, "
            "the bare page's too; the one-client and requests-per-second ratios above are the "
            "pages' costs)"
        )
        print(f"maps drawn in web requests during the load: {len(drawn)} (aim: 0)")
        if errors:
            print("  first errors:", errors[:3], f"(server log: {server_log})")
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        drop_scratch(args.database, name)


if __name__ == "__main__":
    main()
