# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""What each reader of the chronicle may know of a battle (rule 3, 8, 9, 12.1;
docs/rules-interpretations.md, "The chronicle"), and how the battle's place and stakes read.

Prussia (``player``) and Austria (``other``) fight at 0502 (Frederick 1426 and Schwerin 787
against Charles 2176 and Daun 974: 2213 against 3150 points, size classes C and C); Hanover
(``ally``, Prussia's ally) has no force there; the organiser does not play (the umpire). The
fixtures are in test_battles.
"""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from battles.models import BattleStatus
from battles.services import results as battle_results
from battles.services import sheet as briefing_service
from campaign.models import Campaign
from tabletop.sheet import location
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    battle,
    battle_map,
    campaign,
    page,
)
from tests.orders.test_play_fixtures import client_for


def said(secret: str, body: str) -> bool:
    """Whether the page says ``secret``: a number as a word of its own (not four digits of a
    random code in a link, as "e2213..." of a UUID, which failed a run once)."""
    if not secret.isdigit():
        return secret in body
    return re.search(rf"(?<![\w-]){secret}(?![\w-])", body) is not None


pytestmark = pytest.mark.django_db

STRENGTHS = "2213 points against 3150 points"


def chronicle_of(user, battle) -> str:
    r = client_for(user).get(reverse("battles:chronicle", args=[battle.campaign.code]))
    assert r.status_code == 200
    return r.content.decode()


def test_the_sides_and_the_umpire_read_the_strengths_and_the_stakes(
    battle, player, other, organiser
):
    for user in (player, other, organiser):
        body = chronicle_of(user, battle)
        assert STRENGTHS in body  # 9: both add up their points; 8: each reconnoitred the other
        assert "at stake" in body
        # the alliance named as the rest of the site names it (not "the austrian alliance")
        assert "If the Austrian alliance is defeated:" in body
        assert "If the Prussian alliance retires:" in body
        assert "austrian alliance" not in body and "prussian alliance" not in body


def test_a_seat_not_in_the_battle_reads_who_and_where_but_no_strength(battle, ally):
    body = chronicle_of(ally, battle)
    assert "Frederick (Prussian alliance) against Charles (Austrian alliance)" in body
    assert "Waiting for the result" in body
    for secret in ("2213", "3150", "size class", " points against", "at stake", "If the", "VPs"):
        assert not said(secret, body), secret


def test_with_allies_sharing_every_seat_reads_the_strengths(battle, ally):
    campaign = battle.campaign
    Campaign.objects.filter(id=campaign.id).update(
        options={**(campaign.options or {}), "allies_share": True}
    )
    body = chronicle_of(ally, battle)
    assert STRENGTHS in body and "If the Austrian alliance is defeated:" in body


def test_after_the_battle_every_seat_reads_the_vps_awarded_and_not_the_strengths(
    battle, organiser, player, ally, django_capture_on_commit_callbacks
):
    result = {"loser": "prussian", "outcome": "retired", "losses": {"prussia": 120, "austria": 80}}
    with django_capture_on_commit_callbacks(execute=True):
        battle_results.settle_result(battle, organiser, result, now=timezone.now())
    battle.refresh_from_db()
    assert battle.status == BattleStatus.APPLIED
    awarded = battle.setup["stakes"]["prussian retired"]
    labels = {"austria": "Austrian player", "prussia": "Prussian player"}
    shown = ", ".join(f"{labels[seat]} {v:+d}" for seat, v in sorted(awarded.items()))
    fought, watched = chronicle_of(player, battle), chronicle_of(ally, battle)
    # The VPs are public (12: every seat reads them), and so is who gave way (the field).
    for body in (fought, watched):
        assert f"{shown} VPs" in body and "The Prussian alliance retired (10.1)." in body
        assert "at stake" not in body
    assert STRENGTHS in fought and "Austrian losses: 80 points" in fought
    for secret in ("2213", "3150", "size class", "losses", "80 points"):
        assert not said(secret, watched), secret


def test_the_battle_page_and_the_briefing_say_where_in_words(battle, player):
    where = location(battle.setup)
    assert where.startswith("hex 0502 (Austria), ") and "Prague" in where
    assert briefing_service.page_brief(battle, "prussian")["where"] == where
    body = page(client_for(player), "battle", battle).content.decode()
    assert f"<th>Where</th><td>{where}</td>" in body
    assert f"battle at {where}</h2>" in body
    printed = page(client_for(player), "briefing", battle, "prussian").content.decode()
    assert f"· {where} ·" in printed and "0502, Austria" not in printed
