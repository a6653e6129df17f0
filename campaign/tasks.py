"""Celery tasks: thin, they take ids and call one service.

Services queue them by name when the transaction commits (``campaign.services.queue``), so no
service imports this module. With no broker configured they run eagerly, in the caller's process.
"""

import logging
import socket
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_process_init, worker_ready
from django.conf import settings
from django.db import connection
from django.utils import timezone

from campaign.models import Heartbeat
from campaign.services import (
    backups,
    battle_dates,
    digest,
    drifting,
    email,
    resolution,
    seasonbook,
)

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


@worker_process_init.connect
def warm_worker(**kwargs) -> None:
    """Each worker process loads the URLconf and the email templates as it starts, not while
    it builds its first emails."""
    try:
        email.warm()
    except Exception:  # a worker that could not warm still works: its first emails are slower
        logger.exception("could not load the URLconf and email templates at start")


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
    resolution.resolve_due_phase(window_id, now=timezone.now())


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Beat, every minute: resolve every due window (the database, not a countdown, decides),
    then the battles' periodic work (their reminders, and final results waiting to be applied).

    Each window resolves in its own transaction, exactly once; one failing window is logged
    and left open for the next sweep, it does not stop the others nor the battles.
    """
    resolved = 0
    for window_id in resolution.due_window_ids(timezone.now()):
        try:
            resolved += resolution.resolve_due_phase(window_id, now=timezone.now()) is not None
        except Exception:  # the next sweep retries; the others must still resolve
            logger.exception("resolving window %s failed", window_id)
    try:
        battle_dates.sweep(now=timezone.now())
    except Exception:  # the next sweep retries
        logger.exception("the battles' sweep failed")
    return resolved


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """Beat: the reminders due now (each step once per seat and window)."""
    return drifting.send_reminders(now=timezone.now())


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Beat: the daily digests due now (services.digest)."""
    return digest.send_digests(now=timezone.now())


@shared_task(ignore_result=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_email(kind: str, **ids) -> bool:
    """Build and send one email (never inside a web request)."""
    return email.deliver(kind, **ids)


@shared_task(ignore_result=True)
def send_emails(batch: list, handoff: str | None = None, outbox: list | None = None) -> int:
    """Build and send one resolution's emails together ([kind, ids] each); one refused by the
    mail server is queued again alone as ``send_email``. ``handoff``, ``outbox``: see
    ``email.deliver_many``."""
    return email.deliver_many([(kind, ids) for kind, ids in batch], handoff, outbox)


@shared_task(ignore_result=True)
def backup_campaigns() -> int:
    """Beat, every 5 minutes: the season file of every running campaign with none yet or
    whose last backup is a day old (``BACKUP_EVERY_HOURS``) into ``BACKUP_DIR``, the last
    ``BACKUP_KEEP`` kept. A failure (a full disk) is logged and shown by /healthz; it never
    removes a backup already made."""
    done = backups.backup_campaigns(
        folder=settings.BACKUP_DIR,
        keep=settings.BACKUP_KEEP,
        every=timedelta(hours=settings.BACKUP_EVERY_HOURS),
        now=timezone.now(),
    )
    return len(done.written)


@shared_task(ignore_result=True)
def send_pending_emails() -> int:
    """Beat: the resolutions' emails left in the outbox (``email.send_pending``)."""
    return email.send_pending(now=timezone.now())


@shared_task(ignore_result=True)
def print_season_book(campaign_id: int) -> int:
    """Print the book of a campaign that is over, both papers, unless on disk (safe twice)."""
    return len(seasonbook.draw_book(campaign_id))


@shared_task(ignore_result=True)
def print_wanted_season_books() -> int:
    """Periodic: print the books the web asked for with no broker to send tasks to."""
    return seasonbook.draw_wanted()
