"""Linked campaigns (13): the fog held over a year's end while the war goes on.

The next year starts where the year before ended (13.1), so *The war* of the year before, its
book and its dice seeds would tell every player where every force of the new year stands. A
campaign made linked at set-up (``options["linked"]``, or the Clock of Fate) keeps them at its
end (``Campaign.fog_held``) until the organiser ends the war from its latest year
(``seasons.services.war.end_war``), which lifts the fog on every year of it. The fog itself is
proved by noninterference in ``tests/fog/test_next_year.py``.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, OrganiserAction
from campaign.services.actionlog import OrganiserError
from mail.services import email
from seasons.services import nextyear, war
from tests.fog import scenarios
from tests.fog.test_next_year import POINTS_PER_STAR_CITY, SEED, season_over
from tests.orders.test_play_fixtures import client_for
from tests.standing import load_demo

pytestmark = pytest.mark.django_db


def linked_demo(settings, linked: bool = True) -> Campaign:
    demo = load_demo(settings)
    Campaign.objects.filter(id=demo.id).update(options={**demo.options, "linked": linked})
    demo.refresh_from_db()
    return demo


def prussia(campaign: Campaign):
    return campaign.seats.get(power="prussia")


def test_a_linked_year_ends_with_its_war_its_book_and_its_seeds_kept(settings):
    demo = linked_demo(settings)
    season_over(demo)
    assert demo.fog_held and not demo.seeds_revealed and not war.war_shown(demo)
    player = client_for(prussia(demo).user)
    for name in ("war", "war_history"):
        assert player.get(reverse(name, args=[demo.code])).status_code == 404
    assert player.get(reverse("war_book", args=[demo.code, "a4"])).status_code == 404
    dice = player.get(reverse("campaign_dice", args=[demo.code])).content.decode()
    assert demo.seed not in dice and "The war goes on (linked campaigns, 13)" in dice
    assert "stays secret while the campaign runs" not in dice  # (it has ended)
    dashboard = player.get(reverse("orders:dashboard", args=[prussia(demo).code]))
    assert reverse("war", args=[demo.code]).encode() not in dashboard.content
    board = client_for(demo.organiser).get(reverse("organiser_board", args=[demo.code]))
    assert reverse("end_war", args=[demo.code]) in board.content.decode()
    assert reverse("next_year", args=[demo.code]) in board.content.decode()


@pytest.mark.parametrize("linked", [True, False])
def test_the_campaign_over_email_says_whether_the_fog_lifts(settings, mailoutbox, linked):
    demo = linked_demo(settings, linked)
    season_over(demo)
    seat = prussia(demo)
    seat.email_kinds = [*seat.email_kinds, "campaign-over"]
    seat.save(update_fields=["email_kinds"])
    assert email.deliver("campaign-over", seat_id=seat.id)
    (message,) = mailoutbox
    war_page = reverse("war", args=[demo.code])
    if linked:
        assert "The war goes on (linked campaigns, 13)" in message.body
        assert war_page not in message.body and "The dice seeds are revealed:" not in message.body
    else:
        assert war_page in message.body and "The dice seeds are revealed:" in message.body
        assert "The war goes on" not in message.body


def test_ending_the_war_lifts_the_fog_on_every_year_and_starts_no_next_year(
    settings, django_capture_on_commit_callbacks
):
    first = linked_demo(settings)
    season_over(first)
    with django_capture_on_commit_callbacks(execute=True):
        second = nextyear.start_next_year(
            first, first.organiser, {}, now=first.created,
            new_points_per_star_city=POINTS_PER_STAR_CITY, seed=SEED,
        )  # fmt: skip
    assert second.options["linked"] and second.fog_held  # (the next year is linked too)
    with pytest.raises(OrganiserError, match="not over|only from a year that is over"):
        war.end_war(second, second.organiser, now=timezone.now())
    season_over(second)
    with pytest.raises(OrganiserError, match="end the war from the latest year"):
        war.end_war(first, first.organiser, now=timezone.now())
    shown = war.end_war(second, second.organiser, now=timezone.now(), reason="Peace of Paris")
    assert [c.id for c in shown] == [second.id, first.id]
    for year in (first, second):
        year.refresh_from_db()
        assert war.war_shown(year) and year.seeds_revealed and not year.fog_held
        said = OrganiserAction.objects.filter(campaign=year).latest("id")
        assert "Ended the war" in said.text and "Peace of Paris" in said.text
    assert "ended the war" in nextyear.refusal(second)
    with pytest.raises(OrganiserError, match="lifted already"):
        war.end_war(second, second.organiser, now=timezone.now())


def test_a_year_not_linked_has_no_war_to_end(settings):
    demo = linked_demo(settings, linked=False)
    season_over(demo)
    assert war.war_shown(demo)
    with pytest.raises(OrganiserError, match="lifted already"):
        war.end_war(demo, demo.organiser, now=timezone.now())
    board = client_for(demo.organiser).get(reverse("organiser_board", args=[demo.code]))
    assert reverse("end_war", args=[demo.code]) not in board.content.decode()
    assert "The fog lifted at this year's end" in board.content.decode()


def test_the_organiser_ends_the_war_from_his_board_asked_first(settings):
    demo = linked_demo(settings)
    season_over(demo)
    page = reverse("end_war", args=[demo.code])
    assert client_for(prussia(demo).user).post(page, {"confirmed": "yes"}).status_code in (403, 404)
    organiser = client_for(demo.organiser)
    asked = organiser.get(page).content.decode()
    assert "End the war and lift the fog?" in asked and demo.name in asked
    demo.refresh_from_db()
    assert demo.fog_held
    done = organiser.post(page, {"confirmed": "yes", "reason": "Peace"})
    assert done.status_code == 302
    demo.refresh_from_db()
    assert war.war_shown(demo)
    assert client_for(prussia(demo).user).get(reverse("war", args=[demo.code])).status_code == 200


@pytest.mark.parametrize(
    "chosen,linked",
    [({"linked": "on"}, True), ({"fate": "season"}, True), ({}, False)],
)
def test_the_set_up_form_asks_whether_the_war_goes_on(organiser, chosen, linked):
    client = Client()
    client.force_login(organiser)
    form = {**scenarios.FORM, "name": "Linked or not", **chosen}
    assert client.post(reverse("new_campaign"), form).status_code == 302
    assert Campaign.objects.get(name="Linked or not").options["linked"] is linked
