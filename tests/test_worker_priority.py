"""The Celery worker runs below the web server's priority (``WORKER_NICE``, default 10), in the
image (``deploy/entrypoint.sh worker``) and in ``./bin/run``: at a deadline the players'
requests go first and the resolutions, pictures and warm-up take the rest of the cores
(docs/performance.md, "The deadline hour")."""

import os
import subprocess
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
