# ruff: noqa: F811 (the browser and tiles fixtures are imported)
"""The first week of a new season on a phone (issue 26): Debian's chromium at 390x844 against
the live server, on the real map at the set-up form's defaults.

The organiser makes a 3-player campaign from the set-up form (only the three seats that exist
invited), the three invitations are read from the outbox and followed, three players sign up,
the organiser starts, each seat deploys with the page's shortcuts (every tap counted from the
seat's dashboard: at most 10 a seat, printed with ``-s``), the season's first report read on the
report page and the dashboard (the routine supply in one line, shut), the first march phase is
given (one march order by tapping Frederick's counter on the map, then a lit hex; the list of
orders says it in words) and resolved.

Screenshots go to ``artifacts/`` (git-ignored); the deployment page after one tap is also kept
as ``docs/screenshots/deploy-one-tap.png`` when ``DGK_SCREENSHOTS=1``.
"""

import os
import re
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.core import mail

from campaign.models import Campaign, organisers_group
from campaign.services.gameplay import load_campaign_map, read_state
from maps.core.wording import march_in_words
from orders.models import OrderSheet
from rules.armies import Army
from tests.browser.test_map_widget import tap_counter, tap_reach, tiles, wait_idle  # noqa: F401
from tests.browser.test_play_phone import (  # noqa: F401
    ARTIFACTS,
    browser,
    click,
    press_ready,
    sign_in,
)
from tests.standing import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ("austria", "france", "prussia")  # the seats of 3 players (1.2)
MAX_TAPS = 10
WIDGET_LOADED = "const w = document.getElementById('mapwidget')._widget; return !!(w && w.data);"
DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "deploy-one-tap.png"


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"first-week-{name}.png"))


class Taps:
    """Counts the player's taps: every click the test makes on the player's behalf."""

    def __init__(self, driver, wait):
        self.driver, self.wait, self.count = driver, wait, 0

    def on(self, by, selector) -> None:
        click(self.wait, by, selector)
        self.count += 1


def fits(driver) -> bool:
    """Nothing wider than the phone: the page does not scroll sideways."""
    return driver.execute_script("return document.documentElement.scrollWidth") <= 390


def invitation_links() -> dict[str, str]:
    """The invitation emails in the outbox: the address -> the path of its link."""
    links = {}
    for message in mail.outbox:
        found = re.search(r"https?://\S+", message.body)
        if found and "invit" in message.subject.lower():
            links[message.to[0]] = urlparse(found.group(0)).path
    return links


def test_the_first_week_of_a_three_player_season(browser, live_server, tiles):
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    wait = WebDriverWait(
        browser, 60, ignored_exceptions=(StaleElementReferenceException, WebDriverException)
    )
    organiser = make_user("olga")
    organiser.groups.add(organisers_group())

    # --- the set-up form, posted from the phone -------------------------------------------
    sign_in(browser, live_server, organiser)
    browser.get(live_server.url + "/campaigns/new/")
    browser.find_element(By.NAME, "name").send_keys("Three friends, 1757")
    Select(browser.find_element(By.NAME, "players")).select_by_value("3")
    for power in SEATS:
        browser.find_element(By.NAME, f"email_{power}").send_keys(f"{power}@example.org")
    shot(browser, "1-form")
    click(wait, By.XPATH, "//button[normalize-space()='Create the campaign']")
    wait.until(ec.url_contains("/setup/"))
    campaign = Campaign.objects.get(name="Three friends, 1757")
    assert campaign.seats.filter(reserve=False).count() == 3
    shot(browser, "2-setup")

    # --- the invitations, followed; three sign-ups --------------------------------------------
    wait.until(lambda _d: len(invitation_links()) == 3)
    links = invitation_links()
    assert set(links) == {f"{p}@example.org" for p in SEATS}
    for power in SEATS:
        browser.delete_all_cookies()
        browser.get(live_server.url + links[f"{power}@example.org"])
        browser.find_element(By.NAME, "username").send_keys(f"friend-{power}")
        browser.find_element(By.NAME, "password1").send_keys("a long Prussian password 1757")
        browser.find_element(By.NAME, "password2").send_keys("a long Prussian password 1757")
        click(wait, By.XPATH, "//button[contains(., 'Join the campaign')]")
        wait.until(ec.url_contains("/campaigns/"))
        assert campaign.seats.get(power=power).user.username == f"friend-{power}"

    # --- the start ----------------------------------------------------------------------------
    browser.delete_all_cookies()
    sign_in(browser, live_server, organiser)
    browser.get(live_server.url + f"/campaigns/{campaign.code}/setup/")
    click(wait, By.XPATH, "//button[contains(., 'Start the campaign')]")
    wait.until(lambda _d: campaign.open_window() and campaign.open_window().phase == "deployment")

    # --- three deployments with the shortcuts, the taps counted ---------------------------------
    counts = {}
    for power in SEATS:
        s = campaign.seats.get(power=power)
        browser.delete_all_cookies()
        sign_in(browser, live_server, s.user)
        browser.get(live_server.url + f"/play/{s.code}/")
        taps = Taps(browser, wait)
        taps.on(By.LINK_TEXT, "deployment")  # "You owe your deployment"
        wait.until(ec.presence_of_element_located((By.ID, "deploy-suggest")))
        shot(browser, f"3-{power}-before")
        problems = browser.find_element(By.CSS_SELECTOR, ".problem-groups")
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", problems)
        shot(browser, f"3-{power}-problems")
        if power == "france":
            # A fortress awaiting a French garrison (3.2.4), tapped in the list: the map's
            # sheet opens on that fortress, its garrison first.
            wait.until(lambda d: d.execute_script(WIDGET_LOADED))
            taps.on(By.CSS_SELECTOR, "#share-france a.hex-link")
            wait.until(ec.visibility_of_element_located((By.ID, "mapwidget-sheet")))
            first = browser.find_element(By.CSS_SELECTOR, "#mapwidget-sheet form.mw-place")
            assert first.get_attribute("data-action") == "garrison", first.text
            assert "Garrison of" in first.text
            shot(browser, "3-france-fortress-sheet")
            taps.on(By.CSS_SELECTOR, "#mapwidget-sheet .mw-close")
        taps.on(By.ID, "deploy-suggest")
        wait.until(ec.text_to_be_present_in_element((By.ID, "deploy-top"), "is suggested"))
        sheet = browser.find_element(By.TAG_NAME, "main").text
        assert "meets every restriction" in sheet, sheet[:2000]
        width, height = browser.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        assert width <= 390, width  # nothing overflows a phone
        print(f"the {s.label} seat's deployment page after one tap: {height} px tall")
        if power == "prussia":
            browser.execute_script("window.scrollTo(0, 0)")
            shot(browser, "3-deploy-one-tap")
            if os.getenv("DGK_SCREENSHOTS") == "1":
                DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
                browser.save_screenshot(str(DOCS_SHOT))
        if power == "austria":
            assert "leaving them to France frees 200" in sheet
        if power == "france":
            assert "awaiting French garrisons" in sheet
        taps.count += 1  # press_ready's one tap on "Submit my deployment"
        press_ready(wait, "Submit my deployment")
        counts[power] = taps.count
        print(f"taps to deploy the {s.label} seat ({', '.join(s.armies)}): {taps.count}")
        assert taps.count <= MAX_TAPS
    wait.until(lambda _d: campaign.open_window().phase == "march")
    print("deployment taps per seat:", counts)

    # --- the first march phase: one march order by tapping, then everyone Ready ----------------
    prussia = campaign.seats.get(power="prussia")
    browser.delete_all_cookies()
    sign_in(browser, live_server, prussia.user)
    window = campaign.open_window()

    # --- the season's first report: the routine supply in one line, shut -------------------------
    # (a newcomer's playthrough found about 14 supply lines, one a force, burying the rest)
    armies = {Army.parse(a) for a in prussia.armies}  # Prussia and Hanover at 3 players (1.2)
    forces = sum(f.army in armies for f in read_state(window.version.state).forces())
    for page in ("report/", ""):
        browser.get(live_server.url + f"/play/{prussia.code}/{page}")
        folded = browser.find_element(By.CSS_SELECTOR, "ul.report details.folded")
        summary = folded.find_element(By.TAG_NAME, "summary")
        said = f"All {forces} Hanoverian and Prussian forces are supplied. (5)"
        assert summary.text == said, summary.text
        assert folded.get_attribute("open") is None
        main = browser.find_element(By.TAG_NAME, "main")
        assert " is supplied (" not in main.text  # each force's own line shut under it
        assert fits(browser)
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", folded)
        shot(browser, f"4-first-report{'-' + page.strip('/') if page else '-dashboard'}")
        summary.click()  # a tap opens the forces' own lines
        assert main.text.count(" is supplied (") == forces
        assert fits(browser)
        shot(browser, f"4-first-report{'-' + page.strip('/') if page else '-dashboard'}-open")

    browser.get(live_server.url + f"/play/{prussia.code}/orders/")
    wait_idle(wait)
    sheet = OrderSheet.objects.get_or_create(
        window=window, seat=prussia, defaults={"campaign": campaign}
    )[0]
    tap_counter(browser, wait, "frederick")  # his counter on the map, then a lit hex
    hexid = tap_reach(browser, wait, sheet, "march", "frederick", far=False)
    shot(browser, "4-march-tapped")
    draft = OrderSheet.objects.get(seat=prussia, window=window).draft
    (order,) = draft["march"]
    assert order["unit"] == "frederick" and order["path"], draft
    print(f"Frederick's march, tapped on the map: {order['path']} into {hexid}")
    # the list of orders says it in words, with the place's name, never the direction codes
    start = next(x for x in read_state(window.version.state).leaders if x.key == "frederick").hex
    words = march_in_words(load_campaign_map(campaign.map_name), start, order["path"])
    listed = browser.find_element(By.CSS_SELECTOR, "ul.orders li")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", listed)
    assert listed.find_element(By.CSS_SELECTOR, ".line").text == words, listed.text
    assert not browser.find_elements(By.CSS_SELECTOR, "ul.orders code")
    assert fits(browser)
    shot(browser, "4-march-listed")
    press_ready(wait, "Ready")
    for power in ("austria", "france"):
        s = campaign.seats.get(power=power)
        browser.delete_all_cookies()
        sign_in(browser, live_server, s.user)
        browser.get(live_server.url + f"/play/{s.code}/orders/")
        press_ready(wait, "Ready")

    # --- resolved: the forced march phase is open, Frederick has marched ------------------------
    wait.until(lambda _d: campaign.open_window().phase == "forced-march")
    latest = read_state(campaign.versions.order_by("-number").first().state)
    before = read_state(window.version.state)
    marched = next(x for x in latest.leaders if x.key == "frederick")
    assert marched.hex != next(x for x in before.leaders if x.key == "frederick").hex
    browser.delete_all_cookies()
    sign_in(browser, live_server, prussia.user)
    browser.get(live_server.url + f"/play/{prussia.code}/")
    shot(browser, "5-turn-resolved")
    assert marched.hex in browser.find_element(By.TAG_NAME, "main").text
