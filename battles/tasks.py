"""The battles' periodic work."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from battles.services import dates


@shared_task(ignore_result=True)
def sweep_battles() -> None:
    """Beat, every minute: the battles' reminders, the organiser's alert for an overdue result,
    and final results waiting for a paused campaign (``battles.services.dates.sweep``)."""
    dates.sweep(now=timezone.now())
