"""Fair dice: the commitments, the revealed seeds and the check of every roll (docs/dice.md),
and the organiser's re-seeding."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from campaign.access import member_campaign, organiser_campaign
from campaign.services import fairdice
from campaign.services.actionlog import OrganiserError
from rules.dice import SCHEME


@login_required
def campaign_dice(request: HttpRequest, code) -> HttpResponse:
    """Every member: the commitments; once the campaign has ended, the seeds and the check."""
    campaign = member_campaign(request, code)
    check = fairdice.verify(campaign) if campaign.seeds_revealed else None
    return render(
        request,
        "campaign/dice.html",
        {
            "campaign": campaign,
            "scheme": SCHEME,
            "seeds": fairdice.public_seeds(campaign),
            "check": check,
            "is_organiser": campaign.organiser_id == request.user.id,
            "reseeds": campaign.actions.filter(kind="reseeded").select_related("actor"),
        },
    )


@login_required
def reseed(request: HttpRequest, code) -> HttpResponse:
    """The organiser changes the seed from the next phase on: a page that says what will
    happen, then the change with its reason."""
    campaign = organiser_campaign(request, code)
    if request.method == "POST":
        try:
            fairdice.reseed(
                campaign, request.user, request.POST.get("reason", ""), now=timezone.now()
            )
        except OrganiserError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, "New seed in use; the players are told.")
            return redirect("campaign_dice", campaign.code)
    return render(request, "campaign/reseed.html", {"campaign": campaign})
