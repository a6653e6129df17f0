"""Linked campaigns (13) on the site: the organiser starts the next campaign year.

``start_next_year(campaign, actor, inputs, ...)`` takes a campaign whose season is over (turn 18
played, victory points known) and the between-campaign choices the rules leave to the players
(13.1-13.8, as ``between_campaigns_from_dict`` reads them), and creates the next year:

- a new ``Campaign`` linked to this one (``previous``), with the same rules, options, map,
  deadlines and players, and its own new dice seed (the old one was revealed when the season
  ended, docs/dice.md);
- its first state version (number 0): the final state carried over by ``linked.next_campaign``
  (or ``fate.season_end`` when the Clock of Fate is on, which draws a card first), with the named
  rolls it made and its events, so ``carry_over`` replays it exactly from the new seed and the
  inputs kept in the version's ``orders``;
- its seats: the same players; a seat whose armies have all left the war (13.7, or a card of
  fate) takes over the Empire or becomes a reserve, as ``fate.seat_changes`` says;
- then the automatic phases of turn 1 run and the first window opens: the players get the
  phase-opened email (``outgoing.queue_after_resolution``), whose report begins with the new year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from campaign.models import (
    Campaign,
    CampaignStatus,
    OrganiserActionKind,
    Seat,
    StateVersion,
)
from campaign.services import fateclock, gameplay, outgoing
from campaign.services.actionlog import OrganiserError, log
from campaign.services.resolution import Notices, open_next, store_events
from maps.picture_queue import queue_pictures
from rules import betweencampaigns, fate, linked
from rules.armies import Army
from rules.armies import Seat as Power
from rules.dice import Dice
from rules.events import event_to_dict
from rules.rulesettings import RuleSettings, settings_from_dict
from rules.state import state_to_dict

NOT_OVER = (
    "The season is not over: the next year starts from the positions at the end of its last "
    "turn, once the victory points are known (13). This campaign {why}."
)
YEAR_SUFFIX = re.compile(r"\s*\(year \d+\)$")


def final_version(campaign: Campaign) -> StateVersion | None:
    return campaign.latest_version()


def refusal(campaign: Campaign) -> str:
    """Why the next year cannot start now ("" when it can)."""
    if campaign.archived:
        return "This season is an archive, kept to be read: no next year starts from it."
    if (campaign.options or {}).get("war_over"):
        return "The organiser ended the war with this year: no next year starts from it."
    following = campaign.next_years.order_by("id").first()
    if following is not None:
        return f"The next year has already started: {following.name}."
    latest = final_version(campaign)
    if latest is None or campaign.status == CampaignStatus.SETUP:
        return NOT_OVER.format(why="has not started")
    if not latest.state.get("ended"):
        if campaign.status == CampaignStatus.ENDED:
            return NOT_OVER.format(why="was ended by its organiser before its last turn")
        return NOT_OVER.format(why=f"is at turn {latest.turn}, {latest.phase}")
    if campaign.status != CampaignStatus.ENDED:
        return NOT_OVER.format(why="is still being wound up")
    return ""


@dataclass(frozen=True)
class Carried:
    """The first state of the next year, with what made it (as stored)."""

    state: dict
    events: list[dict]
    rolls: list[dict]
    clock: fate.Clock


def carry_over(
    final_state: dict,
    inputs: dict,
    *,
    seed: str,
    rules: RuleSettings,
    fate_settings: fate.FateSettings | None,
    clock: fate.Clock,
    hexmap,
    choices: dict | None = None,
) -> Carried:
    """The next year from the final state (13), with the named dice of ``seed``: the same
    arguments give the same result (the replay of a version 0 from its ``orders``)."""
    state = gameplay.read_state(final_state)
    between = betweencampaigns.between_campaigns_from_dict(inputs)
    dice = Dice(seed=seed, sides=rules.die_sides)
    if fate_settings is None:
        state, events = linked.next_campaign(state, between, dice, hexmap, rules)
        stored = [event_to_dict(e) for e in events]
    else:
        state, clock, events = fate.season_end(
            state, clock, between, dice, hexmap, rules, fate_settings, choices
        )
        stored = fateclock.with_clock(events, clock)
    return Carried(state_to_dict(state), stored, dice.rolls_as_dicts(), clock)


def players_of_seats(seats) -> list[list[str]]:
    """The armies each playing seat commands, as the seats stand (1.2 and the set-up page's
    changes): the players of 13.2 and 13.5, kept in the inputs so a replay sees the same."""
    return [
        list(s.armies)
        for s in sorted(seats, key=lambda s: s.id)
        if s.power and not s.reserve and s.armies
    ]


def next_name(campaign: Campaign, year: int) -> str:
    base = YEAR_SUFFIX.sub("", campaign.name)
    suffix = f" (year {year})"
    return base[: 100 - len(suffix)] + suffix


def seat_plan(seats: list[Seat], out: tuple[Army, ...], *, fate_on: bool) -> dict[str, list[str]]:
    """Each playing seat's armies next year (seat power -> army values; [] for a reserve).
    Armies out of the war leave their seat; with the Clock of Fate, the first seat left with
    none takes over the Empire (``fate.seat_changes``)."""
    powers = {Army(a): Power(s.power) for s in seats if s.power and not s.reserve for a in s.armies}
    if fate_on and Army.EMPIRE in powers:
        powers, _ = fate.seat_changes(powers, out)
    plan: dict[str, list[str]] = {s.power: [] for s in seats if s.power and not s.reserve}
    for army in Army:
        if army in powers and army not in out:
            plan[powers[army].value].append(army.value)
    return plan


def _copy_seats(old: Campaign, new: Campaign, plan: dict[str, list[str]], state, now) -> list[Seat]:
    """The same players in the seats of ``plan``; each seat's leaders (3.1.1) are its armies'
    leaders on the map now (13.3 brings new ones)."""
    leaders: dict[str, list[str]] = {}
    for x in state.leaders:
        leaders.setdefault(x.army.value, []).append(x.key)
    made = []
    for seat in old.seats.all().order_by("id"):
        armies = plan.get(seat.power, []) if seat.power and not seat.reserve else []
        playing = bool(armies)
        made.append(
            Seat.objects.create(
                campaign=new,
                power=seat.power if playing else "",
                label=seat.label if playing or seat.reserve else f"Reserve ({seat.label})",
                armies=armies,
                leaders={a: leaders[a] for a in armies if a in leaders},
                user=seat.user,
                reserve=not playing,
                email_kinds=seat.email_kinds,
                email_mode=seat.email_mode,
                joined=seat.joined or now,
            )
        )
    return made


@transaction.atomic
def start_next_year(
    campaign: Campaign,
    actor,
    inputs: dict,
    *,
    now: datetime,
    new_points_per_star_city: int | None = None,
    choices: dict | None = None,
    reason: str = "",
    seed: str | None = None,
) -> Campaign:
    """Create and start the next campaign year (see the module docstring). ``inputs``: the
    between-campaign choices (``between_campaigns_from_dict``); ``new_points_per_star_city``
    the figure the players agreed (13.4); ``choices`` the players' answers to a card of fate
    (``{"retire": leader}``); ``seed`` the new year's dice seed (default: a new secret)."""
    campaign = Campaign.objects.select_for_update().get(id=campaign.id)
    why_not = refusal(campaign)
    if why_not:
        raise OrganiserError(why_not)
    try:
        betweencampaigns.between_campaigns_from_dict(inputs)
    except (ValueError, KeyError, TypeError) as exc:
        raise OrganiserError(f"The between-campaign choices cannot be read: {exc}") from None
    hexmap = gameplay.load_campaign_map(campaign.map_name)
    if hexmap is None:
        raise OrganiserError("The campaign map could not be loaded: the next year needs it (13.1).")
    rule_data = dict(campaign.rule_settings or {})
    if new_points_per_star_city is not None:
        rule_data["new_points_per_star_city"] = int(new_points_per_star_city)
    rules = settings_from_dict(rule_data, stored=True)
    fate_settings = fateclock.settings_of(campaign)
    clock = fateclock.clock_of(campaign)
    final = final_version(campaign)
    year = int(final.state.get("campaign_year", 1)) + 1
    options = dict(campaign.options or {})
    new = Campaign(
        name=next_name(campaign, year),
        organiser=campaign.organiser,
        umpire_plays=campaign.umpire_plays,
        status=CampaignStatus.RUNNING,
        map_name=campaign.map_name,
        rule_settings=rule_data,
        army_points=campaign.army_points,
        leader_selection=campaign.leader_selection,
        deadline_policy=campaign.deadline_policy,
        time_zone=campaign.time_zone,
        reminders=campaign.reminders,
        created=now,
        started=now,
        previous=campaign,
    )
    if seed:
        new.seed = seed
    inputs = {**inputs, "players": players_of_seats(campaign.seats.all())}
    carried = carry_over(
        final.state,
        inputs,
        seed=new.seed,
        rules=rules,
        fate_settings=fate_settings,
        clock=clock,
        hexmap=hexmap,
        choices=choices,
    )
    if fate_settings is not None:
        options["fate_clock"] = carried.clock.to_dict()
    new.options = options
    new.save()
    state = gameplay.read_state(carried.state)
    out = tuple(dict.fromkeys((*state.at_peace, *carried.clock.out_of_the_war)))
    seats = list(campaign.seats.all())
    plan = seat_plan(seats, out, fate_on=fate_settings is not None)
    _copy_seats(campaign, new, plan, state, now)
    version = StateVersion.objects.create(
        campaign=new,
        number=0,
        turn=carried.state["turn"],
        resolved_phase="",
        phase=carried.state["phase"],
        state=carried.state,
        rolls=carried.rolls,
        seed_epoch=new.seed_epoch,
        orders={
            "between_campaigns": inputs,
            "new_points_per_star_city": rules.new_points_per_star_city,
            "fate_choices": choices or {},
            "fate_clock_before": clock.to_dict(),
        },
        created=now,
    )
    store_events(version, carried.events)
    notices = Notices(since_version=-1)
    open_next(new, version, now=now, notices=notices)
    why = f" Why: {reason.strip()}" if reason.strip() else ""
    log(
        campaign,
        actor,
        OrganiserActionKind.NEXT_YEAR,
        f"Started the next year: {new.name}.{why}",
        now=now,
        next=str(new.code),
    )
    log(
        new,
        actor,
        OrganiserActionKind.NEXT_YEAR,
        f"Started campaign year {year} from the end of {campaign.name} (13); the dice roll with "
        f"a new seed, commitment {new.seed_commitment}.{why}",
        now=now,
        previous=str(campaign.code),
        commitment=new.seed_commitment,
    )
    outgoing.queue_after_resolution(new.id, notices)
    queue_pictures(new)
    return new


def replay(new: Campaign) -> Carried:
    """The first version of a next year made again from what it stored: its previous year's
    final state, its inputs and its seed of epoch 0 (a check, and what the tests compare)."""
    first = new.versions.get(number=0)
    previous = new.previous
    orders = first.orders
    rule_data = dict(new.rule_settings or {})
    return carry_over(
        final_version(previous).state,
        orders.get("between_campaigns") or {},
        seed=new.seed_of_epoch(first.seed_epoch) or "",
        rules=settings_from_dict(rule_data, stored=True),
        fate_settings=fateclock.settings_of(new),
        clock=fate.Clock.from_dict(orders.get("fate_clock_before")),
        hexmap=gameplay.load_campaign_map(new.map_name),
        choices=orders.get("fate_choices") or None,
    )


__all__ = ["carry_over", "refusal", "replay", "start_next_year"]
