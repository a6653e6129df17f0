"""Celery tasks: thin, they take ids and call one service.

Services queue them by name when the transaction commits (``campaign.services.queue``), so no
service imports this module. With no broker configured they run eagerly, in the caller's process.
"""

import logging
import socket

from celery import shared_task
from celery.signals import worker_ready
from django.db import InterfaceError, OperationalError, connection
from django.utils import timezone

from campaign.models import Heartbeat
from campaign.services import drifting, resolution, sweep

WORKER = "worker"
logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def record_heartbeat(source: str = WORKER) -> None:
    """Record that the process running tasks is alive (read by /healthz)."""
    eager = bool(getattr(record_heartbeat.request, "is_eager", False))
    # One statement (INSERT ... ON CONFLICT DO UPDATE): two workers starting at once on two
    # machines both write the first row, and neither fails on the unique source
    # (update_or_create's select-then-insert raced there: docs/several-servers.md).
    Heartbeat.objects.bulk_create(
        [
            Heartbeat(
                source=source, beat_at=timezone.now(), hostname=socket.gethostname(), eager=eager
            )
        ],
        update_conflicts=True,
        unique_fields=["source"],
        update_fields=["beat_at", "hostname", "eager"],
    )


@worker_ready.connect
def heartbeat_when_ready(sender=None, **kwargs) -> None:
    """Record a heartbeat as soon as a worker starts, not one beat interval later."""
    try:
        record_heartbeat()
    finally:
        # The worker's main process keeps no connection open between its rare database uses.
        connection.close()


# --- the season (issue 6): resolution, the deadline sweep, reminders, email ------------------


# A resolution cut off by the database (restarted, failed over, the connection dropped) is
# tried again by the worker itself: 2, 4, 8... s later, at most a minute apart, for about ten
# minutes, whether or not its claim could be released (the database was gone). The sweep's stale
# claim (SWEEP_CLAIM_SECONDS) stays the last resort. Before, the next Ready's task happened to
# retry it; a Ready now asks only when the phase is due (``queue_resolution_when_due``).
DATABASE_GONE = (OperationalError, InterfaceError)


@shared_task(
    ignore_result=True, acks_late=True, autoretry_for=DATABASE_GONE, retry_backoff=2,
    retry_backoff_max=60, retry_jitter=False, max_retries=12,
)  # fmt: skip
def resolve_phase(window_id: int) -> None:
    """Resolve one phase window if it is due; safe to run twice (exactly once). Queued by the
    sweep, one per due window (``services.sweep``), or after a seat's Ready that made the phase
    due and an organiser's action. A failure leaves the window open, and released for the next
    sweep to try again; the database gone, the task is tried again (``DATABASE_GONE``)."""
    try:
        resolution.resolve_due_phase(window_id, now=timezone.now())
    finally:
        sweep.release(window_id)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Beat, every minute: queue one ``resolve_phase`` per due window (the database, not a
    countdown, decides), each once, for whichever worker is free (``services.sweep``). The
    battles' periodic work has its own task (``battles.tasks.sweep_battles``). How many
    windows it queued."""
    return sweep.sweep(timezone.now())


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """Beat: the reminders due now (each step once per seat and window)."""
    return drifting.send_reminders(now=timezone.now())
