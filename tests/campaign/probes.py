"""Run a probe module of the tests in a process of its own, on a SQLite database of its own (a
second site), and read what it wrote: the season file's round trip and the upgrade use it."""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings


def run_probe(module: str, database: Path, tmp_path: Path, out: Path, *args: str) -> dict:
    """``python -m module --out OUT *args`` against ``database``, with no broker or cache of this
    process's; the JSON it wrote to ``out``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CELERY_BROKER_URL", "REDIS_URL", "CACHE_URL", "DATABASE_URL")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_SETTINGS_MODULE="dgk.settings",
        MAP_PICTURES_DIR=str(tmp_path / "pictures"),
        DEBUG="1",
    )
    done = subprocess.run(
        [sys.executable, "-m", module, *args, "--out", str(out)],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(out.read_text())
