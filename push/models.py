"""A player's devices that receive web push notifications, and what each seat wants pushed.

A device (a browser's push subscription) belongs to the user: every seat of that user in every
campaign pushes to it. Nothing secret is ever sent to it (docs/push.md).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class PushKind(models.TextChoices):
    ORDERS = "orders", "Orders are due (a new phase calls for orders)"
    REMINDER = "reminder", "The deadline is near (the campaign's reminders)"
    RESOLVED = "resolved", "The phase resolved"
    LETTER = "letter", "A letter for you"
    BATTLE = "battle", "Your battle is dated"


def _all_push_kinds() -> list[str]:
    return list(PushKind.values)


class PushDevice(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="push_devices")
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # The push service's address for this browser (unique: the sender's key of a device).
    endpoint = models.CharField(max_length=2000, unique=True)
    p256dh = models.CharField(max_length=200)  # the browser's ECDH public key (RFC 8291)
    auth = models.CharField(max_length=100)  # its authentication secret
    name = models.CharField(max_length=100, blank=True)  # "Chrome on Android", for the list
    created = models.DateTimeField(default=timezone.now)
    last_sent = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]

    def __str__(self) -> str:
        return f"{self.name or 'A device'} of {self.user_id}"


class PushSetting(models.Model):
    """What a seat wants pushed; a seat with no row wants every kind (the device's own opt-in
    is the choice to receive pushes at all)."""

    # Not in the season file (seasons.services.seasonfile.not_exported): a seat's devices are
    # of this site, and the imported seat wants every kind again until its player chooses.
    season_file_leaves_out = "what a seat wants pushed belongs to its devices on this site"

    seat = models.OneToOneField("campaign.Seat", models.CASCADE, related_name="push_setting")
    kinds = models.JSONField(default=_all_push_kinds, blank=True)

    def __str__(self) -> str:
        return f"Pushes for seat {self.seat_id}: {', '.join(self.kinds) or 'none'}"
