"""The seasons' tasks: the nightly backups and the book of the season."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from seasons.services import backups, seasonbook


@shared_task(ignore_result=True)
def backup_campaigns() -> int:
    """Beat, every 5 minutes: the season file of every running campaign with none yet or
    whose last backup is a day old (``BACKUP_EVERY_HOURS``) into the ``backups`` storage, the
    last ``BACKUP_KEEP`` kept. A failure (a full disk, a bucket that refuses) is logged and shown
    by /healthz; it never removes a backup already made."""
    done = backups.backup_campaigns(
        keep=settings.BACKUP_KEEP,
        every=timedelta(hours=settings.BACKUP_EVERY_HOURS),
        now=timezone.now(),
    )
    return len(done.written)


@shared_task(ignore_result=True)  # after the resolutions (CELERY_TASK_ROUTES)
def print_season_book(campaign_id: int) -> int:
    """Print the book of a campaign that is over, both papers, unless stored (safe twice)."""
    return len(seasonbook.draw_book(campaign_id))


@shared_task(ignore_result=True)
def print_wanted_season_books() -> int:
    """Periodic: print the books the web asked for with no broker to send tasks to."""
    return seasonbook.draw_wanted()
