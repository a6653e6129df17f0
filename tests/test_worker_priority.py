"""The Celery worker runs below the web server's priority (``WORKER_NICE``, default 10), in the
image (``deploy/entrypoint.sh worker``) and in ``./bin/run``: at a deadline the players'
requests go first and the resolutions, pictures and warm-up take the rest of the cores
(docs/performance.md, "The deadline hour"); and its processes leave one core to the web
server (``WORKER_CONCURRENCY``, default the cores but one)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parent.parent


def worker_niceness(tmp_path: Path, **env: str) -> int:
    """The niceness the image's ``worker`` command starts ``celery`` at, against this process's
    own: a ``celery`` earlier on the PATH writes the niceness it was given and its arguments."""
    out = tmp_path / "celery.out"
    stub = tmp_path / "bin" / "celery"
    stub.parent.mkdir()
    stub.write_text(f'#!/bin/sh\n{{ nice; echo "$@"; }} > "{out}"\n')
    stub.chmod(0o755)
    subprocess.run(
        ["sh", str(ROOT / "deploy" / "entrypoint.sh"), "worker"],
        env={**os.environ, "PATH": f"{stub.parent}:{os.environ['PATH']}", **env},
        check=True,
        timeout=30,
    )
    niceness, args = out.read_text().splitlines()
    assert args.startswith("-A dgk worker")
    return int(niceness) - os.nice(0)


def test_the_image_worker_runs_at_nice_10(tmp_path):
    assert worker_niceness(tmp_path) == min(10, 19 - os.nice(0))


def test_worker_nice_sets_it_and_0_gives_the_web_server_s_priority(tmp_path):
    assert worker_niceness(tmp_path, WORKER_NICE="0") == 0


def test_bin_run_starts_the_worker_with_the_same_setting():
    lines = (ROOT / "bin" / "run").read_text().splitlines()
    (line,) = [x for x in lines if 'bin/celery" -A dgk worker' in x]
    assert line.strip().startswith('nice -n "${WORKER_NICE:-10}"')


def worker_processes(**env: str) -> int:
    """The pool size Celery's app reads from the settings in a fresh process (as the worker
    started by ``./bin/run`` or the image does, with no ``--concurrency`` of its own)."""
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'dgk.settings');"
        "django.setup(); from dgk.celery import app; print(app.conf.worker_concurrency)"
    )
    base = {k: v for k, v in os.environ.items() if k != "WORKER_CONCURRENCY"}
    out = subprocess.run(
        [sys.executable, "-c", code], env={**base, **env}, cwd=ROOT, check=True,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    return int(out.stdout.strip().splitlines()[-1])


def test_the_worker_leaves_a_core_to_the_web_server():
    """One process a core but one (at least one): at a deadline a worker on every core took
    them from the players' requests, nice or not (docs/performance.md, "The fourth pass")."""
    assert worker_processes() == max(1, (os.cpu_count() or 1) - 1)
    assert worker_processes(WORKER_CONCURRENCY="3") == 3


def test_neither_command_line_overrides_the_setting():
    entry = (ROOT / "deploy" / "entrypoint.sh").read_text()
    run = (ROOT / "bin" / "run").read_text()
    assert "--concurrency" not in entry and "--concurrency" not in run
