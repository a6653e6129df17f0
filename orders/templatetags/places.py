"""``{{ hex|place_in:places }}``: the name of the city in a hex, for the pages that list forces
by hex (``places``: hex id to name, ``orders.dashboard.places``); "" where no city stands."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def place_in(hex_id, places) -> str:
    return places.get(str(hex_id), "") if isinstance(places, dict) else ""
