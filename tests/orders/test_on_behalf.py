# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""The organiser enters a seat's orders, sent by email or on paper, through the seat's own order
pages: opened on the player's behalf from the status board; every sheet so saved is marked
``entered_by_organiser`` and logged where every player reads it; the seat's page says so."""

import pytest
from django.urls import reverse

from campaign.models import Campaign, OrganiserAction
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (
    POSITIONS,
    client_for,
    deploy_everyone,
    in_phase,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


YES = {"confirmed": "yes"}  # the answer to "Enter the orders of ... on its player's behalf?"


def behalf_url(campaign, s) -> str:
    return reverse("enter_orders_on_behalf", args=[campaign.code, s.code])


def entered_lines(campaign) -> list[str]:
    return list(
        OrganiserAction.objects.filter(campaign=campaign, kind="entered-orders")
        .order_by("id")
        .values_list("text", flat=True)
    )


@pytest.fixture
def marching(rules_campaign, django_capture_on_commit_callbacks, mailoutbox):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    assert rules_campaign.open_window().phase == "march"
    return rules_campaign


def test_the_board_offers_the_order_pages_and_keeps_the_json_box_as_a_fallback(
    rules_campaign, organiser
):
    prussia = seat(rules_campaign, "prussia")
    page = client_for(organiser).get(
        reverse("enter_orders", args=[rules_campaign.code, prussia.code])
    )
    text = page.content.decode()
    assert behalf_url(rules_campaign, prussia) in text
    assert "<details" in text and 'name="orders"' in text


def test_it_enters_a_march_on_the_players_behalf(marching, organiser, player):
    prussia = seat(marching, "prussia")
    c = client_for(organiser)
    # asked first: nothing is opened or logged until the organiser says yes
    r = c.post(behalf_url(marching, prussia))
    assert r.status_code == 200 and "on its player&#x27;s behalf?" in r.content.decode()
    assert not entered_lines(marching)
    r = c.post(behalf_url(marching, prussia), {**YES, "reason": "Fritz phoned them in"})
    assert r.status_code == 302 and r["Location"] == url("orders", prussia)
    assert entered_lines(marching)[-1].endswith("Why: Fritz phoned them in")
    page = c.get(url("orders", prussia)).content.decode()
    assert "on its player&#x27;s behalf" in page or "on its player's behalf" in page
    r = c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1"}),
    )
    assert r.status_code == 302
    sheet = OrderSheet.objects.get(seat=prussia, window=marching.open_window())
    assert sheet.entered_by_organiser and sheet.entered_by == organiser
    assert sheet.draft["march"][0]["unit"] == "frederick"
    assert not sheet.ready
    # The player sees it on the seat's page and in the log; the other players read it in the
    # log once the phase has resolved, not while it is open (tests/fog/test_entered_orders_log)
    mine = client_for(player).get(url("orders", prussia)).content.decode()
    assert "entered by the organiser" in mine
    line = f"Entered the march orders of the {prussia.label} on the player"
    log_page = reverse("action_log", args=[marching.code])
    assert line in client_for(player).get(log_page).content.decode()
    austria = seat(marching, "austria")
    assert line not in client_for(austria.user).get(log_page).content.decode()
    assert len(entered_lines(marching)) == 2  # opened, entered (not once per save)
    c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4-4", "marches": "1"}),
    )
    assert len(entered_lines(marching)) == 2


def test_ready_on_behalf_submits_logs_and_closes_the_pages(
    marching, organiser, django_capture_on_commit_callbacks
):
    prussia = seat(marching, "prussia")
    c = client_for(organiser)
    c.post(behalf_url(marching, prussia), YES)
    c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1"}),
    )
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(url("ready", prussia), in_phase(prussia))
    assert r["Location"] == reverse("organiser_board", args=[marching.code])
    sheet = OrderSheet.objects.get(seat=prussia, window__phase="march", window__turn=1)
    assert sheet.ready and sheet.entered_by_organiser
    assert entered_lines(marching)[-1].startswith("Submitted the march orders")
    # The pages are closed to the organiser again (a non-playing umpire still reads them).
    assert (
        c.post(
            url("save_march", prussia), in_phase(prussia, {"unit": "frederick", "path": "4"})
        ).status_code
        == 403
    )


def test_it_enters_a_deployment_on_the_players_behalf(rules_campaign, organiser):
    prussia = seat(rules_campaign, "prussia")
    c = client_for(organiser)
    r = c.post(behalf_url(rules_campaign, prussia), YES)
    assert r["Location"] == url("deploy", prussia)
    r = c.post(
        url("deploy", prussia),
        in_phase(prussia, {"army": "prussia", "action": "leader",
                           "unit": prussia.leaders["prussia"][0],
                           "hex": POSITIONS["prussia"], "points": 1000}),
    )  # fmt: skip
    assert r.status_code == 302
    sheet = OrderSheet.objects.get(seat=prussia)
    assert sheet.entered_by_organiser and sheet.draft["deployment"]["prussia"]["leaders"]


def test_stopping_closes_the_pages(marching, organiser):
    prussia = seat(marching, "prussia")
    c = client_for(organiser)
    c.post(behalf_url(marching, prussia), YES)
    r = c.post(behalf_url(marching, prussia), {"stop": "1"})
    assert r["Location"] == reverse("organiser_board", args=[marching.code])
    assert (
        c.post(
            url("save_march", prussia), in_phase(prussia, {"unit": "frederick", "path": "4"})
        ).status_code
        == 403
    )


def test_it_rejects_get(marching, organiser):
    prussia = seat(marching, "prussia")
    assert client_for(organiser).get(behalf_url(marching, prussia)).status_code == 405


def test_only_the_organiser_may_open_a_seat_on_behalf(marching, player, ally, outsider):
    prussia = seat(marching, "prussia")
    for person in (player, ally, outsider):
        assert client_for(person).post(behalf_url(marching, prussia)).status_code == 403
    # The ally cannot write the Prussian orders, and the organiser not without opening them.
    assert (
        client_for(ally)
        .post(url("save_march", prussia), in_phase(prussia, {"unit": "frederick"}))
        .status_code
        == 403
    )
    assert not entered_lines(marching)


def test_the_organiser_cannot_write_without_opening_the_seat(marching, organiser):
    prussia = seat(marching, "prussia")
    r = client_for(organiser).post(
        url("save_march", prussia), in_phase(prussia, {"unit": "frederick", "path": "4"})
    )
    assert r.status_code == 403
    assert not OrderSheet.objects.filter(seat=prussia, entered_by_organiser=True).exists()


def test_a_seat_that_owes_nothing_is_not_opened(
    marching, organiser, django_capture_on_commit_callbacks
):
    prussia = seat(marching, "prussia")
    with django_capture_on_commit_callbacks(execute=True):
        client_for(prussia.user).post(url("ready", prussia), in_phase(prussia))
    r = client_for(organiser).post(behalf_url(marching, prussia), YES, follow=True)
    assert "has submitted its march orders" in r.content.decode()
    assert entered_lines(marching) == []


def test_htmx_opens_with_a_client_redirect_and_saves_the_fragment(marching, organiser):
    prussia = seat(marching, "prussia")
    c = client_for(organiser)
    r = c.post(behalf_url(marching, prussia), YES, HTTP_HX_REQUEST="true")
    assert r["HX-Redirect"] == url("orders", prussia)
    r = c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1"}),
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 200 and "<html" not in r.content.decode()
    assert OrderSheet.objects.get(seat=prussia, window=marching.open_window()).entered_by_organiser


def test_a_playing_organiser_may_open_a_sharing_allys_pages_never_an_enemys(marching, organiser):
    austria = seat(marching, "austria")
    austria.user = organiser  # the organiser takes the Austrian seat himself
    austria.save()
    c = client_for(organiser)
    refused = c.post(behalf_url(marching, seat(marching, "prussia")), YES, follow=True)
    assert "would show you its secrets" in refused.content.decode()
    assert not entered_lines(marching)
    assert c.get(url("orders", seat(marching, "prussia"))).status_code in (403, 404)
    # an ally's pages show its points and reports: only where allies share them anyway
    france = seat(marching, "france")
    refused = c.post(behalf_url(marching, france), YES, follow=True).content.decode()
    assert "allies in this campaign do not share what they know" in refused
    assert c.get(url("orders", france)).status_code in (403, 404)
    assert not entered_lines(marching)
    Campaign.objects.filter(id=marching.id).update(
        options={**marching.options, "allies_share": True}
    )
    c.post(behalf_url(marching, france), YES)
    assert c.get(url("orders", france)).status_code == 200
    assert len(entered_lines(marching)) == 1


def test_the_log_leads_back_to_the_readers_own_page(marching, organiser):
    """The tester's dead end: the organiser's log had no way back on a phone."""
    austria = seat(marching, "austria")
    log = reverse("action_log", args=[marching.code])
    mine = client_for(austria.user).get(log).content.decode()
    assert (
        f'<a href="{reverse("orders:dashboard", args=[austria.code])}">Back to your dashboard'
        in mine
    )
    board = client_for(organiser).get(log).content.decode()
    assert (
        f'<a href="{reverse("organiser_board", args=[marching.code])}">Back to the status board'
        in board
    )
