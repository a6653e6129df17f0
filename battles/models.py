"""The record of one battle handed to the tabletop (9), from set-up to the result applied."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from rules import battlenames


class BattleStatus(models.TextChoices):
    PENDING = "pending", "Waiting for the result"
    ENTERED = "entered", "Result entered, waiting for the other side"
    DISPUTED = "disputed", "Result disputed, waiting for the organiser"
    CONFIRMED = "confirmed", "Result confirmed by both sides"
    SETTLED = "settled", "Result settled by the organiser"
    APPLIED = "applied", "Result applied to the campaign"

    @classmethod
    def final(cls) -> tuple[str, ...]:
        """Statuses whose result the campaign may apply."""
        return (cls.CONFIRMED, cls.SETTLED)


class Battle(models.Model):
    """One battle: its set-up as the engine made it, the table, the date it is to be fought,
    and the result through entry, confirmation or dispute, and the organiser's settlement."""

    campaign = models.ForeignKey("campaign.Campaign", models.CASCADE, related_name="battles")
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    battle_id = models.CharField(max_length=40)  # the engine's id, "t<turn>-<hex>"
    hex = models.CharField(max_length=8)
    turn = models.PositiveSmallIntegerField()
    setup = models.JSONField()  # the engine's battle set-up (9, 9.2-9.4, 12)
    # The generated table's own seed, derived from the campaign seed when the battle is made
    # (docs/dice.md): it stays the same if the campaign is re-seeded later.
    table_seed = models.CharField(max_length=64, blank=True)
    # Where each side's forces stood at the start of the turn: {"prussian": [2, 3], ...}.
    came_from = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=10, choices=BattleStatus.choices, default=BattleStatus.PENDING
    )
    fight_on = models.DateTimeField(null=True, blank=True)  # the club night, set by the organiser
    reminded_before = models.DateTimeField(null=True, blank=True)
    overdue_notified = models.DateTimeField(null=True, blank=True)
    # The result in the engine's format (orders.battle_results), while entered and once final.
    result = models.JSONField(default=dict, blank=True)
    entered_by = models.ForeignKey(
        "campaign.Seat", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        "campaign.Seat", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    dispute = models.TextField(blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The quick resolution (docs/quick-resolution.md): not fought on the table.
    quick = models.BooleanField(default=False)
    quick_record = models.JSONField(default=dict, blank=True)
    # The briefings as printed, kept for history once the result is applied.
    archive = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(default=timezone.now)
    applied_at = models.DateTimeField(null=True, blank=True)
    # {side: true} for each side that agreed its battle's photos may appear in the public
    # gazette (docs/tabletop.md, "Photos and accounts of the battle").
    gazette_consent = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["turn", "hex"]
        constraints = [
            # Battle.objects.get_or_create(campaign=c, battle_id=...): one record per battle.
            models.UniqueConstraint(fields=["campaign", "battle_id"], name="one_record_per_battle")
        ]
        indexes = [
            # Battle.objects.filter(status__in=[...], fight_on__lte=now): the reminder sweep.
            models.Index(fields=["status", "fight_on"], name="battle_due_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.title}, turn {self.turn} ({self.campaign})"

    @property
    def _named_setup(self) -> dict:
        """The set-up with the record's hex, as ``rules.battlenames`` reads it."""
        return {**self.setup, "hex": self.hex}

    @property
    def title(self) -> str:
        """ "The battle of Breslau", "Battle near Lobositz", "Battle in hex 4127"
        (``rules.battlenames``)."""
        return battlenames.title(self._named_setup)

    @property
    def named(self) -> str:
        """The battle in a sentence: "the battle near Lobositz (hex 5639)"."""
        return battlenames.named(self._named_setup)

    @property
    def short(self) -> str:
        """The battle in a sentence, without its hex: "the battle near Lobositz"."""
        return battlenames.short(self._named_setup)

    @property
    def where(self) -> str:
        """Where it was fought: "Breslau (hex 6933)", "near Lobositz (hex 5639)", "hex 4127"."""
        return battlenames.where(self._named_setup)

    @property
    def is_final(self) -> bool:
        return self.status in BattleStatus.final()


class EntryKind(models.TextChoices):
    ENTERED = "entered", "entered by a side"
    SETTLED = "settled", "settled by the organiser"
    QUICK = "quick", "quick resolution"


class ResultEntry(models.Model):
    """Every result entered for a battle, kept: who, when, what (issue 11). A side confirms or
    disputes one entry by its number; a newer entry voids the earlier ones, so a result cannot
    be swapped under the side that answers."""

    battle = models.ForeignKey(Battle, models.CASCADE, related_name="entries")
    number = models.PositiveIntegerField()  # 1, 2, ... per battle
    kind = models.CharField(max_length=10, choices=EntryKind.choices, default=EntryKind.ENTERED)
    seat = models.ForeignKey(
        "campaign.Seat", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    result = models.JSONField()
    created = models.DateTimeField(default=timezone.now)
    voided = models.DateTimeField(null=True, blank=True)  # a newer entry replaced it
    answer = models.CharField(max_length=10, blank=True)  # "confirmed" or "disputed"
    answered_by = models.ForeignKey(
        "campaign.Seat", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["battle", "number"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "number"], name="one_entry_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.battle}: entry {self.number}"


class BattlePhoto(models.Model):
    """A photo of the table, as the site stored it: re-encoded from pixels only (no metadata),
    a display size and a thumbnail in storages["photos"]; the original upload is not kept
    (issue 45, docs/tabletop.md)."""

    battle = models.ForeignKey(Battle, models.CASCADE, related_name="photos")
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The key in battle.setup["sides"] the adder fought on, or "" for the organiser's.
    side = models.CharField(max_length=20, blank=True)
    # The order the sides chose; the lowest is the battle's best photo (the book prints it).
    position = models.PositiveSmallIntegerField(default=0)
    caption = models.CharField(max_length=200, blank=True)
    display = models.CharField(max_length=200)  # a name in storages["photos"]
    thumbnail = models.CharField(max_length=200)  # a name in storages["photos"]
    width = models.PositiveIntegerField(default=0)
    height = models.PositiveIntegerField(default=0)
    thumb_width = models.PositiveIntegerField(default=0)
    thumb_height = models.PositiveIntegerField(default=0)
    display_bytes = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["position", "created"]

    def __str__(self) -> str:
        return f"{self.battle}: photo {self.position}"


class BattleAccount(models.Model):
    """One side's written account of the battle: plain text with paragraphs, shown escaped."""

    battle = models.ForeignKey(Battle, models.CASCADE, related_name="accounts")
    side = models.CharField(max_length=20)
    text = models.TextField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["battle", "side"]
        constraints = [
            # BattleAccount.objects.update_or_create(battle=b, side=s): one account a side.
            models.UniqueConstraint(fields=["battle", "side"], name="one_account_per_side")
        ]

    def __str__(self) -> str:
        return f"{self.battle}: {self.side}'s account"
