"""``{% map_widget seat campaign mode phase %}``: the one map widget of the play pages.

See docs/map-widget.md.

It needs only the campaign's map (for the tile geometry) and the seat's URLs; what is drawn on it
comes from the seat's overlay JSON (``orders.widget_views``), never from this tag.
"""

from __future__ import annotations

import functools
import json

from django import template
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils.html import format_html

from maps.core.loader import DEFAULT_MAP, MapError, load_map
from maps.tiles import ask_for_tiles, widget_grid

register = template.Library()


@register.simple_tag
def map_widget_assets() -> str:
    """For the ``<head>`` of a page with the widget: Leaflet's style sheet (render-blocking, so
    the map never shows unstyled, but fetched in the same first wave as the site's own; the
    widget's own rules are in play.css, one request less), and
    Leaflet and the widget as ``async`` scripts, so the page (the orders list, Ready) is usable
    at DOMContentLoaded without waiting for them; mapwidget.js waits for Leaflet itself."""
    return format_html(
        '<link rel="stylesheet" href="{}">'
        '<script src="{}" async id="leaflet-js"></script><script src="{}" async></script>',
        static("vendor/leaflet/leaflet.css"),
        static("vendor/leaflet/leaflet.js"),
        static("js/mapwidget.js"),
    )


@register.inclusion_tag("maps/_widget.html")
def map_widget(seat, campaign, mode: str = "view", phase: str = "") -> dict:
    return {
        **_grid(campaign),
        "overlay": reverse("orders:map_overlay", args=[seat.code]),
        "save": reverse("orders:save_march", args=[seat.code]),
        "deploy": reverse("orders:deploy", args=[seat.code]),
        "history": reverse("orders:map_history", args=[seat.code]),
        "mode": mode,
        "phase": phase,
    }


@register.inclusion_tag("maps/_widget.html")
def umpire_map_widget(campaign) -> dict:
    """The umpire's read-only map: every counter of every army."""
    return {
        **_grid(campaign),
        "overlay": reverse("orders:umpire_overlay", args=[campaign.code]),
        "mode": "view",
    }


@register.inclusion_tag("maps/_widget.html")
def war_map_widget(campaign, history: str) -> dict:
    """*The war*'s map (docs/season-end.md): every phase of the season, all-seeing, read from
    ``history`` (the war's history document), with a play control."""
    return {**_grid(campaign), "history": history, "mode": "history", "war": True}


def _grid(campaign) -> dict:
    name = campaign.map_name or DEFAULT_MAP
    try:
        hexmap = load_map(name)
    except (MapError, OSError):
        return {"grid": None}
    ask_for_tiles(hexmap, name)
    return {"grid": _grid_json(hexmap, get_script_prefix())}


@functools.lru_cache(maxsize=16)
def _grid_json(hexmap, prefix: str) -> str:
    """The widget's grid, once per map (immutable, one per file and time) and URL prefix."""
    return json.dumps(widget_grid(hexmap), separators=(",", ":"))
