"""A picture of the site opened on its own (a tap on "the map as a picture", a link in an
email): Chromium shows it in its image viewer, a page of its own that styles the picture inline.
The site's Content Security Policy, strict for its pages, must not refuse that viewer's style:
a raster picture carries a policy of its own (``dgk.policy``), and the console stays clean (the
browser fixture fails a test on any breach)."""

import pytest
from selenium.webdriver.common.by import By

from tests.browser.test_play_phone import start_chromium

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser():
    yield from start_chromium(390, 844)


def test_the_map_picture_opened_alone_shows_with_no_policy_breach(browser, live_server):
    browser.get(live_server.url + "/map/map.png")
    (picture,) = browser.find_elements(By.TAG_NAME, "img")
    assert browser.execute_script("return arguments[0].naturalWidth", picture) > 100
