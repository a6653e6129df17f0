"""Who may open a campaign's pages (the organiser's and the members'), for the views of the
campaign app; each raises PermissionDenied. The player's own pages have theirs in
``orders.access``.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from campaign.models import Campaign
from campaign.services import war


def organiser_campaign(request: HttpRequest, code) -> Campaign:
    """The campaign, if the signed-in user organises it."""
    campaign = get_object_or_404(Campaign, code=code)
    if campaign.organiser_id != request.user.id:
        raise PermissionDenied
    return campaign


def member_campaign(request: HttpRequest, code) -> Campaign:
    """The campaign, if the signed-in user organises it or holds one of its seats."""
    campaign = get_object_or_404(Campaign, code=code)
    if (
        campaign.organiser_id != request.user.id
        and not campaign.seats.filter(user=request.user).exists()
    ):
        raise PermissionDenied
    return campaign


def war_campaign(request: HttpRequest, code) -> Campaign:
    """The campaign, for *The war* (docs/season-end.md): a member's, once it is over. Before
    the end it is not found, for every member alike (the playing organiser too; a non-playing
    umpire has his own page)."""
    campaign = member_campaign(request, code)
    if not war.war_shown(campaign):
        raise Http404("The war is shown when the campaign is over.")
    return campaign
