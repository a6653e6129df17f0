"""Celery tasks: thin, they take ids and call one service.

Callers queue tasks with ``transaction.on_commit(lambda: task.delay(...))``. With no broker
configured they run eagerly, in the caller's process.
"""

import logging
import socket

from celery import shared_task
from celery.signals import worker_ready
from django.db import connection
from django.utils import timezone

from campaign.models import Heartbeat

WORKER = "worker"
logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def record_heartbeat(source: str = WORKER) -> None:
    """Record that the process running tasks is alive (read by /healthz)."""
    eager = bool(getattr(record_heartbeat.request, "is_eager", False))
    Heartbeat.objects.update_or_create(
        source=source,
        defaults={"beat_at": timezone.now(), "hostname": socket.gethostname(), "eager": eager},
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


@shared_task(ignore_result=True, acks_late=True)
def resolve_phase(window_id: int) -> None:
    """Resolve one phase window if it is due; safe to run twice (exactly once)."""
    from campaign.services.resolution import resolve_due_phase

    resolve_due_phase(window_id, now=timezone.now())


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Beat, every minute: resolve every due window (the database, not a countdown, decides),
    then the battles' periodic work (their reminders, and final results waiting to be applied).

    Each window resolves in its own transaction, exactly once; one failing window is logged
    and left open for the next sweep, it does not stop the others nor the battles.
    """
    from campaign.services import battles
    from campaign.services.resolution import due_window_ids, resolve_due_phase

    resolved = 0
    for window_id in due_window_ids(timezone.now()):
        try:
            resolved += resolve_due_phase(window_id, now=timezone.now()) is not None
        except Exception:  # the next sweep retries; the others must still resolve
            logger.exception("resolving window %s failed", window_id)
    try:
        battles.sweep(now=timezone.now())
    except Exception:  # the next sweep retries
        logger.exception("the battles' sweep failed")
    return resolved


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """Beat: the reminders due now (each step once per seat and window)."""
    from campaign.services.drifting import send_reminders as send

    return send(now=timezone.now())


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Beat: the daily digests due now (services.digest)."""
    from campaign.services.digest import send_digests as send

    return send(now=timezone.now())


@shared_task(ignore_result=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_email(kind: str, **ids) -> bool:
    """Build and send one email (never inside a web request)."""
    from campaign.services.email import deliver

    return deliver(kind, **ids)


@shared_task(ignore_result=True)
def send_emails(batch: list) -> int:
    """Build and send one resolution's emails together ([kind, ids] each); one refused by the
    mail server is queued again alone as ``send_email``."""
    from campaign.services.email import deliver_many

    return deliver_many([(kind, ids) for kind, ids in batch])
