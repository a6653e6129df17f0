# ruff: noqa: F811 (pytest fixtures imported from other test modules)
"""The battle page's forms on a 390x844 phone, as a hurried player meets them: a result the
site refuses comes back as typed, the problem in view; the status line follows the date and the
result as htmx swaps them in. Debian's chromium against the live server.

Screenshots (docs/screenshots/): battle-refused.png (the player's entry refused),
battle-settle-refused.png (the organiser's settlement refused, the page drawn again),
battle-dated.png (the organiser has just set the date). Each checked by axe (WCAG 2.1 A/AA).
"""

from pathlib import Path

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from battles.models import ResultEntry
from tests.battles.test_battles import battle, battle_map, campaign  # noqa: F401
from tests.browser.test_play_phone import browser, click, sign_in  # noqa: F401
from tests.standing import ally, now, organiser, other, player  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

IN_VIEW = """
const r = arguments[0].getBoundingClientRect();
return r.top >= 0 && r.top < window.innerHeight;
"""


def fill(driver, ids: str, values: dict) -> None:
    for name, value in values.items():
        element = driver.find_element(By.ID, ids + name)
        if element.tag_name == "select":
            Select(element).select_by_value(value)
        else:
            element.clear()
            element.send_keys(str(value))


# The tester's mistake: the Austrians lost 10 with 50 taken prisoner, the Prussians 99999.
MISTAKE = {
    "loser": "austrian",
    "outcome": "defeated",
    "loss_austria": 10,
    "prisoners_austria": 50,
    "loss_prussia": 99999,
}


def test_a_refused_result_comes_back_as_typed_with_the_problem_in_view(
    browser, axe, live_server, battle, player, organiser
):
    campaign = battle.campaign
    target = live_server.url + reverse("battles:battle", args=[campaign.code, battle.code])
    wait = WebDriverWait(browser, 20)
    sign_in(browser, live_server, player)
    browser.get(target)
    # nothing chosen for him
    assert Select(browser.find_element(By.ID, "id_loser")).first_selected_option.text.startswith(
        "Choose"
    )
    fill(browser, "id_", MISTAKE)
    click(wait, By.XPATH, "//button[text()='Enter the result']")
    alert = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result [role=alert]"))[0]
    assert "more than the 2213 present" in alert.text
    assert browser.execute_script(IN_VIEW, alert), "the problem is in view"
    for name, value in MISTAKE.items():
        assert browser.find_element(By.ID, f"id_{name}").get_attribute("value") == str(value)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "battle-refused.png"))
    axe.check(browser, "battle-refused")
    assert not ResultEntry.objects.exists()

    # the organiser's settlement: no htmx, the whole page drawn again, the problem in view
    browser.delete_all_cookies()
    sign_in(browser, live_server, organiser)
    browser.get(target)
    fill(browser, "id_settle_", MISTAKE)
    click(wait, By.XPATH, "//button[text()='Settle the result']")
    if browser.find_elements(By.NAME, "reason"):  # (the question: only for a readable result)
        pytest.fail("a result the site cannot read was put to the question")
    alert = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "[role=alert]"))[0]
    assert "more than the 2213 present" in alert.text
    assert browser.execute_script(IN_VIEW, alert), "the problem is in view"
    assert browser.find_element(By.ID, "id_settle_loss_prussia").get_attribute("value") == "99999"
    browser.save_screenshot(str(SCREENSHOTS / "battle-settle-refused.png"))
    axe.check(browser, "battle-settle-refused")

    # the date: the status line and the date field follow the swap
    browser.get(target)
    assert "No date set yet" in browser.find_element(By.ID, "battle-status").text
    field = browser.find_element(By.ID, "id_fight_on")
    browser.execute_script(
        "arguments[0].value = '2031-03-04T19:30';"
        "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
        field,
    )
    click(wait, By.XPATH, "//button[text()='Set the date']")
    wait.until(lambda d: "To be fought on" in d.find_element(By.ID, "battle-status").text)
    assert "19:30" in browser.find_element(By.ID, "battle-status").text
    assert browser.find_element(By.ID, "id_fight_on").get_attribute("value") == "2031-03-04T19:30"
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(SCREENSHOTS / "battle-dated.png"))
    assert not axe.found, axe.report()


SHORT_CONTROLS = """
return [...document.querySelectorAll('#result summary, #result button, #result select,'
  + ' #result input:not([type=hidden]):not([type=checkbox]), #result textarea')]
  .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
  .map(e => e.tagName + ' ' + (e.innerText || e.name).trim().slice(0, 40)
    + ': ' + Math.round(e.getBoundingClientRect().height) + ' px');
"""


def test_the_side_asked_to_answer_taps_every_control_with_a_thumb(
    browser, live_server, battle, player, other
):
    """The Austrian answers the Prussians' entry on his phone: the confirm and dispute
    buttons, the reason and the folded history of the entries are each a thumb's height
    (the history's summary was 24 px)."""
    from tests.battles.test_battles import post
    from tests.orders.test_play_fixtures import client_for

    post(
        client_for(player),
        "enter",
        battle,
        {**MISTAKE, "loss_prussia": 100, "prisoners_austria": 0},
    )
    campaign = battle.campaign
    sign_in(browser, live_server, other)
    browser.get(live_server.url + reverse("battles:battle", args=[campaign.code, battle.code]))
    assert "yours to confirm or dispute" in browser.find_element(By.ID, "battle-status").text
    assert browser.find_element(By.XPATH, "//summary[starts-with(., 'Every entry')]")
    assert browser.execute_script(SHORT_CONTROLS) == []
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
