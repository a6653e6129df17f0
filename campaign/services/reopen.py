"""Reopening a campaign the organiser ended by mistake (issue 13), within a day.

Ending revealed the dice seeds to every player (fair dice), so a reopened campaign rolls with a
new seed from then on: its commitment is logged and emailed like any re-seeding. The public link
of *The war* is switched off for good (its token cleared): ending the campaign again does not
bring an old link back; the organiser switches a new one on if he wants it (docs/season-end.md).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from campaign.models import (
    Campaign,
    CampaignStatus,
    OrganiserActionKind,
    PhaseWindow,
    Seat,
    WindowStatus,
)
from campaign.services import deadlines, fairdice, outgoing
from campaign.services.actionlog import OrganiserError, log

REOPEN_WITHIN = timedelta(days=1)


def may_reopen(campaign: Campaign, *, now: datetime) -> bool:
    """Ended by the organiser (not by the end of the season) less than a day ago."""
    latest = campaign.latest_version()
    return (
        not campaign.archived
        and campaign.status == CampaignStatus.ENDED
        and campaign.ended is not None
        and now - campaign.ended <= REOPEN_WITHIN
        and latest is not None
        and not latest.state.get("ended")
    )


@transaction.atomic
def reopen_campaign(campaign: Campaign, actor, *, now: datetime, reason: str = "") -> None:
    campaign = Campaign.objects.select_for_update().get(id=campaign.id)
    if not may_reopen(campaign, now=now):
        raise OrganiserError(
            "Only a campaign the organiser ended less than a day ago, before the end of the "
            "season, can be reopened."
        )
    window = (
        PhaseWindow.objects.filter(
            campaign=campaign, status=WindowStatus.RESOLVED, resolved_at=campaign.ended
        )
        .order_by("-id")
        .first()
    )
    if window is not None:
        deadline = deadlines.deadline_for(
            campaign.deadline_policy, window.phase, now, campaign.time_zone
        )
        PhaseWindow.objects.filter(id=window.id).update(
            status=WindowStatus.OPEN, resolved_at=None, opened_at=now, deadline=deadline
        )
    public = bool(campaign.war_token)
    campaign.status = CampaignStatus.RUNNING
    campaign.ended = None
    campaign.war_token = ""
    campaign.save(update_fields=["status", "ended", "war_token"])
    fairdice.new_seed(campaign)
    why = f" Why: {reason.strip()}" if reason.strip() else ""
    if public:
        why = f" The public link to The war is switched off.{why}"
    log(
        campaign,
        actor,
        OrganiserActionKind.REOPENED,
        "Reopened the campaign; the dice roll with a new seed from now on (the old ones were "
        f"revealed), commitment {campaign.seed_commitment}.{why}",
        now=now,
        commitment=campaign.seed_commitment,
    )
    for seat_id in Seat.objects.filter(campaign=campaign, user__isnull=False).values_list(
        "id", flat=True
    ):
        outgoing.queue_reseeded(seat_id)
