"""The organiser's unlock of a player locked out of signing in (django-axes)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.services import signin
from campaign.access import organiser_campaign
from campaign.models import Seat
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
