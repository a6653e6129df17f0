"""The orders app's periodic work: orders by email from an IMAP mailbox (orders.mailbox)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from orders.mailbox import poll


@shared_task
def poll_orders_mailbox() -> int:
    """Take the unread mails of ``IMAP_URL``; how many were taken."""
    if not settings.IMAP_URL:
        return 0
    return poll(settings.IMAP_URL, cafile=settings.IMAP_CA_FILE).seen
