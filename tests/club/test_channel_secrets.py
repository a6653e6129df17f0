# ruff: noqa: F811 (pytest fixtures imported from the battles' tests)
"""The club's channel over a played turn with a battle (the battles' own campaign: Frederick
marches into the hex of Charles and Daun and fights): every text posted is public news, with
no strength, no position and no place of a force, checked against the state's secrets."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from battles.services import dates as battle_dates
from club.services import channel
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    AUSTRIAN_SECRETS,
    BERLIN,
    PRUSSIAN_SECRETS,
    battle,
    battle_map,
    campaign,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("loopback_allowed")]


@pytest.fixture
def hooked(campaign, organiser, hook_server):
    """The channel set after the deployment, before the march that brings the battle."""
    channel.set_hook(campaign, organiser, hook_server.url, now=timezone.now())
    campaign.refresh_from_db()
    return hook_server


def secrets_of(campaign) -> set[str]:
    """What a seat's view hides from the others: every force's and garrison's points and
    place (its hex and its city), read from the latest state."""
    state = campaign.latest_version().state
    found = {*PRUSSIAN_SECRETS, *AUSTRIAN_SECRETS, str(BERLIN), "2213", "3150", "0402"}
    records = [*state.get("leaders", {}).values(), *state.get("garrisons", [])]
    for record in records:
        for key, value in record.items():
            if isinstance(value, int) and value >= 100 and "point" in key:
                found.add(str(value))
            if key in ("hex", "city") and value:
                found.add(str(value))
    return found


def test_a_played_turn_and_a_dated_battle_post_no_secret(hooked, battle, organiser):
    when = timezone.now() + timedelta(days=3)
    battle_dates.set_date(battle, organiser, when.replace(hour=19, minute=0), now=timezone.now())
    channel.deliver_due(now=timezone.now())
    texts = hooked.texts
    kinds = [p.kind for p in battle.campaign.club_posts.order_by("id")]
    assert kinds == ["phase", "phase", "phase", "battle-date"]
    assert texts[0] == (
        "Bohemia 1757, April I (turn 1): the march phase is resolved. Next: the forced march phase."
    )
    assert texts[2].endswith(
        "the battle phase is resolved. Next: the battles are fought on the table (9)."
    )
    assert texts[-1].startswith("Bohemia 1757: a battle of April I (turn 1) is to be fought on")
    secrets = secrets_of(battle.campaign)
    assert {"1426", "2176", "0402", "0502", "Berlin", "Prague"} <= secrets
    for text in texts:
        words = set(re.findall(r"[\w]+", text))
        assert not secrets & words, (text, secrets & words)
        assert not re.search(r"\bpoints?\b|\bstrength\b", text, re.IGNORECASE), text
        for name in ("Frederick", "Schwerin", "Charles", "Daun", "frederick", "charles"):
            assert name not in text
