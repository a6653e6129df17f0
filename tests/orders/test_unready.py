# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Taking back Ready (issue 12): the orders become a draft again until the phase resolves."""

import pytest

from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_seat,
    in_phase,
    play_map,
    ready,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


def test_a_player_takes_back_ready_and_changes_the_draft(
    rules_campaign, player, django_capture_on_commit_callbacks
):
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    deploy_seat(prussia, c)
    ready(prussia, c, django_capture_on_commit_callbacks)
    page = c.get(url("deploy", prussia)).content.decode()
    assert "Take back: change my deployment" in page
    r = c.post(url("unready", prussia), in_phase(prussia))
    assert r.status_code == 302 and r.url == url("deploy", prussia)
    sheet = OrderSheet.objects.get(seat=prussia)
    assert not sheet.ready and sheet.submitted_at is None
    assert sheet.draft["deployment"]["prussia"]["leaders"]["frederick"]["hex"]  # kept
    # The draft can be changed again.
    r = c.post(
        url("deploy", prussia),
        in_phase(
            prussia,
            {
                "army": "prussia",
                "action": "leader",
                "unit": "frederick",
                "hex": "0101",
                "points": 5,
            },
        ),
    )
    assert r.status_code == 302


def test_after_the_phase_resolved_there_is_nothing_to_take_back(
    rules_campaign, django_capture_on_commit_callbacks
):
    everyone = list(rules_campaign.seats.filter(reserve=False))
    for s in everyone:
        c = client_for(s.user)
        deploy_seat(s, c)
        ready(s, c, django_capture_on_commit_callbacks)
    assert rules_campaign.open_window().phase != "deployment"
    prussia = seat(rules_campaign, "prussia")
    c = client_for(prussia.user)
    deployment = OrderSheet.objects.get(seat=prussia, window__phase="deployment")
    r = c.post(url("unready", prussia), in_phase(prussia), follow=True)
    assert "a draft again" not in r.content.decode()
    deployment.refresh_from_db()
    assert deployment.ready  # the resolved phase's orders stay as they were used


def test_another_player_may_not_take_back_my_ready(
    rules_campaign, player, other, django_capture_on_commit_callbacks
):
    prussia = seat(rules_campaign, "prussia")
    deploy_seat(prussia, client_for(player))
    ready(prussia, client_for(player), django_capture_on_commit_callbacks)
    assert client_for(other).post(url("unready", prussia), in_phase(prussia)).status_code in (
        403,
        404,
    )
    assert OrderSheet.objects.get(seat=prussia).ready
