"""Noninterference between two campaign years (13, ``seasons.services.nextyear``): what the
carry-over tells (winter quarters 13.1, new siege trains 13.5) reaches each seat only as far as
the rules make it public.

The campaign: the demo (``manage.py loaddemo``: five seats, allies not sharing), its season
declared over at its latest version (turn 18's end, as ``refusal`` asks: the state ended, the
campaign ended), the next year started by the organiser's service inside each world with the
same dice seed. Observed: every channel of the NEXT year's seat (``SeatObserver`` made in the
world, on the new campaign), the start's emails and pushes among them.

The secrets, each with its control (the seat that holds it sees the difference):
- where one of B's siege trains stood at the season's end (8: siege trains are never
  reported), France's second train with D'Estrees (to Antwerp) or with Richelieu (to Brussels);
- B's points without a leader against its garrison (9.5, 3.1.2), the army's total the same:
  900 points in the field and 50 in Mainz, or 800 and 150 (150 leave the map either way, 11.2);
- whether B builds a siege train (13.5), the army's total the same: the Hanoverian player
  builds one and Britain lends him 400 points, or builds none and Britain lends 100 (the loan
  is public, its number is not, 13.6);
- how many of B's points an exchange of prisoners frees, army by army (13.2), every army's
  total the same: the Prussians hold 200 Austrian and 100 Imperial points and Austria lends the
  Empire 100, or 150 and 150 and Austria lends 50 (the exchange and the loan are public, their
  numbers are not). Observed by the French seat, B's ally who does not share, not in the
  exchange; the control is the Austrian seat.

The year before: *The war*, its book and its dice seeds show every force where it stood at the
year's end, where the next year starts (13.1). Linked campaigns (``options["linked"]``, asked at
set-up) hold that fog until the organiser ends the war (``Campaign.fog_held``): every channel of
the year before, observed as an enemy seat once the next year has started, is the same in both
worlds; the control is the same campaign not linked, whose year before shows the train.
"""

from __future__ import annotations

import copy

import pytest

from campaign.models import Campaign, CampaignStatus, Event, PhaseWindow, StateVersion
from seasons.services import nextyear
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds

pytestmark = pytest.mark.django_db

SEED = "fog-next-year-1"  # the next year's dice (its British aid roll is a 5: aid goes on)
LEADERLESS_AT = "2943"  # a hex by Mainz, a French fortress no French leader winters in
POINTS_PER_STAR_CITY = 300  # 13.4, agreed by all: the Hanoverian player can pay for a train


def season_over(campaign: Campaign, change=None) -> None:
    """The campaign's latest version made the end of its season (``change(state)`` first)."""
    version = campaign.latest_version()
    state = copy.deepcopy(version.state)
    state.update(ended=True, turn=18)
    if change:
        change(state)
    StateVersion.objects.filter(id=version.id).update(state=state)
    PhaseWindow.objects.filter(campaign=campaign, status__in=("open", "paused")).update(
        status="resolved"
    )
    Campaign.objects.filter(id=campaign.id).update(status=CampaignStatus.ENDED)
    campaign.refresh_from_db()


def next_year_worlds(campaign, capture, inputs, *, change=None, observer: str, expect: str):
    """The two worlds (``inputs(which)``, ``change(which, state)`` on the final state), observed
    as ``observer``'s seat of the next year; ``expect`` is a text of the new year's events that
    the secret makes (checked in world "one", so that the test is about something)."""
    SeatObserver(campaign, observer)  # the player's push device and the club's channel
    made: dict[str, Campaign] = {}

    def world(which):
        season_over(campaign, (lambda s: change(which, s)) if change else None)
        with capture(execute=True):
            made["new"] = nextyear.start_next_year(
                campaign,
                campaign.organiser,
                inputs(which),
                now=campaign.created,
                new_points_per_star_city=POINTS_PER_STAR_CITY,
                seed=SEED,
            )
        texts = list(Event.objects.filter(campaign=made["new"]).values_list("text", flat=True))
        if which == "one":
            assert any(expect in t for t in texts), [t for t in texts if "(13." in t]

    def observe():
        return SeatObserver(made["new"], observer)()

    return two_worlds(world, observe)


# --- 13.1: a siege train's winter quarters -----------------------------------------------------


def train_moved(which, state):
    if which == "two":  # with Richelieu, outside Brussels, instead of D'Estrees by Antwerp
        state["siege_trains"]["france-2"].update(hex=state["leaders"]["richelieu"]["hex"])


@pytest.mark.parametrize("seat,differs", [("prussia", False), ("france", True)])
def test_a_siege_trains_winter_quarters(demo, seat, differs, django_capture_on_commit_callbacks):
    one, two = next_year_worlds(
        demo,
        django_capture_on_commit_callbacks,
        lambda which: {},
        change=train_moved,
        observer=seat,
        expect="French siege train 2 goes inside Antwerp",
    )
    label = f"B's siege train at the season's end × next year (13.1) × seen by {seat}"
    (assert_differs if differs else assert_same)(one, two, label=label)


# --- 13.1: points without a leader go into winter quarters -------------------------------------


def leaderless(which, state):
    """900 French points without a leader by Mainz and its garrison of 50, or 800 and 150:
    the French total the same, 150 leave the map either way (Mainz holds 800 without a leader,
    2.3.4, 11.2)."""
    field = 900 if which == "one" else 800
    state["leaderless"] = [{"army": "france", "hex": LEADERLESS_AT, "points": field}]
    for g in state["garrisons"]:
        if g["city"] == "Mainz" and g["army"] == "france":
            g["points"] = 950 - field
    state["army_points"] = state.get("army_points") or {}


@pytest.mark.parametrize("seat,differs", [("prussia", False), ("france", True)])
def test_points_without_a_leader_in_winter_quarters(
    demo, seat, differs, django_capture_on_commit_callbacks
):
    one, two = next_year_worlds(
        demo,
        django_capture_on_commit_callbacks,
        lambda which: {},
        change=leaderless,
        observer=seat,
        expect="above its limit leave the map",
    )
    label = f"B's points without a leader × next year (13.1) × seen by {seat}"
    (assert_differs if differs else assert_same)(one, two, label=label)


# --- 13.5: a new siege train -------------------------------------------------------------------


def built(which):
    lent = 400 if which == "one" else 100
    loan = {"from": "britain", "to": "hanover", "points": lent, "to_city": "Hanover"}
    return {"siege_trains": ["hanover"] if which == "one" else [], "loans": [loan]}


@pytest.mark.parametrize("seat,differs", [("france", False), ("hanover", True)])
def test_a_new_siege_train(demo, seat, differs, django_capture_on_commit_callbacks):
    one, two = next_year_worlds(
        demo,
        django_capture_on_commit_callbacks,
        built,
        observer=seat,
        expect="The Hanoverian army builds a siege train",
    )
    label = f"B builds a siege train × next year (13.5) × seen by {seat}"
    (assert_differs if differs else assert_same)(one, two, label=label)


# --- 13.2: prisoners exchanged ----------------------------------------------------------------


def held(which, state):
    """The Austrian player's men held by the Prussians, army by army, against 300 Prussians
    held by the Austrians: all of them are exchanged, one for one."""
    austrians, imperials = (200, 100) if which == "one" else (150, 150)
    state["prisoners"] = [
        {"army": "austria", "held_by": "prussia", "points": austrians},
        {"army": "empire", "held_by": "prussia", "points": imperials},
        {"army": "prussia", "held_by": "austria", "points": 300},
    ]


def exchanged(which):
    """Austria lends the Empire what keeps both totals the same in both worlds: the points
    freed go to Brunn, the first Austrian fortress by name, and are lent from there."""
    lent = 100 if which == "one" else 50
    return {
        "loans": [
            {"from": "austria", "to": "empire", "points": lent, "from_city": "Brunn",
             "to_city": "Frankfurt"}
        ]
    }  # fmt: skip


@pytest.mark.parametrize("seat,differs", [("france", False), ("austria", True)])
def test_an_exchange_of_prisoners(demo, seat, differs, django_capture_on_commit_callbacks):
    one, two = next_year_worlds(
        demo,
        django_capture_on_commit_callbacks,
        exchanged,
        change=held,
        observer=seat,
        expect="Prisoners are exchanged one for one",
    )
    label = f"B's prisoners exchanged, army by army × next year (13.2) × seen by {seat}"
    (assert_differs if differs else assert_same)(one, two, label=label)


# --- the year before keeps its fog while the war goes on (linked campaigns) -------------------


@pytest.mark.parametrize("linked,differs", [(True, False), (False, True)])
def test_the_year_before_keeps_its_fog_while_the_war_goes_on(
    demo, linked, differs, django_capture_on_commit_callbacks
):
    Campaign.objects.filter(id=demo.id).update(options={**demo.options, "linked": linked})
    demo.refresh_from_db()
    observe = SeatObserver(demo, "prussia")  # the year before's channels, as an enemy seat

    def world(which):
        season_over(demo, lambda state: train_moved(which, state))
        with django_capture_on_commit_callbacks(execute=True):
            nextyear.start_next_year(
                demo, demo.organiser, {}, now=demo.created,
                new_points_per_star_city=POINTS_PER_STAR_CITY, seed=SEED,
            )  # fmt: skip

    one, two = two_worlds(world, observe)
    war_page = one[f"GET /campaigns/{demo.code}/war/"]
    assert war_page.startswith(b"404 " if linked else b"200 "), war_page[:200]
    label = (
        f"B's siege train at the year's end × {'linked' if linked else 'not linked'} × year before"
    )
    (assert_differs if differs else assert_same)(one, two, label=label)
