"""``{% seat_map_widget seat campaign mode phase %}``: the map widget with the seat's layer
embedded in the page (docs/map-widget.md).

The same widget as ``maps``' ``{% map_widget %}``, plus the seat's overlay document (the one
``overlay.json`` answers, for the page's own ``?unit=``) in a ``<script type="application/json">``
block, which a strict Content Security Policy allows: the map draws the seat's forces as soon as
Leaflet has run, without a request of its own after the page. Later reloads (after an htmx swap)
still ask ``overlay.json``, with its ETag.
"""

from __future__ import annotations

from django import template

from maps.templatetags.mapwidget import map_widget
from orders.access import Access, _access
from orders.layers import inline_layer

register = template.Library()


@register.inclusion_tag("maps/_widget.html", takes_context=True)
def seat_map_widget(context, seat, campaign, mode: str = "view", phase: str = "") -> dict:
    ctx = map_widget(seat, campaign, mode, phase)
    request = context.get("request")
    if ctx.get("grid") and request is not None:
        access = context.get("access")  # the page's own, with the views it has made
        loaded = None
        if not isinstance(access, Access) or access.seat.pk != seat.pk:
            access = _access(request, seat.code)
        elif all(k in context for k in ("version", "window", "sheet")):
            # the rows the page read (``orders.pages.page_context``): not read twice
            loaded = (context["version"], context["window"], context["sheet"])
        script = inline_layer(request, access, loaded)
        if script is not None:
            ctx["inline"] = script
    return ctx
