"""Email modes: every phase, only when something is due, or one digest a day.

``Seat.email_mode`` filters the seat's phase emails (``allows``); for ``digest`` the periodic
``send_digests`` sends one email a day with what happened since the last digest, the letters
that arrived and what is due. The last call before a deadline still comes in every mode.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q

from campaign.models import CampaignStatus, EmailMode, Seat
from campaign.services import outgoing

DIGEST_EVERY = timedelta(hours=23, minutes=30)  # a day, give or take the beat's interval


def send_digests(*, now: datetime) -> int:
    """Queue a digest for every seat in digest mode whose last one is a day old and that has
    something to read (news since, a letter, or orders due). Returns how many were queued."""
    seats = Seat.objects.filter(
        email_mode=EmailMode.DIGEST,
        user__isnull=False,
        reserve=False,
        campaign__status=CampaignStatus.RUNNING,
    ).filter(Q(digest_sent__isnull=True) | Q(digest_sent__lte=now - DIGEST_EVERY))
    queued = 0
    for seat in seats.select_related("campaign"):
        latest = seat.campaign.latest_version()
        if latest is None:
            continue
        window = seat.campaign.open_window()
        owes = window is not None and window.owes(seat)
        news = seat.digest_since is None or latest.number > seat.digest_since
        if not (news or owes):
            continue
        outgoing.queue_digest(seat.id, since=seat.digest_since)
        Seat.objects.filter(id=seat.id).update(digest_sent=now, digest_since=latest.number)
        queued += 1
    return queued
