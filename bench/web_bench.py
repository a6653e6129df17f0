"""Bench: the player pages under load, against the real server (gunicorn, PostgreSQL, Redis, a
Celery worker with beat), with the bundled map of Central Europe.

    .venv/bin/python bench/web_bench.py [--clients 20] [--seconds 20] [--workers 4]
        [--database postgres://postgres:postgres@127.0.0.1:5432/postgres]
        [--broker redis://127.0.0.1:6379/14]

1. Creates a scratch PostgreSQL database, migrates it, and sets up four five-seat campaigns
   with every army deployed by the historical leaders of section 14 (so every seat has forces on
   the map) and the march phase open: 20 seats, one per client.
2. SQL queries per page, measured in-process with Django's test client, for a campaign whose
   armies have 1 leader each and one with the Deployment Chart's numbers (3.4: 33 leaders): the
   number must not grow with the number of forces.
3. Starts gunicorn on a free port; ``--clients`` threads, each signed in as one seat, load the
   orders page and submit a march order in turn for ``--seconds``; prints p50/p95 latency of
   each request kind and the throughput.
4. Starts ``celery -A dgk worker -B`` with a deadline sweep every second, puts one campaign's
   deadline in the past, and prints the time from the deadline to the resolved phase.

The scratch database is dropped at the end.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def admin_sql(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def drop_scratch(url: str, name: str) -> None:
    """Close this process's connections, then drop the bench's scratch database."""
    try:
        from django.db import connections

        connections.close_all()
    except Exception:
        pass
    admin_sql(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def scratch_django(url: str, prefix: str):
    """A scratch database beside ``url`` for this process's Django (no broker, console email,
    no debug), dropped at the end; yields its name."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    admin_sql(url, f'CREATE DATABASE "{name}"')
    os.environ.update(
        DATABASE_URL=url.rsplit("/", 1)[0] + "/" + name,
        DJANGO_SETTINGS_MODULE="dgk.settings",
        CELERY_BROKER_URL="",
        REDIS_URL="",
        EMAIL_URL="console://",
        LOG_LEVEL="WARNING",
        DEBUG="0",
        SECRET_KEY="bench-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="testserver,localhost",
    )
    try:
        yield name
    finally:
        drop_scratch(url, name)


def scratch_site(database: str, prefix: str, folder: str, *, cache: str = "") -> str | None:
    """Environment for a throw-away site run in this process (``bench.settings``, no broker,
    console email, no debug; ``cache``: a CACHE_URL, or local memory): on SQLite a file in
    ``folder``, else a scratch PostgreSQL database beside ``database``, whose name it returns
    (the caller drops it, ``drop_scratch``)."""
    scratch = None
    if database == "sqlite":
        url = f"sqlite:///{Path(folder) / 'db.sqlite3'}"
    else:
        scratch = f"{prefix}_{uuid.uuid4().hex[:8]}"
        admin_sql(database, f'CREATE DATABASE "{scratch}"')
        url = database.rsplit("/", 1)[0] + "/" + scratch
    os.environ.update(
        {
            "DATABASE_URL": url, "DEBUG": "0", "SECRET_KEY": "bench-" + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver", "CELERY_BROKER_URL": "",
            "REDIS_URL": "", "CACHE_URL": cache, "EMAIL_URL": "console://",
            "LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "bench.settings",
        }
    )  # fmt: skip
    return scratch


def wait_for(url: str, timeout: float = 30) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except Exception:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


# --- set-up, in this process -----------------------------------------------------------------


def setup_django(env: dict) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
    import django

    django.setup()
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def make_campaign(name: str, leaders: str, people: list) -> object:
    """A five-seat campaign on the bundled map with every army deployed, march phase open."""
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from campaign.models import organisers_group
    from campaign.services import gameplay, setup
    from maps.core.loader import load_map
    from rules.armies import CONTROLLED_AREAS, Army
    from rules.rulesettings import RuleSettings, settings_from_dict

    hexmap = load_map()
    settings = RuleSettings()
    organiser = people[0]
    organiser.groups.add(organisers_group())
    rule_settings = {}
    if leaders == "one":
        rule_settings = {"leaders": dict.fromkeys((a.value for a in Army), 1)}
        settings = settings_from_dict(rule_settings)
    points = gameplay.army_points_from_base("sweden", 2000, settings)
    campaign = setup.create_campaign(
        organiser, name=name, players=5, now=timezone.now(), army_points=points,
        rule_settings=rule_settings, deadline_policy={"march": {"hours": 48}},
    )  # fmt: skip
    seats = list(campaign.seats.filter(reserve=False))
    for seat, user in zip(seats, people[1:], strict=False):
        seat.user = user
        seat.save()
    setup.start_campaign(campaign, organiser, now=timezone.now())
    for seat in seats:
        client = Client()
        client.force_login(seat.user)
        for army_value in seat.armies:
            army = Army.parse(army_value)
            keys = seat.leaders[army_value]
            fortresses = [c for c in hexmap.fortresses if c.area in CONTROLLED_AREAS[army]]
            hexes = [
                h
                for h in hexmap.hexes
                if hexmap.area(h) in CONTROLLED_AREAS[army] and hexmap.terrain(h).passable
            ]
            garrison = settings.min_garrison_points
            rest = points[army_value] - garrison * len(fortresses)
            sub = rest // (2 * len(keys))  # the commander in chief has the largest force (3.2.6)
            for i, key in enumerate(keys):
                share = sub if i else rest - sub * (len(keys) - 1)
                h = hexes[(i * 7) % len(hexes)]
                client.post(
                    reverse("orders:deploy", args=[seat.code]),
                    {"army": army_value, "action": "leader", "unit": key,
                     "hex": hexmap.hex_id(h), "points": share},
                )  # fmt: skip
            for city in fortresses:
                client.post(
                    reverse("orders:deploy", args=[seat.code]),
                    {"army": army_value, "action": "garrison", "city": city.name,
                     "points": garrison},
                )  # fmt: skip
            for i in range(1, settings.siege_trains[army_value] + 1):
                client.post(
                    reverse("orders:deploy", args=[seat.code]),
                    {"army": army_value, "action": "train", "unit": f"{army_value}-{i}",
                     "hex": hexmap.hex_id(hexes[0])},
                )  # fmt: skip
    from campaign.services.resolution import resolve_due_phase

    window = campaign.open_window()
    from orders.models import OrderSheet

    OrderSheet.objects.filter(window=window).update(ready=True)
    resolve_due_phase(window.id, now=timezone.now(), force=True)
    campaign.refresh_from_db()
    window = campaign.open_window()
    if window is None or window.phase != "march":
        from campaign.models import Event

        problems = Event.objects.filter(campaign=campaign, kind="deployment-rejected")
        raise RuntimeError(f"{name}: not deployed: {[e.text for e in problems][:3]}")
    return campaign


def queries_per_page(campaign) -> dict[str, int]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    seat = campaign.seats.get(power="prussia")
    version = campaign.latest_version()
    client = Client()
    client.force_login(seat.user)
    unit = seat.leaders["prussia"][0]
    pages = {
        "dashboard": reverse("orders:dashboard", args=[seat.code]),
        "orders": reverse("orders:orders", args=[seat.code]) + f"?unit={unit}&path=4-4",
        "report": reverse("orders:report", args=[seat.code]),
        "handover": reverse("orders:handover", args=[seat.code]),
        "json": reverse("orders:view_json", args=[seat.code, version.number]),
    }
    out = {}
    for name, path in pages.items():
        client.get(path)  # warm caches (the map, templates)
        with CaptureQueriesContext(connection) as ctx:
            r = client.get(path)
        assert r.status_code == 200, (name, r.status_code)
        out[name] = len(ctx.captured_queries)
    times = []
    for _ in range(10):
        t0 = time.perf_counter()
        client.get(pages["orders"])
        times.append(time.perf_counter() - t0)
    out["orders page alone, in process (ms, median of 10)"] = round(
        sorted(times)[len(times) // 2] * 1000
    )
    with CaptureQueriesContext(connection) as ctx:
        client.post(
            reverse("orders:save_march", args=[seat.code]),
            {"unit": unit, "path": "4", "marches": "1", "phase": "march"},
        )
    out["save march (POST)"] = len(ctx.captured_queries)
    return out


def session_cookie(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    from django.conf import settings

    return client.cookies[settings.SESSION_COOKIE_NAME].value


# --- the load ------------------------------------------------------------------------------------


def run_client(base: str, cookie: str, seat, unit: str, until: float, timings: dict, errors: list):
    """One phone: load the orders page, submit a march order (as htmx does), again and again."""
    orders_url = f"{base}/play/{seat}/orders/?unit={unit}"
    march_url = f"{base}/play/{seat}/orders/march/"
    paths = ["4", "4-4", "1", "5-5", ""]
    csrf = ""
    i = 0
    while time.time() < until:
        cookies = f"sessionid={cookie}" + (f"; csrftoken={csrf}" if csrf else "")
        try:
            t0 = time.perf_counter()
            request = urllib.request.Request(orders_url, headers={"Cookie": cookies})
            with urllib.request.urlopen(request, timeout=30) as r:
                body = r.read().decode()
                for header in r.headers.get_all("Set-Cookie") or []:
                    m = re.match(r"csrftoken=([^;]+)", header)
                    if m:
                        csrf = m.group(1)
            timings["GET orders"].append(time.perf_counter() - t0)
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
            data = urllib.parse.urlencode(
                {"csrfmiddlewaretoken": token, "unit": unit, "path": paths[i % len(paths)],
                 "marches": "1", "phase": "march"}
            ).encode()  # fmt: skip
            request = urllib.request.Request(
                march_url, data=data,
                headers={"HX-Request": "true", "Cookie": f"sessionid={cookie}; csrftoken={csrf}"},
            )  # fmt: skip
            t0 = time.perf_counter()
            with urllib.request.urlopen(request, timeout=30) as r:
                r.read()
            timings["POST march order (htmx)"].append(time.perf_counter() - t0)
        except Exception as exc:
            errors.append(repr(exc)[:200])
        i += 1


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument(
        "--database", default="postgres://postgres:postgres@127.0.0.1:5432/postgres"
    )
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()

    name = f"dgk_bench_{uuid.uuid4().hex[:8]}"
    db_url = args.database.rsplit("/", 1)[0] + "/" + name
    admin_sql(args.database, f'CREATE DATABASE "{name}"')
    env = {
        "DATABASE_URL": db_url,
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + uuid.uuid4().hex,
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "CELERY_BROKER_URL": "",
        "REDIS_URL": "",
        "EMAIL_URL": "console://",
        "LOG_LEVEL": "WARNING",
        "SWEEP_SECONDS": "1",
        "DJANGO_SETTINGS_MODULE": "dgk.settings",
    }
    procs: list[subprocess.Popen] = []
    try:
        full_env = {**os.environ, **env}
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=full_env,
                       check=True)  # fmt: skip
        subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT,
                       env=full_env, check=True)  # fmt: skip
        setup_django(env)
        from django.contrib.auth import get_user_model
        from django.db import connection

        users = get_user_model().objects

        def people(tag: str) -> list:
            return [users.create_user(f"{tag}-{i}", f"{tag}-{i}@example.org", "pw")
                    for i in range(6)]  # fmt: skip

        t0 = time.perf_counter()
        few = make_campaign("Bench: one leader per army", "one", people("few"))
        campaigns = [
            make_campaign(f"Bench {i}: the Deployment Chart's leaders", "chart", people(f"c{i}"))
            for i in range(4)
        ]
        print(f"set-up: 5 campaigns deployed in {time.perf_counter() - t0:.1f} s")
        from rules.state import state_from_dict

        for c in (few, campaigns[0]):
            state = state_from_dict(c.latest_version().state)
            counts = queries_per_page(c)
            print(
                f"SQL queries per page, {len(state.leaders)} leaders in "
                f"{len(state.forces())} forces, {len(state.garrisons)} garrisons: "
                + ", ".join(f"{k} {v}" for k, v in counts.items())
            )

        # Load: gunicorn, one client per seat.
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        procs.append(
            subprocess.Popen(
                [
                    PYTHON,
                    "-m",
                    "gunicorn",
                    "dgk.wsgi",
                    "-b",
                    f"127.0.0.1:{port}",
                    "-w",
                    str(args.workers),
                    "--log-level",
                    "warning",
                ],
                cwd=ROOT,
                env=full_env,
            )  # fmt: skip
        )
        wait_for(f"{base}/play/")
        seats = [s for c in campaigns for s in c.seats.filter(reserve=False)]
        seats = (seats * (args.clients // len(seats) + 1))[: args.clients]
        connection.close()
        cookies = [session_cookie(s.user) for s in seats]

        def load(seconds: float) -> tuple[dict[str, list[float]], list[str]]:
            timings: dict[str, list[float]] = {"GET orders": [], "POST march order (htmx)": []}
            errors: list[str] = []
            until = time.time() + seconds
            threads = [
                threading.Thread(
                    target=run_client,
                    args=(base, cookie, s.code, s.leaders[s.armies[0]][0], until, timings, errors),
                )  # fmt: skip
                for s, cookie in zip(seats, cookies, strict=True)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return timings, errors

        load(5)  # warm up: every gunicorn worker loads the map and the templates once
        timings, errors = load(args.seconds)
        total = sum(len(v) for v in timings.values())
        print(
            f"load: {args.clients} clients for {args.seconds:.0f} s against gunicorn "
            f"({args.workers} sync workers, PostgreSQL, {os.cpu_count()} CPUs, load average "
            f"{os.getloadavg()[0]:.1f} before): {total} requests, "
            f"{total / args.seconds:.1f}/s, {len(errors)} errors"
        )
        for kind, values in timings.items():
            if values:
                print(
                    f"  {kind}: n={len(values)} p50 {pct(values, 50):.0f} ms, "
                    f"p95 {pct(values, 95):.0f} ms, max {max(values) * 1000:.0f} ms"
                )
        if errors:
            print("  first errors:", errors[:3])

        # Deadline to resolved phase with the real worker.
        import redis

        redis.Redis.from_url(args.broker).flushdb()
        worker_env = {**full_env, "CELERY_BROKER_URL": args.broker}
        beat_file = Path(tempfile.mkdtemp()) / "beat-schedule"
        procs.append(
            subprocess.Popen(
                [
                    PYTHON,
                    "-m",
                    "celery",
                    "-A",
                    "dgk",
                    "worker",
                    "-B",
                    "-s",
                    str(beat_file),
                    "--loglevel",
                    "WARNING",
                    "--concurrency",
                    "2",
                ],
                cwd=ROOT,
                env=worker_env,
            )  # fmt: skip
        )
        time.sleep(4)  # let the worker and beat start
        from django.utils import timezone

        from campaign.models import PhaseWindow, WindowStatus

        results = []
        for c in campaigns[:3]:
            window = c.open_window()
            deadline = timezone.now()
            PhaseWindow.objects.filter(id=window.id).update(deadline=deadline)
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < 60:
                status = PhaseWindow.objects.get(id=window.id).status
                if status == WindowStatus.RESOLVED:
                    break
                time.sleep(0.05)
            results.append(time.perf_counter() - t0)
        print(
            "deadline to resolved phase (celery worker with beat, sweep every 1 s, march phase "
            "and the automatic phases after it): " + ", ".join(f"{r:.2f} s" for r in results)
        )
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        drop_scratch(args.database, name)


if __name__ == "__main__":
    main()
