"""Campaign models.

The game models (campaign, seat, state version, event...) come with later issues; the foundation
holds only the worker heartbeat that /healthz reads and the name of the organisers group.
"""

from django.db import models

# Members of this group may create and run campaigns (see createorganiser).
ORGANISERS_GROUP = "organisers"


def is_organiser(user) -> bool:
    """True for an active user in the organisers group, and for superusers."""
    if not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or user.groups.filter(name=ORGANISERS_GROUP).exists()


class Heartbeat(models.Model):
    """The last time a background process proved it was alive.

    One row per source: "worker" is written by the Celery worker (through beat) or, with no
    broker, by ``manage.py runperiodic``; tests write their own sources.
    """

    source = models.CharField(max_length=100, unique=True)
    beat_at = models.DateTimeField()
    hostname = models.CharField(max_length=255, blank=True)
    eager = models.BooleanField(default=False, help_text="Written by an eager task, not a worker.")

    def __str__(self) -> str:
        return f"{self.source} at {self.beat_at:%Y-%m-%d %H:%M:%S}"
