"""*The war* (issue 28, docs/season-end.md): once the campaign is over, every member sees the
whole war: the map of every phase, every seat's orders, every roll, the charts. Before the end
these URLs answer 404 to every member (``campaign.access.war_campaign``) and 403 to anyone else.

The organiser may switch on a public read-only link after the end (``/war/<token>/``, off by
default): the same page and map without signing in; switching it off breaks the link.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from campaign import warcharts
from campaign.access import organiser_campaign, war_campaign
from campaign.models import Campaign
from campaign.services import war
from campaign.services.actionlog import OrganiserError


def _page(request: HttpRequest, campaign: Campaign, *, public: bool) -> HttpResponse:
    figures = war.figures(campaign)
    labels = war.ARMY_LABELS
    charts = {
        "points": warcharts.line_chart(figures.points, "Each army's points by turn", "ch-points"),
        "vps": warcharts.line_chart(
            figures.vps, "Victory points by player by turn", "ch-vps", unit="VPs"
        ),
        "losses": warcharts.losses_chart(figures.losses, labels, "ch-losses"),
        "timeline": warcharts.timeline_chart(figures.timeline, figures.turns, "ch-timeline"),
    }
    history = (
        reverse("war_public_history", args=[campaign.war_token])
        if public
        else reverse("war_history", args=[campaign.code])
    )
    organiser = not public and campaign.organiser_id == request.user.id
    return render(
        request,
        "campaign/war.html",
        {
            "campaign": campaign,
            "public": public,
            "history_url": history,
            "is_organiser": organiser,
            "public_link": (
                request.build_absolute_uri(reverse("war_public", args=[campaign.war_token]))
                if organiser and campaign.war_token
                else ""
            ),
            "figures": figures,
            "charts": charts,
            "losses": [
                (labels.get(x.army, x.army), [x.by_cause[c] for c in war.warseries.CAUSES], x.total)
                for x in sorted(figures.losses.values(), key=lambda x: (-x.total, x.army))
            ],
            "causes": war.warseries.CAUSES,
            "phases": war.phase_records(campaign),
        },
    )


def _history(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    try:
        number = int(request.GET["version"]) if "version" in request.GET else None
    except ValueError:
        number = None
    data = war.war_layer(campaign, number)
    if data is None:
        return JsonResponse({"error": "the campaign has no map yet"}, status=404)
    body = json.dumps(data, separators=(",", ":"))
    return HttpResponse(
        body, content_type="application/json", headers={"Cache-Control": "private, no-cache"}
    )


@login_required
@require_GET
def war_page(request: HttpRequest, code) -> HttpResponse:
    return _page(request, war_campaign(request, code), public=False)


@login_required
@require_GET
def war_history(request: HttpRequest, code) -> HttpResponse:
    """The map widget's document of one phase (``?version=N``), all-seeing."""
    return _history(request, war_campaign(request, code))


def _public(token: str) -> Campaign:
    campaign = war.public_campaign(token)
    if campaign is None:
        raise Http404("No such page.")
    return campaign


@require_GET
def war_public(request: HttpRequest, token: str) -> HttpResponse:
    """*The war* for anyone with the link, read-only, while the organiser keeps it on."""
    return _page(request, _public(token), public=True)


@require_GET
def war_public_history(request: HttpRequest, token: str) -> HttpResponse:
    return _history(request, _public(token))


@login_required
@require_POST
def war_link(request: HttpRequest, code) -> HttpResponse:
    """The organiser switches the public link on (a new token) or off."""
    campaign = organiser_campaign(request, code)
    try:
        war.set_public_link(
            campaign, request.user, on=request.POST.get("public") == "on", now=timezone.now()
        )
    except OrganiserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, "The public link is on." if campaign.war_token else "The public link is off."
        )
    return redirect("war", campaign.code)
