# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""A whole turn played through the web by every seat: deployment, march, forced march."""

import pytest

from campaign.models import StateVersion
from maps.tasks import draw_wanted_map_pictures
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    FREDERICK_POINTS,
    client_for,
    deploy_everyone,
    deploy_seat,
    in_phase,
    play_map,
    ready,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


def test_the_deployment_page_shows_the_validator_as_the_player_goes(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    page = c.get(url("deploy", prussia)).content.decode()
    assert "Frederick" in page
    assert "violations" in page, page
    deploy_seat(prussia, c)
    page = c.get(url("deploy", prussia)).content.decode()
    assert "meets every restriction of 3" in page, page
    sheet = OrderSheet.objects.get(seat=prussia)
    assert sheet.draft["deployment"]["prussia"]["leaders"]["frederick"]["points"] == (
        FREDERICK_POINTS
    )
    assert not sheet.ready


def test_submitting_the_deployment_locks_it(
    rules_campaign, player, django_capture_on_commit_callbacks
):
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    deploy_seat(prussia, c)
    ready(prussia, c, django_capture_on_commit_callbacks)
    r = c.post(
        url("deploy", prussia),
        in_phase(
            prussia,
            {
                "army": "prussia",
                "action": "leader",
                "unit": "frederick",
                "hex": "0101",
                "points": 1,
            },
        ),
    )
    assert r.status_code == 302
    sheet = OrderSheet.objects.get(seat=prussia)
    assert sheet.ready
    assert sheet.draft["deployment"]["prussia"]["leaders"]["frederick"]["hex"] == "0302"


def test_a_whole_turn_through_the_web(
    rules_campaign, player, other, django_capture_on_commit_callbacks
):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    window = rules_campaign.open_window()
    assert window is not None and window.phase == "march", [
        (v.number, v.phase) for v in StateVersion.objects.all()
    ]
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    page = c.get(url("dashboard", prussia)).content.decode()
    assert "You owe" in page and "march orders" in page
    # Choose Frederick, tap the hex to the East (code 4) as the map offers it, then save.
    page = c.get(url("orders", prussia) + "?unit=frederick").content.decode()
    assert 'data-code="4"' in page
    r = c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1", "meeting": "hold"}),
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 200
    body = r.content.decode()
    assert 'id="play"' in body and "<html" not in body
    assert "MP" in body
    sheet = OrderSheet.objects.get(window=window, seat=prussia)
    assert sheet.draft["march"] == [{"unit": "frederick", "path": "4", "marches": 1}]
    page = c.get(url("orders", prussia)).content.decode()
    marches = window.version.state["marches"]["prussia"]
    # 6.2: the marches given and left to allocate (Prussia's line of 6.1 has no modifier)
    assert f"Prussian {marches}: 1 given, {marches - 1} left" in page
    # The dashboard, drawn before the march was given, counts it now too (its kept parts hold
    # only what the view decides, never the draft).
    page = c.get(url("dashboard", prussia)).content.decode()
    assert f"Prussian {marches}: 1 given, {marches - 1} left" in page
    # Every seat says ready (the others stand still).
    for s in rules_campaign.seats.filter(reserve=False):
        if window.owes(s):
            ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    window.refresh_from_db()
    assert window.status == "resolved"
    nxt = rules_campaign.open_window()
    assert nxt is not None and nxt.phase == "forced-march"
    # Forced march (6.3): Frederick one more hex East; a siege train may not (6.3.3).
    page = c.get(url("orders", prussia)).content.decode()
    assert "Forced march orders (6.3)" in page and "?unit=prussia-1" not in page  # (6.3.3)
    # What a forced march is and what to do when none is wanted, said on the page itself.
    assert "A forced march is one more march of up to 5 MPs" in page
    assert "None to give? Press Ready with no orders." in page
    r = c.post(url("save_march", prussia), in_phase(prussia, {"unit": "prussia-1", "path": "4",
                                            "phase": "forced-march"}))  # fmt: skip
    assert r.status_code == 400
    r = c.post(url("save_march", prussia), in_phase(prussia, {"unit": "frederick", "path": "4",
                                            "phase": "forced-march"}))  # fmt: skip
    assert r.status_code == 302
    forced = OrderSheet.objects.get(window=nxt, seat=prussia)
    assert forced.draft == {"forced_march": [{"unit": "frederick", "path": "4"}]}
    for s in rules_campaign.seats.filter(reserve=False):
        if nxt.owes(s):
            ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    latest = rules_campaign.latest_version()
    state = latest.state
    assert state["leaders"]["frederick"]["hex"] in ("0402", "0502")  # the die decides (6.3)
    after = rules_campaign.open_window()
    assert after is not None and after.phase == "march" and after.turn == 2
    # The report tells the Prussian player what happened, the map follows the version.
    page = c.get(url("report_version", prussia, window.version.number + 1)).content.decode()
    assert "Frederick" in page
    draw_wanted_map_pictures.delay()  # the worker draws what the resolution asked for
    img = c.get(url("map", prussia, latest.number))
    assert img.status_code == 200 and img["Content-Type"] == "image/png"
    history = c.get(url("history", prussia)).content.decode()
    assert history.count("<li>") >= 5


def test_the_handover_page_holds_everything_the_seat_knows(
    rules_campaign, player, django_capture_on_commit_callbacks
):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    prussia = seat(rules_campaign, "prussia")
    page = client_for(player).get(url("handover", prussia)).content.decode()
    assert str(FREDERICK_POINTS) in page  # own forces with their points
    assert "Berlin: 983 points" in page  # own garrisons
    assert "Charles at 1007" in page  # every leader's position (3.1.1)
    assert "Turn 1" in page and "has deployed" in page  # reports, turn by turn
