# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""No invalid order reaches Ready (issue 12): a march too long for its MPs and a transfer the
rules forbid show their error when saved, next to the order, and Ready refuses with the list;
the draft is kept. Clear terrain, 1 MP a hex; Frederick stands at 0302, Berlin's garrison in
Berlin."""

import json

import pytest

from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_everyone,
    in_phase,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


def sheet_of(s):
    return OrderSheet.objects.get(seat=s, window=s.campaign.open_window())


def test_a_march_too_long_is_shown_wrong_and_blocks_ready(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    long_way = "-".join(["4"] * 8)  # 8 hexes of clear terrain: more than one march's MPs
    c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": long_way, "marches": "1"}),
    )
    page = c.get(url("orders", prussia)).content.decode()
    assert "Put these right before you press Ready" in page
    assert "MP are left (6.4.5)" in page
    r = c.post(url("ready", prussia), in_phase(prussia), follow=True)
    assert "Not submitted" in r.content.decode()
    sheet = sheet_of(prussia)
    assert not sheet.ready
    assert sheet.draft["march"][0]["path"] == long_way  # the draft is kept as written
    # Put right, it goes.
    c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4-4", "marches": "1"}),
    )
    assert "Put these right" not in c.get(url("orders", prussia)).content.decode()
    c.post(url("ready", prussia), in_phase(prussia))
    assert sheet_of(prussia).ready


def test_an_impossible_transfer_is_shown_wrong_and_blocks_ready(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    c.post(
        url("save_transfer", prussia),
        in_phase(prussia, {"source": "garrison", "target": "frederick", "points": 5}),
    )
    page = c.get(url("orders", prussia)).content.decode()
    assert "Transfer 1:" in page and "must begin the turn inside a fortress" in page
    c.post(url("ready", prussia), in_phase(prussia))
    assert not sheet_of(prussia).ready


def test_the_map_says_what_is_wrong_with_a_march_too_long(marching, player):
    """The map widget's reach for a unit with an order: a new line from where the unit stands
    (issue 43: tapping it again never adds to its saved line), the saved line named, and a
    wrong saved order's problem in words."""
    prussia = seat(marching, "prussia")
    c = client_for(player)

    def reach_of(path: str) -> dict:
        c.post(
            url("save_march", prussia),
            in_phase(prussia, {"unit": "frederick", "path": path, "marches": "1"}),
        )
        return json.loads(c.get(url("map_overlay", prussia), {"unit": "frederick"}).content)[
            "reach"
        ]

    fine = reach_of("4-4")
    start = fine["from"]
    assert fine["problem"] == "" and fine["hexes"] and fine["spent"] == 0
    assert fine["saved"] == "4-4" and fine["path"] == ""
    # the lit hexes' codes are lines from the unit's own hex, not from the saved line's end
    by_hex = {h["hex"]: h for h in fine["hexes"]}
    east = next(h for h in by_hex.values() if h["codes"] == "4")
    assert east["cost"] <= fine["allowance"]

    wrong = reach_of("-".join(["4"] * 8))
    assert "MP are left (6.4.5)" in wrong["problem"] and wrong["saved"] == "-".join(["4"] * 8)
    assert wrong["from"] == start and wrong["hexes"] == fine["hexes"]


@pytest.mark.django_db(transaction=True)
def test_ready_says_whether_the_phase_resolved(marching, player):
    """The last seat to press Ready (no broker: the phase resolves in that request) is told the
    phase has resolved, not that its orders wait for it; the others are told they wait."""
    seats = list(marching.seats.filter(reserve=False).order_by("id"))
    *first, last = seats
    for s in first:
        page = client_for(s.user).post(url("ready", s), in_phase(s), follow=True).content.decode()
        assert "secret until resolution" in page and "the phase has resolved" not in page
    page = (
        client_for(last.user).post(url("ready", last), in_phase(last), follow=True).content.decode()
    )
    assert "everyone was ready: the phase has resolved" in page
    assert marching.open_window().phase != "march"
