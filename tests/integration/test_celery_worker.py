"""The real path: a task goes through Redis to a Celery worker process, which writes to the
test database, and the test sees the row.

The worker listens on a queue of its own, so runs by several people on one Redis never take
each other's tasks.
"""

import os
import subprocess
import sys
import time
import uuid

import pytest
from celery import Celery
from django.conf import settings
from django.utils import timezone

from campaign.models import Heartbeat
from campaign.services import setup
from dgk import files
from maps.pictures import KIND, picture_key, picture_stored
from rules.armies import Army
from tests.conftest import TEST_BROKER_URL, broker_reachable, database_url_for_subprocess
from tests.orders.test_play_fixtures import ARMY_POINTS, write_map

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 60


@pytest.fixture
def worker_queue(tmp_path):
    """Start `celery -A dgk worker` on a queue of its own; stop it after the test."""
    if not broker_reachable():
        pytest.fail(f"Redis at {TEST_BROKER_URL} is unreachable, and the services are required")
    queue = f"dgk-test-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dgk.settings",
        "DATABASE_URL": database_url_for_subprocess(),
        "CELERY_BROKER_URL": TEST_BROKER_URL,
        # What its tasks queue (the sweep's resolutions) goes to its own queue too.
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("REDIS_URL", None)
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "dgk", "worker",
            "--queues", queue, "--pool", "solo", "--hostname", f"{queue}@%h",
            "--without-gossip", "--without-mingle", "--loglevel", "INFO",
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield queue, worker, tmp_path / "worker.log"
    finally:
        log.close()
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def test_a_task_sent_through_redis_is_run_by_the_worker(worker_queue):
    queue, worker, log = worker_queue
    source = f"test-{queue}"
    # Not the current app: the site's tasks (shared_task) must keep using the site's app.
    sender = Celery("dgk-test-sender", broker=TEST_BROKER_URL, set_as_current=False)

    sender.send_task("campaign.tasks.record_heartbeat", kwargs={"source": source}, queue=queue)

    deadline = time.monotonic() + WAIT_SECONDS
    beat = None
    while beat is None and time.monotonic() < deadline and worker.poll() is None:
        beat = Heartbeat.objects.filter(source=source).first()
        if beat is None:
            time.sleep(0.2)
    if beat is None:
        pytest.fail(
            f"the worker wrote no heartbeat within {WAIT_SECONDS}s "
            f"(exit code {worker.poll()}); its log:\n{log.read_text()}"
        )
    assert beat.eager is False, "the task ran eagerly, not in the worker"
    sender.close()


def test_the_worker_draws_a_seats_map_picture(worker_queue, organiser, tmp_path):
    """The web asks, the worker draws (docs/map-pictures.md): the task sent through Redis
    writes the seat's picture where the site serves it from."""
    queue, worker, log = worker_queue
    campaign = setup.create_campaign(
        organiser, name="Worker 1757", players=5, now=timezone.now(),
        army_points=dict(ARMY_POINTS),
        rule_settings={"leaders": dict.fromkeys((a.value for a in Army), 1)},
        map_name=write_map(tmp_path),
    )  # fmt: skip
    setup.start_campaign(campaign, organiser, now=timezone.now())
    version = campaign.latest_version()
    prussia = campaign.seats.get(power="prussia")
    assert not picture_stored(version, prussia)
    sender = Celery("dgk-test-sender", broker=TEST_BROKER_URL, set_as_current=False)

    sender.send_task("maps.tasks.draw_map_picture", args=[version.id, prussia.id], queue=queue)

    deadline = time.monotonic() + WAIT_SECONDS
    while not picture_stored(version, prussia) and time.monotonic() < deadline:
        if worker.poll() is not None:
            break
        time.sleep(0.2)
    if not picture_stored(version, prussia):
        pytest.fail(f"no picture within {WAIT_SECONDS}s; the worker's log:\n{log.read_text()}")
    picture = files.read_bytes(KIND, picture_key(version, prussia))
    assert picture.startswith(b"\x89PNG\r\n\x1a\n")
    sender.close()
