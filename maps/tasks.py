"""Celery tasks of the maps app: thin, they call one service."""

from celery import shared_task

from maps.core.loader import load_map
from maps.tiles import render_tiles


@shared_task(ignore_result=True)
def render_map_tiles(map_name: str) -> int:
    """Draw the tile pyramid of a map if it is not on disk yet (docs/map-widget.md)."""
    return render_tiles(load_map(map_name))
