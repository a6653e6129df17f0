"""Tiles of the map widget, read from the ``tiles`` storage (never drawn here:
docs/map-widget.md).

The URL holds the stamp of the map file and drawing, so a tile never changes: it is public (the
bare map holds no secret) and cached for a year.
"""

from __future__ import annotations

import re

from django.http import Http404, HttpRequest
from django.views.decorators.http import require_GET

from dgk import files
from maps.tiles import KIND, tile_key

_STAMP = re.compile(r"^[0-9a-f]{12}$")
CACHE = "public, max-age=31536000, immutable"


@require_GET
def tile(request: HttpRequest, stamp: str, z: str, x: str, y: str):
    if not _STAMP.match(stamp):
        raise Http404("no such map")
    response = files.file_response(
        KIND, tile_key(stamp, z, x, y), content_type="image/png", headers={"Cache-Control": CACHE}
    )
    if response is None:
        raise Http404("no such tile")
    return response
