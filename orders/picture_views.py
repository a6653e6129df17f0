"""The map pictures of the player pages: a seat's picture of one version, and the umpire's.

Drawn once by the worker (``maps.pictures``, docs/map-pictures.md), never here: the view streams
the file from the ``pictures`` storage (a folder or a private bucket: never a URL of its own that
another player could be given) with the version's cache headers, or, while it is not there yet,
asks for it (``maps.picture_queue``) and answers 202 with a small "being drawn" picture that no
one caches, and ``Retry-After``.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.views.decorators.http import require_GET

from campaign.models import Seat, StateVersion
from dgk import files
from maps.picture_queue import ask_for_picture
from maps.pictures import KIND, picture_key, picture_name
from orders.access import _access, _hexmap, _umpire_access, _version, version_cache_headers

RETRY_AFTER = 10  # seconds: about the time the worker takes to draw a picture of a large map
BEING_DRAWN = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="90" viewBox="0 0 640 90">'
    '<rect width="640" height="90" fill="#e4e2de" stroke="#96907a"/>'
    '<text x="320" y="40" font-family="sans-serif" font-size="20" text-anchor="middle" '
    'fill="#191919">The map is being drawn.</text>'
    '<text x="320" y="66" font-family="sans-serif" font-size="15" text-anchor="middle" '
    'fill="#191919">Reload the page in a few seconds to see it.</text></svg>'
)


@login_required
@require_GET
def map_image(request: HttpRequest, code, number: int) -> HttpResponse:
    """The seat's map of one version as a PNG, drawn only from the seat's view. Versions never
    change, so the picture is cached by (version, seat) for as long as the browser likes."""
    access = _access(request, code)
    version = _version(access.campaign, number)
    if version is None:
        return HttpResponse(status=404)
    if _hexmap(access.campaign) is None:
        return HttpResponse("The campaign map could not be loaded.", status=503)
    return _picture(request, version, access.seat)


@login_required
@require_GET
def umpire_map(request: HttpRequest, code, number: int) -> HttpResponse:
    """The whole map with every force, for the non-playing umpire."""
    access = _umpire_access(request, code)
    version = _version(access.campaign, number)
    if version is None or _hexmap(access.campaign) is None:
        return HttpResponse(status=404)
    version.campaign = access.campaign
    return _picture(request, version, None)


def _picture(request: HttpRequest, version: StateVersion, seat: Seat | None) -> HttpResponse:
    """The stored picture (or 304), else ask for it and say it is being drawn."""
    headers = version_cache_headers(request, version, picture_name(seat))
    if request.headers.get("If-None-Match") == headers["ETag"]:
        return HttpResponseNotModified(headers=headers)
    response = files.file_response(
        KIND, picture_key(version, seat), content_type="image/png", headers=headers
    )
    if response is not None:
        return response
    ask_for_picture(version, seat)
    return HttpResponse(
        BEING_DRAWN,
        status=202,
        content_type="image/svg+xml",
        headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"},
    )
