# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Battle decisions (9, 10.1) from the orders page: fight, do not fight, retire."""

import copy
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import PhaseWindow, StateVersion
from maps.core.loader import load_map
from maps.core.tiles import grid_of
from maps.overlay import hex_xy
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (
    client_for,
    deploy_everyone,
    in_phase,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(rules_campaign, django_capture_on_commit_callbacks):
    """The Austrian leader has marched into Frederick's hex: the battle phase waits for both."""
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    latest = rules_campaign.latest_version()
    state = copy.deepcopy(latest.state)
    austria, prussia = seat(rules_campaign, "austria"), seat(rules_campaign, "prussia")
    daun = austria.leaders["austria"][0]
    state["leaders"][daun]["hex"] = state["leaders"]["frederick"]["hex"]
    state["phase"] = "battle"
    PhaseWindow.objects.filter(campaign=rules_campaign).update(status="resolved")
    now = timezone.now()
    version = StateVersion.objects.create(
        campaign=rules_campaign, number=latest.number + 1, turn=latest.turn,
        resolved_phase="reconnaissance", phase="battle", state=state, created=now,
    )  # fmt: skip
    window = PhaseWindow.objects.create(
        campaign=rules_campaign, version=version, phase="battle", turn=latest.turn,
        owing=[str(austria.code), str(prussia.code)], opened_at=now,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    return window, prussia, austria, daun


def test_the_battle_hex_asks_for_a_decision(battle, player):
    window, prussia, _austria, daun = battle
    page = client_for(player).get(url("orders", prussia)).content.decode()
    assert "Battle decisions (9)" in page
    assert f"Hex {window.version.state['leaders']['frederick']['hex']}" in page
    assert 'value="retire"' in page


def test_the_battle_page_says_nothing_of_marches_and_its_map_opens_on_the_battle(battle, player):
    window, prussia, _austria, _daun = battle
    c = client_for(player)
    page = c.get(url("orders", prussia)).content.decode()
    assert "Marches this turn" not in page
    assert "a lit hex to march there" not in page
    assert "The map opens on your battle" in page
    where = window.version.state["leaders"]["frederick"]["hex"]
    layer = json.loads(c.get(url("map_overlay", prussia)).content)
    grid = grid_of(load_map(rules_campaign_map(window)))
    assert layer["focus"] == [hex_xy(grid, where)] and layer["frame"]
    assert layer["battles"] == [{"xy": hex_xy(grid, where)}]


def rules_campaign_map(window) -> str:
    return window.campaign.map_name


def test_a_decision_is_saved_and_can_be_changed(battle, player):
    window, prussia, _austria, _daun = battle
    c = client_for(player)
    where = window.version.state["leaders"]["frederick"]["hex"]
    # (Retire is not offered: Frederick had no march order this turn, 10.1.)
    for choice in ("decline", "fight"):
        r = c.post(
            url("decide", prussia),
            in_phase(prussia, {"kind": "battle", "phase": "battle", "hex": where, "army": "prussia",
             "choice": choice}),
        )  # fmt: skip
        assert r.status_code == 302
    sheet = OrderSheet.objects.get(window=window, seat=prussia)
    assert sheet.draft["battle"] == [{"hex": where, "army": "prussia", "choice": "fight"}]


@pytest.mark.parametrize(
    "change",
    [{"army": "austria"}, {"hex": "0101"}, {"choice": "surrender"}, {"kind": "honors"}],
)
def test_a_decision_for_someone_else_or_nowhere_is_refused(battle, player, change):
    window, prussia, _austria, _daun = battle
    where = window.version.state["leaders"]["frederick"]["hex"]
    data = {"kind": "battle", "phase": "battle", "hex": where, "army": "prussia", "choice": "fight"}
    r = client_for(player).post(url("decide", prussia), in_phase(prussia, {**data, **change}))
    assert r.status_code in (302, 400)
    assert (
        OrderSheet.objects.filter(window=window, seat=prussia, draft__has_key="battle").count() == 0
    )


def test_the_battle_phase_resolves_when_both_are_ready(
    battle, player, other, django_capture_on_commit_callbacks
):
    window, prussia, austria, _daun = battle
    where = window.version.state["leaders"]["frederick"]["hex"]
    client_for(player).post(
        url("decide", prussia),
        in_phase(
            prussia,
            {
                "kind": "battle",
                "phase": "battle",
                "hex": where,
                "army": "prussia",
                "choice": "fight",
            },
        ),
    )
    for s, user in ((prussia, player), (austria, other)):
        with django_capture_on_commit_callbacks(execute=True):
            assert client_for(user).post(url("ready", s), in_phase(s)).status_code == 302
    window.refresh_from_db()
    assert window.status == "resolved"
    report = client_for(player).get(url("report", prussia))
    assert report.status_code == 200


@pytest.fixture
def honors(rules_campaign, django_capture_on_commit_callbacks):
    """Berlin is breached (11.6): the Austrian besieger and the Prussian garrison must answer."""
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    latest = rules_campaign.latest_version()
    state = copy.deepcopy(latest.state)
    austria, prussia = seat(rules_campaign, "austria"), seat(rules_campaign, "prussia")
    daun = austria.leaders["austria"][0]
    state["leaders"][daun]["hex"] = "0202"  # Berlin
    state["honors_pending"] = ["Berlin"]
    state["phase"] = "siege"
    PhaseWindow.objects.filter(campaign=rules_campaign).update(status="resolved")
    now = timezone.now()
    version = StateVersion.objects.create(
        campaign=rules_campaign, number=latest.number + 1, turn=latest.turn,
        resolved_phase="battle", phase="siege", state=state, created=now,
    )  # fmt: skip
    window = PhaseWindow.objects.create(
        campaign=rules_campaign, version=version, phase="siege", turn=latest.turn,
        owing=[str(austria.code), str(prussia.code)], opened_at=now,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    return window, prussia, austria


def test_honors_of_war_are_answered_by_both_sides(honors, player, other):
    window, prussia, austria = honors
    page = client_for(player).get(url("orders", prussia)).content.decode()
    assert "Berlin: you are the garrison" in page
    page = client_for(other).get(url("orders", austria)).content.decode()
    assert "Berlin: you are the besieger" in page
    data = {"kind": "honors", "phase": "siege", "city": "Berlin"}
    assert (
        client_for(player)
        .post(url("decide", prussia), in_phase(prussia, {**data, "answer": "fight"}))
        .status_code
        == 302
    )
    assert (
        client_for(other)
        .post(url("decide", austria), in_phase(austria, {**data, "answer": "deny"}))
        .status_code
        == 302
    )
    assert OrderSheet.objects.get(window=window, seat=prussia).draft == {
        "honors": [{"city": "Berlin", "garrison": "fight"}]
    }
    assert OrderSheet.objects.get(window=window, seat=austria).draft == {
        "honors": [{"city": "Berlin", "besieger": "deny"}]
    }


@pytest.mark.parametrize(
    "change", [{"answer": "grant"}, {"city": "Prag"}, {"answer": "run"}, {"city": ""}]
)
def test_a_wrong_honors_answer_is_refused(honors, player, change):
    window, prussia, _austria = honors
    data = {"kind": "honors", "phase": "siege", "city": "Berlin", "answer": "fight", **change}
    r = client_for(player).post(url("decide", prussia), in_phase(prussia, data))
    assert r.status_code == 400
    assert "could not be saved" in r.content.decode()
    assert not OrderSheet.objects.filter(window=window, seat=prussia, draft__has_key="honors")


def _on_behalf(campaign, s, organiser):
    from django.urls import reverse

    c = client_for(organiser)
    r = c.post(
        reverse("enter_orders_on_behalf", args=[campaign.code, s.code]), {"confirmed": "yes"}
    )
    assert r.status_code == 302 and r["Location"] == url("orders", s)
    return c


def test_the_organiser_enters_a_battle_decision_on_the_players_behalf(battle, organiser):
    window, prussia, _austria, _daun = battle
    c = _on_behalf(window.campaign, prussia, organiser)
    where = window.version.state["leaders"]["frederick"]["hex"]
    data = {"kind": "battle", "phase": "battle", "hex": where, "army": "prussia", "choice": "fight"}
    assert c.post(url("decide", prussia), in_phase(prussia, data)).status_code == 302
    # The organiser's decisions are checked as the player's: not for the other side's army.
    c.post(url("decide", prussia), in_phase(prussia, {**data, "army": "austria"}))
    sheet = OrderSheet.objects.get(window=window, seat=prussia)
    assert sheet.draft["battle"] == [{"hex": where, "army": "prussia", "choice": "fight"}]
    assert sheet.entered_by_organiser and sheet.entered_by == organiser


def test_the_organiser_answers_the_honors_of_war_on_the_players_behalf(honors, organiser):
    window, prussia, austria = honors
    c = _on_behalf(window.campaign, austria, organiser)
    assert "Berlin: you are the besieger" in c.get(url("orders", austria)).content.decode()
    data = {"kind": "honors", "phase": "siege", "city": "Berlin"}
    assert (
        c.post(url("decide", austria), in_phase(austria, {**data, "answer": "fight"})).status_code
        == 400
    )
    assert (
        c.post(url("decide", austria), in_phase(austria, {**data, "answer": "deny"})).status_code
        == 302
    )
    sheet = OrderSheet.objects.get(window=window, seat=austria)
    assert sheet.draft == {"honors": [{"city": "Berlin", "besieger": "deny"}]}
    assert sheet.entered_by_organiser
    # Opening the Austrian seat gives no access to the Prussian one.
    assert (
        c.post(url("decide", prussia), in_phase(prussia, {**data, "answer": "fight"})).status_code
        == 403
    )
