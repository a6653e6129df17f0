"""The seat's layer of the map widget as JSON (docs/map-widget.md).

One small document per (state version, seat, draft): the counters of the seat's view, its supply
sources, its orders of this phase as arrows, and, for a chosen unit, the hexes it can still reach
with their MP cost. Everything comes from the seat's ``View`` (``campaign.projection``) and its
own draft, through ``maps.overlay``; the access check is the orders pages' own.
"""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.views.decorators.http import require_GET

from campaign.models import PhaseWindow, StateVersion
from dgk import jsontext
from maps import overlay
from maps.core.tiles import grid_of
from orders.access import (
    _access,
    _hexmap,
    _umpire_access,
    _umpire_view,
    _version,
    _view,
    version_cache_headers,
)
from orders.layers import seat_layer, strength
from orders.models import OrderSheet
from orders.pages import draft_items, own_units, unit_position
from rules.state import Phase

BATTLE_AT = re.compile(r"\bat (\d{4})\b")


@login_required
@require_GET
def map_overlay(request: HttpRequest, code) -> HttpResponse:
    access = _access(request, code)
    layer = seat_layer(request, access, request.GET.get("unit", ""))
    if layer is None:
        return JsonResponse({"error": "the campaign has no map yet"}, status=404)
    etag, make = layer.etag, layer.make
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    if request.headers.get("If-None-Match") == etag:
        return HttpResponseNotModified(headers=headers)
    body = jsontext.dumps(make())
    return HttpResponse(body, content_type="application/json", headers=headers)


@login_required
@require_GET
def map_history(request: HttpRequest, code) -> HttpResponse:
    """One past phase as the seat saw it after resolution: its counters then, its own moves of
    that phase as arrows (from where its forces stood before), the other armies' moves it saw
    (``overlay.seen_moves``: a commander in its view before and after, elsewhere), the battles
    it was told of that turn and the sieges under way; and the versions before and after, for
    previous / next.
    A version never changes, so neither does this document (cached like the map picture)."""
    access = _access(request, code)
    hexmap = _hexmap(access.campaign)
    latest = _version(access.campaign)
    if hexmap is None or latest is None:
        return JsonResponse({"error": "the campaign has no map yet"}, status=404)
    try:
        number = int(request.GET.get("version", latest.number))
    except ValueError:
        number = latest.number
    version = _version(access.campaign, number)
    if version is None:
        return JsonResponse({"error": f"there is no version {number}"}, status=404)
    headers = version_cache_headers(
        request, version, f"history:{access.seat.code}:{access.seat.armies}"
    )
    if request.headers.get("If-None-Match") == headers["ETag"]:
        return HttpResponseNotModified(headers=headers)

    grid = grid_of(hexmap)
    view = _view(access, version)
    before = _version(access.campaign, version.number - 1)
    moves, seen = [], []
    then = _view(access, before) if before is not None else None
    if then is not None:
        seen = overlay.seen_moves(then, view, grid)
    if then is not None and version.resolved_phase in (Phase.MARCH.value, "forced-march"):
        window = (
            PhaseWindow.objects.filter(
                campaign=access.campaign, version=before, phase=version.resolved_phase
            )
            .order_by("-id")
            .first()
        )
        sheet = OrderSheet.objects.filter(window=window, seat=access.seat).first()
        draft = sheet.draft if sheet is not None and isinstance(sheet.draft, dict) else {}
        kind = "march" if version.resolved_phase == Phase.MARCH.value else "forced_march"
        names = own_units(then)
        orders = [{**o, "name": names.get(str(o.get("unit")), o.get("unit"))}
                  for o in draft_items(draft, kind)]  # fmt: skip
        positions = {}
        for o in orders:
            pos = unit_position(then, str(o.get("unit", "")))
            if pos is not None:
                positions[str(o["unit"])] = pos[0]
        moves = overlay.drawn_orders(orders, positions, {}, grid)
    battles = sorted(
        {
            m.group(1)
            for e in view.events
            if e.kind == "battle" and e.turn == version.turn
            for m in [BATTLE_AT.search(e.text)]
            if m
        }
    )
    numbers = list(
        StateVersion.objects.filter(campaign=access.campaign)
        .order_by("number")
        .values_list("number", flat=True)
    )
    i = numbers.index(version.number)
    label = f"Turn {version.turn}: " + (
        f"after the {version.resolved_phase} phase" if version.resolved_phase else "the start"
    )
    data = {
        "version": version.number,
        "turn": view.turn,
        "label": label,
        "prev": numbers[i - 1] if i > 0 else None,
        "next": numbers[i + 1] if i + 1 < len(numbers) else None,
        "locked": True,
        "counters": overlay.counters(view, hexmap, grid, {}),
        "colours": overlay.ARMY_COLOURS,
        "supply": [],
        "orders": moves,
        "seen": seen,
        "battles": [{"hex": h, "xy": overlay.hex_xy(grid, h)} for h in battles],
        "sieges": overlay.sieges(view, hexmap, grid),
        "focus": [m["line"][-1] for m in moves if m["line"]]
        or [overlay.hex_xy(grid, f.hex) for f in sorted(view.own_forces(), key=strength)],
    }
    data["names"] = overlay.names_near(data["counters"], hexmap, grid)
    body = jsontext.dumps(data)
    return HttpResponse(body, content_type="application/json", headers=headers)


@login_required
@require_GET
def umpire_overlay(request: HttpRequest, code) -> HttpResponse:
    """The non-playing umpire's layer: every counter of every army (read-only)."""
    access = _umpire_access(request, code)
    version = _version(access.campaign)
    hexmap = _hexmap(access.campaign)
    if version is None or hexmap is None:
        return JsonResponse({"error": "the campaign has no map yet"}, status=404)
    # Keyed by the version's id: a roll back that makes version N again is another document.
    headers = version_cache_headers(request, version, f"umpire-overlay:{access.campaign.code}")
    etag = headers["ETag"]
    if request.headers.get("If-None-Match") == etag:
        return HttpResponseNotModified(headers=headers)
    grid = grid_of(hexmap)
    view = _umpire_view(access, version)
    data = {
        "version": version.number,
        "turn": view.turn,
        "phase": "",
        "locked": True,
        "counters": overlay.counters(view, hexmap, grid, {}),
        "colours": overlay.ARMY_COLOURS,
        "supply": [],
        "orders": [],
        "focus": [overlay.hex_xy(grid, f.hex) for f in sorted(view.forces, key=strength)],
    }
    data["names"] = overlay.names_near(data["counters"], hexmap, grid)
    body = jsontext.dumps(data)
    return HttpResponse(body, content_type="application/json", headers=headers)
