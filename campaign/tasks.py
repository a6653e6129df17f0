"""Celery tasks: thin, they take ids and call one service.

Callers queue tasks with ``transaction.on_commit(lambda: task.delay(...))``. With no broker
configured they run eagerly, in the caller's process.
"""

import socket

from celery import shared_task
from celery.signals import worker_ready
from django.db import connection
from django.utils import timezone

from campaign.models import Heartbeat

WORKER = "worker"


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
