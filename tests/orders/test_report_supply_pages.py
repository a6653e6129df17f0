"""The season's first report on the seat's pages and in its email (a newcomer's playthrough on a
phone): the supply of its ten forces in one line, each force's own line under a ``<details>``
on a page (shut until tapped), the summary alone in the email; another seat reads none of it."""

import re

import pytest

from mail.services.email import seat_report
from tests.orders.test_play_fixtures import client_for, url
from tests.standing import load_demo

pytestmark = pytest.mark.django_db

SUMMARY = "All 10 Austrian and Imperial forces are supplied."
FOLDED = re.compile(r'<details class="folded"><summary>(.*?)</summary><ul>(.*?)</ul></details>')


@pytest.fixture
def demo(settings):
    """The demo: every army deployed and supplied, turn 1 open for march orders."""
    return load_demo(settings)


@pytest.mark.parametrize("page", ["report", "dashboard", "handover"])
def test_a_page_folds_the_routine_supply_under_one_line(demo, page):
    austria = demo.seats.get(power="austria")
    html = client_for(austria.user).get(url(page, austria)).content.decode()
    (folded,) = FOLDED.findall(html)
    summary, lines = folded
    assert summary == f'{SUMMARY} <span class="rule">(5)</span>'
    assert lines.count("<li>") == 10 and lines.count(" is supplied (") == 10
    assert "The Austrian force under Charles at 8061 is supplied" in lines
    assert html.count(" is supplied (") == 10  # each force's line once, under the summary


def test_the_email_tells_the_summary_alone(demo):
    austria = demo.seats.get(power="austria")
    lines = seat_report(austria, demo.versions.order_by("number").first().number)
    assert f"{SUMMARY} (5)" in lines
    assert not [line for line in lines if " is supplied (" in line]


def test_another_seat_reads_nothing_of_it(demo):
    prussia = demo.seats.get(power="prussia")
    html = client_for(prussia.user).get(url("report", prussia)).content.decode()
    assert "Austrian and Imperial forces" not in html
    assert "All 10 Prussian forces are supplied." in html
    lines = seat_report(prussia, demo.versions.order_by("number").first().number)
    assert not [line for line in lines if "Austrian" in line and "supplied" in line]
