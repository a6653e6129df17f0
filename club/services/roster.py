"""The club's roster (docs/club.md): a player's record across this site's campaigns, read from
what the campaigns store. One ``Record`` per seat the player holds (a reserve seat, which
commands no army, is not counted), in a campaign that has started:

- ``deadlines``: the phases that waited for the seat (its code in ``PhaseWindow.owing``) and are
  resolved, counted from the player's joining (``Seat.joined``: a replacement's record starts
  when he takes the seat over);
- ``met``: those for which the seat's order sheet was ready (``OrderSheet.ready``, its Ready
  pressed, or the organiser's entry);
- ``missed``: the deadlines the campaign counted as missed (``Seat.missed_this_season``: not
  away, not resolved early, not on the caretaker), of which ``excused`` were the campaign's
  excused misses (its policy's ``excused``, campaign.services.caretaker);
- ``away``: phases resolved while the player had declared an absence (the seat's own
  "is away" event);
- ``caretaker_turns``: the turns in which the caretaker gave some of the seat's orders (its
  ``caretaker`` events);
- once the campaign is over: the seat's final victory points and its standing among the seats.

Who may read it is the views' question (``club.views``): the player, and the organiser of a
campaign the player is in or invited to; never a public page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models.functions import Lower

from campaign.models import (
    Campaign,
    CampaignStatus,
    Event,
    Invitation,
    PhaseWindow,
    Seat,
    StateVersion,
    WindowStatus,
)
from campaign.services import caretaker


@dataclass(frozen=True)
class Record:
    """One seat's part of a player's record."""

    campaign: str
    seat: str
    status: str  # the campaign's status: running, ended (paused runs too)
    deadlines: int
    met: int
    missed: int
    excused: int
    away: int
    caretaker_turns: int
    vps: int | None  # once over: the seat's victory points (12)
    standing: int | None  # once over: 1 for the most VPs (ties share a place)
    seats_in_campaign: int


@dataclass(frozen=True)
class Roster:
    """A player's whole record: the seats' records and their sums."""

    name: str
    records: tuple[Record, ...]

    @property
    def seasons(self) -> int:
        return len(self.records)

    @property
    def finished(self) -> int:
        return sum(1 for r in self.records if r.status == CampaignStatus.ENDED)

    def total(self, field: str) -> int:
        return sum(getattr(r, field) for r in self.records)

    @property
    def deadlines(self) -> int:
        return self.total("deadlines")

    @property
    def met(self) -> int:
        return self.total("met")

    @property
    def missed(self) -> int:
        return self.total("missed")

    @property
    def excused(self) -> int:
        return self.total("excused")

    @property
    def away(self) -> int:
        return self.total("away")

    @property
    def caretaker_turns(self) -> int:
        return self.total("caretaker_turns")


def _standing(points: dict[str, int], power: str) -> int | None:
    """1 + the number of seats with more VPs: ``_standing({"a": 3, "b": 5}, "a") == 2``."""
    if power not in points:
        return None
    return 1 + sum(1 for vp in points.values() if vp > points[power])


def seat_record(seat: Seat) -> Record:
    """The record of one playing seat, for its present player."""
    campaign = seat.campaign
    code = str(seat.code)
    # A window closed by the organiser's end of the campaign made no version: not a deadline.
    last = StateVersion.objects.filter(campaign=campaign).order_by("-number").first()
    windows = PhaseWindow.objects.filter(
        campaign=campaign,
        status=WindowStatus.RESOLVED,
        version__number__lt=last.number if last else 0,
    )
    if seat.joined is not None:
        windows = windows.filter(opened_at__gte=seat.joined)
    owed = [w for w in windows.only("id", "owing", "version_id") if code in (w.owing or [])]
    ready = set(
        seat.order_sheets.filter(window_id__in=[w.id for w in owed], ready=True).values_list(
            "window_id", flat=True
        )
    )
    armies = set(seat.armies)
    events = Event.objects.filter(campaign=campaign, kind__in=("caretaker", "order-rejected"))
    if seat.joined is not None:
        events = events.filter(version__created__gte=seat.joined)
    away, turns = set(), set()  # the versions (one a phase) and the turns
    for kind, data, audience, turn, version in events.values_list(
        "kind", "data", "armies", "version__turn", "version_id"
    ):
        data = data or {}
        if kind == "caretaker" and data.get("seat") == seat.power:
            turns.add(turn)
        elif kind == "order-rejected" and data.get("absent") and armies & set(audience or []):
            away.add(version)
    missed = seat.missed_this_season
    vps = standing = None
    seats = campaign.seats.filter(reserve=False).exclude(power="").count()
    if campaign.status == CampaignStatus.ENDED:
        state = (last.state if last else None) or {}
        points = {k: int(v) for k, v in (state.get("victory_points") or {}).items()}
        vps = points.get(seat.power)
        standing = _standing(points, seat.power)
    return Record(
        campaign=campaign.name,
        seat=seat.label,
        status=campaign.status,
        deadlines=len(owed),
        met=len(ready),
        missed=missed,
        excused=min(missed, caretaker.policy(campaign)["excused"]),
        away=len(away),
        caretaker_turns=len(turns),
        vps=vps,
        standing=standing,
        seats_in_campaign=seats,
    )


def roster(user) -> Roster:
    """The player's record across this site's campaigns that have started."""
    seats = (
        Seat.objects.filter(user=user, reserve=False)
        .exclude(power="")
        .exclude(campaign__status=CampaignStatus.SETUP)
        .select_related("campaign")
        .order_by("campaign__started", "id")
    )
    return Roster(name=user.get_username(), records=tuple(seat_record(s) for s in seats))


def campaign_people(campaign: Campaign) -> list:
    """The people whose record the organiser of ``campaign`` may read: its seated players
    (reserves too) and the accounts whose address a waiting invitation was sent to."""
    seated = {s.user_id for s in campaign.seats.exclude(user=None)}
    emails = {
        e.lower()
        for e in Invitation.objects.filter(seat__campaign=campaign, accepted_at=None).values_list(
            "email", flat=True
        )
    }
    users = get_user_model().objects.filter(id__in=seated)
    invited = (
        get_user_model().objects.annotate(address=Lower("email")).filter(address__in=emails)
        if emails
        else users.none()
    )
    return sorted({*users, *invited}, key=lambda u: u.get_username().lower())


def campaign_roster(campaign: Campaign) -> list[Roster]:
    """Every record the organiser of ``campaign`` may read, for its set-up page."""
    return [roster(user) for user in campaign_people(campaign)]


def may_read(viewer, user) -> bool:
    """Whether ``viewer`` may read ``user``'s record: the player himself, or the organiser of
    a campaign the player is in or is invited to."""
    if viewer.id == user.id:
        return True
    organised = Campaign.objects.filter(organiser=viewer)
    return (
        Seat.objects.filter(campaign__in=organised, user=user).exists()
        or bool(user.email)
        and Invitation.objects.filter(
            seat__campaign__in=organised, email__iexact=user.email, accepted_at=None
        ).exists()
    )
