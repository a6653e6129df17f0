# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""The organiser's tools on a battle ask first, say what will happen, and log why (issue 13)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from battles.models import BattleStatus
from campaign.models import OrganiserAction
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    battle,
    battle_map,
    campaign,
    client_for,
)

pytestmark = pytest.mark.django_db


def battle_url(name, b) -> str:
    return reverse(f"battles:{name}", args=[b.campaign.code, b.code])


def logged(b) -> list[str]:
    rows = OrganiserAction.objects.filter(campaign=b.campaign, kind="battle").order_by("id")
    return list(rows.values_list("text", flat=True))


RESULT = {"loser": "austrian", "outcome": "defeated", "loss_prussia": 150, "loss_austria": 400}


def test_settling_asks_first_with_the_result_in_words_then_logs_the_reason(
    battle, organiser, django_capture_on_commit_callbacks
):
    c = client_for(organiser)
    r = c.post(battle_url("settle", battle), RESULT)
    text = r.content.decode()
    assert r.status_code == 200 and f"Settle {battle.named}" in text
    assert "The Austrian alliance was defeated outright" in text
    assert 'name="loss_austria" value="400"' in text  # the result rides through the question
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PENDING and not logged(battle)
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(
            battle_url("settle", battle),
            {**RESULT, "confirmed": "yes", "reason": "Both sides agreed by phone"},
        )
    assert r.status_code == 302
    battle.refresh_from_db()
    assert battle.status in (BattleStatus.SETTLED, BattleStatus.APPLIED)
    assert logged(battle) == [
        f"Settled the result of {battle.named}. Why: Both sides agreed by phone"
    ]
    # the players read it in the log
    page = client_for(battle.campaign.seats.get(power="prussia").user).get(
        reverse("action_log", args=[battle.campaign.code])
    )
    assert "Both sides agreed by phone" in page.content.decode()


def test_a_bad_result_is_refused_before_the_question(battle, organiser):
    r = client_for(organiser).post(
        battle_url("settle", battle), {**RESULT, "loss_austria": 99999}, follow=True
    )
    assert "losses of 99999 points are more than the" in r.content.decode()
    assert "Settle the battle" not in r.content.decode()
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PENDING


def test_the_quick_resolution_asks_first_and_logs(
    battle, organiser, django_capture_on_commit_callbacks
):
    c = client_for(organiser)
    r = c.post(battle_url("quick", battle), {"attacker": "prussian"})
    assert r.status_code == 200 and "without the table?" in r.content.decode()
    battle.refresh_from_db()
    assert not battle.quick
    with django_capture_on_commit_callbacks(execute=True):
        c.post(
            battle_url("quick", battle),
            {"attacker": "prussian", "confirmed": "yes", "reason": "No table before June"},
        )
    battle.refresh_from_db()
    assert battle.quick
    assert logged(battle)[-1].endswith("(not on the table). Why: No table before June")


def test_setting_a_battle_date_is_logged_in_the_campaigns_time(battle, organiser):
    when = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    local = timezone.localtime(when, timezone=ZoneInfo(battle.campaign.time_zone))
    r = client_for(organiser).post(
        battle_url("date", battle), {"fight_on": local.strftime("%Y-%m-%dT%H:%M")}
    )
    assert r.status_code == 302
    assert logged(battle) == [
        f"The organiser set the date of {battle.named}: {local:%a %d %b, %H:%M %Z}."
    ]
