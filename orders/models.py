"""Orders: one sheet per seat per phase window, secret until the phase resolves.

``draft`` holds the seat's orders in the engine's order format as they are being made (saved at
every step, so they survive errors); ``ready`` is the player's "ready" (submitted). When the
window resolves, only ready sheets count as orders; a sheet that is not ready means the seat's
forces stand still (see campaign.services.resolution). Sheets lock when their window resolves.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone


class OrderSheet(models.Model):
    campaign = models.ForeignKey("campaign.Campaign", models.CASCADE, related_name="order_sheets")
    seat = models.ForeignKey("campaign.Seat", models.CASCADE, related_name="order_sheets")
    window = models.ForeignKey("campaign.PhaseWindow", models.CASCADE, related_name="order_sheets")
    draft = models.JSONField(default=dict, blank=True)
    ready = models.BooleanField(default=False)
    submitted_at = models.DateTimeField(null=True, blank=True)
    entered_by_organiser = models.BooleanField(default=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated = models.DateTimeField(default=timezone.now)
    # The last time a mail of the player's was read onto this sheet (orders.mailorders).
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # OrderSheet.objects.get(window=w, seat=s): one sheet per seat per window.
            models.UniqueConstraint(fields=["window", "seat"], name="one_sheet_per_seat_window")
        ]

    def __str__(self) -> str:
        return f"Orders of {self.seat.label}, {self.window}"

    @property
    def locked(self) -> bool:
        return self.window.status != "open"


class SeatVisit(models.Model):
    """The last time the seat's player opened its dashboard: what "since you last looked"
    (``orders.services.catchup``) counts from. Written by the dashboard after it has drawn the
    list, one statement a visit (an upsert)."""

    seat = models.OneToOneField("campaign.Seat", models.CASCADE, related_name="visit")
    # Who visited: a player who takes the seat over (a reserve, a new invitation) starts afresh.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, null=True, blank=True, related_name="+"
    )
    seen_at = models.DateTimeField()
    seen_version = models.PositiveIntegerField()  # the campaign's latest version number then
    # ... and that version's row id: the versions made after the visit have greater ids, even
    # those that a roll back made anew under numbers seen before (ids are never reused).
    seen_version_pk = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.seat_id} saw v{self.seen_version} at {self.seen_at:%Y-%m-%d %H:%M}"
