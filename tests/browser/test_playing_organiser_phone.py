# ruff: noqa: F811 (the browser fixture is imported)
"""The organiser who plays a seat, on his phone: Debian's chromium at 390x844.

A 3-player campaign made from the set-up form with "I also play a seat" (Prussia) and "The
organiser may read every letter"; the first march is open, and the Austrian player has saved
orders without pressing Ready (his secret, 6). The organiser opens his board and taps "Resolve
now…": the page fits the screen, the letters line says why he does not read them (no link),
and the confirmation says, in general, what happens to orders saved without Ready, naming no
seat. Screenshots go to ``artifacts/playing-organiser-*.png`` (git-ignored).
"""

import pytest
from django.urls import reverse

from campaign.models import Campaign
from orders.models import OrderSheet
from tests.browser.test_play_phone import ARTIFACTS, browser, click, sign_in  # noqa: F401
from tests.browser.test_setup_phone import no_overflow
from tests.fog import scenarios
from tests.fog.test_playing_organiser import _first_leader, _save_march

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"playing-organiser-{name}.png"))


@pytest.fixture
def scene(organiser, django_capture_on_commit_callbacks):
    scene = scenarios.march_phase(
        organiser, django_capture_on_commit_callbacks,
        umpire_plays="on", organiser_seat="prussia", press_moderated="on",
    )  # fmt: skip
    scene.a.user = organiser  # (the scenario seats a player of its own in every seat)
    scene.a.save(update_fields=["user"])
    scene.campaign.refresh_from_db()
    assert scene.campaign.umpire_plays and scene.campaign.options.get("press_moderated")
    return scene


def test_the_playing_organiser_reads_his_board_and_resolve_now_without_a_seats_secret(
    browser, live_server, organiser, scene
):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    campaign: Campaign = scene.campaign
    _save_march(scene.b, _first_leader(scene.b), "4")  # saved, Ready not pressed
    assert not OrderSheet.objects.get(window=scene.window, seat=scene.b).ready
    sign_in(browser, live_server, organiser)
    browser.get(live_server.url + reverse("organiser_board", args=[campaign.code]))
    wait = WebDriverWait(browser, 20)
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "a[href$='/organiser/resolve/']"))
    shot(browser, "board")
    assert no_overflow(browser, "board") == []
    page = browser.find_element(By.TAG_NAME, "body").text
    assert "You play a seat, so you do not read them." in page
    letters = reverse("all_letters", args=[campaign.code])
    assert not browser.find_elements(By.CSS_SELECTOR, f"a[href='{letters}']")

    click(wait, By.CSS_SELECTOR, "a[href$='/organiser/resolve/']")
    wait.until(lambda d: "Resolve now" in d.title or "resolve" in d.current_url)
    shot(browser, "resolve-now")
    assert no_overflow(browser, "resolve now") == []
    page = browser.find_element(By.TAG_NAME, "body").text
    assert "You play a seat, so whose are saved is not shown to you" in page, page
    assert "saved orders but did not press Ready" not in page, page
    assert not {"Austrian", "French"} & set(page.split()), page  # (no seat named)
