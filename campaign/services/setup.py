"""Setting a campaign up: create it with its seats, invite players, start it.

A campaign is created in the "setup" status with one seat per player (rule 1.2's presets, which
the organiser may edit before the start), invitations go out by email, and ``start_campaign``
writes state version 0 (before deployment, 3) and opens the deployment window.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from campaign import signals
from campaign.models import (
    Campaign,
    CampaignStatus,
    Invitation,
    LeaderSelection,
    OrganiserAction,
    OrganiserActionKind,
    Seat,
    StateVersion,
)
from campaign.services import caretaker, deadlines, gameplay, openings, outgoing
from campaign.services.actionlog import log
from campaign.services.plaintext import control_in
from campaign.services.resolution import Notices, open_next, store_events
from rules import armysize
from rules.armies import Army
from rules.openings import load_opening
from rules.rulesettings import RuleSettings, settings_from_dict


class SetupError(ValueError):
    """A set-up step that cannot be done; the message says why."""


@transaction.atomic
def create_campaign(
    organiser,
    *,
    name: str,
    players: int,
    now: datetime,
    army_points: dict[str, int],
    leader_selection: str = LeaderSelection.HISTORICAL,
    rule_settings: dict | None = None,
    options: dict | None = None,
    deadline_policy: dict | None = None,
    time_zone: str = "Europe/London",
    reminders: dict | None = None,
    umpire_plays: bool = False,
    organiser_seat: str = "",
    emails: dict[str, str] | None = None,
    map_name: str = "",
) -> Campaign:
    """A new campaign in set-up with its seats (1.2 presets) and invitations."""
    if not 2 <= players <= 5:
        raise SetupError("Der Grosse König is for 2 to 5 players (1.2).")
    bad = control_in(name)
    if bad is not None:  # the form refuses it first; this holds for every other caller
        raise SetupError(
            f"The campaign's name cannot hold the control character U+{ord(bad):04X}: "
            "it is written on one line into calendars and email subjects."
        )
    policy = {k: deadlines.check_rule(k, v) for k, v in (deadline_policy or {}).items()}
    presets = gameplay.preset_armies(players)
    stray = [p for p, address in (emails or {}).items() if address and p not in presets]
    if stray:
        # Refused before anything is created: an address is never silently dropped.
        raise SetupError(
            f"With {players} players there is no seat for "
            + ", ".join(f"the {gameplay.seat_label(p)} ({emails[p]})" for p in stray)
            + " (1.2)."
        )
    campaign = Campaign.objects.create(
        name=name,
        organiser=organiser,
        umpire_plays=umpire_plays,
        rule_settings=rule_settings or {},
        options=options or {},
        army_points=army_points,
        leader_selection=leader_selection,
        deadline_policy=policy,
        time_zone=time_zone,
        reminders=reminders or dict(deadlines.DEFAULT_REMINDERS),
        map_name=map_name,
        created=now,
    )
    settings = gameplay.rule_settings(campaign)
    if leader_selection == LeaderSelection.RANDOM:
        chosen = gameplay.random_leaders(campaign.seed, settings)
    elif leader_selection == LeaderSelection.PICK:
        chosen = {}
    else:
        chosen = gameplay.historical_leaders(settings)
    for power, armies in presets.items():
        seat = Seat.objects.create(
            campaign=campaign,
            power=power,
            label=gameplay.seat_label(power),
            armies=armies,
            leaders={a: chosen[a] for a in armies if a in chosen},
        )
        if umpire_plays and power == organiser_seat:
            seat.user = organiser
            seat.joined = now
            seat.save(update_fields=["user", "joined"])
        elif emails and emails.get(power):
            invite(seat, emails[power], now=now)
    if umpire_plays and not campaign.seats.filter(user=organiser).exists():
        raise SetupError("Choose the seat the organiser plays.")
    log(campaign, organiser, OrganiserActionKind.CREATED, f"Created the campaign {name}.", now=now)
    return campaign


def assign_armies(campaign: Campaign, assignment: dict[str, str]) -> None:
    """Edit the 1.2 presets before the start: army value -> seat power. Every army of the
    seven must go to a seat, and every seat must keep at least one army."""
    if campaign.status != CampaignStatus.SETUP:
        raise SetupError("Armies can only be reassigned before the campaign starts.")
    seats = {s.power: s for s in campaign.seats.filter(reserve=False)}
    missing = [a.label for a in Army if assignment.get(a.value) not in seats]
    if missing:
        raise SetupError(f"Give every army to a seat: {', '.join(missing)}.")
    for power, seat in seats.items():
        seat.armies = [a.value for a in Army if assignment[a.value] == power]
        if not seat.armies:
            raise SetupError(f"The {seat.label} would command no army.")
    for seat in seats.values():
        if campaign.leader_selection != LeaderSelection.PICK:
            everyone = _all_chosen(campaign)
            seat.leaders = {a: everyone[a] for a in seat.armies if a in everyone}
        seat.save(update_fields=["armies", "leaders"])


def _all_chosen(campaign: Campaign) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for seat in campaign.seats.all():
        out.update(seat.leaders or {})
    return out


def pick_leaders(seat: Seat, army: str, keys: list[str]) -> list[str]:
    """A player's own choice of leaders (3.1.1); the problems, empty when it was saved."""
    if seat.campaign.status != CampaignStatus.SETUP:
        return ["Leaders are chosen before the campaign starts."]
    if army not in seat.armies:
        return [f"The {seat.label} does not command {army}."]
    problems = gameplay.check_leader_pick(army, keys, gameplay.rule_settings(seat.campaign))
    if not problems:
        seat.leaders = {**seat.leaders, army: list(dict.fromkeys(keys))}
        seat.save(update_fields=["leaders"])
    return problems


def add_reserve(campaign: Campaign, email: str, *, now: datetime) -> Invitation:
    """A reserve player: a seat with no armies, who can take over a seat later."""
    count = campaign.seats.filter(reserve=True).count()
    seat = Seat.objects.create(campaign=campaign, reserve=True, label=f"Reserve {count + 1}")
    return invite(seat, email, now=now)


def invite(seat: Seat, email: str, *, now: datetime) -> Invitation:
    """Invite someone to a seat; the email goes out when the transaction commits."""
    invitation = Invitation.objects.create(seat=seat, email=email.strip().lower(), created=now)
    outgoing.queue_invitation(invitation.id)
    return invitation


def resend_invitation(invitation: Invitation) -> None:
    """Send a waiting invitation's email again, with the same link."""
    if invitation.accepted_at is not None:
        raise SetupError(f"{invitation.email} has already joined.")
    outgoing.queue_invitation(invitation.id)


def withdraw_invitation(invitation: Invitation) -> None:
    """Withdraw a waiting invitation: its link stops working and the seat may be invited again
    (a reserve seat invited goes with it)."""
    if invitation.accepted_at is not None:
        raise SetupError(f"{invitation.email} has already joined: replace the player instead.")
    seat = invitation.seat
    invitation.delete()
    if seat.reserve and seat.user_id is None and not seat.invitations.exists():
        seat.delete()


class InvitationError(ValueError):
    pass


@transaction.atomic
def accept_invitation(token: str, user, *, now: datetime) -> Seat:
    """Seat ``user`` at the invitation's seat. Single use: every check is made before the
    invitation is claimed, and the claim is a conditional update, so of two people pressing
    at once one gets the seat and the other a clear refusal."""
    invitation = (
        Invitation.objects.select_related("seat__campaign", "seat__user")
        .filter(token=token)
        .first()
    )
    if invitation is None:
        raise InvitationError("This invitation link is not valid.")
    seat = invitation.seat
    if invitation.accepted_at is not None:
        if invitation.accepted_by_id == user.id:
            return seat
        raise InvitationError("This invitation has already been used.")
    if seat.campaign.status == CampaignStatus.ENDED:
        raise InvitationError("This campaign has ended.")
    if seat.user_id and seat.user_id != user.id:
        raise InvitationError("Someone else has taken this seat; ask the organiser.")
    if not seat.reserve:
        held = (
            Seat.objects.filter(campaign=seat.campaign, user=user, reserve=False)
            .exclude(id=seat.id)
            .first()
        )
        if held is not None:
            raise InvitationError(
                f"You already command the {held.label} in {seat.campaign.name}: one person "
                "plays one seat. Pass this invitation to the player it was meant for, or ask "
                "the organiser."
            )
    taken = Invitation.objects.filter(id=invitation.id, accepted_at__isnull=True).update(
        accepted_at=now, accepted_by=user
    )
    if not taken:
        raise InvitationError("This invitation has just been used by someone else.")
    seat.user = user
    seat.joined = now
    seat.save(update_fields=["user", "joined"])
    if seat.campaign.status == CampaignStatus.RUNNING and not seat.reserve:
        # A late joiner: welcomed with everything the seat knows and what is due; a seat the
        # caretaker played is his now.
        caretaker.take_back(seat, user, now=now, why=": a new player took the seat")
        outgoing.queue_handover(seat.id)
    return seat


@transaction.atomic
def join_with_new_account(token: str, account, *, now: datetime) -> Seat:
    """Create the invitee's account (an unsaved user from the sign-up form) and seat it, in one
    transaction: if the invitation cannot be taken, no account is left behind."""
    try:
        with transaction.atomic():
            account.save()
    except IntegrityError:
        raise InvitationError("That name has just been taken: choose another.") from None
    return accept_invitation(token, account, now=now)


def user_for_invitation(email: str, username: str, password: str):
    """A new account for an invitee who has none (the password is validated by the form)."""
    return get_user_model().objects.create_user(username=username, email=email, password=password)


@transaction.atomic
def start_campaign(campaign: Campaign, actor, *, now: datetime) -> StateVersion:
    """Write the state before deployment and open the deployment window (3)."""
    campaign = Campaign.objects.select_for_update().get(id=campaign.id)
    if campaign.status != CampaignStatus.SETUP:
        raise SetupError("The campaign has already started.")
    settings = gameplay.rule_settings(campaign)
    seats = list(campaign.seats.filter(reserve=False))
    placed = openings.opening_armies(campaign)
    problems = []
    for seat in seats:
        if placed & set(seat.armies):
            # A historical opening brings its own leaders (issue 18).
            seat.leaders = {**seat.leaders, **openings.seat_leaders(campaign, seat.armies)}
            seat.save(update_fields=["leaders"])
        for army in seat.armies:
            if army not in placed:
                problems += gameplay.check_leader_pick(army, seat.leaders.get(army, []), settings)
    if problems:
        raise SetupError("Leaders are not chosen yet: " + "; ".join(problems))
    if set(campaign.army_points) != {a.value for a in Army}:
        raise SetupError("Set the starting points of every army (3).")
    Campaign.objects.filter(id=campaign.id).update(status=CampaignStatus.RUNNING, started=now)
    campaign.status = CampaignStatus.RUNNING
    state, opening_events = gameplay.initial_state(len(seats), campaign.army_points), []
    if placed:
        hexmap = gameplay.load_campaign_map(campaign.map_name)
        if hexmap is None:
            raise SetupError("The campaign map could not be loaded for the opening.")
        state, opening_events = openings.start_state(campaign, len(seats), settings, hexmap)
    version = StateVersion.objects.create(
        campaign=campaign,
        number=0,
        turn=state["turn"],
        phase="deployment",
        state=state,
        created=now,
    )
    store_events(version, opening_events)

    notices = Notices(since_version=0)
    open_next(campaign, version, now=now, notices=notices)
    log(
        campaign,
        actor,
        OrganiserActionKind.STARTED,
        "Started the campaign: deployment is open.",
        now=now,
    )
    outgoing.queue_after_resolution(campaign.id, notices)
    signals.version_stored.send(Campaign, campaign=campaign, latest=None, seats=None)
    return version


__all__ = ["OrganiserAction", "create_campaign", "start_campaign", "accept_invitation"]


# --- the size of the armies (3, 3.2) ---------------------------------------------------------


@dataclass(frozen=True)
class SizeView:
    """The armies' points at a size against 3.2 (``rules.armysize``), with the least sizes, in
    the form's terms: by the chosen army's points (``base_army``) or by the total."""

    check: armysize.SizeCheck
    settings: RuleSettings
    base_army: str  # "" when the size is a total
    least_deploy: int | None  # the least size at which every army can deploy
    least_room: int | None  # the least at which every army deploys on its own

    def size_words(self, n: int | None) -> str:
        if n is None:
            return "no size"
        if self.base_army:
            return f"{Army(self.base_army).label} {n}"
        return f"a total of {n}"

    @property
    def level(self) -> str:
        """ "error" (some army cannot deploy), "warning" (some army needs help), or "ok"."""
        if not self.check.can_deploy:
            return "error"
        return "ok" if self.check.every_army_has_room else "warning"

    @property
    def advice(self) -> str:
        least, room = self.size_words(self.least_deploy), self.size_words(self.least_room)
        if not self.check.can_deploy:
            return f"Some army cannot deploy at this size: the least size is {least}."
        if self.check.every_army_has_room:
            return f"Every army has room to deploy on its own (from {room})."
        tight = []
        for a in self.check.armies:
            if a.slack >= 0:
                continue
            if a.given:
                tight.append(
                    f"{a.label} needs France to garrison {a.given} of its fortresses West "
                    "of the Rhine (3.2.4)"
                )
            else:
                tight.append(f"{a.label}'s leaders must share forces (3.2.1)")
        return (
            "Every army can deploy, but "
            + "; ".join(tight)
            + f". Every army has room of its own from {room}."
        )

    def refusal(self) -> str:
        least, room = self.size_words(self.least_deploy), self.size_words(self.least_room)
        return (
            "At this size some army cannot deploy (3.2): "
            + " ".join(self.check.problems(self.settings))
            + f" The least size at which every army can deploy is {least}; every army has "
            f"room of its own from {room}."
        )


def size_check(
    army_points: dict[str, int], rule_settings: dict, *, opening: str = "", base_army: str = ""
) -> SizeView | None:
    """Every army's points against what 3.2 asks of it on the default map, and the least sizes
    that let every army deploy and give every army room (None: the map cannot be loaded). The
    armies a historical opening places do not deploy by rule 3 and are left out."""
    hexmap = gameplay.load_campaign_map("")
    if hexmap is None:
        return None
    settings = settings_from_dict(rule_settings)
    placed = {a.value for a in load_opening(opening).armies} if opening else set()
    armies = tuple(a for a in Army if a.value not in placed)
    if base_army:

        def points_for(n: int) -> dict[str, int]:
            return gameplay.army_points_from_base(base_army, n, settings)

        high = 100_000
    else:

        def points_for(n: int) -> dict[str, int]:
            return gameplay.army_points_from_total(n, settings)

        high = 1_000_000

    def check(points: dict[str, int]) -> armysize.SizeCheck:
        return armysize.check_size(hexmap, settings, points, armies)

    return SizeView(
        check=check(army_points),
        settings=settings,
        base_army=base_army,
        least_deploy=armysize.least_size(points_for, lambda p: check(p).can_deploy, high=high),
        least_room=armysize.least_size(
            points_for, lambda p: check(p).every_army_has_room, high=high
        ),
    )
