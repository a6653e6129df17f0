# ruff: noqa: F811 (pytest fixtures imported from the browser tests)
"""The calendar's part of the dashboard fits a 390 px phone: the long address wraps, nothing
runs past the right edge."""

import pytest
from django.urls import reverse

from feeds.services import tokens
from tests.browser.test_pages_fit import CUT_OFF, fits
from tests.browser.test_play_phone import browser, sign_in  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_calendar_on_the_dashboard_fits_a_phone(
    browser, live_server, prussia, player, tmp_path
):
    links = tokens.links(tokens.renew_seat(prussia, player))
    sign_in(browser, live_server, player)
    browser.get(live_server.url + reverse("orders:dashboard", args=[prussia.code]) + "#calendar")
    section = browser.find_element("id", "calendar")
    assert links.https in section.text
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", section)
    browser.save_screenshot(str(tmp_path / "calendar.png"))
    width, screen = fits(browser)
    assert width <= screen
    assert browser.execute_script(CUT_OFF) == []
