"""*The war* (issue 28, docs/season-end.md): once the campaign is over, every member sees the
whole war: the map of every phase, every seat's orders, every roll, the charts. Before the end
these URLs answer 404 to every member (``campaign.access.war_campaign``) and 403 to anyone else.
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign import warcharts
from campaign.access import war_campaign
from campaign.services import war


@login_required
@require_GET
def war_page(request: HttpRequest, code) -> HttpResponse:
    campaign = war_campaign(request, code)
    figures = war.figures(campaign)
    labels = {**war.ARMY_LABELS}
    charts = {
        "points": warcharts.line_chart(figures.points, "Each army's points by turn", "ch-points"),
        "vps": warcharts.line_chart(
            figures.vps, "Victory points by player by turn", "ch-vps", unit="VPs"
        ),
        "losses": warcharts.losses_chart(figures.losses, labels, "ch-losses"),
        "timeline": warcharts.timeline_chart(figures.timeline, figures.turns, "ch-timeline"),
    }
    return render(
        request,
        "campaign/war.html",
        {
            "campaign": campaign,
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


@login_required
@require_GET
def war_history(request: HttpRequest, code) -> HttpResponse:
    """The map widget's document of one phase (``?version=N``), all-seeing."""
    campaign = war_campaign(request, code)
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
