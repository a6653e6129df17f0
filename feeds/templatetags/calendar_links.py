"""The calendar of the dashboard and of the organiser's board (docs/calendar.md): offered only
to the person whose calendar it is; a page shows the address they have and makes none (the
first is made by a POST, ``feeds.views``)."""

from __future__ import annotations

from django import template

from feeds.services import tokens

register = template.Library()


def _offer(feed) -> tokens.Offer:
    return tokens.Offer(links=tokens.links(feed) if feed is not None else None)


@register.simple_tag(takes_context=True)
def seat_calendar(context, seat) -> tokens.Offer | None:
    """The seat's calendar for its own player; None for the umpire reading the seat and for
    the organiser entering orders on the player's behalf."""
    request = context.get("request")
    access = context.get("access")
    if request is None or getattr(access, "behalf", False):
        return None
    if seat.user_id is None or seat.user_id != request.user.id:
        return None
    return _offer(tokens.held_feed(seat, request.user))


@register.simple_tag(takes_context=True)
def organiser_calendar(context, campaign) -> tokens.Offer | None:
    """The whole campaign's calendar, for its organiser."""
    request = context.get("request")
    if request is None or campaign.organiser_id != request.user.id:
        return None
    return _offer(tokens.organiser_feed(campaign))
