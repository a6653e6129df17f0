# ruff: noqa: F811 (the browser and tiles fixtures are imported)
"""*The war* on a phone (issue 28, docs/season-end.md): Debian's chromium at 390x844 against the
live server. A season on the bundled map played to its end by the automatic players; the
Prussian opens *The war*, steps back with Earlier, plays the season with the play control, and
reads the charts. Nothing overflows the page; the map draws every force of every army with its
points and the moves of the phase.

Screenshots go to ``artifacts/``; with ``DGK_SCREENSHOTS=1`` also to
``docs/screenshots/war-*.png``.
"""

import os
import shutil
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from campaign.models import CampaignStatus, StateVersion
from campaign.services import organiser as organiser_service
from tests.browser.test_map_widget import tiles  # noqa: F401
from tests.browser.test_play_phone import ARTIFACTS, browser, sign_in  # noqa: F401
from tests.seasons.real_season import play_real_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
LOADED = (
    "const w = document.getElementById('mapwidget')._widget;"
    " return !!(w && w.data) && !w.el.dataset.loading;"
)
SHOWN = "return document.getElementById('mapwidget')._widget.data.version;"


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"war-{name}.png"))
    if os.environ.get("DGK_SCREENSHOTS") == "1":
        shutil.copy(ARTIFACTS / f"war-{name}.png", DOCS / f"war-{name}.png")


def go_to(driver, wait, number: int) -> None:
    """The phase ``number`` on the map, looked at where it happened (a finger's drag)."""
    driver.execute_script(
        "const w = document.getElementById('mapwidget')._widget; w.version = String(arguments[0]);"
        " w.centred = false; w.load();",  # centred on the phase's battles or moves
        number,
    )
    wait.until(lambda d: d.execute_script(LOADED) and d.execute_script(SHOWN) == number)


def no_overflow(driver) -> None:
    width = driver.execute_script("return document.documentElement.scrollWidth;")
    assert width <= 390, width


def test_the_war_on_a_phone(
    browser, live_server, tiles, organiser, django_capture_on_commit_callbacks
):
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=18, name="Phone war", prefix="pw"
    )
    campaign.refresh_from_db()
    if campaign.status != CampaignStatus.ENDED:
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    prussian = campaign.seats.get(power="prussia").user
    sign_in(browser, live_server, prussian)
    wait = WebDriverWait(browser, 30)
    browser.get(live_server.url + reverse("war", args=[campaign.code]))
    wait.until(lambda d: d.execute_script(LOADED))
    no_overflow(browser)

    # a phase with a battle (the march that brought it), then the last
    versions = list(StateVersion.objects.filter(campaign=campaign).order_by("number"))
    battle = next(v for v in versions if v.events.filter(kind="battle", public=True).exists())
    marched = next(v for v in versions if v.turn == battle.turn and v.resolved_phase == "march")
    browser.execute_script("document.getElementById('map').scrollIntoView();")
    go_to(browser, wait, marched.number)
    where = battle.events.filter(kind="battle", public=True).first().data["hex"]
    browser.execute_script(
        "document.getElementById('mapwidget')._widget.show(arguments[0], 2);", where
    )  # the march that brought the battle, where it was fought
    arrows = browser.find_elements(By.CSS_SELECTOR, "#mapwidget path.mw-war")
    assert arrows, "the march phase draws the moves of every army"
    labels = browser.execute_script(
        "return document.getElementById('mapwidget')._widget.data.counters"
        ".filter(c => c.kind === 'force').map(c => c.army);"
    )
    assert len(set(labels)) >= 5  # every army's forces, not only the Prussian's
    shot(browser, "march")
    go_to(browser, wait, battle.number)
    shot(browser, "battle")

    # Earlier steps back one phase; Play steps forward by itself; Pause stops it
    browser.find_element(By.CSS_SELECTOR, "[data-go=prev]").click()
    wait.until(lambda d: d.execute_script(SHOWN) == battle.number - 1)
    browser.find_element(By.CSS_SELECTOR, "[data-go=play]").click()
    wait.until(lambda d: d.execute_script(SHOWN) >= battle.number + 1)
    browser.find_element(By.CSS_SELECTOR, "[data-go=play]").click()
    assert (
        browser.find_element(By.CSS_SELECTOR, "[data-go=play]").get_attribute("aria-pressed")
        == "false"
    )
    size = browser.find_element(By.CSS_SELECTOR, "[data-go=play]").size
    assert size["height"] >= 44 and size["width"] >= 44  # a thumb's target

    browser.execute_script("document.getElementById('charts').scrollIntoView();")
    no_overflow(browser)
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.war-chart")
    assert len(charts) == 4 and all(c.size["width"] <= 390 for c in charts)
    shot(browser, "charts")

    # the timeline, then a phase's orders and dice opened
    browser.execute_script(
        "document.getElementById('ch-timeline-t').closest('figure').scrollIntoView();"
    )
    no_overflow(browser)
    shot(browser, "timeline")
    phase = browser.find_element(By.CSS_SELECTOR, f"#v{marched.number}")
    browser.execute_script("arguments[0].open = true; arguments[0].scrollIntoView();", phase)
    assert "marches" in phase.text and "Prussian player" in phase.text
    no_overflow(browser)
    shot(browser, "orders")

    # the book of the season, tapped at the top of the page: not printed yet (no worker in
    # the tests), the page says so and looks again by itself
    browser.execute_script("window.scrollTo(0, 0);")
    shot(browser, "top")
    book = browser.find_element(By.CSS_SELECTOR, ".war-book a")
    assert book.text == "A4 (PDF)" and book.size["height"] >= 44  # a thumb's target
    book.click()
    wait.until(lambda d: "being printed" in d.find_element(By.TAG_NAME, "main").text)
    no_overflow(browser)
    shot(browser, "book-wait")
