"""A site started without its static files refuses to start, with one clear line (issue 27),
instead of answering 500 to every page; collected, the same start serves them."""

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.servers import spare_port

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")


def production(tmp_path) -> dict:
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "x" * 30 + "startup-test-only-key" + "y" * 20,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SITE_URL": "https://dgk.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "CELERY_BROKER_URL": "",
        "REDIS_URL": "",
    }


def gunicorn(env: dict, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [str(GUNICORN), "dgk.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_without_collectstatic_it_refuses_to_start_with_one_line(tmp_path):
    done = gunicorn(production(tmp_path), spare_port())
    try:
        _, stderr = done.communicate(timeout=120)
    finally:
        done.kill()
    assert done.returncode != 0
    (line,) = [x for x in stderr.splitlines() if x.startswith("dgk:")]
    assert line == (
        f"dgk: cannot start: the static files are not collected ({tmp_path}/static/"
        "staticfiles.json is missing): run `python manage.py collectstatic --noinput` before "
        "starting the site"
    )
    assert "Traceback" not in stderr
    assert "Worker failed to boot" in stderr  # gunicorn stops, it does not retry for ever


def test_with_the_static_files_collected_it_starts_and_serves_them(tmp_path):
    env = production(tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT, env=env, check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    port = spare_port()
    server = gunicorn(env, port)
    try:
        body = b""
        deadline = time.monotonic() + 60
        while not body and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/site.css") as r:
                    body = r.read()
            except OSError:
                time.sleep(0.2)
        assert body, server.poll()
    finally:
        server.terminate()
        server.communicate(timeout=30)
