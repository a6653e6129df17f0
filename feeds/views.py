"""The calendar feeds' pages (docs/calendar.md): the feed itself, read without signing in by its
secret address, and the renewals (a POST from the dashboard or the board)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from campaign.access import organiser_campaign
from campaign.models import Seat
from feeds.services import ical, tokens

NOT_FOUND = (
    "No calendar at this address: it is mistyped, or it was renewed (the old address stops "
    "working). Copy the new one from your dashboard (the organiser: from the board).\n"
)
MADE = "Your calendar address is ready: add it to your calendar app."
RENEWED = (
    "Your calendar has a new address: the old one no longer works. Add the new one to your "
    "calendar app (and remove the old calendar)."
)


@require_safe
def feed(request: HttpRequest, token: str) -> HttpResponse:
    """The calendar: no sign-in (calendar apps cannot), the unguessable address is the key."""
    found = tokens.find(token)
    if found is None:
        return HttpResponseNotFound(NOT_FOUND, content_type="text/plain; charset=utf-8")
    response = HttpResponse(
        ical.calendar(found, now=timezone.now()), content_type="text/calendar; charset=utf-8"
    )
    response["Content-Disposition"] = 'inline; filename="calendar.ics"'
    response["Cache-Control"] = "private, no-cache"
    return response


def _own_seat(request: HttpRequest, code) -> Seat:
    """The seat, if the signed-in user plays it (not the organiser reading it, nor entering
    orders on the player's behalf: the calendar is the player's)."""
    seat = get_object_or_404(Seat.objects.select_related("campaign"), code=code)
    if seat.user_id != request.user.id:
        raise PermissionDenied
    return seat


@login_required
@require_POST
def renew_seat(request: HttpRequest, code) -> HttpResponse:
    """The seat's first calendar address, or a new one in place of the old."""
    seat = _own_seat(request, code)
    had = tokens.held_feed(seat, request.user) is not None
    tokens.renew_seat(seat, request.user)
    messages.success(request, RENEWED if had else MADE)
    return redirect(reverse("orders:dashboard", args=[seat.code]) + "#calendar")


@login_required
@require_POST
def renew_organiser(request: HttpRequest, code) -> HttpResponse:
    """The campaign's first calendar address, or a new one in place of the old."""
    campaign = organiser_campaign(request, code)
    had = tokens.organiser_feed(campaign) is not None
    tokens.renew_organiser(campaign)
    messages.success(request, RENEWED if had else MADE)
    return redirect(reverse("organiser_board", args=[campaign.code]) + "#calendar")
