"""The worker's entry point for pushes: queued by name (``push.services.listening``)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from push.services import delivery


@shared_task(ignore_result=True)
def send_pushes(pushes: list[dict]) -> dict[str, int]:
    return delivery.send_pushes(pushes, now=timezone.now())
