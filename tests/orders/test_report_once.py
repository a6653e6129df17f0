# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""A seat's pages tell each fact once, and each rule once (8; the playthrough of three friends:
"…the garrison at 6738 has 50 points" two and three times, "(9) (9)", "(10.1) (10.1)").

The reconnaissance phase keeps each observation twice, in the version's reports and as a private
event that carries it; the report, the everything-known page, the dashboard and the emails list
it once, with its rule. A line whose words cite its rule gets no second one.
"""

import re

import pytest
from django.core.cache import cache

from campaign.models import Event
from campaign.services import viewcache
from mail.services.email import seat_report
from tests.orders.test_play_fixtures import (
    client_for,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db

SEEN = (
    "Reconnaissance by the Prussian force under Frederick at 0302: the Swedish garrison at 0601 "
    "has 50 points."
)
FOUGHT = "A battle is fought at 0302 between Frederick and Ehrensvard (9)."
ROUTED = (
    "The Swedish force of Ehrensvard routs 4 MPs from 0302 to 0601: it reaches the friendly "
    "fortress of Stralsund and goes inside (10.1.4) (10.1.3, 10.1.4-10.1.6). Route 0302-0601."
)


@pytest.fixture
def told(marching):
    """The latest version keeps one observation of Prussia's twice (its report and its event),
    a battle and a rout whose words cite their rules."""
    version = marching.latest_version()
    report = {
        "to": "prussia", "hex": "0601", "army": "sweden", "commander": None, "points": 50,
        "inside": True, "garrison": True, "text": SEEN, "rule": "8.1", "turn": version.turn,
    }  # fmt: skip
    version.reports = [*(version.reports or []), report]
    version.save(update_fields=["reports"])
    data = {k: report[k] for k in ("hex", "army", "commander", "points", "inside", "garrison")}
    rows = [
        ("8.1", "reconnaissance", SEEN, False, ["prussia"], {**data, "distance": 2}),
        ("9", "battle", FOUGHT, True, [], {}),
        ("10.1.3", "retreat", ROUTED, True, [], {}),
    ]
    for seq, (rule, kind, text, public, armies, data) in enumerate(rows, 900):
        Event.objects.create(
            campaign=marching, version=version, seq=seq, rule=rule, kind=kind, text=text,
            public=public, armies=armies, data=data,
        )  # fmt: skip
    cache.clear()  # (the views the resolution kept were made before these rows)
    viewcache.forget_views()
    return marching


TWICE = re.compile(r"\(([^()<>]+)\)\.?\s*(?:<span class=\"rule\">)?\(\1\)")


@pytest.mark.parametrize("page", ["report", "handover", "dashboard"])
def test_a_page_tells_a_reconnaissance_once_and_a_rule_once(told, player, page):
    prussia = seat(told, "prussia")
    html = client_for(player).get(url(page, prussia)).content.decode()
    assert html.count("the Swedish garrison at 0601 has 50 points") == 1, page
    assert FOUGHT in html and "fortress of Stralsund" in html
    assert not TWICE.search(html), TWICE.search(html)
    assert "(10.1.3, 10.1.4-10.1.6). Route 0302-0601. (10.1.3)" not in html


def test_the_report_page_gives_the_reconnaissance_its_rule(told, player):
    html = client_for(player).get(url("report", seat(told, "prussia"))).content.decode()
    assert f'{SEEN} <span class="rule">(8.1)</span>' in html
    assert f"{FOUGHT}</li>" in html


def test_the_email_report_tells_it_once(told):
    prussia = seat(told, "prussia")
    lines = seat_report(prussia, told.latest_version().number - 1)
    assert [line for line in lines if "Swedish garrison" in line] == [f"{SEEN} (8.1)"]
    assert FOUGHT in lines and ROUTED in lines


def test_an_enemy_is_told_nothing_of_it(told, other):
    html = client_for(other).get(url("report", seat(told, "austria"))).content.decode()
    assert "Swedish garrison at 0601" not in html
    assert FOUGHT in html
