"""The mail's tasks: thin, they take ids and call one service (``mail.services``). The
campaign's services queue them by name (``campaign.services.queue``)."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_init, worker_process_init
from django.utils import timezone

from dgk import memory
from mail.services import digest, email

logger = logging.getLogger(__name__)


@worker_init.connect
@worker_process_init.connect
def warm_worker(**kwargs) -> None:
    """The worker loads the URLconf and the email templates as it starts, not while it builds
    its first emails, then sets what it has loaded aside from the garbage collector's rounds
    (``dgk.memory.settle``): in its main process before it forks its pool (the pool's processes
    inherit both), and again in each pool process as it starts (the second finds them loaded,
    and freezes what the process made since)."""
    try:
        email.warm()
    except Exception:  # a worker that could not warm still works: its first emails are slower
        logger.exception("could not load the URLconf and email templates at start")
    memory.settle()


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
def send_pending_emails() -> int:
    """Beat: the resolutions' emails left in the outbox (``email.send_pending``)."""
    return email.send_pending(now=timezone.now())
