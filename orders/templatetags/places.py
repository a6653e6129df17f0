"""``{{ hex|hex_place:places }}``: a hex as the pages that list forces by hex name it,
"Breslau (hex 6933)" where a city stands (``places``: hex id to name,
``orders.dashboard.places``), "Hex 6933" elsewhere."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def hex_place(hex_id, places) -> str:
    name = places.get(str(hex_id), "") if isinstance(places, dict) else ""
    return f"{name} (hex {hex_id})" if name else f"Hex {hex_id}"
