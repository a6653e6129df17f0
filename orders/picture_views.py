"""The seat's map picture of one version, and the umpire's (moving to the worker: issue 12)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.views.decorators.http import require_GET

from campaign.projection import View, map_counters
from maps.core.hexgrid import HexIdError, parse_hex_id
from maps.overlay import ARMY_COLOURS
from orders.access import (
    _access,
    _hexmap,
    _umpire_access,
    _umpire_view,
    _version,
    _view,
    version_cache_headers,
)

DEFAULT = ("#888888", "#ffffff")


@login_required
@require_GET
def map_image(request: HttpRequest, code, number: int) -> HttpResponse:
    """The seat's map of one version as a PNG, drawn only from the seat's view. Versions never
    change, so the image is cached by (version, seat) for as long as the browser likes."""
    access = _access(request, code)
    version = _version(access.campaign, number)
    if version is None:
        return HttpResponse(status=404)
    headers = version_cache_headers(
        request,
        version,
        f"{access.seat.code}:{access.seat.armies}:"
        f"{(access.campaign.options or {}).get('allies_share')}",
    )
    if request.headers.get("If-None-Match") == headers["ETag"]:
        return HttpResponseNotModified(headers=headers)
    hexmap = _hexmap(access.campaign)
    if hexmap is None:
        return HttpResponse("The campaign map could not be loaded.", status=503)
    png = render_png(_view(access, version), hexmap)
    return HttpResponse(png, content_type="image/png", headers=headers)


def render_png(view: View, hexmap) -> bytes:
    """Draw the view on the map with the map core's renderer. Its overlays are made only from
    ``map_counters(view)``, so the image holds nothing the view does not."""
    from maps.core import render

    overlays = []
    stacks: dict[str, int] = {}
    hexes = []
    for c in map_counters(view, hexmap):
        try:
            h = parse_hex_id(c.hex)
        except HexIdError:
            continue
        hexes.append(h)
        if c.kind == "report":
            overlays.append(render.Note(h, c.label))
            continue
        stack = stacks.get(c.hex, 0)
        stacks[c.hex] = stack + 1
        overlays.append(
            render.Counter(
                h, c.name or c.label, *ARMY_COLOURS.get(c.army.value, DEFAULT), stack,
            )
        )  # fmt: skip
        if c.points is not None or c.flags:
            known = " ".join(x for x in (str(c.points or ""), "".join(c.flags)) if x)
            overlays.append(render.Note(h, known))
    region = None
    if hexes:
        from maps.core.hexgrid import axial_to_offset

        cols, rows = zip(*(axial_to_offset(h) for h in hexes), strict=True)
        region = render.Region(min(cols) - 3, min(rows) - 3, max(cols) + 5, max(rows) + 5)
    return render.render_png(hexmap, region=region, overlays=overlays)


@login_required
@require_GET
def umpire_map(request: HttpRequest, code, number: int) -> HttpResponse:
    access = _umpire_access(request, code)
    version = _version(access.campaign, number)
    hexmap = _hexmap(access.campaign)
    if version is None or hexmap is None:
        return HttpResponse(status=404)
    headers = version_cache_headers(request, version, "umpire")
    png = render_png(_umpire_view(access, version), hexmap)
    return HttpResponse(png, content_type="image/png", headers=headers)
