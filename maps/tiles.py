"""The tile pyramid on disk: where it lives, whether it is complete, and writing it.

The pyramid is drawn by ``manage.py rendertiles`` (``bin/run`` runs it at start) or by the worker
(``maps.tasks.render_map_tiles``), never in a web request (docs/map-widget.md). One folder per
(map file, drawing) stamp under ``settings.MAP_TILES_DIR``; a folder is complete once its
``grid.json`` exists, and is never changed afterwards, so its tiles are cached for ever.
"""

from __future__ import annotations

import logging
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse

from maps.core.model import HexMap
from maps.core.tiles import ZOOMS, grid_of, map_stamp, write_tiles

logger = logging.getLogger(__name__)


def tiles_root() -> Path:
    return Path(settings.MAP_TILES_DIR)


def tile_folder(hexmap: HexMap) -> Path:
    return tiles_root() / map_stamp(hexmap)


def tiles_ready(hexmap: HexMap) -> bool:
    return (tile_folder(hexmap) / "grid.json").is_file()


def render_tiles(hexmap: HexMap, zooms=ZOOMS, *, force: bool = False) -> int:
    """Write the pyramid of ``hexmap`` unless it is complete already; returns tiles written."""
    if tiles_ready(hexmap) and not force:
        return 0
    return write_tiles(hexmap, tile_folder(hexmap), zooms)


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
