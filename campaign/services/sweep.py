"""The deadline sweep fans out (issue 36): beat's sweep only finds the windows that are due and
claims each for one ``resolve_phase`` task, which any worker may take; the resolutions run
side by side on every worker, not one after the other in the sweep.

A claim is the window's ``queued_at``, set by a conditional update, so two sweeps (beat run
twice, two beats) queue a window once. The task clears it when it ends, whether it resolved
the window, found nothing to do (no longer due) or failed (the next sweep tries again). A claim
older than ``SWEEP_CLAIM_SECONDS`` is stale (its task was lost with the broker's memory, say)
and the window is claimed and queued again; resolving is exactly-once anyway
(``resolution.resolve_due_phase``), so a second task for a window only finds nothing to do.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q

from campaign.models import PhaseWindow, WindowStatus
from campaign.services import queue
from campaign.services.resolution import due_window_ids

logger = logging.getLogger(__name__)


def stale_before(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.SWEEP_CLAIM_SECONDS)


def claim(window_id: int, now: datetime) -> bool:
    """Claim one due window for a task: True if this caller won it."""
    unclaimed = Q(queued_at__isnull=True) | Q(queued_at__lt=stale_before(now))
    return bool(
        PhaseWindow.objects.filter(unclaimed, id=window_id, status=WindowStatus.OPEN).update(
            queued_at=now
        )
    )


def release(window_id: int) -> None:
    """The window's task has ended: a later sweep may queue it again if it is still due."""
    PhaseWindow.objects.filter(id=window_id, queued_at__isnull=False).update(queued_at=None)


def claim_due(now: datetime) -> list[int]:
    """The due windows this sweep claimed (not those another sweep's task holds)."""
    fresh = set(
        PhaseWindow.objects.filter(
            status=WindowStatus.OPEN, queued_at__gte=stale_before(now)
        ).values_list("id", flat=True)
    )
    return [wid for wid in due_window_ids(now) if wid not in fresh and claim(wid, now)]


def sweep(now: datetime) -> int:
    """Queue one ``resolve_phase`` per due window not already queued; how many were queued.

    With no broker the tasks run here, one after the other: one that fails is logged and
    released, and the others still resolve. A broker that refuses a task likewise releases
    its window for the next sweep."""
    claimed = claim_due(now)
    for window_id in claimed:
        try:
            queue.now(queue.RESOLVE_PHASE, window_id)
        except Exception:
            logger.exception("resolving window %s failed", window_id)
            release(window_id)
    return len(claimed)
