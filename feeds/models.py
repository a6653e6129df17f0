"""Private calendar feeds (RFC 5545, docs/calendar.md): one secret address per seat, and one
for the organiser's whole campaign, read by calendar apps without signing in."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_token() -> str:
    """256 bits from ``secrets``: the address is the only key, so it cannot be guessed."""
    return secrets.token_urlsafe(32)


class CalendarFeed(models.Model):
    """The secret address of a calendar: a seat's (``seat`` set) or the organiser's whole
    campaign (``seat`` null). It answers only while the person it was given to still holds the
    seat (``user``), or, given in an invitation, while that invitation is the one its holder
    accepted (``feeds.services.tokens.answers``). Renewing deletes it: the old address is 404."""

    campaign = models.ForeignKey("campaign.Campaign", models.CASCADE, related_name="+")
    seat = models.ForeignKey(
        "campaign.Seat", models.CASCADE, null=True, blank=True, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, null=True, blank=True, related_name="+"
    )
    # Given in an invitation's email, before its seat has a player; withdrawn with it.
    invitation = models.ForeignKey(
        "campaign.Invitation", models.CASCADE, null=True, blank=True, related_name="+"
    )
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # CalendarFeed.objects.filter(seat=seat, user=user): the dashboard's link.
            models.Index(fields=["seat", "user"], name="feed_seat_user_idx"),
        ]

    def __str__(self) -> str:
        return f"Calendar of {self.seat or 'the organiser'} in {self.campaign}"


class FeedEntry(models.Model):
    """What a feed last said of one event (by its UID), so that a moved deadline or battle
    night goes out with a higher SEQUENCE and a new LAST-MODIFIED, and an unchanged one with
    the same: calendar apps then update the event instead of adding another."""

    uid = models.CharField(max_length=200, unique=True)
    fingerprint = models.CharField(max_length=64)
    sequence = models.PositiveIntegerField(default=0)
    created = models.DateTimeField()
    modified = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.uid} ({self.sequence})"
