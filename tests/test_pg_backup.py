"""The nightly database dump's schedule (deploy/pg-backup.sh, the compose service "backup"): the
first dump soon after the first start but only once the migrations have made the tables, then
each night at PG_BACKUP_AT (UTC), a dump by hand moving nothing. The script runs here as in its
container, with /bin/sh; pg_dump and psql are stand-ins on PATH (the real ones run in the
container smoke test, tests/docker)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

SCRIPT = Path(__file__).resolve().parent.parent / "deploy" / "pg-backup.sh"
FAKE_PG_DUMP = """#!/bin/sh
# pg_dump --format=custom --no-owner --file=FILE
for arg; do case "$arg" in --file=*) printf 'PGDMP stand-in' >"${arg#--file=}";; esac; done
"""
# psql -Atqc 'SELECT count(*) FROM django_migrations': the count in $TABLES, or an error.
FAKE_PSQL = """#!/bin/sh
[ -s "$TABLES" ] || { echo 'relation "django_migrations" does not exist' >&2; exit 1; }
cat "$TABLES"
"""


def at(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


@pytest.fixture
def backups(tmp_path):
    """The dumps' folder, and the environment the script runs in."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("pg_dump", FAKE_PG_DUMP), ("psql", FAKE_PSQL)):
        (bin_dir / name).write_text(body)
        (bin_dir / name).chmod(0o755)
    folder = tmp_path / "database"
    env = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "PG_BACKUP_DIR": str(folder),
        "PG_BACKUP_AT": "03:30",
        "PG_BACKUP_KEEP": "3",
        "TABLES": str(tmp_path / "tables"),
    }
    return folder, env


def script(env: dict, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["sh", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=30,
        check=check,
    )  # fmt: skip


def next_dump(env: dict, now: int) -> int:
    return int(script(env, "next", str(now)).stdout.split()[0])


def test_the_first_dump_is_due_at_once_then_each_night_at_the_fixed_time(backups):
    folder, env = backups
    now = at("2026-11-27T17:12:00")
    assert next_dump(env, now) == now  # the first start: no night dumped yet

    folder.mkdir()
    (folder / ".nightly").write_text(f"{at('2026-11-27T03:30:00')}\n")
    assert next_dump(env, now) == at("2026-11-28T03:30:00")
    assert next_dump(env, at("2026-11-28T03:29:59")) == at("2026-11-28T03:30:00")
    moment = at("2026-11-28T03:30:00")
    assert next_dump(env, moment) == moment  # the time has come
    # A server that was off at 03:30 dumps as soon as it is back, and then the night after.
    assert next_dump(env, at("2026-11-29T09:00:00")) == at("2026-11-29T09:00:00")
    printed = script(env, "next", str(now)).stdout.split()[1]
    assert printed == "2026-11-28T03:30:00Z"


def test_the_time_of_day_is_checked(backups):
    _, env = backups
    for wrong in ("3:30", "24:00", "03:61", "noon"):
        refused = script({**env, "PG_BACKUP_AT": wrong}, "next", "0", check=False)
        assert refused.returncode == 2 and "not a time of day" in refused.stderr


def test_a_dump_by_hand_does_not_move_the_schedule_and_the_newest_are_kept(backups):
    folder, env = backups
    folder.mkdir()
    (folder / ".nightly").write_text(f"{at('2026-11-27T03:30:00')}\n")
    names = []
    for _ in range(4):
        names.append(script(env, "now").stdout.strip())
        time.sleep(1.05)  # the names are to the second
    assert Path(names[-1]).read_bytes().startswith(b"PGDMP")
    assert sorted(p.name for p in folder.glob("dgk-*.dump")) == [Path(n).name for n in names[1:]]
    assert (folder / ".nightly").read_text().strip() == str(at("2026-11-27T03:30:00"))
    assert next_dump(env, at("2026-11-27T17:12:00")) == at("2026-11-28T03:30:00")


def test_the_loop_dumps_only_once_the_migrations_have_made_the_tables(backups, tmp_path):
    folder, env = backups
    log = tmp_path / "backup.log"
    with log.open("w") as out:
        loop = subprocess.Popen(["sh", str(SCRIPT)], env=env, stdout=out, stderr=out)
    try:
        time.sleep(2)
        assert "waiting for the site's tables" in log.read_text()
        assert not list(folder.glob("dgk-*.dump"))  # no dump of an empty database
        (tmp_path / "tables").write_text("42\n")  # the migrations have run
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not list(folder.glob("dgk-*.dump")):
            time.sleep(0.5)
        (dumped,) = folder.glob("dgk-*.dump")
        time.sleep(0.5)
        night = int((folder / ".nightly").read_text())
        now = int(time.time())
        assert now - 86400 < night <= now and night % 86400 == 3 * 3600 + 30 * 60
        assert f"backup: {dumped}" in log.read_text()
    finally:
        loop.send_signal(signal.SIGTERM)
        loop.wait(timeout=10)
    assert loop.returncode == 0
