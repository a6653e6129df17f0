"""Bench: the deadline sweep fans out (issue 36). N phase windows fall due at once; one sweep is
sent through Redis; the time until every one is resolved, with 1, 2 and 4 worker processes, on
real PostgreSQL and Redis.

    .venv/bin/python bench/sweep_fanout_bench.py [--windows 2000] [--workers 1 2 4]
        [--database postgres://postgres@127.0.0.1:5432/postgres]
        [--broker redis://127.0.0.1:6379/14]

Each window is a real one: a campaign made from the set-up (``setup.create_campaign``, the
default map, five powers, no players signed in) and started, its deployment window due. The
campaign is made once and copied N times as rows (campaign, seats, its state version, its
window), so the copies resolve exactly as it would: deployment, supply, march allocation, up to
the opening of the march. Every run starts from fresh copies and an empty queue of its own.

Workers are ``celery -A dgk worker --pool prefork --concurrency 1`` processes (one each, as on
a machine per worker), started before the sweep and counted ready when they answer a ping. What the
resolutions queue behind them (map pictures, the seats' warmed views) is part of the load, but
the clock stops when the last window is resolved. Prints, per worker count: the sweep's own
time (finding and claiming the due windows, queueing the tasks), the time to the last
resolution, and resolutions per second.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_bench import admin_sql  # noqa: E402

POINTS = {"austria": 3200, "empire": 800, "france": 3000, "hanover": 1500, "prussia": 3200,
          "russia": 1500, "sweden": 200}  # fmt: skip


def template(now):
    from django.contrib.auth import get_user_model

    from campaign.services import setup

    organiser = get_user_model().objects.create_user("bench-umpire", password=None)
    campaign = setup.create_campaign(
        organiser, name="Template 1757", players=5, now=now, army_points=POINTS
    )
    setup.start_campaign(campaign, organiser, now=now)
    return campaign


def copies(template_campaign, n: int, now) -> list[int]:
    """N copies of the started campaign as rows, each with its deployment window due."""
    from campaign.models import Campaign, PhaseWindow, Seat, StateVersion

    seats = list(Seat.objects.filter(campaign=template_campaign).order_by("id"))
    version = StateVersion.objects.get(campaign=template_campaign, number=0)
    window = PhaseWindow.objects.get(campaign=template_campaign, version=version)
    campaigns = []
    for i in range(n):
        c = Campaign.objects.get(id=template_campaign.id)
        c.pk = c.id = None
        c.code = uuid.uuid4()
        c.name = f"Copy {i} 1757"
        campaigns.append(c)
    campaigns = Campaign.objects.bulk_create(campaigns, batch_size=500)
    new_seats = []
    codes: dict[int, dict[str, str]] = {}
    for c in campaigns:
        for s in seats:
            copy = Seat(**{f.attname: getattr(s, f.attname) for f in Seat._meta.concrete_fields})
            copy.pk = copy.id = None
            copy.campaign_id = c.id
            copy.code = uuid.uuid4()
            codes.setdefault(c.id, {})[str(s.code)] = str(copy.code)
            new_seats.append(copy)
    Seat.objects.bulk_create(new_seats, batch_size=1000)
    versions = []
    for c in campaigns:
        v = StateVersion(**{f.attname: getattr(version, f.attname)
                            for f in StateVersion._meta.concrete_fields})  # fmt: skip
        v.pk = v.id = None
        v.campaign_id = c.id
        versions.append(v)
    versions = StateVersion.objects.bulk_create(versions, batch_size=200)
    windows = []
    for c, v in zip(campaigns, versions, strict=True):
        w = PhaseWindow(**{f.attname: getattr(window, f.attname)
                           for f in PhaseWindow._meta.concrete_fields})  # fmt: skip
        w.pk = w.id = None
        w.campaign_id, w.version_id = c.id, v.id
        w.owing = [codes[c.id].get(code, code) for code in window.owing]
        w.deadline = now - timedelta(seconds=1)
        windows.append(w)
    return [w.id for w in PhaseWindow.objects.bulk_create(windows, batch_size=1000)]


def start_workers(k: int, env: dict, logs: Path) -> list[subprocess.Popen]:
    workers = []
    for i in range(k):
        log = (logs / f"worker-{k}-{i}.log").open("w")
        workers.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "dgk",
                    "worker",
                    "--pool",
                    "prefork",
                    "--concurrency",
                    "1",
                    "--hostname",
                    f"bench{i}-{uuid.uuid4().hex[:6]}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel",
                    os.environ.get("BENCH_LOGLEVEL", "WARNING"),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        )
    return workers


def stop(workers: list[subprocess.Popen]) -> None:
    for w in workers:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(w.pid, signal.SIGTERM)
    for w in workers:
        try:
            w.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(w.pid, signal.SIGKILL)
            w.wait()


def purge(sender, queue: str) -> int:
    """Empty the bench's queue (what a run's resolutions queued behind them)."""
    with sender.connection_for_write() as conn:
        return conn.default_channel.queue_purge(queue) or 0


def run(k: int, n: int, env: dict, logs: Path) -> tuple[float, float]:
    from celery import Celery
    from django.db import connection
    from django.utils import timezone

    from campaign.models import Campaign, PhaseWindow, WindowStatus

    Campaign.objects.exclude(name="Template 1757").delete()
    now = timezone.now()
    ids = copies(Campaign.objects.get(name="Template 1757"), n, now)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    queue = env["CELERY_TASK_DEFAULT_QUEUE"]
    sender = Celery("bench-sender", broker=env["CELERY_BROKER_URL"], set_as_current=False)
    purge(sender, queue)
    workers = start_workers(k, env, logs)
    try:
        booting = time.monotonic()
        while len(sender.control.ping(timeout=1.0)) < k:
            if time.monotonic() - booting > 120:
                raise SystemExit(f"{k} workers did not start; logs in {logs}")
        started = time.monotonic()
        sender.send_task("campaign.tasks.sweep_deadlines", queue=queue)
        swept = None
        while True:
            left = PhaseWindow.objects.filter(id__in=ids, status=WindowStatus.OPEN)
            if swept is None and not left.filter(queued_at=None).exists():
                swept = time.monotonic() - started  # every window claimed and queued
            if not left.exists():
                break
            if any(w.poll() is not None for w in workers):
                raise SystemExit(f"a worker died; logs in {logs}")
            time.sleep(0.5)
        total = time.monotonic() - started
    finally:
        stop(workers)
        purge(sender, queue)
        sender.close()
    resolved = PhaseWindow.objects.filter(id__in=ids, status=WindowStatus.RESOLVED).count()
    assert resolved == n, f"{resolved} of {n} resolved"
    return swept or 0.0, total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--windows", type=int, default=2000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()
    name = f"dgk_fanout_{uuid.uuid4().hex[:8]}"
    admin_sql(args.database, f'CREATE DATABASE "{name}"')
    database = args.database.rsplit("/", 1)[0] + "/" + name
    env = {
        **os.environ,
        "DATABASE_URL": database, "DJANGO_SETTINGS_MODULE": "dgk.settings", "DEBUG": "0",
        "SECRET_KEY": "bench-" + name, "ALLOWED_HOSTS": "localhost",
        "CELERY_BROKER_URL": args.broker, "CACHE_URL": args.broker,
        "CELERY_TASK_DEFAULT_QUEUE": f"bench-{name}", "LOG_LEVEL": "WARNING",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "PYTHONUNBUFFERED": "1",
    }  # fmt: skip
    env.pop("REDIS_URL", None)
    os.environ.update(env)
    logs = Path(tempfile.mkdtemp(prefix="dgk-fanout-"))
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.utils import timezone

        call_command("migrate", verbosity=0)
        template(timezone.now())
        print(f"{args.windows} windows due at once, one sweep through Redis, PostgreSQL {name}")
        print("| workers | sweep (find, claim, queue) | all resolved | resolutions/s |")
        print("| ---: | ---: | ---: | ---: |")
        for k in args.workers:
            swept, total = run(k, args.windows, env, logs)
            print(f"| {k} | {swept:.1f} s | {total:.1f} s | {args.windows / total:.1f} |",
                  flush=True)  # fmt: skip
        print(f"cores: {os.cpu_count()}; workers' logs: {logs}")
    finally:
        from django.db import connections

        connections.close_all()
        admin_sql(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
