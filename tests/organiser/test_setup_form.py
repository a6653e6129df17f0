"""The set-up form follows the player count (1.2) and checks the army size against 3.2."""

import html
import json

import pytest
from django.urls import reverse

from campaign.models import Campaign, Invitation
from campaign.services import setup
from organiser import forms
from rules.armies import LABELS, Seat, armies_of, seats_in_play
from tests.organiser.test_campaign_setup import FORM

pytestmark = pytest.mark.django_db


def test_an_invitation_to_a_seat_that_does_not_exist_is_refused(
    client, organiser, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            reverse("new_campaign"), {**FORM, "players": "3", "email_hanover": "georg@example.org"}
        )
    assert r.status_code == 200
    body = r.content.decode()
    assert (
        "With 3 players there is no Hanoverian player (1.2): the Prussian player commands "
        "Hanover, Prussia. Clear this box, or choose more players." in body
    )
    assert 'class="field has-error" data-seat-row="hanover"' in body
    assert not Campaign.objects.exists() and not Invitation.objects.exists()
    assert mailoutbox == []


def test_the_organiser_cannot_play_a_seat_that_does_not_exist(client, organiser):
    client.force_login(organiser)
    r = client.post(
        reverse("new_campaign"),
        {**FORM, "players": "2", "umpire_plays": "on", "organiser_seat": "france"},
    )
    assert "With 2 players there is no French player (1.2)" in r.content.decode()
    assert not Campaign.objects.exists()


def test_the_service_refuses_a_stray_address_before_creating_anything(organiser, now):
    with pytest.raises(setup.SetupError, match="no seat for the Russian player"):
        setup.create_campaign(
            organiser, name="x", players=4, now=now, army_points={},
            emails={"russia": "ivan@example.org"},
        )  # fmt: skip
    assert not Campaign.objects.exists()


def test_the_seats_boxes_say_which_armies_each_seat_commands(client, organiser):
    client.force_login(organiser)
    body = client.post(reverse("new_campaign"), {**FORM, "name": ""}).content.decode()
    assert "Commands Austria, Empire, Russia, Sweden." in body  # 3 players (1.2)
    assert 'data-seats="{&quot;5&quot;' in body  # what the script hides the seats by


def test_without_javascript_the_seats_help_is_right_for_the_default_count(client, organiser):
    """Five players by default (1.2): the Austrian player commands Austria and the Empire."""
    client.force_login(organiser)
    body = client.get(reverse("new_campaign")).content.decode()
    assert "Commands Austria, Empire." in body and "Commands Prussia." in body
    assert "Commands Hanover." in body and "Commands Russia, Sweden." in body


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_script_is_given_each_seats_help_for_each_count(client, organiser, players):
    """The texts the script puts under each box come from the engine's presets of 1.2, and are
    the texts the page draws for that count."""
    client.force_login(organiser)
    texts = forms.seat_texts_by_players()[str(players)]
    assert set(texts) == {s.value for s in seats_in_play(players)}
    for seat, text in texts.items():
        names = ", ".join(LABELS[a] for a in armies_of(Seat(seat), players))
        assert text == f"Commands {names}."
    body = client.post(reverse("new_campaign"), {**FORM, "name": "", "players": str(players)})
    page = body.content.decode()
    for text in texts.values():
        assert text in page
    assert html.escape(json.dumps(forms.seat_texts_by_players())) in page


def test_a_size_at_which_an_army_cannot_deploy_is_refused(client, organiser):
    client.force_login(organiser)
    r = client.post(reverse("new_campaign"), {**FORM, "base_points": "150"})
    body = r.content.decode()
    assert r.status_code == 200 and not Campaign.objects.exists()
    assert "At this size some army cannot deploy (3.2): Empire has 600 points; it needs at " in body
    assert "The least size at which every army can deploy is Sweden 188" in body
    assert "every army has room of its own from Sweden 251" in body


def test_a_total_too_small_is_refused_in_totals(client, organiser):
    client.force_login(organiser)
    r = client.post(
        reverse("new_campaign"),
        {**FORM, "army_size": "total", "base_points": "", "total_points": "5000"},
    )
    assert "The least size at which every army can deploy is a total of " in r.content.decode()
    assert not Campaign.objects.exists()


def test_the_form_shows_the_armies_against_3_2_at_its_default(client, organiser):
    client.force_login(organiser)
    body = client.get(reverse("new_campaign")).content.decode()
    assert 'name="base_points" value="300"' in body
    assert '<td>Empire</td><td class="num">1200</td><td class="num">950</td>' in body
    assert "Every army has room to deploy on its own (from Sweden 251)." in body


def test_the_table_follows_the_size_chosen(client, organiser):
    client.force_login(organiser)
    r = client.get(
        reverse("new_campaign"), {**FORM, "room": "1", "base_points": "200"}, HTTP_HX_REQUEST="true"
    )
    body = r.content.decode()
    assert body.lstrip().startswith('<section id="room"')
    assert "Empire needs France to garrison 3 of its fortresses West of the Rhine (3.2.4)" in body


def test_time_zones_come_grouped_the_common_ones_first(client, organiser):
    client.force_login(organiser)
    body = client.get(reverse("new_campaign")).content.decode()
    common = body.index('<optgroup label="Common">')
    assert common < body.index('<optgroup label="Europe">') < body.index('<optgroup label="Asia">')
    assert body.index('value="Europe/London"', common) < body.index('value="America/New_York"')
    assert 'type="time" name="deadline_at"' in body


def test_the_deadline_at_a_time_of_day_is_kept(client, organiser):
    client.force_login(organiser)
    client.post(reverse("new_campaign"), {**FORM, "deadline_at": "20:00"})
    assert Campaign.objects.get().deadline_policy["march"] == {"at": "20:00", "min_hours": 12}
