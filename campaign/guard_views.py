"""The organiser's unlock of a player locked out of signing in (django-axes), and the
reopening of a campaign ended by mistake."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import organiser_campaign
from campaign.asking import confirmed_tool
from campaign.models import Seat
from campaign.services import reopen, signin
from campaign.services.actionlog import OrganiserError


@login_required
@require_POST
def unlock(request: HttpRequest, code, seat_code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    seat = get_object_or_404(Seat, campaign=campaign, code=seat_code)
    try:
        signin.unlock(campaign, request.user, seat, now=timezone.now())
    except OrganiserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"The {seat.label} can sign in again.")
    return redirect("organiser_board", campaign.code)


@login_required
@require_http_methods(["GET", "POST"])
def reopen_campaign(request: HttpRequest, code) -> HttpResponse:
    """Within a day of ending it: a page that says what will happen, then the reopening."""
    return confirmed_tool(
        request,
        code,
        "reopen_campaign",
        "Reopen the campaign?",
        [
            "The phase that was open when you ended it opens again, with a fresh deadline.",
            "The dice seeds were revealed when it ended: from now on the dice roll with a new "
            "secret seed, whose commitment every player is emailed.",
            "The log records it, with your reason.",
        ],
        lambda c, why: reopen.reopen_campaign(c, request.user, now=timezone.now(), reason=why),
        "The campaign runs again; the players are told.",
    )
