# ruff: noqa: F811 (pytest fixtures imported from tests.battles.test_battles)
"""The catch-up's battles: one set up for the seat's armies, and the organiser dating it, link
to the battle's page; a seat whose armies are not in it reads the date in the organiser's log
(which every player reads), never a link to the battle's page."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst

from battles.services import dates
from orders.services import catchup
from tests.battles.test_battles import battle, battle_map, campaign  # noqa: F401
from tests.orders.test_catch_up import lines_of
from tests.orders.test_play_fixtures import client_for, seat, url
from tests.standing import ally, now, organiser, other, player  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_battle_set_up_and_dated_links_to_the_battle(
    campaign, organiser, player, ally, django_capture_on_commit_callbacks, request
):
    prussia, hanover = seat(campaign, "prussia"), seat(campaign, "hanover")
    for s in (prussia, hanover):
        catchup.record_visit(s, campaign.latest_version(), now=timezone.now())
    b = request.getfixturevalue("battle")
    battle_page = reverse("battles:battle", args=[campaign.code, b.code])
    block = lines_of(client_for(player).get(url("dashboard", prussia)).content.decode())
    assert f'href="{battle_page}">{capfirst(b.named)}: to fight on the tabletop' in block

    dates.set_date(b, organiser, timezone.now() + timedelta(days=3), now=timezone.now())
    block = lines_of(client_for(player).get(url("dashboard", prussia)).content.decode())
    assert f'href="{battle_page}">The organiser set the date of {b.named}' in block

    # Hanover's armies are not in it: the log's line, linking to the log
    hanoverian = lines_of(client_for(ally).get(url("dashboard", hanover)).content.decode())
    assert battle_page not in hanoverian
    log = reverse("action_log", args=[campaign.code])
    assert f'href="{log}">The organiser set the date of {b.named}' in hanoverian
