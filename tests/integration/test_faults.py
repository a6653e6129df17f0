"""Faults, nothing lost (issue 27): PostgreSQL restarted in the middle of a resolution, Redis
restarted with tasks queued, the worker killed during a resolution's emails. Each time the phase
resolves exactly once, every email of the resolution arrives once (none lost, none twice), the
players' drafts are intact, and ``/healthz`` says what is wrong while it is.

Real services, all of them the test's own: a PostgreSQL cluster and a Redis on spare ports
(never the machine's shared 5432 and 6379), a real Celery worker with beat, and a real SMTP
server (``tests/mail/smtp_server.py``). The site runs in processes of its own
(``fault_site.py``), as the web and the worker do in production; the cache is on the broker's
Redis, as by default. They skip (with the reason) when PostgreSQL's or Redis's binaries are
missing, unless ``DGK_REQUIRE_SERVICES=1`` (CI), when they fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from tests.mail.smtp_server import SMTPServer
from tests.servers import postgres_or_skip, redis_server_or_skip

pytestmark = [
    pytest.mark.faults,
    # ./bin/test runs the suite twice (SQLite, then PostgreSQL); these bring their own
    # PostgreSQL, so the second run has nothing to add: run them once.
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
        reason="the fault tests run once, in the first (SQLite) run: they bring their own servers",
    ),
]

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 120
TOKEN = "faults-healthz-token"


def wait_until(predicate, what: str, seconds: float = WAIT_SECONDS):
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.3)


class Site:
    """The throw-away services, the site's commands and its worker."""

    def __init__(self, folder: Path, pg, redis, smtp: SMTPServer) -> None:
        self.folder, self.pg, self.redis, self.smtp = folder, pg, redis, smtp
        self.workers: list[subprocess.Popen] = []
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DGK_", "CACHE_"))},
            "DJANGO_SETTINGS_MODULE": "dgk.settings",
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
            "DEBUG": "1",
            "ALLOWED_HOSTS": "testserver,localhost",
            "SITE_URL": "https://dgk.example.org",
            "DATABASE_URL": pg.url(),
            "CELERY_BROKER_URL": redis.url(),
            "REDIS_URL": "",
            # No CACHE_URL: the cache is on the broker's Redis, as by default.
            "EMAIL_URL": f"smtp://127.0.0.1:{smtp.port}",
            "HEALTHZ_TOKEN": TOKEN,
            "MAP_PICTURES_DIR": str(folder / "pictures"),
            "MAP_TILES_DIR": str(folder / "tiles"),
            "SWEEP_SECONDS": "1",
            "OUTBOX_SECONDS": "1",
            "OUTBOX_RETRY_SECONDS": "3",
            "HEARTBEAT_SECONDS": "1",
            "HEARTBEAT_MAX_AGE_SECONDS": "4",
            "REMINDER_SECONDS": "3600",
            "DIGEST_SECONDS": "3600",
            "PICTURE_SECONDS": "3600",
            "LOG_FORMAT": "json",
        }

    def run(self, *argv: str, eager: bool = False) -> dict:
        env = self.env
        if eager:  # no broker: tasks run in the command's process, emails on its console
            env = {**env, "CELERY_BROKER_URL": "", "EMAIL_URL": "console://"}
        done = subprocess.run(
            [sys.executable, "-m", "tests.integration.fault_site", *argv],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, f"{argv}: {done.stderr[-3000:]}"
        return json.loads(done.stdout.splitlines()[-1])

    def start_worker(self) -> subprocess.Popen:
        log = (self.folder / f"worker-{len(self.workers)}.log").open("w")
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "dgk", "worker", "-B",
             "--pool", "solo", "--schedule", str(self.folder / "beat-schedule"),
             "--without-gossip", "--without-mingle", "--loglevel", "INFO"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its embedded beat is a child process: kill them together
        )  # fmt: skip
        self.workers.append(worker)
        return worker

    def kill_worker(self, worker: subprocess.Popen) -> None:
        """Gone at once, with its beat, as an OOM kill of its container leaves it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()

    def worker_records(self) -> list[dict]:
        """The workers' log records (the lines that are not Celery's banner or a warning)."""
        lines = "\n".join(p.read_text() for p in sorted(self.folder.glob("worker-*.log")))
        return [json.loads(line) for line in lines.splitlines() if line.startswith("{")]

    def sweeps(self) -> int:
        """How many deadline sweeps the workers finished."""
        return sum(
            r["logger"] == "celery.app.trace"
            and "sweep_deadlines" in r["message"]
            and "succeeded" in r["message"]
            for r in self.worker_records()
        )

    def healthz(self) -> dict:
        return self.run("healthz")

    def close(self) -> None:
        for worker in self.workers:
            self.kill_worker(worker)


@pytest.fixture
def site():
    # Not pytest's tmp_path: the postgres user must be able to enter the folder.
    folder = Path(tempfile.mkdtemp(prefix="dgk-faults-"))
    folder.chmod(0o755)
    pg = redis = None
    try:
        pg = postgres_or_skip(folder / "pg")
        redis = redis_server_or_skip(folder / "redis")
        with SMTPServer() as smtp:
            site = Site(folder, pg, redis, smtp)
            try:
                yield site
            finally:
                site.close()
    finally:
        if redis is not None:
            redis.kill()
        if pg is not None:
            pg.remove()
        shutil.rmtree(folder, ignore_errors=True)


def resolved(state: dict, turn: int, phase: str) -> list:
    return [v for v in state["versions"] if v[1] == turn and v[2] == phase]


def all_sent(site: Site, turn: int, phase: str):
    """The state once ``phase`` of ``turn`` is resolved and every email of the outbox sent."""
    state = site.run("state")
    done = resolved(state, turn, phase) and all(e["sent"] for e in state["outbox"])
    return state if done else None


def assert_each_email_once(site: Site, state: dict, batch_of: str) -> None:
    """Every email of the resolution's batch arrived, and none twice."""
    expected = Counter(a for e in state["outbox"] if e["batch"] == batch_of for a in e["to"])
    arrived = Counter(a for _, recipients, _ in site.smtp.messages for a in recipients)
    assert expected and all(n == 1 for n in expected.values())
    assert arrived == expected, (arrived, expected)


def batch_after(state: dict, number: int) -> str:
    (key,) = {e["batch"] for e in state["outbox"] if e["batch"].endswith(f":{number}")}
    return key


def test_redis_restarted_with_tasks_queued(site):
    site.run("seed", str(site.folder), "--deployed", eager=True)
    before = site.run("march-draft")
    march = before["open"]
    # Everyone presses Ready with no worker running: the resolution waits in Redis.
    pressed = site.run("ready", "all")
    assert all(a["status"] == 200 and not a["broker_down"] for a in pressed["ready"].values())
    assert pressed["open"] == march
    site.redis.kill()
    health = site.healthz()
    assert health["http"] == 503 and health["broker"]["ok"] is False
    assert health["cache"]["ok"] is False and health["database"]["ok"] is True
    site.redis.start()  # with its append-only file: the queued task is still there
    site.start_worker()
    state = wait_until(lambda: all_sent(site, 1, "march"), "the march resolved, emails sent")
    assert len(resolved(state, 1, "march")) == 1
    batch = batch_after(state, before["versions"][-1][0])
    assert_each_email_once(site, state, batch)
    key = f"{march}:prussia"
    assert state["drafts"][key]["draft"] == before["drafts"][key]["draft"]
    assert state["drafts"][key]["draft"]["march"] == [
        {"unit": "frederick", "path": "4", "marches": 1}
    ]
    # The queued task and the sweep both saw the window: it resolved once all the same, and
    # stays so through more sweeps (the worker logs JSON lines, LOG_FORMAT=json).
    swept = site.sweeps()
    wait_until(lambda: site.sweeps() >= swept + 2, "two more deadline sweeps")
    again = site.run("state")
    assert again["versions"] == state["versions"]
    assert_each_email_once(site, again, batch)
    assert wait_until(lambda: site.healthz()["http"] == 200, "healthz ok again")


def test_postgres_restarted_in_the_middle_of_a_resolution(site):
    site.run("seed", str(site.folder), "--deployed", eager=True)
    site.run("march-draft")  # Prussia's draft, never made ready: it misses the deadline
    before = site.run("ready", "but-prussia")
    march = before["open"]
    site.run("expire")
    # Hold Prussia's seat row: the resolution blocks on it after claiming the window and
    # deciding the orders (it counts Prussia's missed deadline), in the middle of its
    # transaction.
    holder = psycopg.connect(site.pg.url())
    holder.execute(
        "SELECT 1 FROM campaign_seat s JOIN campaign_campaign c ON c.id = s.campaign_id "
        "WHERE s.power = 'prussia' FOR UPDATE OF s"
    )
    site.start_worker()
    with psycopg.connect(site.pg.url(), autocommit=True) as watcher:

        def blocked() -> bool:
            return bool(
                watcher.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND query LIKE '%campaign_seat%'"
                ).fetchone()[0]
            )

        wait_until(blocked, "the worker's resolution waiting in the middle")
    site.pg.stop("fast")  # the operator restarts PostgreSQL: every connection is cut
    holder.close()
    health = site.healthz()
    assert health["http"] == 503 and health["database"]["ok"] is False
    assert health["database"]["error"]
    site.pg.start()
    state = wait_until(lambda: all_sent(site, 1, "march"), "the march resolved after it")
    assert len(resolved(state, 1, "march")) == 1
    assert state["missed"]["prussia"] == 1  # counted once: the first try was rolled back
    assert_each_email_once(site, state, batch_after(state, before["versions"][-1][0]))
    key = f"{march}:prussia"
    assert state["drafts"][key] == before["drafts"][key]  # the draft, as saved, not ready
    assert site.workers[0].poll() is None  # the same worker went on, with new connections
    assert wait_until(lambda: site.healthz()["http"] == 200, "healthz ok again")


def test_the_worker_killed_during_a_resolutions_emails(site):
    site.run("seed", str(site.folder), eager=True)
    drafted = site.run("deploy-drafts")
    deployment = drafted["open"]
    site.smtp.hold_after = 2  # the mail server stalls on the third email
    worker = site.start_worker()
    site.run("ready", "all")
    assert site.smtp.held.wait(WAIT_SECONDS), "the third email never reached the mail server"
    assert len(site.smtp.messages) == 2
    site.kill_worker(worker)  # as the OOM killer would, while it waits for the mail server
    site.smtp.release.set()
    health = wait_until(
        lambda: (h := site.healthz())["http"] == 503 and h, "healthz seeing no heartbeat"
    )
    assert health["heartbeat"]["ok"] is False and health["broker"]["ok"] is True
    site.start_worker()
    state = wait_until(lambda: all_sent(site, 1, "deployment"), "the emails sent by a new worker")
    assert len(resolved(state, 1, "deployment")) == 1
    assert len(state["outbox"]) == 5
    assert_each_email_once(site, state, batch_after(state, drafted["versions"][-1][0]))
    for key, sheet in drafted["drafts"].items():
        if key.startswith(f"{deployment}:"):
            assert state["drafts"][key]["draft"] == sheet["draft"] and sheet["draft"]
    assert wait_until(lambda: site.healthz()["http"] == 200, "healthz ok again")
