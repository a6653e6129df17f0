# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""The caretaker holds a silent seat until its player is back (issue 43): a three-player
campaign, France silent from turn 2, the caretaker policy with no excused miss. From France's
first miss on, every window resolves as soon as Austria and Prussia are Ready, France's forces
get the caretaker's orders, and the board says since when; France opens his orders page and the
next window waits for him again. A player marked away is not waited for from the start of his
absence, and held from the first phase the caretaker plays for him.
And what a silent seat costs the others, in days over 6 turns, under each policy with the
default deadlines (docs/operations.md, "What a silent player costs the others")."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from campaign.models import Event as EventRow
from campaign.models import OrganiserAction, Seat
from campaign.services import caretaker, deadlines, drifting, setup
from campaign.services.resolution import resolve_due_phase
from orders.models import OrderSheet
from rules.armies import Army
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    ARMY_POINTS,
    client_for,
    deploy_everyone,
    play_map,
    seat,
    url,
)
from tests.standing import make_user

pytestmark = pytest.mark.django_db


def three_players(organiser, player, other, play_map, capture, **missed):
    """Prussia (the player), Austria (the other), France (a third); deployed, turn 1's march
    open; the missed-deadline policy as given (the default deadlines)."""
    now = timezone.now()
    campaign = setup.create_campaign(
        organiser,
        name="Rossbach 1757",
        players=3,
        now=now,
        army_points=dict(ARMY_POINTS),
        rule_settings={
            "leaders": dict.fromkeys((a.value for a in Army), 1),
            "siege_trains": {**dict.fromkeys((a.value for a in Army), 0), "prussia": 1},
        },
        map_name=play_map,
    )
    people = {"prussia": player, "austria": other, "france": make_user("r-france")}
    for s in campaign.seats.all():
        s.user = people[s.power]
        s.save()
    setup.start_campaign(campaign, organiser, now=now)
    caretaker.set_policy(campaign, organiser, missed, now=now)
    campaign.refresh_from_db()
    deploy_everyone(campaign, capture)
    assert campaign.open_window().phase == "march"
    return campaign


@pytest.fixture
def rossbach(organiser, player, other, play_map, django_capture_on_commit_callbacks):
    return three_players(
        organiser, player, other, play_map, django_capture_on_commit_callbacks,
        policy="caretaker", excused=0, style="plays-on",
    )  # fmt: skip


def step(campaign, silent: set[str]):
    """The open window played as the present seats play it: each owing seat not ``silent``
    is Ready the moment it opens; then the clock runs (frozen, moved by hand) to the next
    moment anything can happen, until it resolves. Returns (window, hours waited, version)."""
    window = campaign.open_window()
    for s in campaign.seats.filter(reserve=False):
        if window.owes(s) and s.power not in silent:
            OrderSheet.objects.update_or_create(
                window=window, seat=s, defaults={"campaign": campaign, "draft": {}, "ready": True}
            )
    now = window.opened_at
    while True:
        with time_machine.travel(now, tick=False):
            version = resolve_due_phase(window.id, now=now)
        if version is not None:
            return window, (now - window.opened_at).total_seconds() / 3600, version
        window.refresh_from_db()
        assert window.status == "open" and window.deadline > now
        now = window.deadline


def play_until(campaign, turn: int, silent: set[str]) -> list[tuple]:
    played = []
    while campaign.open_window() is not None and campaign.open_window().turn < turn:
        played.append(step(campaign, silent))
    return played


def test_from_the_first_miss_each_window_resolves_when_the_present_seats_are_ready(rossbach):
    play_until(rossbach, 2, silent=set())
    france = seat(rossbach, "france")
    played = play_until(rossbach, 5, silent={"france"})
    owed = [(w, hours, v) for w, hours, v in played if w.owes(france)]
    assert len(owed) >= 3
    first, *later = owed
    assert first[0].turn == 2 and first[1] == deadlines.DEFAULT_POLICY[first[0].phase]["hours"]
    assert [hours for _w, hours, _v in played[played.index(first) + 1 :]] == [0] * (
        len(played) - played.index(first) - 1
    )  # no deadline waited after the first miss
    for _w, _hours, version in owed:
        assert version.orders["france"]["caretaker"] == "plays-on"
    played_events = EventRow.objects.filter(campaign=rossbach, kind="caretaker")
    assert played_events.count() == len(owed)
    assert all(e.data["seat"] == "france" for e in played_events)
    france.refresh_from_db()
    assert (france.caretaker_style, france.caretaker_since, france.caretaker_held) == (
        "plays-on",
        2,
        True,
    )
    log = OrganiserAction.objects.filter(campaign=rossbach, kind="caretaker").get()
    assert "from turn 2" in log.text and "until its player is back" in log.text
    board = client_for(rossbach.organiser).get(f"/campaigns/{rossbach.code}/organiser/")
    assert "on the caretaker since turn 2 (plays-on), until its player is back" in (
        board.content.decode()
    )


def test_the_caretaker_gives_the_march_orders_of_the_held_seat(rossbach):
    play_until(rossbach, 2, silent=set())
    played = play_until(rossbach, 5, silent={"france"})
    marches = [
        o
        for _w, _h, v in played
        if "france" in v.orders
        for o in v.orders["france"]["orders"].get("march", [])
    ]
    assert marches  # France's forces were given marches, not left standing (plays on)
    rejected = EventRow.objects.filter(campaign=rossbach, kind="order-rejected")
    refused = [
        e.text for e in rejected if "france" in (e.armies or []) and not e.data.get("missing")
    ]
    assert refused == []  # the caretaker's orders pass the page's checks


def test_the_player_opening_his_orders_page_ends_the_hold(rossbach):
    play_until(rossbach, 2, silent=set())
    step(rossbach, silent={"france"})  # the first miss: held
    france = seat(rossbach, "france")
    assert Seat.objects.get(id=france.id).caretaker_held
    client_for(france.user).get(url("orders", france))
    france.refresh_from_db()
    assert (france.caretaker_style, france.caretaker_since, france.caretaker_held) == (
        "",
        None,
        False,
    )
    assert "its player is back" in OrganiserAction.objects.filter(kind="caretaker").last().text
    while not rossbach.open_window().owes(france):
        step(rossbach, silent={"france"})
    window = rossbach.open_window()
    for s in rossbach.seats.exclude(id=france.id):
        if window.owes(s):
            OrderSheet.objects.create(campaign=rossbach, window=window, seat=s, ready=True)
    assert resolve_due_phase(window.id, now=window.opened_at + timedelta(hours=1)) is None
    window.refresh_from_db()
    assert window.status == "open"  # it waits for France again


def test_saving_anything_or_taking_the_seat_back_ends_the_hold(rossbach):
    play_until(rossbach, 2, silent=set())
    step(rossbach, silent={"france"})
    france = seat(rossbach, "france")
    c = client_for(france.user)
    c.post(url("take_seat_back", france))
    france.refresh_from_db()
    assert not france.caretaker_style
    now = timezone.now()
    caretaker.hold(france, "plays-on", turn=3, now=now, why="a test")
    drifting.declare_absence(france, None, now=now)  # his settings saved, no absence: back
    france.refresh_from_db()
    assert not france.caretaker_held


def test_a_seat_handed_over_by_the_organiser_stays_when_its_player_looks(rossbach):
    france = seat(rossbach, "france")
    caretaker.hand_over(france, rossbach.organiser, style="defensive", until=None,
                        now=timezone.now())  # fmt: skip
    client_for(france.user).get(url("orders", france))
    france.refresh_from_db()
    assert france.caretaker_style == "defensive" and france.caretaker_since == 1


def test_a_player_marked_away_is_not_waited_for_and_held_at_the_first_phase_played(rossbach):
    """From the start of his absence the windows do not wait for him, and the first phase
    resolved without him holds him; the absence itself is told to nobody before that (the
    organiser's log, which every player reads, says nothing of it)."""
    france = seat(rossbach, "france")
    now = timezone.now()
    logged = OrganiserAction.objects.filter(campaign=rossbach).count()
    drifting.declare_absence(france, now + timedelta(days=10), now=now)
    france.refresh_from_db()
    assert not france.caretaker_style
    assert OrganiserAction.objects.filter(campaign=rossbach).count() == logged
    window, hours, version = step(rossbach, silent={"france"})
    assert hours == 0 and version.orders["france"]["caretaker"] == "plays-on"
    france.refresh_from_db()
    assert france.caretaker_held and france.caretaker_since == 1
    assert france.missed_this_season == 0


def test_a_policy_other_than_the_caretaker_holds_nobody(
    organiser, player, other, play_map, django_capture_on_commit_callbacks
):
    campaign = three_players(
        organiser, player, other, play_map, django_capture_on_commit_callbacks, policy="grace",
        excused=0,
    )  # fmt: skip
    step(campaign, silent={"france"})
    assert not seat(campaign, "france").caretaker_style


# --- what a silent seat costs the others ------------------------------------------------------

# France silent for 6 turns from turn 1; Austria and Prussia Ready the moment each phase opens.
# The days the other two wait, on the test map (a march and a forced march phase owed by France
# each turn, as on the campaign map), with the default deadlines (48 h march, 24 h forced
# march, grace 12 h): docs/operations.md's table.
COSTS = [
    ({"policy": "stand-still"}, 18.0),
    ({"policy": "grace"}, 23.5),  # (the first miss excused from the grace)
    ({"policy": "grace", "excused": 0}, 24.0),
    ({"policy": "caretaker"}, 3.0),  # one excused miss standing still, then the hold
    ({"policy": "caretaker", "excused": 0}, 2.0),  # one deadline in all
]


@pytest.mark.parametrize(("missed", "days"), COSTS)
def test_what_a_silent_seat_costs_the_others_over_six_turns(
    organiser, player, other, play_map, django_capture_on_commit_callbacks, missed, days
):
    campaign = three_players(
        organiser, player, other, play_map, django_capture_on_commit_callbacks, **missed
    )
    played = play_until(campaign, 7, silent={"france"})
    waited = sum(hours for _w, hours, _v in played) / 24
    france = seat(campaign, "france")
    owed = [(w.phase, hours) for w, hours, _v in played if w.owes(france)]
    assert waited == days, owed
