"""The battles' periodic work: the beat's sweep sends the reminders and queues one task per
campaign that has results to apply or battles for the caretaker (they may resolve a phase), for
whichever worker is free (docs/performance.md, "The sweep fans out")."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from battles.services import dates
from campaign.services import queue

SETTLE_BATTLES = "battles.tasks.settle_battles"
logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def sweep_battles() -> int:
    """Beat, every minute: the battles' reminders and the organiser's alert for an overdue
    result here; each campaign's waiting results and caretaker's battles as a task of its own
    (``settle_battles``). How many campaigns it queued."""
    dates.send_reminders(now=timezone.now())
    campaigns = dates.campaigns_to_settle()
    for campaign_id in campaigns:
        try:
            queue.now(SETTLE_BATTLES, campaign_id)
        except Exception:  # (no broker: it ran here) the next sweep tries again; others go on
            logger.exception("settling the battles of campaign %s failed", campaign_id)
    return len(campaigns)


@shared_task(ignore_result=True, acks_late=True)
def settle_battles(campaign_id: int) -> None:
    """One campaign's final results waiting for the turn to go on, and the battles the
    caretaker settles (``battles.services.dates.settle``)."""
    dates.settle(campaign_id, now=timezone.now())
