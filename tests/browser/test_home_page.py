# ruff: noqa: F401, F811 (pytest fixtures imported from other test modules)
"""The home page as a newcomer sees it, in Debian's chromium: on a 390x844 phone (nothing wider
than the screen, the phone's cut of each picture) and on a 1280 px desktop (the wide pictures,
the words beside the map). Screenshots go to docs/screenshots/home-phone.png and
home-desktop.png (committed; look at them)."""

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.browser.test_pages_fit import CUT_OFF, SCREENSHOTS
from tests.browser.test_play_phone import browser, start_chromium

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PICTURES = """
return Array.from(document.querySelectorAll('main img')).map(i => [
  i.currentSrc.split('/').pop(), i.complete && i.naturalWidth > 0,
  Math.round(i.getBoundingClientRect().width)]);
"""


@pytest.fixture
def desktop():
    yield from start_chromium(1280, 900, phone=False, flags=("--hide-scrollbars",))


def open_home(driver, live_server) -> list:
    """The home page loaded with its pictures (lazy ones scrolled into view first)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(live_server.url + "/")
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    WebDriverWait(driver, 30).until(
        lambda d: all(loaded for _, loaded, _ in d.execute_script(PICTURES))
    )
    driver.execute_script("window.scrollTo(0, 0)")
    return driver.execute_script(PICTURES)


def test_the_home_page_on_a_phone(browser, live_server):
    pictures = open_home(browser, live_server)
    assert [name for name, _, _ in pictures] == ["map-phone.png", "briefing-phone.png"]
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, f"{width} px wide on a 390 px screen"
    assert not browser.execute_script(CUT_OFF)
    assert all(shown <= 390 for _, _, shown in pictures)
    # What a newcomer reads first: what the site does and where to log in.
    text = browser.find_element("css selector", "main").text
    assert "secret orders" in text and "A player" in text and "How a club starts" in text
    assert browser.find_element("css selector", "#log-in input[name=username]").is_displayed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "home-phone.png"))


def test_the_home_page_on_a_desktop(desktop, live_server):
    pictures = open_home(desktop, live_server)
    assert [name for name, _, _ in pictures] == ["map.png", "briefing.png"]
    assert desktop.execute_script("return document.documentElement.scrollWidth") <= 1280
    # the words and the map side by side
    words, picture = (
        desktop.find_element("css selector", selector).rect
        for selector in (".home-intro > div", ".home-intro .home-picture")
    )
    assert picture["x"] >= words["x"] + words["width"] and picture["y"] < words["y"] + 200
    desktop.save_screenshot(str(SCREENSHOTS / "home-desktop.png"))
