"""The club's channel's posts (docs/club.md): each public news item the site posts to a
campaign's webhook, kept as a row so a post is tried again after a failure and dropped, with a
line in the organiser's log, after ``channel.TRIES`` tries."""

import re

from django.db import models
from django.utils import timezone


class PostStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be posted"
    SENT = "sent", "Posted"
    DROPPED = "dropped", "Dropped after its tries"


class ClubPost(models.Model):
    # Not in the season file (seasons.services.seasonfile.not_exported).
    season_file_leaves_out = "the posts to the club's channel were sent by the site that made them"

    campaign = models.ForeignKey("campaign.Campaign", models.CASCADE, related_name="club_posts")
    kind = models.CharField(max_length=20)  # phase, battle-date, season-end, war-public, start
    text = models.TextField()
    created = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=PostStatus.choices, default=PostStatus.PENDING)
    tries = models.PositiveSmallIntegerField(default=0)
    next_try = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    # The last failure's outcome (dgk.outbound.outcome): "answered 500", "refused", ...
    error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            # ClubPost.objects.filter(status=PENDING, next_try__lte=now): the sweep.
            models.Index(fields=["status", "next_try"], name="clubpost_due_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.text[:60]}"

    @property
    def outcome(self) -> str:
        """The last failure as the board shows it: one of ``OUTCOMES``; "failed" for anything
        else (a row written before, with an exception's text: never shown)."""
        if not self.error or OUTCOMES.fullmatch(self.error):
            return self.error
        return "failed"


OUTCOMES = re.compile(r"answered [1-5][0-9][0-9]|refused|timed out|unreachable|switched off")
