# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""The organiser's control of ``options["allies_share"]`` (allies share what they know): on the
new campaign's form, on the set-up page and on the board; it changes what an ally sees."""

import pytest
from django.urls import reverse

from campaign.models import Campaign, OrganiserAction
from tests.orders.test_play_fixtures import (
    client_for,
    deploy_everyone,
    play_map,
    rules_campaign,
    seat,
    url,
)
from tests.organiser.test_campaign_setup import FORM

pytestmark = pytest.mark.django_db

FREDERICK = "31017"  # Frederick's secret points in the rules campaign (test_play_fixtures)


@pytest.fixture
def deployed(rules_campaign, django_capture_on_commit_callbacks, mailoutbox):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    return rules_campaign


def options_url(campaign) -> str:
    return reverse("options", args=[campaign.code])


def hanover_dashboard(campaign) -> str:
    hanover = seat(campaign, "hanover")
    return client_for(hanover.user).get(url("dashboard", hanover)).content.decode()


def test_it_turns_sharing_on_and_the_ally_sees_the_forces(deployed, organiser):
    assert FREDERICK not in hanover_dashboard(deployed)
    r = client_for(organiser).post(options_url(deployed), {"allies_share": "on"})
    assert r.status_code == 302 and r["Location"].endswith(
        reverse("organiser_board", args=[deployed.code])
    )
    deployed.refresh_from_db()
    assert deployed.options["allies_share"] is True
    assert FREDERICK in hanover_dashboard(deployed)
    austria = seat(deployed, "austria")
    enemy = client_for(austria.user).get(url("dashboard", austria)).content.decode()
    assert FREDERICK not in enemy
    action = OrganiserAction.objects.get(campaign=deployed, kind="options")
    assert "now share" in action.text
    log = client_for(austria.user).get(reverse("action_log", args=[deployed.code]))
    assert "now share" in log.content.decode()


def test_it_turns_sharing_off_again(deployed, organiser):
    Campaign.objects.filter(id=deployed.id).update(options={"allies_share": True})
    client_for(organiser).post(options_url(deployed), {"next": "setup"})
    deployed.refresh_from_db()
    assert deployed.options["allies_share"] is False
    assert FREDERICK not in hanover_dashboard(deployed)


def test_saving_the_same_setting_logs_nothing(deployed, organiser):
    client_for(organiser).post(options_url(deployed), {})
    assert not OrganiserAction.objects.filter(campaign=deployed, kind="options").exists()


def test_it_rejects_get(deployed, organiser):
    assert client_for(organiser).get(options_url(deployed)).status_code == 405


def test_it_requires_the_organiser(deployed, player, outsider):
    for person in (player, outsider):
        assert (
            client_for(person).post(options_url(deployed), {"allies_share": "on"}).status_code
            == 403
        )
    deployed.refresh_from_db()
    assert not deployed.options.get("allies_share")


def test_it_answers_htmx_with_a_client_redirect(deployed, organiser):
    r = client_for(organiser).post(
        options_url(deployed), {"allies_share": "on", "next": "setup"}, HTTP_HX_REQUEST="true"
    )
    assert r["HX-Redirect"] == reverse("campaign_setup", args=[deployed.code])


def test_the_board_and_the_setup_page_carry_the_control(deployed, organiser):
    c = client_for(organiser)
    for page in ("organiser_board", "campaign_setup"):
        text = c.get(reverse(page, args=[deployed.code])).content.decode()
        assert options_url(deployed) in text and 'name="allies_share"' in text


def test_the_new_campaign_form_sets_it(organiser):
    c = client_for(organiser)
    data = {**FORM, "name": "Sharing allies", "allies_share": "on"}
    page = c.get(reverse("new_campaign")).content.decode()
    assert 'name="allies_share"' in page
    r = c.post(reverse("new_campaign"), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Campaign.objects.get(name="Sharing allies").options["allies_share"] is True
