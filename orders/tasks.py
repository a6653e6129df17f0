"""The orders app's tasks: orders by email from an IMAP mailbox (``orders.mailbox``,
periodic), and the seats' pages of a new version prepared when a phase resolves
(``orders.warmup``)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from orders.mailbox import poll
from orders.warmup import warm_pages


@shared_task
def poll_orders_mailbox() -> int:
    """Take the unread mails of ``IMAP_URL``; how many were taken."""
    if not settings.IMAP_URL:
        return 0
    return poll(settings.IMAP_URL, cafile=settings.IMAP_CA_FILE).seen


@shared_task(ignore_result=True)  # after the resolutions, before the pictures (CELERY_TASK_ROUTES)
def warm_seat_pages(version_id: int) -> int:
    """Every playing seat's view of a new version, and its map layer, made before a player
    asks (docs/performance.md); safe to run twice (the second finds them made)."""
    return warm_pages(version_id)
