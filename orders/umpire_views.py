"""The non-playing umpire's page: every force with its points, every garrison and siege train,
every event and roll of this turn and the last.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.models import Seat
from orders.access import _umpire_access, _umpire_view, _version


@login_required
@require_GET
def umpire(request: HttpRequest, code) -> HttpResponse:
    """Everything, for the non-playing umpire: every force with its points, every garrison and
    siege train, every event and roll of this turn and the last."""
    access = _umpire_access(request, code)
    version = _version(access.campaign)
    view = _umpire_view(access, version) if version is not None else None
    seats = Seat.objects.filter(campaign=access.campaign, reserve=False)
    return render(
        request, "play/umpire.html",
        {"campaign": access.campaign, "version": version, "view": view, "seats": seats},
    )  # fmt: skip
