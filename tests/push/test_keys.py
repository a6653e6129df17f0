"""The VAPID key: made once beside the secrets, kept, or given by the environment."""

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid02

from push.services import keys

ROOT = Path(__file__).resolve().parents[2]


def test_it_makes_the_key_once_and_keeps_it(settings):
    first = keys.public_key()
    assert settings.VAPID_KEY_FILE.exists()
    assert stat.S_IMODE(settings.VAPID_KEY_FILE.stat().st_mode) == 0o600
    assert len(keys.b64url(b"\0" * 65)) == len(first) == 87  # an uncompressed P-256 point
    keys.vapid.cache_clear()  # another process, or the next start
    assert keys.public_key() == first
    assert keys.make_key_file(settings.VAPID_KEY_FILE) is False


def test_threads_of_one_process_making_the_key_at_once_end_with_one_key(tmp_path):
    """A web process of several threads (gunicorn's gthread) asked for its first pages at once:
    each thread finds no key and makes one. The threads share a process id, so a temporary
    file named by it alone was one file for all of them, truncated and unlinked under one
    another (the deadline hour's bench saw three first dashboards answer 500 so)."""
    for attempt in range(20):
        target = tmp_path / str(attempt) / "vapid-key.pem"
        start = threading.Barrier(8)
        made, failed = [], []

        def make(target=target, start=start, made=made, failed=failed):
            start.wait()
            try:
                made.append(keys.make_key_file(target))
            except Exception as exc:  # noqa: BLE001 (any is the failure looked for)
                failed.append(exc)

        threads = [threading.Thread(target=make) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failed == []
        assert made.count(True) == 1, made
        assert Vapid02.from_file(str(target)).private_key is not None
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        assert [p.name for p in target.parent.iterdir()] == ["vapid-key.pem"]  # none left


def test_the_entrypoint_makes_the_key_at_the_first_start(tmp_path):
    target = tmp_path / "secrets" / "vapid-key.pem"
    env = {k: v for k, v in os.environ.items() if not k.startswith("VAPID")}
    run = [sys.executable, "-m", "push.services.keys", str(target)]
    first = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert first.stdout.strip() == f"init: generated {target}"
    pem = target.read_bytes()
    again = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert again.stdout.strip() == f"init: kept {target}"
    assert target.read_bytes() == pem
    assert Vapid02.from_pem(pem).private_key is not None


def test_a_key_given_by_the_environment_wins(settings, tmp_path):
    given = Vapid02()
    given.generate_keys()
    settings.VAPID_PRIVATE_KEY = given.private_pem().decode()
    settings.VAPID_KEY_FILE = tmp_path / "unused.pem"
    keys.vapid.cache_clear()
    assert keys.public_key() == keys._public(given)
    assert not settings.VAPID_KEY_FILE.exists()


def test_a_public_key_that_is_not_the_private_keys_stops_it(settings):
    settings.VAPID_PUBLIC_KEY = "B" + "A" * 86
    keys.vapid.cache_clear()
    with pytest.raises(ImproperlyConfigured, match="VAPID_PUBLIC_KEY"):
        keys.vapid()


def test_a_key_that_is_no_key_stops_it(settings):
    settings.VAPID_PRIVATE_KEY = "not-a-key"
    keys.vapid.cache_clear()
    with pytest.raises(ImproperlyConfigured, match="VAPID_PRIVATE_KEY"):
        keys.vapid()


@pytest.mark.parametrize(
    "subject, site, expected",
    [
        ("mailto:club@example.org", "https://dgk.example.org", "mailto:club@example.org"),
        ("", "https://dgk.example.org", "https://dgk.example.org"),
        ("", "http://localhost:8000", "mailto:dgk@localhost"),
    ],
)
def test_the_subject_names_who_runs_the_site(settings, subject, site, expected):
    settings.VAPID_SUBJECT, settings.SITE_URL = subject, site
    settings.DEFAULT_FROM_EMAIL = "Der Grosse König <dgk@localhost>"
    assert keys.subject() == expected
