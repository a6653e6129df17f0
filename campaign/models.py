"""Campaign models.

The foundation part: the worker heartbeat that /healthz reads and the organisers group. Below it,
the game (issue 6): campaigns, seats, invitations, immutable state versions with their events,
phase windows with deadlines, the organiser's action log and sent reminders. Domain operations
on them live in ``campaign.services``.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.db import models
from django.utils import timezone

from campaign.fields import TextJSONField
from rules import dice

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


class BackupRun(models.Model):
    """One run of the nightly backups (``seasons.services.backups``): what it wrote and what it
    could not. /healthz reads the last one, so a full disk shows where operators look."""

    at = models.DateTimeField()
    written = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)  # the first failure, as the system said it

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"backups at {self.at:%Y-%m-%d %H:%M}: {self.written} written, {self.failed} failed"


class SigninWarning(models.Model):
    """The last spell of wrong passwords for one account name from several addresses, and when
    its player was told (``accounts.services.signin``: once per spell)."""

    username = models.CharField(max_length=255, unique=True)
    sent_at = models.DateTimeField()
    last_seen = models.DateTimeField(help_text="The last wrong password of the spell seen.")

    def __str__(self) -> str:
        return f"{self.username}: told at {self.sent_at:%Y-%m-%d %H:%M}"


class OutboxEmail(models.Model):
    """One email of a resolution, written in the resolution's own transaction and marked sent
    by whoever sends it (``mail.services.email``): no email of a resolution is lost to a
    broker or a worker that dies, and none is sent twice (issue 27)."""

    batch = models.CharField(max_length=100, help_text="The resolution's key (its emails' task).")
    kind = models.CharField(max_length=40)
    ids = models.JSONField(default=dict)
    created = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The sweep's query: emails not sent yet (few), oldest first.
            models.Index(
                fields=["created"], name="outbox_unsent", condition=models.Q(sent_at__isnull=True)
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.ids} ({'sent' if self.sent_at else 'to send'})"


# Email kinds a player may choose (mail.services.email sends them).
EMAIL_KINDS = ("phase-opened", "reminder", "phase-resolved", "battle-pending", "campaign-over")


class EmailMode(models.TextChoices):
    EVERY = "every", "After every phase"
    DUE = "due", "Only when something is due from me (and letters)"
    DIGEST = "digest", "One digest a day (and the last call before a deadline)"


def _all_email_kinds() -> list[str]:
    return list(EMAIL_KINDS)


def _new_seed() -> str:
    """256 bits (docs/dice.md, scheme v2); campaigns made before keep their 64-bit seeds."""
    return secrets.token_hex(dice.SEED_BYTES)


def _new_token() -> str:
    return secrets.token_urlsafe(32)


# --- The game: campaigns, seats, state versions, phase windows (issue 6) ---------------------


class CampaignStatus(models.TextChoices):
    SETUP = "setup", "Being set up"
    RUNNING = "running", "Running"
    ENDED = "ended", "Ended"


class LeaderSelection(models.TextChoices):
    """How the leaders of section 14 are chosen (3.1.1: "in any manner agreeable")."""

    HISTORICAL = "historical", "Historical default (the highest-ranking leaders)"
    RANDOM = "random", "A random draw"
    PICK = "pick", "Each player picks"


class Campaign(models.Model):
    """One season of Der Grosse König: 18 turns for 2 to 5 seats (1.2, 4)."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="organised_campaigns"
    )
    umpire_plays = models.BooleanField(
        default=False,
        help_text="The organiser also plays a seat. When off, the organiser is a non-playing "
        "umpire and sees everything.",
    )
    status = models.CharField(
        max_length=10, choices=CampaignStatus.choices, default=CampaignStatus.SETUP
    )
    # The dice seed: a server secret until the campaign ends (docs/dice.md). Players see its
    # commitment (SHA-256) from the start; ``seed_epoch`` counts re-seedings, and the seeds
    # retired by them stay in ``past_seeds`` ({"epoch": n, "seed": ...}) so that every roll
    # made can be checked when all are revealed.
    seed = models.CharField(max_length=64, default=_new_seed)
    seed_epoch = models.PositiveSmallIntegerField(default=0)
    past_seeds = models.JSONField(default=list, blank=True)
    map_name = models.CharField(max_length=200, blank=True, help_text="Blank: the bundled map.")
    # Only the numbers changed from the book (rule 1.4), read by engine settings_from_dict.
    rule_settings = models.JSONField(default=dict, blank=True)
    # Optional rules (13), "allies_share": allies see what each other knows, leader choice...
    options = models.JSONField(default=dict, blank=True)
    # Agreed starting points per army value (3), from the ratios of 3.4.
    army_points = models.JSONField(default=dict, blank=True)
    leader_selection = models.CharField(
        max_length=10, choices=LeaderSelection.choices, default=LeaderSelection.HISTORICAL
    )
    # Per phase kind: {"march": {"hours": 48}} or {"march": {"at": "20:00", "min_hours": 12}}.
    deadline_policy = models.JSONField(default=dict, blank=True)
    time_zone = models.CharField(max_length=64, default="Europe/London")
    # {"hours_before": [24, 2], "flag_after_missed": 2}; see services.deadlines.
    reminders = models.JSONField(default=dict, blank=True)
    paused = models.BooleanField(default=False)
    # A finished season imported to be read (manage.py importcampaign --archive): it stays
    # ended, cannot be reopened and no next year starts from it (services.seasonimport).
    archived = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)
    # The public read-only link of *The war* (docs/season-end.md): empty while off (the default);
    # each switch on draws a new token, so switching off breaks the old link for good.
    war_token = models.CharField(max_length=64, blank=True, default="", db_index=True)
    # Linked campaigns (13): the campaign year this one carries on from (services/nextyear.py).
    previous = models.ForeignKey(
        "self", models.SET_NULL, null=True, blank=True, related_name="next_years"
    )
    # When a letter was last written or the organiser last acted (``campaign.services.news``):
    # a seat's "since you last looked" reads neither when nothing came after its last visit.
    # None: not known (an imported campaign), and both are read.
    news_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # Campaign.objects.filter(status=RUNNING, paused=False): the deadline sweep.
            models.Index(fields=["status", "paused"], name="campaign_running_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> int:
        return sum(1 for s in self.seats.all() if not s.reserve)

    @property
    def umpire_sees_all(self) -> bool:
        """A non-playing organiser sees everything. One who holds a seat plays, whatever the
        campaign was made with (he accepted an invitation, or took a seat as its reserve)."""
        if self.umpire_plays:
            return False
        return not self.seats.filter(user_id=self.organiser_id, reserve=False).exists()

    def umpire_sees_all_among(self, seats) -> bool:
        """``umpire_sees_all`` from the campaign's seats already read (every one of them)."""
        if self.umpire_plays:
            return False
        return not any(s.user_id == self.organiser_id and not s.reserve for s in seats)

    def latest_version(self) -> StateVersion | None:
        return self.versions.order_by("-number").first()

    @property
    def seed_commitment(self) -> str:
        """The SHA-256 of the current seed: public from the start (commit and reveal)."""
        return dice.commitment(self.seed)

    @property
    def seeds_revealed(self) -> bool:
        """The seeds are told to everyone once the campaign has ended, never before; a year of
        linked campaigns whose war goes on (``fog_held``) keeps them until the war ends."""
        return self.status == CampaignStatus.ENDED and not self.fog_held

    @property
    def fog_held(self) -> bool:
        """Linked campaigns (13) whose war goes on: at a year's end the fog does not lift (*The
        war*, its book, the seeds), since the next year starts from the same positions (13.1),
        until the organiser ends the war (``options["war_over"]``)."""
        options = self.options or {}
        return bool(options.get("linked")) and not options.get("war_over")

    def seed_of_epoch(self, epoch: int) -> str | None:
        if epoch == self.seed_epoch:
            return self.seed
        return next((p["seed"] for p in self.past_seeds if p["epoch"] == epoch), None)

    def derived_seed(self, label: str) -> str:
        """A seed of its own for ``label`` (a battle table, a quick resolution, a leader
        draw), from which no campaign die can be computed (docs/dice.md)."""
        return dice.derive_seed(self.seed, label)

    def open_windows(self):
        """The campaign's windows waiting for players (or paused), the newest first."""
        return self.windows.filter(status__in=OPEN_STATUSES).order_by("-id")

    def open_window(self) -> PhaseWindow | None:
        return self.open_windows().first()


class Seat(models.Model):
    """A player's place in a campaign: the armies one player commands (1.2).

    A reserve seat (``reserve=True``) commands no armies: it holds a reserve player who can take
    over a playing seat when its player drops out.
    """

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="seats")
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # The engine's Seat value ("austria", "prussia"...); blank for a reserve seat.
    power = models.CharField(max_length=20, blank=True)
    label = models.CharField(max_length=100)
    armies = models.JSONField(default=list, blank=True)  # army values, e.g. ["austria", "empire"]
    # Leader keys per army value chosen for this seat (3.1.1, 14).
    leaders = models.JSONField(default=dict, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    reserve = models.BooleanField(default=False)
    # Email kinds this player wants (services.email.EmailKind values).
    email_kinds = models.JSONField(default=_all_email_kinds, blank=True)
    # How often: every phase, only when something is due, or one digest a day
    # (services.digest). ``digest_since`` is the last state version a digest covered.
    email_mode = models.CharField(max_length=10, choices=EmailMode.choices, default=EmailMode.EVERY)
    digest_since = models.PositiveIntegerField(null=True, blank=True)
    digest_sent = models.DateTimeField(null=True, blank=True)
    absent_until = models.DateTimeField(null=True, blank=True)
    missed_in_a_row = models.PositiveIntegerField(default=0)
    joined = models.DateTimeField(null=True, blank=True)
    # The turn whose forced march phase this seat declined in advance, on the march page (6.3):
    # that phase then does not wait for it (0: none declined).
    declined_forced_march_turn = models.PositiveIntegerField(default=0)
    # The caretaker (issue 35, campaign.services.caretaker): the engine's automatic player gives
    # this seat's orders when it has none, in this style ("": not on the caretaker), until then
    # (None: until the player or the organiser takes the seat back).
    caretaker_style = models.CharField(max_length=10, blank=True, default="")
    caretaker_until = models.DateTimeField(null=True, blank=True)
    # The turn the caretaker took the seat ("on the caretaker since turn N" on the board), and
    # whether the campaign's caretaker policy put it there (a missed deadline, an absence): that
    # hold ends when its player is back (campaign.services.caretaker.player_back, issue 43).
    caretaker_since = models.PositiveSmallIntegerField(null=True, blank=True)
    caretaker_held = models.BooleanField(default=False)
    # Deadlines missed this season (never reset when orders come again): the excused misses of
    # the campaign's policy are counted against it (campaign.services.caretaker).
    missed_this_season = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["reserve", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "power"],
                condition=~models.Q(power=""),
                name="seat_power_once_per_campaign",
            )
        ]

    def __str__(self) -> str:
        return f"{self.label} in {self.campaign}"

    def is_absent(self, now) -> bool:
        return self.absent_until is not None and self.absent_until > now

    def flagged(self) -> bool:
        """Missed deadlines in a row: shown to the organiser (issue 6, drifting players)."""
        limit = int(self.campaign.reminders.get("flag_after_missed", 2))
        return not self.reserve and self.missed_in_a_row >= limit


class Invitation(models.Model):
    """An emailed link that signs the invitee into a seat (and lets them set a password)."""

    seat = models.ForeignKey(Seat, models.CASCADE, related_name="invitations")
    email = models.EmailField()
    token = models.CharField(max_length=64, unique=True, default=_new_token)
    created = models.DateTimeField(default=timezone.now)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"Invitation of {self.email} to {self.seat}"


class StateVersion(models.Model):
    """One immutable campaign state. Number 0 is the start; each resolved phase adds one.

    The unique (campaign, number) makes resolution exactly-once: a second worker resolving the
    same phase fails to insert the same number and its whole transaction rolls back.
    """

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    turn = models.PositiveSmallIntegerField()
    # The phase that made this version ("" for the start) and the phase to resolve next.
    resolved_phase = models.CharField(max_length=20, blank=True)
    phase = models.CharField(max_length=20)
    state = TextJSONField()  # (PostgreSQL's json: written once, read whole)
    rolls = models.JSONField(default=list, blank=True)  # the named dice rolls made
    seed_epoch = models.PositiveSmallIntegerField(default=0)  # which seed made the rolls
    reports = models.JSONField(default=list, blank=True)  # reconnaissance reports (8), with turn
    orders = models.JSONField(default=dict, blank=True)  # seat power -> the orders used
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_state_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.campaign} v{self.number} (turn {self.turn}, {self.phase})"


class Event(models.Model):
    """An engine (or service) event, stored for reports and history.

    ``armies`` is the audience (army values) or empty with ``public=True``. Which seats may read
    an event follows from the seats' armies (campaign.projection decides; never filter here
    by hand for output).
    """

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="events")
    version = models.ForeignKey(StateVersion, models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    rule = models.CharField(max_length=20, blank=True)
    kind = models.CharField(max_length=40)
    text = models.TextField()
    public = models.BooleanField(default=False)
    armies = models.JSONField(default=list, blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["version__number", "seq"]
        indexes = [
            # Event.objects.filter(campaign=c, version__number__gt=n): reports since a version.
            models.Index(fields=["campaign", "version"], name="event_campaign_version_idx"),
        ]

    def __str__(self) -> str:
        return self.text[:60]

    def visible_to_armies(self, armies) -> bool:
        return self.public or bool(set(self.armies) & set(armies))


class WindowStatus(models.TextChoices):
    OPEN = "open", "Open"
    RESOLVED = "resolved", "Resolved"
    PAUSED = "paused", "Paused"


# A campaign's window waiting for players (or paused): at most one, on its latest version.
OPEN_STATUSES = (WindowStatus.OPEN, WindowStatus.PAUSED)


class PhaseWindow(models.Model):
    """A phase that waits for players' input until its deadline (or until all are ready).

    Advanced only by conditional updates (``filter(id=..., status=OPEN).update(...)``): when
    0 rows change, another worker got there first.
    """

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="windows")
    version = models.ForeignKey(StateVersion, models.CASCADE, related_name="windows")
    phase = models.CharField(max_length=20)
    turn = models.PositiveSmallIntegerField()
    owing = models.JSONField(default=list, blank=True)  # seat codes (str) that owe input
    opened_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    # While paused: the time that was left to the deadline.
    remaining = models.DurationField(null=True, blank=True)
    # The grace a missed deadline gave (the campaign's "grace" policy): the deadline it moved
    # from; a window is given grace once (campaign.services.caretaker.give_grace).
    graced_from = models.DateTimeField(null=True, blank=True)
    # When the deadline sweep queued a task to resolve it (campaign.services.sweep); cleared
    # when that task ends.
    queued_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=WindowStatus.choices, default="open")
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # PhaseWindow.objects.filter(status=OPEN, deadline__lte=now): the deadline sweep.
            models.Index(fields=["status", "deadline"], name="window_due_idx"),
        ]
        constraints = [
            # One window per state version: a phase opens once.
            models.UniqueConstraint(fields=["version"], name="one_window_per_version"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign}: turn {self.turn} {self.phase} ({self.status})"

    def owes(self, seat: Seat) -> bool:
        return str(seat.code) in self.owing


class OrganiserActionKind(models.TextChoices):
    CREATED = "created", "Created the campaign"
    STARTED = "started", "Started the campaign"
    PAUSED = "paused", "Paused the campaign"
    RESUMED = "resumed", "Resumed the campaign"
    EXTENDED = "extended", "Extended a deadline"
    ENTERED_ORDERS = "entered-orders", "Entered orders for a player"
    ROLLED_BACK = "rolled-back", "Rolled back a phase"
    REPLACED = "replaced", "Replaced a player"
    ENDED = "ended", "Ended the campaign"
    RESOLVED_NOW = "resolved-now", "Resolved a phase before its deadline"
    OPTIONS = "options", "Changed what the players share"
    RESEEDED = "reseeded", "Changed the dice seed"
    UNLOCKED = "unlocked", "Unlocked a player's sign-in"
    REOPENED = "reopened", "Reopened the campaign"
    BATTLE = "battle", "Settled, dated or resolved a battle"
    NEXT_YEAR = "next-year", "Started the next campaign year"
    MAIL_ORDERS = "mail-orders", "Orders of a seat came by email"
    CARETAKER = "caretaker", "Handed a seat to the caretaker, or took it back"
    POLICY = "policy", "Changed what a missed deadline does"


class OrganiserAction(models.Model):
    """Everything the organiser does, shown to every player of the campaign."""

    campaign = models.ForeignKey(Campaign, models.CASCADE, related_name="actions")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=OrganiserActionKind.choices)
    text = models.TextField()
    data = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.text[:60]


class Reminder(models.Model):
    """A reminder sent to one seat for one window; inserting it claims the send (exactly once)."""

    window = models.ForeignKey(PhaseWindow, models.CASCADE, related_name="reminders_sent")
    seat = models.ForeignKey(Seat, models.CASCADE, related_name="+")
    hours_before = models.PositiveIntegerField()
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["window", "seat", "hours_before"], name="one_reminder_per_step"
            )
        ]
