"""The real path for deadlines: the beat's sweep goes through Redis to a Celery worker process,
which finds the phase whose deadline has passed and resolves it in the test database.

Reuses the foundation's worker fixture (a worker on a queue of its own).
"""

import time
from datetime import timedelta

import pytest
from celery import Celery
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.models import Heartbeat, PhaseWindow, StateVersion, WindowStatus
from campaign.services import setup
from campaign.tasks import WORKER
from tests.conftest import TEST_BROKER_URL
from tests.integration.test_celery_worker import WAIT_SECONDS, worker_queue  # noqa: F401

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def started_campaign(organiser, name: str, now):
    campaign = setup.create_campaign(
        organiser,
        name=name,
        players=2,
        now=now,
        army_points={
            "austria": 3200,
            "empire": 800,
            "france": 3000,
            "hanover": 1500,
            "prussia": 3200,
            "russia": 1500,
            "sweden": 200,
        },  # fmt: skip
        map_name="no-such-map-for-tests",
    )
    setup.start_campaign(campaign, organiser, now=now)
    window = campaign.open_window()
    PhaseWindow.objects.filter(id=window.id).update(deadline=now - timedelta(seconds=1))
    return campaign, window


def wait_for_the_worker(worker, log):
    booting = time.monotonic()
    while not Heartbeat.objects.filter(source=WORKER, eager=False).exists():
        if time.monotonic() - booting > WAIT_SECONDS or worker.poll() is not None:
            pytest.fail(f"the worker did not start; its log:\n{log.read_text()}")
        time.sleep(0.1)


def test_a_passed_deadline_is_resolved_by_the_worker(worker_queue):  # noqa: F811
    queue, worker, log = worker_queue
    organiser = get_user_model().objects.create_user("umpire", "umpire@example.org", "x")
    now = timezone.now()
    campaign, window = started_campaign(organiser, "Worker 1757", now)

    # Time from a due deadline to the resolved phase once the worker is up (its start writes
    # a heartbeat), not the worker's start-up.
    wait_for_the_worker(worker, log)
    sender = Celery("dgk-test-sender", broker=TEST_BROKER_URL)
    started = time.monotonic()
    sender.send_task("campaign.tasks.sweep_deadlines", queue=queue)
    resolved = None
    while time.monotonic() - started < WAIT_SECONDS and worker.poll() is None:
        resolved = StateVersion.objects.filter(campaign=campaign, number=1).first()
        if resolved is not None:
            break
        time.sleep(0.2)
    sender.close()
    if resolved is None:
        pytest.fail(f"the worker resolved nothing in {WAIT_SECONDS}s; its log:\n{log.read_text()}")
    elapsed = time.monotonic() - started
    print(f"\ndeadline to resolved phase: {elapsed:.2f}s (sweep sent through Redis, resolved)")
    window.refresh_from_db()
    assert window.status == WindowStatus.RESOLVED
    assert campaign.open_window().phase == "march"


def test_the_sweep_fans_out_one_task_per_window_and_twice_queues_none_twice(worker_queue):  # noqa: F811
    """Two sweeps in a row through Redis: each due window is resolved by a task of its own,
    queued once (the claim), whichever sweep found it first."""
    queue, worker, log = worker_queue
    organiser = get_user_model().objects.create_user("umpire", "umpire@example.org", "x")
    now = timezone.now()
    windows = [started_campaign(organiser, f"Fan {n} 1757", now)[1] for n in range(3)]
    wait_for_the_worker(worker, log)
    sender = Celery("dgk-test-sender", broker=TEST_BROKER_URL)
    sender.send_task("campaign.tasks.sweep_deadlines", queue=queue)
    sender.send_task("campaign.tasks.sweep_deadlines", queue=queue)
    started = time.monotonic()
    ids = [w.id for w in windows]
    while time.monotonic() - started < WAIT_SECONDS and worker.poll() is None:
        if PhaseWindow.objects.filter(id__in=ids, status=WindowStatus.RESOLVED).count() == 3:
            break
        time.sleep(0.2)
    sender.close()
    resolved = PhaseWindow.objects.filter(id__in=ids, status=WindowStatus.RESOLVED).count()
    text = log.read_text()
    assert resolved == 3, f"{resolved} of 3 windows resolved; the worker's log:\n{text}"
    received = [line for line in text.splitlines() if "campaign.tasks.resolve_phase[" in line
                and "received" in line.lower()]  # fmt: skip
    assert len(received) == 3, "\n".join(received)
    assert not PhaseWindow.objects.filter(id__in=ids).exclude(queued_at=None).exists()
