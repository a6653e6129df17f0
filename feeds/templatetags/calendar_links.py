"""The calendar links of the dashboard and of the organiser's board (docs/calendar.md): shown
only to the person whose calendar it is, so a page opened by someone else never makes one."""

from __future__ import annotations

from django import template

from feeds.services import tokens

register = template.Library()


@register.simple_tag(takes_context=True)
def seat_calendar(context, seat) -> tokens.Links | None:
    """The seat's calendar links for its own player; None for the umpire reading the seat and
    for the organiser entering orders on the player's behalf."""
    request = context.get("request")
    access = context.get("access")
    if request is None or getattr(access, "behalf", False):
        return None
    if seat.user_id is None or seat.user_id != request.user.id:
        return None
    return tokens.links(tokens.seat_feed(seat, request.user))


@register.simple_tag(takes_context=True)
def organiser_calendar(context, campaign) -> tokens.Links | None:
    """The whole campaign's calendar links, for its organiser."""
    request = context.get("request")
    if request is None or campaign.organiser_id != request.user.id:
        return None
    return tokens.links(tokens.organiser_feed(campaign))
