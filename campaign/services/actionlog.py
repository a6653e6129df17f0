"""The organiser's action log: every tool the organiser uses is written as an ``OrganiserAction``,
which every player can read; ``OrganiserError`` is a tool refused now, with the reason.

Shared by the organiser's tools, the setup of a campaign, the fair dice, reopening and the
sign-in guard, so none of them imports another to log.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from campaign.models import (
    Campaign,
    OrganiserAction,
    OrganiserActionKind,
    PhaseWindow,
    WindowStatus,
)


class OrganiserError(ValueError):
    """A tool that cannot be used now; the message says why."""


def log(
    campaign: Campaign, actor, kind: str, text: str, *, now: datetime | None = None, **data
) -> OrganiserAction:
    return OrganiserAction.objects.create(
        campaign=campaign,
        actor=actor,
        kind=kind,
        text=text,
        data=data,
        created=now or timezone.now(),
    )


def readable(campaign: Campaign, user) -> QuerySet[OrganiserAction]:
    """The log as ``user`` may read it: whole for the umpire who plays no seat; for a player
    (the organiser who plays among them) without the lines of other seats' orders that came by
    email, which tell that a seat has saved orders before it sends them, where a draft saved
    on the page tells nothing (6: orders are secret until resolution); and without the lines of
    other seats' orders the organiser entered on their behalf while their phase is open, which
    tell that a seat has given its orders, where pressing Ready on the page tells no one (they
    are read once the phase has resolved, the organiser's acts being every player's to check)."""
    actions = campaign.actions.select_related("actor")
    if campaign.organiser_id == user.id and campaign.umpire_sees_all:
        return actions
    own = [str(code) for code in campaign.seats.filter(user=user).values_list("code", flat=True)]
    open_now = list(
        PhaseWindow.objects.filter(
            campaign=campaign, status__in=(WindowStatus.OPEN, WindowStatus.PAUSED)
        ).values_list("id", flat=True)
    )
    return actions.exclude(
        Q(kind=OrganiserActionKind.MAIL_ORDERS) & ~Q(data__seat__in=own)
    ).exclude(
        Q(kind=OrganiserActionKind.ENTERED_ORDERS)
        & Q(data__window__in=open_now)
        & ~Q(data__seat__in=own)
    )
