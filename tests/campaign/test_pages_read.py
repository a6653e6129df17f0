# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Pages a person can read (issue 13): the dashboard as cards naming the army of each force,
the history grouped by turn with one heading per phase."""

from __future__ import annotations

import re

import pytest

from rules.armies import Army
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_everyone,
    play_map,
    ready,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


def test_the_dashboard_names_the_army_on_every_card(
    rules_campaign, django_capture_on_commit_callbacks
):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    austria = seat(rules_campaign, "austria")  # Austria and the Empire: two armies, one seat
    text = client_for(austria.user).get(url("dashboard", austria)).content.decode()
    cards = re.findall(r'<li class="card army-(\w+)">\s*<p class="card-army">([^<]+)</p>', text)
    assert cards, text[:3000]
    assert {army for army, _ in cards} <= set(austria.armies)
    assert all(label == Army(army).label for army, label in cards)


def test_the_history_has_a_heading_per_turn_and_a_line_per_phase(
    rules_campaign, django_capture_on_commit_callbacks
):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    for s in rules_campaign.seats.filter(reserve=False):
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)  # the march phase
    prussia = seat(rules_campaign, "prussia")
    text = client_for(prussia.user).get(url("history", prussia)).content.decode()
    assert "<h2>Turn 1: April I</h2>" in text
    assert text.count("<h2>Turn 1: April I</h2>") == 1
    assert "Deployment (3)</a>" in text and "Marches (6)</a>" in text
    assert "The start of the campaign</a>" in text
