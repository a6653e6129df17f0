"""When a campaign last had news a seat's "since you last looked" reads from the database:
a letter written, an act of the organiser logged (``Campaign.news_at``). The dashboard reads
the letters and the organiser's log only when news came after the seat's last visit
(``orders.services.catchup``); the phases resolved it learns from the versions it has read.

Kept by ``post_save`` of ``OrganiserAction`` (connected in ``CampaignConfig.ready``) and of
``Letter`` (``PressConfig.ready``): whatever writes one, the campaign's moment moves with it,
in the same transaction.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from campaign.models import Campaign


def touch(campaign_id: int, when: datetime | None = None) -> None:
    """News in the campaign at ``when`` (now): ``news_at`` moves forward, never back."""
    when = when or timezone.now()
    Campaign.objects.filter(Q(news_at__isnull=True) | Q(news_at__lt=when), id=campaign_id).update(
        news_at=when
    )


def on_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    """``post_save`` of a letter or an organiser's act: the campaign has news, now (the row's
    own time may be earlier: a seat that visited in between must still read it)."""
    if created and not raw:
        touch(instance.campaign_id, max(timezone.now(), _moment(instance)))


def _moment(instance) -> datetime:
    for name in ("created", "sent"):
        value = getattr(instance, name, None)
        if isinstance(value, datetime):
            return value
    return timezone.now()
