"""The web server's one config, ``deploy/gunicorn.conf.py`` (issue 44): threaded workers sized
by WEB_CONCURRENCY and WEB_THREADS, used by ``bin/run``, the image's entrypoint and the
deadline-hour bench alike."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "deploy" / "gunicorn.conf.py"


def settings_with(**env: str | None) -> dict:
    """gunicorn's own reading of the config file under ``env`` (None: unset)."""
    code = (
        "from gunicorn.app.base import Application\n"
        "class App(Application):\n"
        "    def init(self, *a): pass\n"
        "    def load(self): pass\n"
        "app = App(usage='', prog='gunicorn')\n"
        f"app.load_config_from_file({str(CONF)!r})\n"
        "c = app.cfg\n"
        "print(c.workers, c.threads, c.worker_class_str, c.timeout, c.control_socket_disable)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        env={k: v for k, v in {**os.environ, **env}.items() if v is not None},
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    workers, threads, kind, timeout, no_socket = run.stdout.split()
    return {"workers": int(workers), "threads": int(threads), "class": kind,
            "timeout": int(timeout), "no_socket": no_socket}  # fmt: skip


def test_it_runs_threaded_workers_sized_by_the_environment():
    s = settings_with(WEB_CONCURRENCY="3", WEB_THREADS="6")
    assert s == {"workers": 3, "threads": 6, "class": "gthread", "timeout": 120,
                 "no_socket": "True"}  # fmt: skip


def test_by_default_one_worker_a_core_and_four_threads():
    s = settings_with(WEB_CONCURRENCY=None, WEB_THREADS=None)
    assert s["workers"] == max(2, os.cpu_count() or 1)
    assert s["threads"] == 4


@pytest.mark.parametrize("value", ["many", "0"])
def test_a_wrong_number_is_refused_with_its_name(value):
    run = subprocess.run(
        [sys.executable, str(CONF)],
        env={**os.environ, "WEB_THREADS": value},
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert f"WEB_THREADS={value!r}" in run.stderr


@pytest.mark.parametrize("script", ["bin/run", "deploy/entrypoint.sh"])
def test_the_site_starts_with_it(script):
    text = (ROOT / script).read_text()
    (line,) = [x for x in text.splitlines() if 'gunicorn" dgk.wsgi' in x or "gunicorn dgk" in x]
    assert "-c " in line and "deploy/gunicorn.conf.py" in line
