"""Celery tasks of the maps app: thin, they call one service."""

from celery import shared_task

from maps.core.loader import load_map
from maps.pictures import draw_picture, draw_wanted
from maps.tiles import render_tiles


@shared_task(ignore_result=True)  # after the resolutions (CELERY_TASK_ROUTES)
def render_map_tiles(map_name: str) -> int:
    """Draw the tile pyramid of a map if it is not stored yet (docs/map-widget.md)."""
    return render_tiles(load_map(map_name))


@shared_task(ignore_result=True)  # after the resolutions (CELERY_TASK_ROUTES)
def draw_map_picture(version_id: int, seat_id: int | None) -> bool:
    """Draw one seat's picture of one version (``seat_id`` None: the umpire's) unless it is on
    stored already (docs/map-pictures.md); safe to run twice."""
    return draw_picture(version_id, seat_id) is not None


@shared_task(ignore_result=True)
def draw_wanted_map_pictures() -> int:
    """Periodic: draw the pictures the web asked for with no broker to send tasks to."""
    return draw_wanted()
