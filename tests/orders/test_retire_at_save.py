# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""A forbidden retire is refused when it is saved, not at resolution (issue 12; rules 10.1,
10.1.1): Frederick marched into the Austrians' hex, so Prussia may retire and Austria, which
had no march order, may not."""

import pytest

from orders.models import OrderSheet
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    battle_map,
    campaign,
    everyone_ready,
)
from tests.orders.test_play_fixtures import client_for, in_phase, seat, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle_phase(campaign, player, django_capture_on_commit_callbacks):
    client_for(player).post(
        url("save_march", seat(campaign, "prussia")),
        in_phase(
            seat(campaign, "prussia"),
            {"unit": "frederick", "path": "4", "marches": "1", "meeting": "hold"},
        ),
    )
    everyone_ready(campaign, django_capture_on_commit_callbacks)  # march
    everyone_ready(campaign, django_capture_on_commit_callbacks)  # forced march
    assert campaign.open_window().phase == "battle"
    return campaign


def decide(user, s, choice):
    return client_for(user).post(
        url("decide", s),
        in_phase(
            s,
            {"phase": "battle", "kind": "battle", "hex": "0502", "army": s.power, "choice": choice},
        ),
    )


def test_a_force_without_a_march_order_may_not_retire(battle_phase, other):
    austria = seat(battle_phase, "austria")
    page = client_for(other).get(url("orders", austria)).content.decode()
    assert "not allowed, it had no march order this turn (10.1)<" in page  # (the rule once)
    r = decide(other, austria, "retire")
    assert r.status_code == 400
    assert "may not retire: it had no march order this turn (10.1)." in r.content.decode()
    sheet = OrderSheet.objects.filter(seat=austria, window=battle_phase.open_window()).first()
    assert sheet is None or not (sheet.draft or {}).get("battle")
    assert decide(other, austria, "fight").status_code == 302


def test_a_force_that_marched_in_may_retire(battle_phase, player):
    prussia = seat(battle_phase, "prussia")
    page = client_for(player).get(url("orders", prussia)).content.decode()
    assert "not allowed" not in page
    assert decide(player, prussia, "retire").status_code == 302
    sheet = OrderSheet.objects.get(seat=prussia, window=battle_phase.open_window())
    assert sheet.draft["battle"] == [{"hex": "0502", "army": "prussia", "choice": "retire"}]
