"""A battle's date and reminders (issue 7): battles have a date (the club night) and reminders,
and the battle window's deadline follows the date so a battle never freezes nor drops the season.
``sweep`` is the battles' periodic work, run by the deadline sweep.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from battles.models import Battle, BattleStatus
from battles.services.records import BattleError, log_action, may_settle, side_of_seat, sync
from battles.services.results import continue_turn, notify, notify_organiser, quick_resolve
from campaign.models import Campaign, CampaignStatus
from campaign.services import caretaker

REMIND_BEFORE = timedelta(hours=24)


def set_date(battle: Battle, user, when: datetime, *, now: datetime) -> Battle:
    """The organiser sets (or moves, to extend it) the date the battle is fought. The battle
    window has no deadline (it waits for the table); the date drives the reminders, and when it
    passes without a final result the organiser is told to extend it, settle it or resolve it
    quickly, so the season never freezes unnoticed."""
    if not may_settle(battle, user):
        raise BattleError("Only the organiser sets battle dates.")
    if battle.status == BattleStatus.APPLIED:
        raise BattleError("This battle is over.")
    if when < now:
        raise BattleError("The date must lie ahead.")
    Battle.objects.filter(id=battle.id).update(
        fight_on=when, reminded_before=None, overdue_notified=None
    )
    battle.refresh_from_db()
    tz = zoneinfo.ZoneInfo(battle.campaign.time_zone)
    log_action(
        battle,
        user,
        # Read by every player in his catch-up: a statement, not "Set the date", which a
        # newcomer took for a task of his.
        f"The organiser set the date of {battle.named}: {when.astimezone(tz):%a %d %b, %H:%M %Z}.",
        now,
    )
    notify(battle, "date-set")
    return battle


def send_reminders(*, now: datetime) -> int:
    """Reminders, each sent once: to the players the day before a battle's date, and to the
    organiser when the date has passed without a final result (extend it, settle it, or use
    the quick resolution). Returns how many went out."""
    sent = 0
    open_statuses = (BattleStatus.PENDING, BattleStatus.ENTERED, BattleStatus.DISPUTED)
    soon = Battle.objects.filter(
        status__in=open_statuses,
        fight_on__gt=now,
        fight_on__lte=now + REMIND_BEFORE,
        reminded_before=None,
        campaign__status=CampaignStatus.RUNNING,
    )
    for battle in soon:
        if Battle.objects.filter(id=battle.id, reminded_before=None).update(reminded_before=now):
            notify(battle, "reminder")
            sent += 1
    overdue = Battle.objects.filter(
        status__in=open_statuses,
        fight_on__lte=now,
        overdue_notified=None,
        campaign__status=CampaignStatus.RUNNING,
    )
    for battle in overdue:
        if Battle.objects.filter(id=battle.id, overdue_notified=None).update(overdue_notified=now):
            notify_organiser(battle, "overdue")
            sent += 1
    return sent


def _waiting(campaign_id: int | None = None):
    campaigns = Campaign.objects.filter(
        status=CampaignStatus.RUNNING,
        paused=False,
        battles__status__in=BattleStatus.final(),
    )
    return (campaigns.filter(id=campaign_id) if campaign_id else campaigns).distinct()


def _with_caretaker(campaign_id: int | None = None):
    campaigns = Campaign.objects.filter(
        status=CampaignStatus.RUNNING, paused=False, seats__caretaker_style__gt=""
    )
    return (campaigns.filter(id=campaign_id) if campaign_id else campaigns).distinct()


def apply_waiting(*, now: datetime, campaign_id: int | None = None) -> int:
    """Apply the results that are final but could not be applied when they became so (the
    campaign was paused, say): the turn goes on once the campaign runs again. Safe to run
    twice: ``continue_turn`` resolves a window once."""
    applied = 0
    for campaign in _waiting(campaign_id):
        if continue_turn(campaign, now=now):
            applied += 1
    return applied


def sweep(*, now: datetime) -> dict[str, int]:
    """The periodic work of the battles, all of it here: reminders, results waiting to be
    applied, the caretaker's battles. The beat's task sends the reminders and fans the rest
    out, one task per campaign (``campaigns_to_settle``, ``settle``)."""
    return {
        "reminders": send_reminders(now=now),
        "applied": apply_waiting(now=now),
        "caretaker": caretaker_battles(now=now),
    }


def campaigns_to_settle() -> list[int]:
    """The campaigns with a final result waiting to be applied or a battle the caretaker may
    have to settle: each is one task (a resolution, perhaps), for whichever worker is free."""
    return sorted(
        set(_waiting().values_list("id", flat=True))
        | set(_with_caretaker().values_list("id", flat=True))
    )


def settle(campaign_id: int, *, now: datetime) -> dict[str, int]:
    """One campaign's share of the sweep: its waiting results, its caretaker's battles."""
    return {
        "applied": apply_waiting(now=now, campaign_id=campaign_id),
        "caretaker": caretaker_battles(now=now, campaign_id=campaign_id),
    }


def caretaker_battles(*, now: datetime, campaign_id: int | None = None) -> int:
    """A battle waiting for the table in which a seat on the caretaker fights is settled by
    the quick resolution (issue 35; docs/quick-resolution.md), in the organiser's name and
    logged: nobody would bring that seat's miniatures to the table. How many it settled."""
    settled = 0
    for campaign in _with_caretaker(campaign_id):
        seats = [s for s in campaign.seats.filter(reserve=False) if caretaker.on_caretaker(s, now)]
        if not seats:
            continue
        sync(campaign)
        for battle in campaign.battles.filter(status=BattleStatus.PENDING):
            played = [s for s in seats if side_of_seat(battle, s) is not None]
            if not played:
                continue
            names = ", ".join(s.label for s in played)
            quick_resolve(
                battle, campaign.organiser, attacker=None, now=now,
                why=f"the caretaker plays the {names}",
            )  # fmt: skip
            settled += 1
    return settled
