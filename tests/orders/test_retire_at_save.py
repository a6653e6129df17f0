# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""A forbidden retire is refused when it is saved, not at resolution (issue 12; rules 10.1,
10.1.1): Frederick marched into the Austrians' hex, so Prussia may retire and Austria, which
had no march order, may not."""

import pytest

from campaign.services import viewcache
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


def test_the_decision_shows_what_each_side_knows_and_what_each_choice_does(
    battle_phase, player, other
):
    """The tester's battle decision gave no numbers ("Facing Prussia: Wedel.") and did not
    say what "Do not fight" and "Retire" do. Each side reads its own points and the enemy's
    as its reconnaissance reported them this turn (8), and no more."""
    prussia, austria = seat(battle_phase, "prussia"), seat(battle_phase, "austria")
    state = viewcache.version_state(battle_phase.open_window().version)
    at = {f.army.value: f for f in state.forces() if f.hex == "0502" and not f.inside}
    mine = client_for(player).get(url("orders", prussia)).content.decode()
    theirs = client_for(other).get(url("orders", austria)).content.decode()
    p_points = sum(x.points for x in at["prussia"].leaders)
    a_points = sum(x.points for x in at["austria"].leaders)
    assert f"Your forces here: {p_points} points." in mine
    assert f"Your forces here: {a_points} points." in theirs
    assert f"{a_points} points by your reconnaissance this turn (8)" in mine
    assert f"{p_points} points by your reconnaissance this turn (8)" in theirs
    assert "<strong>Do not fight</strong>: no battle unless the enemy wishes one." in mine
