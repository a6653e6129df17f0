"""The organiser downloads the season file of a campaign (docs/export-format.md)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from campaign.access import organiser_campaign
from seasons.services import seasonfile

PLAYING = (
    "You play a seat in this campaign: its season file holds every seat's forces and orders, "
    "which your seat may not know. The site's administrator can write it "
    "(manage.py exportcampaign)."
)


@login_required
@require_GET
def download(request: HttpRequest, code) -> HttpResponse:
    """The season file, organiser only. Without the dice seed while the campaign runs: the
    seed is a secret of the server, the organiser's too (docs/dice.md); once the campaign has
    ended its seeds are revealed and the file carries them. An organiser who plays a seat
    gets no file: it holds every other seat's secrets."""
    campaign = organiser_campaign(request, code)
    if not campaign.umpire_sees_all:
        raise PermissionDenied(PLAYING)
    now = timezone.now()
    data = seasonfile.export_campaign(campaign, with_secrets=False, now=now)
    response = HttpResponse(data, content_type="application/gzip")
    response["Content-Disposition"] = (
        f'attachment; filename="{seasonfile.file_name(campaign, now)}"'
    )
    response["Cache-Control"] = "private, no-store"
    return response
