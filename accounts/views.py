"""The sign-in lockout page and the organiser's unlock of a player locked out of signing in
(django-axes, ``accounts.services.signin``)."""

from __future__ import annotations

from axes.helpers import get_client_username
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.services import signin
from campaign.access import organiser_campaign
from campaign.models import Seat
from campaign.services.actionlog import OrganiserError


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes's lockout page (``AXES_LOCKOUT_CALLABLE``): which lock it is, the name's from
    this address or the address's for everyone, so a club member knows whom it concerns."""
    now = timezone.now()
    address = getattr(request, "axes_ip_address", None)
    context = {
        "username": get_client_username(request, credentials) or "",
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "names_limit": settings.SIGNIN_ADDRESS_NAMES_LIMIT,
        "whole_address": signin.address_locked(address, now=now),
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(
        request, "registration/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE
    )


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
