"""A campaign started from the SPI opening of 1757 (issue 18), played through the services."""

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Event, StateVersion
from campaign.services import gameplay, setup
from campaign.services.resolution import resolve_due_phase
from orders.models import OrderSheet
from rules.armies import Army
from tests.organiser.test_campaign_setup import FORM

pytestmark = pytest.mark.django_db


def opening_campaign(organiser, key="spi-1757"):
    rules = gameplay.rule_settings(Campaign(rule_settings={}))
    points = gameplay.army_points_from_base("sweden", 200, rules)
    return setup.create_campaign(
        organiser,
        name="1757",
        players=5,
        now=timezone.now(),
        army_points=points,
        options={"opening": key},
    )


def test_it_starts_with_the_armies_where_spi_puts_them(
    organiser, django_capture_on_commit_callbacks
):
    campaign = opening_campaign(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        setup.start_campaign(campaign, organiser, now=timezone.now())
    window = campaign.open_window()
    assert (window.phase, window.turn) == ("march", 1)  # no deployment to wait for
    state = gameplay.read_state(campaign.latest_version().state)
    at = {x.key: x.hex for x in state.leaders}
    assert at["frederick"] == "5434" and at["charles"] == "5742"  # Dresden, Prague
    assert state.control["Koenigsberg"] == "prussia"  # a Prussian garrison in 1757
    told = Event.objects.filter(campaign=campaign, version__number=0, public=True)
    assert told.count() == 7
    leaders = {a: ks for s in campaign.seats.all() for a, ks in s.leaders.items()}
    assert leaders["austria"][0] == "charles" and "daun" in leaders["austria"]


def test_a_campaign_from_the_1757_opening_plays_a_turn(
    organiser, django_capture_on_commit_callbacks
):
    campaign = opening_campaign(organiser)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        setup.start_campaign(campaign, organiser, now=now)
    seen = []
    for _ in range(20):
        window = campaign.open_window()
        if window is None or window.turn > 1:
            break
        seen.append(window.phase)
        for s in campaign.seats.filter(reserve=False):
            if window.owes(s):
                OrderSheet.objects.create(
                    campaign=campaign, window=window, seat=s, draft={}, ready=True,
                    submitted_at=now,
                )  # fmt: skip
        with django_capture_on_commit_callbacks(execute=True):
            assert resolve_due_phase(window.id, now=now) is not None
    assert campaign.open_window().turn == 2, seen
    assert "march" in seen
    last = StateVersion.objects.filter(campaign=campaign).order_by("-number").first()
    state = gameplay.read_state(last.state)
    assert {x.army for x in state.leaders} == set(Army)


def test_an_order_against_the_openings_rules_is_refused(
    organiser, django_capture_on_commit_callbacks
):
    campaign = opening_campaign(organiser)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        setup.start_campaign(campaign, organiser, now=now)
    window = campaign.open_window()
    hanover = next(s for s in campaign.seats.filter(reserve=False) if "hanover" in s.armies)
    # Nine hexes East of Celle (3822) is column 47, East of Magdeburg (4526).
    east = "4-4-4-4-4-4-4-4-4"
    for s in campaign.seats.filter(reserve=False):
        draft = {"march": [{"unit": "cumberland", "path": east}]} if s == hanover else {}
        OrderSheet.objects.create(
            campaign=campaign, window=window, seat=s, draft=draft, ready=True, submitted_at=now
        )
    with django_capture_on_commit_callbacks(execute=True):
        version = resolve_due_phase(window.id, now=now)
    state = gameplay.read_state(version.state)
    assert next(x for x in state.leaders if x.key == "cumberland").hex == "3822"
    refused = Event.objects.filter(campaign=campaign, version=version, kind="order-rejected")
    assert any("East of Magdeburg" in e.text for e in refused), [e.text for e in refused]


def test_both_modules_are_off_by_default_and_chosen_on_the_form(client, organiser):
    client.force_login(organiser)
    body = client.get(reverse("new_campaign")).content.decode()
    assert "Historical opening" in body and "The Campaign of 1757 (SPI)" in body
    assert "Clock of Fate (linked campaigns)" in body
    client.post(reverse("new_campaign"), FORM)
    plain = Campaign.objects.get(name="Saxony 1757")
    assert plain.options["opening"] == "" and plain.options["fate"] == {}
    chosen = {
        **FORM,
        "name": "The real war",
        "opening": "spi-1757",
        "fate": "season",
        "fate_from_year": "2",
        "fate_less_extreme": "on",
    }
    client.post(reverse("new_campaign"), chosen)
    real = Campaign.objects.get(name="The real war")
    assert real.options["opening"] == "spi-1757"
    assert real.options["fate"] == {
        "from_year": 2,
        "every": "season",
        "from_turn": 6,
        "less_extreme": True,
    }
