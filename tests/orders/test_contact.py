# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""An enemy in a force's hex, told where a newcomer looks: the force's card on the dashboard
and, in the forced march phase, the top of the orders page, with what he may do about it
(6.3.1, 9). The playthrough: Nadasy marched into Glatz where Wedel stood, and neither page of
the forced march phase said so; only the map showed two counters side by side."""

import copy
from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import PhaseWindow, StateVersion
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_everyone,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


def _phase_with(campaign, capture, *, phase: str, inside: bool = False):
    """Everyone deployed, then the Austrian leader stands in Frederick's hex (inside the walls
    when ``inside``) and the ``phase`` window is open for Prussia and Austria."""
    deploy_everyone(campaign, capture)
    latest = campaign.latest_version()
    state = copy.deepcopy(latest.state)
    austria, prussia = seat(campaign, "austria"), seat(campaign, "prussia")
    daun = austria.leaders["austria"][0]
    where = state["leaders"]["frederick"]["hex"]
    state["leaders"][daun]["hex"] = where
    state["leaders"][daun]["inside"] = inside
    state["phase"] = phase
    PhaseWindow.objects.filter(campaign=campaign).update(status="resolved")
    now = timezone.now()
    version = StateVersion.objects.create(
        campaign=campaign, number=latest.number + 1, turn=latest.turn,
        resolved_phase="march", phase=phase, state=state, created=now,
    )  # fmt: skip
    PhaseWindow.objects.create(
        campaign=campaign, version=version, phase=phase, turn=latest.turn,
        owing=[str(austria.code), str(prussia.code)], opened_at=now,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    return prussia, austria, where


def test_the_forced_march_page_says_where_the_enemy_is_and_what_to_do(
    rules_campaign, player, django_capture_on_commit_callbacks
):
    prussia, austria, where = _phase_with(
        rules_campaign, django_capture_on_commit_callbacks, phase="forced-march"
    )
    page = client_for(player).get(url("orders", prussia)).content.decode()
    assert "In contact with the enemy" in page
    assert f'Hex {where}: <a href="?unit=frederick"' in page
    assert ">Frederick</a> and the enemy (Austria: " in page
    assert "force march out (6.3.1)" in page
    # one tap on the leader opens his forced march order
    assert '<a href="?unit=frederick" hx-get="?unit=frederick"' in page
    # the other side is told the same of its own force
    daun = austria.leaders["austria"][0].capitalize()
    theirs = client_for(austria.user).get(url("orders", austria)).content.decode()
    assert f">{daun}</a> and the enemy (Prussia: Frederick) share this hex." in theirs


def test_the_dashboard_card_names_the_enemy_in_the_hex(
    rules_campaign, player, django_capture_on_commit_callbacks
):
    prussia, _austria, _where = _phase_with(
        rules_campaign, django_capture_on_commit_callbacks, phase="forced-march"
    )
    page = client_for(player).get(url("dashboard", prussia)).content.decode()
    assert '<p class="contact">The enemy is in this hex: Austria: ' in page


def test_an_enemy_inside_the_walls_is_no_contact(
    rules_campaign, player, django_capture_on_commit_callbacks
):
    prussia, _austria, _where = _phase_with(
        rules_campaign, django_capture_on_commit_callbacks, phase="forced-march", inside=True
    )
    c = client_for(player)
    assert "In contact with the enemy" not in c.get(url("orders", prussia)).content.decode()
    assert 'class="contact"' not in c.get(url("dashboard", prussia)).content.decode()


def test_no_contact_no_box(rules_campaign, player, django_capture_on_commit_callbacks):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    assert "In contact with the enemy" not in c.get(url("orders", prussia)).content.decode()
    assert 'class="contact"' not in c.get(url("dashboard", prussia)).content.decode()


@pytest.mark.parametrize(
    "phase,said", [("forced-march", "up to {} MPs"), ("battle", "back {} MPs")]
)
def test_the_orders_page_says_the_campaigns_own_mps(
    rules_campaign, player, django_capture_on_commit_callbacks, phase, said
):
    """The numbers the page explains with are the campaign's (1.4), not the book's: a forced
    march of 4 MPs and a retirement of 6 where the players agreed them."""
    rules_campaign.rule_settings = {**rules_campaign.rule_settings, "forced_march_mp": 4,
                                    "retire_mp": 6}  # fmt: skip
    rules_campaign.save(update_fields=["rule_settings"])
    prussia, _, _ = _phase_with(rules_campaign, django_capture_on_commit_callbacks, phase=phase)
    page = client_for(player).get(url("orders", prussia)).content.decode()
    number = 4 if phase == "forced-march" else 6
    assert said.format(number) in page and said.format(5) not in page, page[:3000]
