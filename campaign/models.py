"""Campaign models.

The game models (campaign, seat, state version, event...) come with later issues; the foundation
holds only the worker heartbeat that /healthz reads and the name of the organisers group.
"""

from django.contrib.auth.models import Group, Permission
from django.db import models

# Members of this group may create and run campaigns (see createorganiser).
ORGANISERS_GROUP = "organisers"
# Given to the group as soon as the models that define them exist ("app_label.codename").
ORGANISER_PERMISSIONS = (
    "campaign.add_campaign",
    "campaign.change_campaign",
    "campaign.view_campaign",
)


def organisers_group() -> Group:
    """The organisers group, created if need be, with every ORGANISER_PERMISSIONS that exists."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    for dotted in ORGANISER_PERMISSIONS:
        app_label, codename = dotted.split(".")
        permission = Permission.objects.filter(
            content_type__app_label=app_label, codename=codename
        ).first()
        if permission is not None:
            group.permissions.add(permission)
    return group


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
