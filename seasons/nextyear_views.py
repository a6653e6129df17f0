"""The organiser's "Start the next year" page of a finished campaign (13, linked campaigns):
the between-campaign choices, asked for confirmation, then one service call
(``services.nextyear.start_next_year``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from campaign import asking
from campaign.access import organiser_campaign
from campaign.services import fateclock, gameplay
from campaign.services.organiser import OrganiserError
from seasons.forms import NextYearForm
from seasons.services import nextyear

CHOICE_WORDS = {
    "redeploy": "Leaders redeployed (13.1)",
    "no_exchange": "No prisoner exchange (13.2)",
    "replace": "Leaders replaced (13.3)",
    "new_leader_city": "New leaders arrive at (13.3)",
    "siege_trains": "Siege trains built (13.5)",
    "loans": "Loans (13.6)",
    "peace": "Peace (13.7)",
    "change_sides": "Changing sides (13.8)",
    "own_course": "Own course (13.8)",
}


def _said(value) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k} → {v}" for k, v in value.items())
    items = [
        f"{x['from']} → {x['to']} {x['points']}" if isinstance(x, dict) else str(x) for x in value
    ]
    return ", ".join(items)


def _effects(form: NextYearForm, fate_on: bool, every: str) -> list[str]:
    lines = [
        "A new campaign starts at turn 1 of the next year, linked to this one, with the same "
        "players, rules and options; this one stays as it ended.",
        "The optional rules 13.1-13.8 switched on apply in the book's order, with your choices; "
        "their dice roll with the new year's own secret seed and are recorded.",
    ]
    if form.agreed_points is not None:
        lines.append(f"New points per star city (13.4): {form.agreed_points}.")
    lines += [f"{CHOICE_WORDS[k]}: {_said(v)}." for k, v in form.inputs.items()]
    if fate_on and every == "season":
        lines.append("The Clock of Fate draws a card; every player reads it in the log.")
    lines.append("Every player is emailed that the next year has started.")
    return lines


@login_required
@require_http_methods(["GET", "POST"])
def next_year(request: HttpRequest, code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    refused = nextyear.refusal(campaign)
    if refused:
        ctx = {"campaign": campaign, "refused": refused}
        return render(request, "seasons/next_year.html", ctx, status=409)
    fate = fateclock.settings_of(campaign)
    form = NextYearForm(
        request.POST or None, rules=gameplay.rule_settings(campaign), fate_on=fate is not None
    )
    if request.method == "POST" and form.is_valid():
        if not asking.said_yes(request):
            hidden = asking.posted_fields(request)
            return asking.ask(
                request,
                campaign,
                "Start the next year?",
                _effects(form, fate is not None, fate.every if fate else ""),
                reverse("next_year", args=[campaign.code]),
                hidden=hidden,
                back_url=reverse("next_year", args=[campaign.code]),
            )
        try:
            new = nextyear.start_next_year(
                campaign,
                request.user,
                form.inputs,
                now=timezone.now(),
                new_points_per_star_city=form.agreed_points,
                choices=form.fate_choices,
                reason=asking.reason(request),
            )
        except OrganiserError as exc:
            messages.error(request, str(exc))
            return redirect("organiser_board", campaign.code)
        messages.success(request, f"{new.name} has started; the players are told.")
        return redirect("organiser_board", new.code)
    return render(request, "seasons/next_year.html", {"campaign": campaign, "form": form})
