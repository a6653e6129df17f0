"""The battles of a seat, for its emails (the hand-off to the tabletop): drawn by a tag so the
email's builder (``mail.services.email``) stays as it is."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import reverse

from battles.services.records import battles_for_seat, side_of_seat

register = template.Library()


@register.simple_tag
def tabletop_battles(seat, latest=None) -> list[dict[str, str]]:
    """The battles of ``seat``'s armies the campaign waits for on the table: each one's hex,
    its page and the seat's own briefing (full addresses). ``latest``: the campaign's latest
    version, if the email has read it."""
    if seat is None:
        return []
    rows = []
    for battle in battles_for_seat(seat, latest):
        args = [battle.campaign.code, battle.code]
        rows.append(
            {
                "hex": battle.hex,
                "named": battle.named,
                "page": settings.SITE_URL + reverse("battles:battle", args=args),
                "briefing": settings.SITE_URL
                + reverse("battles:briefing", args=[*args, side_of_seat(battle, seat)])
                + "?paper=a4",
            }
        )
    return rows
