"""The club's pages: a player's own record (``my_record``) and, for a campaign's organiser,
the record of its players and invitees (``campaign_roster``). Never public (docs/club.md)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.access import organiser_campaign
from club.services import roster


@login_required
@require_GET
def my_record(request: HttpRequest) -> HttpResponse:
    return render(request, "club/record.html", {"roster": roster.roster(request.user)})


@login_required
@require_GET
def campaign_roster(request: HttpRequest, code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    return render(
        request,
        "club/roster.html",
        {"campaign": campaign, "rosters": roster.campaign_roster(campaign)},
    )
