"""The organiser downloads the season file of a campaign (docs/export-format.md)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from campaign.access import organiser_campaign
from campaign.services import seasonfile


@login_required
@require_GET
def download(request: HttpRequest, code) -> HttpResponse:
    """The season file, organiser only. Without the dice seed while the campaign runs: the
    seed is a secret of the server, the organiser's too (docs/dice.md); once the campaign has
    ended its seeds are revealed and the file carries them."""
    campaign = organiser_campaign(request, code)
    now = timezone.now()
    data = seasonfile.export_campaign(campaign, with_secrets=False, now=now)
    response = HttpResponse(data, content_type="application/gzip")
    response["Content-Disposition"] = (
        f'attachment; filename="{seasonfile.file_name(campaign, now)}"'
    )
    response["Cache-Control"] = "private, no-store"
    return response
