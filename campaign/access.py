"""Who may open a campaign's pages (the organiser's and the members'), for the views of the
campaign app; each raises PermissionDenied. The player's own pages have theirs in
``orders.access``.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from campaign.models import Campaign


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
