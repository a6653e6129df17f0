# ruff: noqa: F811 (pytest fixtures imported from other test modules)
"""The dashboard's "Since you last looked" on a 390 px phone (Debian's chromium): after two
turns away, the list fits the screen (no sideways scrolling, nothing cut off, axe-core finds
nothing against WCAG 2.1 AA), each line a link;
after the visit it says "Nothing new." ``docs/screenshots/catch-up.png`` with
``DGK_SCREENSHOTS=1``."""

import os
from pathlib import Path

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign.services import organiser as organiser_tools
from letters.services import press
from tests.browser.test_pages_fit import CUT_OFF, fits
from tests.browser.test_play_phone import ARTIFACTS, browser, sign_in  # noqa: F401
from tests.orders.test_catch_up import resolve, told
from tests.standing import (  # noqa: F401 (fixtures)
    ally,
    campaign,
    new_campaign,
    now,
    organiser,
    other,
    player,
    seat_of,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "catch-up.png"


def test_the_catch_up_fits_a_phone(browser, axe, live_server, campaign, organiser, player):
    from selenium.webdriver.common.by import By

    prussia, hanover = seat_of(campaign, "prussia"), seat_of(campaign, "hanover")
    dashboard = live_server.url + reverse("orders:dashboard", args=[prussia.code])
    sign_in(browser, live_server, player)
    browser.get(dashboard)  # the visit before the two turns away
    assert "Your first visit" in browser.find_element(By.CSS_SELECTOR, ".catch-up").text

    # Each version's events are written in its resolution's transaction, before the worker
    # warms the seats' pages on commit (and keeps their catch-up, docs/catch-up.md): so here.
    with transaction.atomic():
        resolve(campaign)
        turn1 = campaign.latest_version()
        told(turn1, "attrition", "Frederick's force at Schweidnitz loses 160 points: 5% siege "
             "+ 10% winter", armies=["prussia"])  # fmt: skip
        told(turn1, "attrition", "Daun's force loses 240 points", armies=["austria"])  # secret
    with transaction.atomic():
        resolve(campaign)
        turn2 = campaign.latest_version()
        told(turn2, "leader-killed", "Schwerin is killed leading the charge at Prague",
             armies=["prussia"])  # fmt: skip
    later = timezone.now()  # after the visit
    press.send(hanover, [prussia.id], "Meet me at Minden.", now=later)
    organiser_tools.extend_deadline(
        campaign, organiser, 24, now=later, reason="Ferdinand is at a wedding"
    )

    browser.get(dashboard)
    block = browser.find_element(By.CSS_SELECTOR, ".catch-up")
    text = block.text
    assert "Since you last looked" in text and "Your last visit" in text
    assert "Turn 1: 10 phases resolved" in text and "Schwerin is killed" in text
    assert "A letter from the" in text and "Extended the march deadline" in text
    assert "Daun" not in text
    links = block.find_elements(By.CSS_SELECTOR, "li a")
    assert links and all(a.get_attribute("href") for a in links)
    width, screen = fits(browser)
    assert width <= screen, f"the dashboard is {width} px wide on a {screen} px screen"
    assert not browser.execute_script(CUT_OFF)
    axe.check(browser, "catch-up")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "catch-up.png"))
    if os.getenv("DGK_SCREENSHOTS") == "1":
        DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(DOCS_SHOT))

    browser.get(dashboard)
    assert "Nothing new." in browser.find_element(By.CSS_SELECTOR, ".catch-up").text
