"""The sign-in lockout page and the organiser's unlock of a player locked out of signing in
(django-axes, ``campaign.services.signin``), and the reopening of a campaign ended by mistake."""

from __future__ import annotations

from axes.helpers import get_client_username
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import organiser_campaign
from campaign.asking import confirmed_tool
from campaign.models import Seat
from campaign.services import reopen, signin
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
