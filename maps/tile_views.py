"""Tiles of the map widget, read from the disk cache (never drawn here: docs/map-widget.md).

The URL holds the stamp of the map file and drawing, so a tile never changes: it is public (the
bare map holds no secret) and cached for a year.
"""

from __future__ import annotations

import re

from django.http import FileResponse, Http404, HttpRequest
from django.views.decorators.http import require_GET

from maps.tiles import tiles_root

_STAMP = re.compile(r"^[0-9a-f]{12}$")
CACHE = "public, max-age=31536000, immutable"


@require_GET
def tile(request: HttpRequest, stamp: str, z: str, x: str, y: str):
    if not _STAMP.match(stamp):
        raise Http404("no such map")
    path = tiles_root() / stamp / z / x / f"{y}.png"
    try:
        handle = path.open("rb")
    except OSError:
        raise Http404("no such tile") from None
    response = FileResponse(handle, content_type="image/png")
    response["Cache-Control"] = CACHE
    return response
