# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""Whose move it is once a result is entered, as each side of the battle reads it on his
phone: the side that must answer is told so on its dashboard and the battle page (it read
"waiting for the other side" and "Nothing is owed from you", as though it waited on the
enemy), its email carries the result it is asked to confirm, and a dispute tells the side that
entered the result why, and that it owes nothing more.

Prussia (``player``) and Austria (``other``) fought at 0502; the fixtures are in test_battles.
"""

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    battle,
    battle_map,
    campaign,
    page,
    post,
)
from tests.orders.test_play_fixtures import client_for, seat, url

pytestmark = pytest.mark.django_db

RESULT = {
    "loser": "austrian",
    "outcome": "defeated",
    "loss_austria": 400,
    "prisoners_austria": 100,
    "loss_prussia": 250,
    "captured": ["daun"],
}


def status_of(body: str) -> str:
    found = re.search(r'<p id="battle-status"[^>]*>(.*?)</p>', body, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else ""


def text(body: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", body).split())


def test_the_side_that_must_answer_is_told_so(battle, player, other):
    campaign = battle.campaign
    post(client_for(player), "enter", battle, RESULT)
    theirs = page(client_for(other), "battle", battle).content.decode()
    assert status_of(theirs).startswith(
        "Status: Result entered by the Prussian army: yours to confirm or dispute."
    )
    mine = page(client_for(player), "battle", battle).content.decode()
    assert status_of(mine).startswith(
        "Status: Result entered by your side, waiting for the Austrian army to confirm or "
        "dispute it."
    )
    # the dashboards: the Austrian owes an answer, with the battle a tap away
    austria = seat(campaign, "austria")
    board = text(client_for(other).get(url("dashboard", austria)).content.decode())
    assert "Nothing is owed from you" not in board
    assert (
        f"The Prussian player entered the result of {battle.named}: yours to confirm or dispute."
        in board
    )
    assert "waiting for the other side" not in board
    assert "result entered by the Prussian army: yours to confirm or dispute" in board
    link = reverse("battles:battle", args=[campaign.code, battle.code])
    assert (
        f'class="button" href="{link}"'
        in client_for(other).get(url("dashboard", austria)).content.decode()
    )
    prussia = seat(campaign, "prussia")
    board = text(client_for(player).get(url("dashboard", prussia)).content.decode())
    assert "yours to confirm" not in board
    assert "result entered by your side, waiting for the Austrian army" in board


def test_the_email_asking_to_confirm_says_what_was_entered(
    battle, player, other, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        post(client_for(player), "enter", battle, RESULT)
    (asked,) = [m for m in mail.outbox if m.extra_headers["X-DGK-Kind"] == "battle:result-entered"]
    assert asked.to == [other.email]
    body = " ".join(asked.body.split())
    assert "Austrian losses: 400 points (9.5), of which 100 taken prisoner (13.2)." in body
    assert "Prussian losses: 250 points (9.5)." in body and "Daun was captured" in body
    assert "dispute it there, saying what is wrong, and the organiser settles it" in body


def test_a_dispute_tells_the_side_that_entered_it(
    battle, player, other, ally, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        post(client_for(player), "enter", battle, RESULT)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = post(client_for(other), "dispute", battle, {"entry": 1, "reason": "Daun escaped."})
    assert r.status_code == 302
    by_kind = {m.extra_headers["X-DGK-Kind"]: m for m in mail.outbox}
    assert set(by_kind) == {"battle:result-disputed", "battle:result-contested"}, by_kind
    assert by_kind["battle:result-disputed"].to == [organiser.email]
    told = by_kind["battle:result-contested"]
    assert told.to == [player.email]  # not the disputing side, not Hanover (not in it)
    short = battle.short
    assert told.subject.endswith(f"the result you entered of {short} is disputed")
    body = " ".join(told.body.split())
    assert "is disputed: Daun escaped." in body
    assert "The organiser settles it; nothing is owed from you" in body
