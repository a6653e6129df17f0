"""``{% battle_contacts seat latest as battles %}``: the battles a call to decide (9) is about,
as the seat's own decision page lists them: where (the town of the hex, as the map names it)
and whom it faces (the enemy's leaders, public by 3.1.1, and his points only as this turn's
reconnaissance told the seat, 8). Made from the seat's own view (``viewcache.seat_view``),
never from the state: the email says no more than the page it links to."""

from __future__ import annotations

from django import template

from campaign.services import gameplay, viewcache
from orders.dashboard import places
from orders.pages import battle_hexes
from orders.templatetags.places import hex_place

register = template.Library()


@register.simple_tag
def battle_contacts(seat, latest) -> list[dict[str, str]]:
    """Each hex where the seat's forces meet the enemy's outside the walls: "where" ("Koniggratz
    (hex 6541)", "Hex 6641") and "enemies" ("Austria: Nadasy, 271 points by your
    reconnaissance this turn (8)")."""
    if seat is None or latest is None or not seat.armies:
        return []
    view = viewcache.seat_view(seat, latest)
    named = places(gameplay.load_campaign_map(seat.campaign.map_name))
    return [
        {"where": hex_place(b["hex"], named), "enemies": "; ".join(b["enemies"])}
        for b in battle_hexes(view)
    ]
