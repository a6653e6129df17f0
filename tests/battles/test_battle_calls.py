# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""The emails of a battle phase say where the battle is and whom it faces, and link the page
where the player decides; the one for a battle that goes to the table says so in its subject.
A newcomer's battle on a phone: "a battle is pending (turn 1)", twice, with neither the place
nor the enemy, and a link to the dashboard."""

import pytest
from django.urls import reverse

from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    AUSTRIAN_SECRETS,
    PRUSSIAN_SECRETS,
    battle_map,
    campaign,
    everyone_ready,
)
from tests.orders.test_play_fixtures import client_for, in_phase, seat, url
from tests.standing import ally, organiser, other, player  # noqa: F401

pytestmark = pytest.mark.django_db


def _kind(message) -> str:
    return message.extra_headers.get("X-DGK-Kind", "")


def test_the_call_to_decide_names_the_battle_and_the_enemy_and_links_the_decision(
    campaign, player, django_capture_on_commit_callbacks, mailoutbox
):
    prussia, austria = seat(campaign, "prussia"), seat(campaign, "austria")
    r = client_for(player).post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1", "meeting": "hold"}),
    )
    assert r.status_code in (200, 302)
    everyone_ready(campaign, django_capture_on_commit_callbacks)  # march
    mailoutbox.clear()
    everyone_ready(campaign, django_capture_on_commit_callbacks)  # forced march
    assert campaign.open_window().phase == "battle"
    calls = {m.to[0]: m for m in mailoutbox if _kind(m) == "battle-pending"}
    mine = calls[prussia.user.email]
    assert mine.subject == "Bohemia 1757: a battle is pending, fight or retire? (turn 1)"
    # Where (the hex the map numbers) and whom (the enemy's leaders, public by 3.1.1) ...
    assert "- Hex 0502, against Austria: Charles" in mine.body
    # ... never the enemy's strength from the state (only reconnaissance tells it, 8)
    assert not any(secret in mine.body for secret in AUSTRIAN_SECRETS)
    orders_page = reverse("orders:orders", args=[prussia.code])
    assert f"Fight or retire, on your orders page: http://localhost:8000{orders_page}" in (
        mine.body
    )
    theirs = calls[austria.user.email]
    assert "- Hex 0502, against Prussia: Frederick" in theirs.body
    assert not any(secret in theirs.body for secret in PRUSSIAN_SECRETS)

    # Decided to fight: the battle goes to the table, and the email says so in its subject.
    mailoutbox.clear()
    decision = {"battle": [{"hex": "0502", "army": "prussia", "choice": "fight"}]}
    everyone_ready(campaign, django_capture_on_commit_callbacks, {"prussia": decision})
    table = [m for m in mailoutbox if _kind(m) == "battle-pending"]
    assert table, [m.subject for m in mailoutbox]
    assert {m.subject for m in table} == {"Bohemia 1757: your battle goes to the tabletop (turn 1)"}
    assert all("Fight or retire" not in m.body for m in table)
