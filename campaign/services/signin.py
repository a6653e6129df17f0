"""Sign-in throttling seen from a campaign: which of its players are locked out after too many
wrong passwords (django-axes, settings ``AXES_*``), and the organiser's unlock."""

from __future__ import annotations

from datetime import datetime

from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings

from campaign.models import Campaign, OrganiserActionKind, Seat
from campaign.services.actionlog import OrganiserError, log


def locked_seats(campaign: Campaign) -> list[Seat]:
    """The campaign's seated players whose account is locked out now."""
    seats = list(campaign.seats.filter(user__isnull=False).select_related("user"))
    names = {s.user.get_username(): s for s in seats}
    locked = AccessAttempt.objects.filter(
        username__in=list(names), failures_since_start__gte=settings.AXES_FAILURE_LIMIT
    ).values_list("username", flat=True)
    return [names[name] for name in sorted(set(locked))]


def unlock(campaign: Campaign, actor, seat: Seat, *, now: datetime) -> int:
    """Clear the failed sign-ins of the player of ``seat`` (logged, as every organiser tool)."""
    if seat.campaign_id != campaign.id or seat.user is None:
        raise OrganiserError("That seat has no player in this campaign.")
    cleared = reset(username=seat.user.get_username())
    log(
        campaign,
        actor,
        OrganiserActionKind.UNLOCKED,
        f"Unlocked the sign-in of the {seat.label} after repeated wrong passwords.",
        now=now,
        seat=str(seat.code),
    )
    return cleared
