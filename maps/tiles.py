"""The tile pyramid in the ``tiles`` storage: where it lives, whether it is complete, and
writing it.

The pyramid is drawn by ``manage.py rendertiles`` (``bin/run`` runs it at start) or by the worker
(``maps.tasks.render_map_tiles``), never in a web request (docs/map-widget.md). One folder per
(map file, drawing) stamp in the ``tiles`` storage (``dgk.files``: ``MAP_TILES_DIR``, or the
bucket's ``tiles/`` prefix), each tile ``<stamp>/<z>/<x>/<y>.png`` written whole; a folder is
complete once its ``grid.json`` exists, written last (one cheap "exists?", not a listing of
hundreds of tiles), and is never changed afterwards, so its tiles are cached for ever.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse

from dgk import files
from maps.core.model import HexMap
from maps.core.tiles import ZOOMS, grid_of, map_stamp, tiles_of_zoom

logger = logging.getLogger(__name__)

KIND = "tiles"  # the storage (settings.FILE_KINDS)
MARKER = "grid.json"


def tile_key(stamp: str, z: int | str, x: int | str, y: int | str) -> str:
    """A tile's name in the ``tiles`` storage."""
    return f"{stamp}/{z}/{x}/{y}.png"


def tile_folder(hexmap: HexMap) -> str:
    """Where the pyramid of ``hexmap`` is, for an operator: ``<folder or bucket>/<stamp>``."""
    return f"{files.where(files.storage(KIND))}/{map_stamp(hexmap)}"


def tiles_ready(hexmap: HexMap) -> bool:
    return files.storage(KIND).exists(f"{map_stamp(hexmap)}/{MARKER}")


def write_tiles(hexmap: HexMap, zooms: Iterable[int] = ZOOMS) -> int:
    """Store every tile of each zoom level, each written whole; ``grid.json`` (the geometry)
    last: its presence says the pyramid is complete. The number of tiles."""
    stamp, count = map_stamp(hexmap), 0
    zooms = tuple(zooms)
    for z in zooms:
        if z not in ZOOMS:
            raise ValueError(f"zoom {z} is not one of {ZOOMS}")
        for tx, ty, data in tiles_of_zoom(hexmap, z):
            files.save_whole(KIND, tile_key(stamp, z, tx, ty), data)
            count += 1
    grid = {**grid_of(hexmap).as_dict(), "zooms": sorted(zooms)}
    files.save_whole(KIND, f"{stamp}/{MARKER}", json.dumps(grid).encode())
    return count


def render_tiles(hexmap: HexMap, zooms=ZOOMS, *, force: bool = False) -> int:
    """Write the pyramid of ``hexmap`` unless it is complete already; returns tiles written."""
    if tiles_ready(hexmap) and not force:
        return 0
    return write_tiles(hexmap, zooms)


def ask_for_tiles(hexmap: HexMap, map_name: str) -> None:
    """Missing tiles: queue their drawing on the worker once (a broker is needed: with tasks run
    eagerly it would draw inside this web request, so then the log says to run the command)."""
    if tiles_ready(hexmap):
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        logger.warning("map tiles missing: run `manage.py rendertiles --map %s`", map_name)
        return
    if cache.add(f"maps:tiles-queued:{map_stamp(hexmap)}", 1, timeout=600):
        # Robust: with the broker down, a page that only wished for tiles still shows (the
        # failure is logged); the next page view asks again once the cache key expires.
        transaction.on_commit(
            lambda: current_app.send_task("maps.tasks.render_map_tiles", args=[map_name]),
            robust=True,
        )


def widget_grid(hexmap: HexMap) -> dict:
    """What the widget needs to place the tiles: the zoom-0 geometry and the tile URL pattern."""
    stamp = map_stamp(hexmap)
    base = reverse("maps:tile", args=[stamp, 0, 0, 0]).rsplit("/0/0/0.png", 1)[0]
    return {
        **grid_of(hexmap).as_dict(),
        "columns": hexmap.columns,
        "rows": hexmap.rows,
        "tiles": base + "/{z}/{x}/{y}.png",
    }
