"""The map page and the map picture (rule 2: the sketch map every player may look at).

The bare map holds no secret: it is public to everyone, signed in or not. Pictures with forces on
them come from the campaign's own views through the audience projection, not from here.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import condition, require_GET

from maps.core.loader import DEFAULT_MAP, load_map
from maps.core.render import Region, area_highlights, render_png

HEX_SIZES = {"s": 9, "m": 14, "l": 20, "xl": 28}
DEFAULT_SIZE = "m"
CACHE_SECONDS = 24 * 3600


def _map():
    # a broken bundled map is a server fault: the MapError, which names the problem, goes to the log
    return load_map(DEFAULT_MAP)


def _picture_args(request: HttpRequest) -> dict:
    """Read and check ?region=&size=&ids= ; raises ValueError with a message for people."""
    hexmap = _map()
    size = request.GET.get("size", DEFAULT_SIZE)
    if size not in HEX_SIZES:
        raise ValueError(f"size must be one of {', '.join(HEX_SIZES)}")
    region_text = request.GET.get("region", "").strip()
    region = Region.parse(region_text, hexmap) if region_text else None
    if region is not None and not region.hexes(hexmap):
        raise ValueError("the region holds no hex of the map")
    return {
        "region": region,
        "region_text": region_text,
        "size": size,
        "hex_ids": request.GET.get("ids") in ("1", "on", "true"),
        "areas": request.GET.get("areas") in ("1", "on", "true"),
    }


def _etag(request: HttpRequest, *args, **kwargs) -> str | None:
    try:
        a = _picture_args(request)
    except (ValueError, KeyError):
        return None
    hexmap = _map()
    key = "|".join(
        str(v)
        for v in (hexmap.source, _source_stamp(hexmap.source), a["region"], a["size"])
        + (a["hex_ids"], a["areas"])
    )
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def _source_stamp(path: str) -> str:
    try:
        return str(os.stat(path).st_mtime_ns)
    except OSError:
        return ""


@lru_cache(maxsize=32)
def _png(
    source: str, stamp: str, region: Region | None, size: str, hex_ids: bool, areas: bool
) -> bytes:
    hexmap = _map()
    overlays = area_highlights(hexmap) if areas else ()
    return render_png(
        hexmap, region=region, hex_size=HEX_SIZES[size], hex_ids=hex_ids, overlays=overlays
    )


@require_GET
def map_page(request: HttpRequest) -> HttpResponse:
    """The whole map (or a region) in a pannable, zoomable frame that works on a phone."""
    try:
        args = _picture_args(request)
    except (ValueError, KeyError) as exc:
        return render(
            request, "maps/map.html", {"error": str(exc), **_page_context(request)}, status=400
        )
    return render(request, "maps/map.html", {**_page_context(request), **args})


def _page_context(request: HttpRequest) -> dict:
    hexmap = _map()
    query = {k: v for k, v in request.GET.items() if k in ("region", "size", "ids", "areas") and v}
    sizes = []
    for key in HEX_SIZES:
        q = {**query, "size": key}
        sizes.append({"key": key, "url": f"{reverse('maps:page')}?{urlencode(q)}"})
    ids_query = {**query}
    if ids_query.pop("ids", None) is None:
        ids_query["ids"] = "1"
    areas_query = {**query}
    if areas_query.pop("areas", None) is None:
        areas_query["areas"] = "1"
    return {
        "areas_url": f"{reverse('maps:page')}?{urlencode(areas_query)}",
        "hexmap": hexmap,
        "png_url": f"{reverse('maps:png')}?{urlencode(query)}" if query else reverse("maps:png"),
        "sizes": sizes,
        "ids_url": f"{reverse('maps:page')}?{urlencode(ids_query)}",
        "current_size": query.get("size", DEFAULT_SIZE),
        "fortresses": sorted(hexmap.fortresses, key=lambda c: c.name),
        "cities": sorted(hexmap.cities, key=lambda c: c.name),
    }


@require_GET
@condition(etag_func=_etag)
def map_png(request: HttpRequest) -> HttpResponse:
    """The map as PNG; cached in the process and by browsers (the map file changes rarely)."""
    try:
        args = _picture_args(request)
    except (ValueError, KeyError) as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    hexmap = _map()
    data = _png(
        hexmap.source,
        _source_stamp(hexmap.source),
        args["region"],
        args["size"],
        args["hex_ids"],
        args["areas"],
    )
    response = HttpResponse(data, content_type="image/png")
    response["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    return response
