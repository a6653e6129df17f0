# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Every player URL × (organiser, own seat, other seat, ally, outsider, anonymous).

The URLs are the Prussian seat's. The organiser of these campaigns is a non-playing umpire:
he may read every seat's pages but never write a seat's orders (he enters orders on the
organiser's own pages, recorded as such). Anyone else gets 403; anonymous visitors the login.
"""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (
    client_for,
    play_map,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db

READ = [
    ("dashboard", ()),
    ("orders", ()),
    ("deploy", ()),
    ("report", ()),
    ("report_version", (0,)),
    ("history", ()),
    ("handover", ()),
    ("map", (0,)),
    ("view_json", (0,)),
]
WRITE = [
    ("save_march", {"unit": "frederick", "path": "4"}),
    ("remove_order", {"kind": "march", "unit": "frederick"}),
    ("save_transfer", {"source": "garrison", "target": "frederick", "points": "50"}),
    (
        "deploy",
        {
            "army": "prussia",
            "action": "leader",
            "unit": "frederick",
            "hex": "0302",
            "points": "100",
        },
    ),
    ("decide", {"kind": "battle", "hex": "0302", "army": "prussia", "choice": "fight"}),
    ("ready", {}),
]
WHO = ["organiser", "own", "other", "ally", "outsider", "anonymous"]
READ_EXPECTED = {
    "organiser": 200,
    "own": 200,
    "other": 403,
    "ally": 403,
    "outsider": 403,
    "anonymous": 302,
}
WRITE_EXPECTED = {
    "organiser": 403,
    "own": 302,
    "other": 403,
    "ally": 403,
    "outsider": 403,
    "anonymous": 302,
}


@pytest.fixture
def people(organiser, player, other, ally, outsider):
    return {"organiser": organiser, "own": player, "other": other, "ally": ally,
            "outsider": outsider}  # fmt: skip


def _client(people, who: str) -> Client:
    return Client() if who == "anonymous" else client_for(people[who])


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize(("name", "args"), READ)
def test_reading_a_seat_page(rules_campaign, people, who, name, args):
    prussia = seat(rules_campaign, "prussia")
    r = _client(people, who).get(reverse(f"orders:{name}", args=[prussia.code, *args]))
    expected = READ_EXPECTED[who]
    if name == "map" and expected == 200:
        expected = 202  # the worker has not drawn the picture yet (test_map_pictures.py)
    assert r.status_code == expected, (who, name)
    if who == "anonymous":
        assert r["Location"].startswith(settings.LOGIN_URL)


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize(("name", "data"), WRITE)
def test_writing_a_seat_order(rules_campaign, people, who, name, data):
    prussia = seat(rules_campaign, "prussia")
    r = _client(people, who).post(reverse(f"orders:{name}", args=[prussia.code]), data)
    assert r.status_code == WRITE_EXPECTED[who], (who, name, r.content[:300])
    if who != "own":
        sheet = OrderSheet.objects.filter(seat=prussia).first()
        assert sheet is None or (sheet.draft == {} and not sheet.ready)


@pytest.mark.parametrize("name", ["dashboard", "orders", "report", "history", "handover"])
def test_it_rejects_the_wrong_method(rules_campaign, player, name):
    prussia = seat(rules_campaign, "prussia")
    r = client_for(player).post(reverse(f"orders:{name}", args=[prussia.code]))
    assert r.status_code == 405


@pytest.mark.parametrize("name", ["save_march", "remove_order", "save_transfer", "decide", "ready"])
def test_it_rejects_get_on_writes(rules_campaign, player, name):
    prussia = seat(rules_campaign, "prussia")
    r = client_for(player).get(reverse(f"orders:{name}", args=[prussia.code]))
    assert r.status_code == 405


def test_an_unknown_seat_is_404(rules_campaign, player):
    r = client_for(player).get(
        reverse("orders:dashboard", args=["00000000-0000-0000-0000-000000000000"])
    )
    assert r.status_code == 404


@pytest.mark.parametrize("who", WHO)
def test_the_list_of_ones_own_seats(rules_campaign, people, who):
    r = _client(people, who).get(reverse("orders:index"))
    assert r.status_code == (302 if who == "anonymous" else 200)
    if who == "own":
        assert rules_campaign.name in r.content.decode()
    if who == "outsider":
        assert rules_campaign.name not in r.content.decode()


UMPIRE_EXPECTED = {
    "organiser": 200,
    "own": 403,
    "other": 403,
    "ally": 403,
    "outsider": 403,
    "anonymous": 302,
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize(("name", "args"), [("umpire", ()), ("umpire_map", (0,))])
def test_only_the_non_playing_umpire_sees_everything(rules_campaign, people, who, name, args):
    r = _client(people, who).get(reverse(f"orders:{name}", args=[rules_campaign.code, *args]))
    expected = UMPIRE_EXPECTED[who]
    if name == "umpire_map" and expected == 200:
        expected = 202  # not drawn yet
    assert r.status_code == expected, (who, name)


def test_a_playing_organiser_is_no_umpire(rules_campaign, organiser):
    rules_campaign.umpire_plays = True
    rules_campaign.save()
    r = client_for(organiser).get(reverse("orders:umpire", args=[rules_campaign.code]))
    assert r.status_code == 403
    prussia = seat(rules_campaign, "prussia")
    r = client_for(organiser).get(reverse("orders:dashboard", args=[prussia.code]))
    assert r.status_code == 403


@pytest.mark.parametrize("name", ["dashboard", "orders", "deploy", "report", "handover"])
def test_pages_still_open_when_the_map_cannot_be_loaded(campaign, player, name):
    prussia = campaign.seats.get(power="prussia")
    r = client_for(player).get(reverse(f"orders:{name}", args=[prussia.code]))
    assert r.status_code == 200
    r = client_for(player).get(reverse("orders:map", args=[prussia.code, 0]))
    assert r.status_code == 503
