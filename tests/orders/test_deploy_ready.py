# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""A deployment that breaks a restriction of 3 cannot be submitted (issue 12): the page says
what is wrong and "Submit my deployment" waits until it is put right."""

import re

import pytest

from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_seat,
    in_phase,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


def test_a_deployment_that_breaks_a_restriction_is_not_submitted(rules_campaign):
    prussia = seat(rules_campaign, "prussia")
    c = client_for(prussia.user)
    deploy_seat(prussia, c)
    # take Berlin's garrison away: 3.2.3 is broken
    c.post(url("deploy", prussia), in_phase(prussia, {"army": "prussia", "action": "remove",
                                    "what": "garrisons", "key": "Berlin"}))  # fmt: skip
    r = c.post(url("ready", prussia), in_phase(prussia), follow=True)
    text = r.content.decode()
    assert "Not submitted" in text and "(3.2.3) Berlin must be garrisoned" in text
    assert r.redirect_chain[-1][0] == url("deploy", prussia)
    assert not OrderSheet.objects.get(seat=prussia).ready
    deploy_seat(prussia, c)  # put right
    c.post(url("ready", prussia), in_phase(prussia))
    assert OrderSheet.objects.get(seat=prussia).ready


def test_several_problems_are_counted_once_and_listed_on_the_page(rules_campaign):
    """Ready with a deployment far from done: the message counts what is wrong and the page
    lists each with its army (all of them run together in one message made a wall of text)."""
    prussia = seat(rules_campaign, "prussia")
    c = client_for(prussia.user)
    r = c.post(url("ready", prussia), in_phase(prussia), follow=True)
    text = r.content.decode()
    said = re.search(r"Not submitted: (\d+) things to put right \(or remove\) first", text)
    assert said and int(said.group(1)) >= 2, text[:3000]
    assert r.redirect_chain[-1][0] == url("deploy", prussia)
    assert not OrderSheet.objects.get(seat=prussia).ready
