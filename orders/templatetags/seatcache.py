"""``{% seatcache "name" %}...{% endseatcache %}``: a part of a seat's page drawn from its view
alone, rendered once per (version, seat) and kept beside the view (``viewcache.derived``).

The key is the seat's view key (the version, the seat, its armies, whether allies share), the
code's stamp and the name: a part is never shown to another seat or for another version. Put
inside it only what the view, the version and the seat's fixed codes decide: nothing of the
request, the session, the draft or the window (no form, no CSRF token, no "may write" test).
Outside a seat's page (no ``access`` or ``version`` in the context) it renders as usual.
"""

from __future__ import annotations

from django import template

from campaign.models import StateVersion
from campaign.services import viewcache
from orders.access import Access

register = template.Library()


class SeatCacheNode(template.Node):
    def __init__(self, nodelist, name):
        self.nodelist = nodelist
        self.name = name

    def render(self, context) -> str:
        access, version = context.get("access"), context.get("version")
        if not isinstance(access, Access) or not isinstance(version, StateVersion):
            return self.nodelist.render(context)
        name = self.name.resolve(context)
        return viewcache.derived(
            access.seat, version, f"part:{name}", lambda: self.nodelist.render(context)
        )


@register.tag
def seatcache(parser, token) -> SeatCacheNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError('Usage: {% seatcache "name" %}...{% endseatcache %}')
    nodelist = parser.parse(("endseatcache",))
    parser.delete_first_token()
    return SeatCacheNode(nodelist, parser.compile_filter(bits[1]))
