"""Linked campaigns (13) on the site: the organiser of a finished campaign starts its next year,
with the Clock of Fate (services/nextyear.py, seasons/nextyear_views.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.services import news as battle_news
from campaign.models import Campaign, CampaignStatus, Event, OrganiserAction
from campaign.services import fairdice, knowledge
from campaign.services.organiser import OrganiserError
from rules.armies import Army
from seasons.services import nextyear
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db

FATE = {"every": "season", "from_year": 1, "from_turn": 6, "less_extreme": False}
SHORT = {"turns": 2, "winter_turns": 0, "new_points_per_star_city": 100}


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def finished(organiser, capture, *, fate=FATE, prefix="ny") -> Campaign:
    """A two-turn season on the bundled map, played to its end through the services."""
    campaign, _ = play_real_season(
        organiser,
        capture,
        turns=2,
        name="Saxony 1757",
        prefix=prefix,
        rule_settings=SHORT,
        options={"fate": fate} if fate else {},
    )
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ENDED, "the short season should have ended"
    assert campaign.latest_version().state["ended"]
    return campaign


FORM = {
    "new_points": "150",
    "peace": [],
    "change_sides": [],
    "siege_trains": ["prussia"],
    "loans": "",
}


def garrisoned(state: dict, army: str) -> str:
    """A city the army controls and garrisons (a loan's source)."""
    return next(
        g["city"]
        for g in sorted(state["garrisons"], key=lambda g: g["city"])
        if g["army"] == army and g["points"] >= 50 and state["control"].get(g["city"]) == army
    )


def test_the_organiser_starts_the_next_year_with_the_clock_of_fate(
    organiser, django_capture_on_commit_callbacks
):
    old = finished(organiser, django_capture_on_commit_callbacks)
    final = old.latest_version().state
    loan = f"france, austria, 50, {garrisoned(final, 'france')}, {garrisoned(final, 'austria')}"
    form = {**FORM, "loans": loan}
    c = client_for(organiser)
    url = reverse("next_year", args=[old.code])
    page = c.get(url)
    text = page.content.decode()
    assert page.status_code == 200
    assert "13.4" in text and "13.6" in text and "13.7" in text and "13.8" in text
    asked = c.post(url, form)
    question = asked.content.decode()
    assert asked.status_code == 200 and "Start the next year?" in question
    assert "New points per star city (13.4): 150." in question
    assert "Siege trains built (13.5): prussia." in question
    assert "Loans (13.6): france → austria 50." in question
    assert not Campaign.objects.filter(previous=old).exists()  # asked first, nothing done
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        done = c.post(url, {**form, "confirmed": "yes", "reason": "Agreed at the club"})
    new = Campaign.objects.get(previous=old)
    assert done.status_code == 302
    assert done["Location"] == reverse("organiser_board", args=[new.code])
    assert new.name == "Saxony 1757 (year 2)" and new.status == CampaignStatus.RUNNING
    assert new.options["fate"] == FATE and new.rule_settings["new_points_per_star_city"] == 150
    assert new.seed != old.seed  # the old seed was revealed when the season ended
    first = new.versions.get(number=0)
    assert first.state["campaign_year"] == 2 and first.state["turn"] == 1
    # the carried-over armies: every leader of the last turn is on the map, retired (fate) or
    # of an army a card took out of the war (13.7; the new seed is secret, so the card varies)
    out = set(first.state.get("at_peace", []))
    left = {k for k, x in final["leaders"].items() if x["army"] not in out}
    now_on = set(first.state["leaders"])
    assert left <= now_on | set(first.state.get("retired_leaders", []))
    assert not {k for k, x in first.state["leaders"].items() if x["army"] in out}
    assert sum(x["points"] for x in first.state["leaders"].values()) > 0
    # the card of fate is a public event of the new year's log, its draw a recorded roll
    cards = Event.objects.filter(campaign=new, kind="fate", version=first)
    assert cards.exists() and all(e.public for e in cards)
    assert "Clock of Fate" in cards.first().text and "clock" in cards.first().data
    assert [r["name"] for r in first.rolls if r["name"].startswith("fate:")] == ["fate:y1"]
    assert new.options["fate_clock"]["drawn"] == cards.first().data["clock"]
    # and the gazette announces it, once its delay has passed
    later = battle_news.gazette(new, now=timezone.now() + timedelta(days=3))
    assert any("Clock of Fate" in n["text"] for n in later)
    # the loan (13.6) is public: every seat reads it in the new year's log,
    lent = Event.objects.get(version=first, rule="13.6", kind="points-transferred")
    assert lent.public and "50 points are lent by france to the Austrian army" in lent.text
    # its number only to the lender and the borrower (the projection's rule for points)
    for power, told in (("prussia", False), ("france", True), ("austria", True)):
        texts = [e.text for e in knowledge.seat_view(new.seats.get(power=power), first).events]
        assert (lent.text in texts) is told, power
        assert any("points are lent by france to the Austrian army" in t for t in texts)
    # the same players in the same seats, and the first window of the year open
    seats = {s.power: s.user_id for s in old.seats.all()}
    for seat in new.seats.filter(reserve=False):
        assert seats[seat.power] == seat.user_id
        for army in seat.armies:  # its leaders (3.1.1) are those on the map now (13.3)
            on_map = {k for k, x in first.state["leaders"].items() if x["army"] == army}
            assert set(seat.leaders.get(army, [])) == on_map
    assert new.open_window() is not None
    # the players are told the next year has started, the organiser's log says why
    subjects = {m.subject for m in mail.outbox}
    assert any(s.startswith("Saxony 1757 (year 2): turn 1") for s in subjects), subjects
    told = [m for m in mail.outbox if m.subject.startswith("Saxony 1757 (year 2)")]
    assert any("Campaign year 2 begins" in m.body for m in told)
    assert OrganiserAction.objects.filter(
        campaign=old, kind="next-year", text__contains="Why: Agreed at the club"
    ).exists()
    # the dice check passes on the new year's rolls, replayed from its seed
    assert fairdice.verify(new).mismatches == []
    # the board of the old campaign links to the new year; a second start is refused
    board = c.get(reverse("organiser_board", args=[old.code])).content.decode()
    assert reverse("organiser_board", args=[new.code]) in board
    with pytest.raises(OrganiserError, match="already started"):
        nextyear.start_next_year(old, organiser, {}, now=timezone.now())


def test_the_same_inputs_from_the_same_seed_give_the_same_year(
    organiser, django_capture_on_commit_callbacks
):
    old = finished(organiser, django_capture_on_commit_callbacks, prefix="re")
    inputs = {"siege_trains": ["austria"], "no_exchange": ["france"]}
    with django_capture_on_commit_callbacks(execute=True):
        new = nextyear.start_next_year(
            old, organiser, inputs, now=timezone.now(), new_points_per_star_city=100
        )
    first = new.versions.get(number=0)
    again = nextyear.replay(new)
    assert again.state == first.state
    assert again.rolls == first.rolls and again.rolls
    stored = Event.objects.filter(version=first).order_by("seq").values_list("text", flat=True)
    assert [e["text"] for e in again.events] == list(stored)
    # another seed draws its own dice: the state is made by them
    other = nextyear.carry_over(
        old.latest_version().state,
        inputs,
        seed="another-seed",
        rules=nextyear.settings_from_dict(new.rule_settings),
        fate_settings=nextyear.fateclock.settings_of(new),
        clock=nextyear.fate.Clock(),
        hexmap=nextyear.gameplay.load_campaign_map(""),
    )
    assert other.rolls != first.rolls

    # secrets (13.4): where an army's new points were raised is told to that army only
    raised = Event.objects.filter(version=first, rule="13.4")
    assert raised.exists() and not any(e.public for e in raised)
    for seat in new.seats.filter(reserve=False):
        view = knowledge.seat_view(seat, first)
        texts = " ".join(e.text for e in view.events)
        for e in raised:
            mine = bool(set(e.armies) & set(seat.armies))
            assert (e.text in texts) == mine, (seat.power, e.text)


def test_prisoners_are_exchanged_between_the_players_as_the_seats_stand(
    organiser, django_capture_on_commit_callbacks
):
    """13.2 between players: the Austrian seat commands the Austrian and Imperial armies, so
    Prussians held by the Empire are exchanged for Austrians held by Prussia."""
    old = finished(organiser, django_capture_on_commit_callbacks, fate=None, prefix="px")
    final = old.latest_version()
    final.state["prisoners"] = [
        {"army": "austria", "held_by": "prussia", "points": 100},
        {"army": "prussia", "held_by": "empire", "points": 150},
    ]
    final.save()
    austrian = old.seats.get(power="austria")
    assert set(austrian.armies) >= {"austria", "empire"}
    with django_capture_on_commit_callbacks(execute=True):
        new = nextyear.start_next_year(
            old, organiser, {}, now=timezone.now(), new_points_per_star_city=100
        )
    first = new.versions.get(number=0)
    players = first.orders["between_campaigns"]["players"]
    assert austrian.armies in players and len(players) == old.seats.filter(reserve=False).count()
    assert first.state["prisoners"] == [{"army": "prussia", "held_by": "empire", "points": 50}]
    [exchange] = Event.objects.filter(version=first, rule="13.2")
    assert "100 Austrian for 100 Prussian" in exchange.text
    assert nextyear.replay(new).state == first.state


def test_a_player_builds_one_siege_train_a_year(organiser, django_capture_on_commit_callbacks):
    old = finished(organiser, django_capture_on_commit_callbacks, fate=None, prefix="st")
    with django_capture_on_commit_callbacks(execute=True):
        new = nextyear.start_next_year(
            old,
            organiser,
            {"siege_trains": ["prussia", "prussia"]},
            now=timezone.now(),
            new_points_per_star_city=900,
        )
    first = new.versions.get(number=0)
    before = old.latest_version().state["siege_trains"]
    built = [t for key, t in first.state["siege_trains"].items() if key not in before]
    assert [t["army"] for t in built] == ["prussia"]
    refused = Event.objects.get(version=first, rule="13.5", kind="order-rejected")
    assert "one siege train per year" in refused.text


def test_a_player_may_not_start_the_next_year(organiser, django_capture_on_commit_callbacks):
    old = finished(organiser, django_capture_on_commit_callbacks, fate=None, prefix="np")
    player = old.seats.get(power="prussia").user
    c = client_for(player)
    url = reverse("next_year", args=[old.code])
    assert c.get(url).status_code == 403
    assert c.post(url, {**FORM, "confirmed": "yes"}).status_code == 403
    assert not Campaign.objects.filter(previous=old).exists()


def test_a_campaign_not_finished_is_refused_with_a_clear_message(campaign, organiser, now):
    c = client_for(organiser)
    url = reverse("next_year", args=[campaign.code])
    page = c.get(url)
    assert page.status_code == 409
    assert "The season is not over" in page.content.decode()
    posted = c.post(url, {**FORM, "confirmed": "yes"})
    assert posted.status_code == 409
    assert not Campaign.objects.filter(previous=campaign).exists()
    with pytest.raises(OrganiserError, match="The season is not over"):
        nextyear.start_next_year(campaign, organiser, {}, now=now)


def test_a_seat_whose_armies_left_the_war_takes_over_the_empire_or_waits_in_reserve(
    campaign,
):
    seats = list(campaign.seats.all())
    plan = nextyear.seat_plan(seats, (Army.RUSSIA, Army.SWEDEN), fate_on=True)
    assert plan["russia"] == ["empire"]  # Friedrich 11: the first seat left with none
    assert "empire" not in plan["austria"] and "austria" in plan["austria"]
    plan = nextyear.seat_plan(seats, (Army.RUSSIA, Army.SWEDEN, Army.FRANCE), fate_on=True)
    assert plan["russia"] == ["empire"] and plan["france"] == []  # a reserve
    plan = nextyear.seat_plan(seats, (Army.RUSSIA, Army.SWEDEN), fate_on=False)
    assert plan["russia"] == [] and "empire" in plan["austria"]  # 13.7 alone: no takeover


def test_the_clock_strikes_at_each_turns_end_when_the_organiser_chose_so(
    organiser, django_capture_on_commit_callbacks
):
    every_turn = {**FATE, "every": "turn", "from_turn": 1}
    old = finished(organiser, django_capture_on_commit_callbacks, fate=every_turn, prefix="et")
    rolls = [
        (v.turn, r["name"])
        for v in old.versions.order_by("number")
        for r in v.rolls
        if r["name"].startswith("fate:")
    ]
    assert rolls == [(2, "fate:y1:t1"), (2, "fate:y1:t2")]  # drawn as turn 1 and turn 2 end
    cards = Event.objects.filter(campaign=old, kind="fate")
    clocks = [
        e.data["clock"] for e in cards.order_by("version__number", "seq") if "clock" in e.data
    ]
    assert len(clocks) == 2 and clocks[1][:1] == clocks[0] and len(set(clocks[1])) == 2
    assert all(e.public for e in Event.objects.filter(campaign=old, kind="fate"))
    assert fairdice.verify(old).mismatches == []
    with django_capture_on_commit_callbacks(execute=True):
        new = nextyear.start_next_year(old, organiser, {}, now=timezone.now())
    first = new.versions.get(number=0)
    # every turn, not at the season's end: no draw between the years, the clock carried over
    assert not [r for r in first.rolls if r["name"].startswith("fate:")]
    assert new.options["fate_clock"]["drawn"] == clocks[1]
    assert (
        nextyear.fateclock.clock_of(new).drawn
        == nextyear.fate.Clock.from_dict({"drawn": clocks[1]}).drawn
    )
