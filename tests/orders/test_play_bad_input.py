# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Malformed and hostile order submissions: a clear message, never a server error, and the draft
that was there before is kept."""

import pytest

from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (
    client_for,
    deploy_everyone,
    deploy_seat,
    in_phase,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db

GOOD = {"unit": "frederick", "path": "4", "marches": "1", "phase": "march"}


@pytest.fixture
def marching(rules_campaign, player, django_capture_on_commit_callbacks):
    """The march phase is open and Prussia has one order in its draft."""
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    assert c.post(url("save_march", prussia), in_phase(prussia, GOOD)).status_code == 302
    sheet = OrderSheet.objects.get(seat=prussia, window=rules_campaign.open_window())
    return prussia, c, sheet


BAD_MARCHES = [
    ({**GOOD, "unit": "daun"}, "not one of your leaders"),
    ({**GOOD, "unit": ""}, "required"),
    ({**GOOD, "unit": "x" * 5000}, "at most 40"),
    ({**GOOD, "path": "7-8-9"}, "direction codes are"),
    ({**GOOD, "path": "4" * 500}, "at most 200"),
    ({**GOOD, "path": "<script>alert(1)</script>"}, "direction codes are"),
    ({**GOOD, "marches": "3"}, "valid choice"),
    ({**GOOD, "marches": "two"}, "valid choice"),
    ({**GOOD, "meeting": "charge"}, "valid choice"),
    ({**GOOD, "drop": "seydlitz"}, "write a drop-off as"),
    ({**GOOD, "drop": "nobody 0405"}, "not a leader"),
    ({**GOOD, "drop": "seydlitz 99999"}, "seydlitz 99999"),
    ({}, "required"),
]


@pytest.mark.parametrize(("data", "message"), BAD_MARCHES)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_bad_march_order_is_explained_and_the_draft_kept(marching, data, message, htmx):
    prussia, c, sheet = marching
    before = OrderSheet.objects.get(id=sheet.id).draft
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    r = c.post(url("save_march", prussia), in_phase(prussia, data), **headers)
    assert r.status_code == (200 if htmx else 400)
    body = r.content.decode()
    assert message in body, body[-3000:]
    assert "could not be saved" in body
    assert "<script>alert(1)</script>" not in body
    assert OrderSheet.objects.get(id=sheet.id).draft == before


@pytest.mark.parametrize(
    "data",
    [
        {"source": "garrison", "target": "frederick", "points": "-5"},
        {"source": "garrison", "target": "frederick", "points": "many"},
        {"source": "garrison", "target": "frederick", "points": "1" * 40},
        {"source": "daun", "target": "frederick", "points": "50"},
        {"source": "garrison"},
    ],
)
def test_a_bad_transfer_is_explained_and_the_draft_kept(marching, data):
    prussia, c, sheet = marching
    before = OrderSheet.objects.get(id=sheet.id).draft
    r = c.post(url("save_transfer", prussia), in_phase(prussia, data))
    assert r.status_code == 400
    assert "could not be saved" in r.content.decode()
    assert OrderSheet.objects.get(id=sheet.id).draft == before


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "bombard", "unit": "frederick"},
        {"kind": "march", "index": "not a number"},
        {"kind": "transfers", "index": "99"},
    ],
)
def test_a_bad_removal_changes_nothing(marching, data):
    prussia, c, sheet = marching
    before = OrderSheet.objects.get(id=sheet.id).draft
    r = c.post(url("remove_order", prussia), in_phase(prussia, data))
    assert r.status_code == 302
    assert OrderSheet.objects.get(id=sheet.id).draft == before


@pytest.mark.parametrize(
    "draft",
    [
        ["not", "an", "object"],
        {"march": "everyone east"},
        {"march": [{"unit": 5, "path": None}, "x", None]},
        {"march": [{"unit": "frederick", "path": "9-9-9"}]},
        {"deployment": {"prussia": "everywhere"}},
        "a string",
    ],
)
def test_a_damaged_draft_still_renders(marching, draft):
    prussia, c, sheet = marching
    OrderSheet.objects.filter(id=sheet.id).update(draft=draft)
    for name in ("dashboard", "orders", "deploy", "handover"):
        r = c.get(url(name, prussia) + "?unit=frederick")
        assert r.status_code == 200, name
    r = c.post(url("save_march", prussia), in_phase(prussia, GOOD))
    assert r.status_code == 302
    assert OrderSheet.objects.get(id=sheet.id).draft["march"][-1]["unit"] == "frederick"


def test_a_hostile_preview_is_explained(marching):
    prussia, c, _sheet = marching
    r = c.get(url("orders", prussia) + "?unit=frederick&path=1-2-x")
    assert r.status_code == 200
    assert "direction codes are" in r.content.decode()
    r = c.get(url("orders", prussia) + "?unit=../../etc&path=4")
    assert r.status_code == 200


def test_orders_after_the_phase_resolved_are_refused_politely(
    marching, django_capture_on_commit_callbacks
):
    prussia, c, sheet = marching
    campaign = prussia.campaign
    for s in campaign.seats.filter(reserve=False):
        if sheet.window.owes(s):
            with django_capture_on_commit_callbacks(execute=True):
                client_for(s.user).post(url("ready", s), in_phase(s))
    sheet.refresh_from_db()
    assert sheet.locked
    before = sheet.draft
    r = c.post(url("save_march", prussia), in_phase(prussia, {**GOOD, "path": "1"}), follow=True)
    assert r.status_code == 200
    assert "The march phase has resolved" in r.content.decode()
    sheet.refresh_from_db()
    assert sheet.draft == before


NO_PHASE_FORMS = [
    ("save_march", GOOD),
    ("save_transfer", {"source": "garrison", "target": "frederick", "points": "5"}),
    ("remove_order", {"kind": "march", "unit": "frederick"}),
    ("decide", {"kind": "battle", "hex": "0302", "army": "prussia", "choice": "fight"}),
    ("ready", {}),
]


@pytest.mark.parametrize(("name", "data"), NO_PHASE_FORMS)
@pytest.mark.parametrize("phase", [None, ""])
def test_a_form_that_does_not_say_its_phase_is_refused_and_the_draft_kept(
    marching, name, data, phase
):
    """Ready and every order form carry the phase they were written for: without it (missing
    or empty) nothing is saved or submitted, the player is told why, and the draft stays."""
    prussia, c, sheet = marching
    before = OrderSheet.objects.get(id=sheet.id).draft
    body = {k: v for k, v in data.items() if k != "phase"}
    if phase is not None:
        body["phase"] = phase
    r = c.post(url(name, prussia), body, follow=True)
    assert r.status_code == 200
    assert "did not say which phase it was written for" in r.content.decode()
    sheet.refresh_from_db()
    assert sheet.draft == before and not sheet.ready


def test_a_deployment_form_without_its_phase_is_refused(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    deploy_seat(prussia, c)
    sheet = OrderSheet.objects.get(seat=prussia)
    before = sheet.draft
    key = prussia.leaders["prussia"][0]
    data = {"army": "prussia", "action": "leader", "unit": key, "hex": "0301", "points": "5"}
    for name, body in (("deploy", data), ("ready", {})):
        r = c.post(url(name, prussia), body, follow=True)
        assert "did not say which phase it was written for" in r.content.decode(), name
    sheet.refresh_from_db()
    assert sheet.draft == before and not sheet.ready


def test_take_back_without_its_phase_keeps_the_orders_submitted(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    deploy_seat(prussia, c)
    assert c.post(url("ready", prussia), in_phase(prussia)).status_code == 302
    r = c.post(url("unready", prussia), follow=True)
    assert "did not say which phase it was written for" in r.content.decode()
    assert OrderSheet.objects.get(seat=prussia).ready
    c.post(url("unready", prussia), in_phase(prussia))
    assert not OrderSheet.objects.get(seat=prussia).ready


def test_a_ready_written_for_an_earlier_phase_is_refused(marching):
    prussia, c, sheet = marching
    r = c.post(url("ready", prussia), {"phase": "deployment"}, follow=True)
    assert "The deployment phase has resolved" in r.content.decode()
    sheet.refresh_from_db()
    assert not sheet.ready


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"army": "austria", "action": "leader", "unit": "daun", "hex": "1007"}, "own armies"),
        ({"army": "prussia", "action": "leader", "unit": "frederick", "hex": "zz"}, "hex"),
        (
            {
                "army": "prussia",
                "action": "leader",
                "unit": "frederick",
                "hex": "0302",
                "points": "1e9",
            },
            "points",
        ),  # fmt: skip
        (
            {"army": "prussia", "action": "leader", "unit": "daun", "hex": "0302", "points": "5"},
            "not one of your chosen leaders",
        ),  # fmt: skip
        ({"army": "prussia", "action": "train", "unit": "austria-1", "hex": "0302"}, "siege"),
        ({"army": "prussia", "action": "nuke"}, "Unknown deployment action"),
        ({"army": "prussia", "action": "garrison", "city": "Berlin", "points": "-1"}, "points"),
    ],
)
def test_a_bad_deployment_is_explained_and_the_draft_kept(rules_campaign, player, data, message):
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    deploy_seat(prussia, c)
    sheet = OrderSheet.objects.get(seat=prussia)
    before = sheet.draft
    r = c.post(url("deploy", prussia), in_phase(prussia, data))
    assert r.status_code == 400
    body = r.content.decode()
    assert message in body, body[-2000:]
    assert "could not be saved" in body
    sheet.refresh_from_db()
    assert sheet.draft == before
