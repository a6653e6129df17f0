"""Letters between seats (press): secret to the sender and the addressees.

A letter is written while one state version is the latest (``sent_version``). It can be read
by its addressees from ``arrives_version`` on: at once on the open channel, N phases later by
courier, as the letters of the period travelled. The phase email that carries it is the one
sent for ``mailed_version`` (see ``letters.services.press``).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Channel(models.TextChoices):
    OFF = "off", "Off: no letters"
    OPEN = "open", "Open: delivered at once"
    COURIER = "courier", "By courier: delivered after some phases"


class Letter(models.Model):
    campaign = models.ForeignKey("campaign.Campaign", models.CASCADE, related_name="letters")
    sender = models.ForeignKey("campaign.Seat", models.CASCADE, related_name="letters_sent")
    recipients = models.ManyToManyField("campaign.Seat", related_name="letters_received")
    body = models.TextField(max_length=4000)
    channel = models.CharField(max_length=10, choices=Channel.choices)
    sent = models.DateTimeField(default=timezone.now)
    sent_version = models.PositiveIntegerField()
    arrives_version = models.PositiveIntegerField()
    mailed_version = models.PositiveIntegerField()

    class Meta:
        ordering = ["-sent", "-id"]
        indexes = [models.Index(fields=["campaign", "mailed_version"], name="letter_mailed_idx")]

    def __str__(self) -> str:
        return f"Letter {self.id} from {self.sender_id}"
