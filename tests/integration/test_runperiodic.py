"""`manage.py runperiodic`, the embedded stand-in for Celery beat, as ./bin/run starts it:
a separate process that keeps recording heartbeats and stops cleanly on SIGTERM."""

import os
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings

from campaign.models import Heartbeat
from campaign.tasks import WORKER
from tests.conftest import database_url_for_subprocess

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(condition, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    return None


def test_it_beats_at_its_interval_and_stops_on_sigterm(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "REDIS_URL")}
    env.update(DATABASE_URL=database_url_for_subprocess(), HEARTBEAT_SECONDS="1")
    log = tmp_path / "runperiodic.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runperiodic"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            first = wait_for(lambda: Heartbeat.objects.filter(source=WORKER).first())
            assert first is not None, log.read_text()
            later = wait_for(
                lambda: Heartbeat.objects.filter(source=WORKER, beat_at__gt=first.beat_at).first()
            )
            assert later is not None, "no second heartbeat a second later:\n" + log.read_text()
            assert later.eager is True

            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=10) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
