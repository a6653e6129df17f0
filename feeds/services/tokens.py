"""Who holds which calendar address (docs/calendar.md): issuing, renewing, reading one back.

A seat's address is given to its player (the dashboard) or to the person invited to it (the
invitation email); the organiser's to the organiser (the board). Each answers only while that
person still holds the seat or the campaign (``answers``): a replaced player's calendar goes
quiet without anyone renewing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.db import transaction
from django.urls import reverse

from campaign.models import Campaign, Invitation, Seat
from feeds.models import CalendarFeed


@dataclass(frozen=True)
class Links:
    """The two ways to the same feed: ``webcal`` opens the calendar app and subscribes;
    ``https`` is the address to copy into one that asks for it."""

    https: str
    webcal: str


@dataclass(frozen=True)
class Offer:
    """What a page offers the person whose calendar it is: the links of the feed they have, or
    (``links`` None) a button that makes their first address."""

    links: Links | None


def links(feed: CalendarFeed) -> Links:
    """The absolute addresses of a feed, on ``SITE_URL`` as every email's links are: with
    ``SITE_URL`` https://dgk.example.org and the token abc, https://dgk.example.org/calendar/abc.ics
    and webcal://dgk.example.org/calendar/abc.ics."""
    https = settings.SITE_URL + reverse("calendar_feed", args=[feed.token])
    parts = urlsplit(https)
    return Links(https=https, webcal=urlunsplit(("webcal", *parts[1:])))


def answers(feed: CalendarFeed) -> bool:
    """Whether the feed may still be read: the person it was given to holds what it shows."""
    if feed.seat_id is None:
        return feed.user_id is not None and feed.user_id == feed.campaign.organiser_id
    taker = feed.invitation.accepted_by_id if feed.invitation_id is not None else None
    return _seat_feed_answers(feed.seat, feed.user_id, feed.invitation_id, taker)


def _seat_feed_answers(seat: Seat, user_id, invitation_id, taker) -> bool:
    """``answers`` for a seat's feed, from its user, its invitation and who accepted it."""
    if invitation_id is not None:
        return seat.user_id is None if taker is None else taker == seat.user_id
    return user_id is not None and user_id == seat.user_id


def find(token: str) -> CalendarFeed | None:
    """The feed at this address, if it still answers; None for an unknown or renewed token."""
    if not token or len(token) > 64:
        return None
    feed = (
        CalendarFeed.objects.select_related("campaign", "seat", "invitation")
        .filter(token=token)
        .first()
    )
    return feed if feed is not None and answers(feed) else None


def held_feed(seat: Seat, user) -> CalendarFeed | None:
    """The seat's feed its player already has (taken on the dashboard, or given in the
    invitation they accepted), or None. Reads only: a page that shows it writes nothing. The
    dashboard asks on every load: one query of five columns, the seat as the page has it."""
    rows = CalendarFeed.objects.filter(seat=seat).values_list(
        "id", "token", "user_id", "invitation_id", "invitation__accepted_by_id"
    )
    for id_, token, user_id, invitation_id, taker in rows:
        if (user_id == user.id or invitation_id) and _seat_feed_answers(
            seat, user_id, invitation_id, taker
        ):
            return CalendarFeed(
                id=id_, token=token, campaign_id=seat.campaign_id, seat=seat, user_id=user_id,
                invitation_id=invitation_id,
            )  # fmt: skip
    return None


def invitation_feed(invitation: Invitation) -> CalendarFeed:
    """The feed given in an invitation's email (the same one each time it is sent again)."""
    seat = invitation.seat
    feed, _ = CalendarFeed.objects.get_or_create(
        invitation=invitation, defaults={"campaign": seat.campaign, "seat": seat}
    )
    return feed


def organiser_feed(campaign: Campaign) -> CalendarFeed | None:
    """The organiser's feed of the whole campaign, if taken."""
    return CalendarFeed.objects.filter(
        campaign=campaign, seat=None, user_id=campaign.organiser_id
    ).first()


@transaction.atomic
def renew_seat(seat: Seat, user) -> CalendarFeed:
    """A new address for the seat's calendar (its first, or one in place of the old); every
    earlier one (the dashboard's, the invitation's, a former player's) stops answering at once."""
    CalendarFeed.objects.filter(seat=seat).delete()
    return CalendarFeed.objects.create(campaign=seat.campaign, seat=seat, user=user)


@transaction.atomic
def renew_organiser(campaign: Campaign) -> CalendarFeed:
    """A new address for the organiser's calendar (its first, or one in place of the old,
    which stops answering at once)."""
    CalendarFeed.objects.filter(campaign=campaign, seat=None).delete()
    return CalendarFeed.objects.create(campaign=campaign, user_id=campaign.organiser_id)
