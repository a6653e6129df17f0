"""The club's tasks: post one news item to a campaign's channel, and the sweep that posts what
is due (new posts without a broker, and the tries again)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from club.services import channel


@shared_task(ignore_result=True)
def deliver_post(post_id: int) -> bool:
    """Queued on commit with a broker: one try (``CLUB_HOOK_TIMEOUT`` seconds at most)."""
    return channel.deliver(post_id, now=timezone.now())


@shared_task(ignore_result=True)
def deliver_due_posts() -> int:
    """Periodic (``CLUB_POST_SECONDS``): the posts due, first tries and tries again."""
    return channel.deliver_due(now=timezone.now())
