"""The organiser's action log: every tool the organiser uses is written as an ``OrganiserAction``,
which every player can read; ``OrganiserError`` is a tool refused now, with the reason.

Shared by the organiser's tools, the setup of a campaign, the fair dice, reopening and the
sign-in guard, so none of them imports another to log.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from campaign.models import Campaign, OrganiserAction


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
