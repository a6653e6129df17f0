"""A turn on a phone: Debian's chromium at 390x844, driven by Selenium against the live server.

Deploy (the siege train by tapping the map), give a march order by tapping a hex of the map,
submit, see the resolved turn.
Screenshots go to ``artifacts/`` (git-ignored). The browser and its driver are the system's
(``/usr/bin/chromium``, ``/usr/bin/chromedriver``), never downloaded; the test skips when they
are missing.
"""

import shutil
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (
    BERLIN_POINTS,
    FREDERICK_POINTS,
    POSITIONS,
    client_for,
    deploy_seat,
    in_phase,
    seat,
    url,
    write_map,
)
from tests.standing import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def start_chromium(width: int, height: int, *, phone: bool = True, flags: tuple = ()):
    """Debian's chromium, headless, at ``width`` x ``height`` (a phone's metrics when ``phone``);
    a generator for fixtures: the driver, then quit. The console is read at the end: a Content
    Security Policy breach fails the test."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    profile = tempfile.mkdtemp(prefix="dgk-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--window-size={width},{height}",
        f"--user-data-dir={profile}",
        *flags,
    ):
        options.add_argument(flag)
    if phone:
        options.add_experimental_option(
            "mobileEmulation",
            {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0}},
        )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(90)
    yield driver
    breaches = [
        entry["message"]
        for entry in driver.get_log("browser")
        if "Content Security Policy" in entry["message"]
    ]
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)
    assert not breaches, breaches[:3]


@pytest.fixture
def browser():
    yield from start_chromium(390, 844)


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"play-{name}.png"))


def click(wait, by, selector) -> None:
    """Click what ``selector`` finds once it is clickable. htmx may swap the element out between
    the look-up and the click; then look it up again (a few times, on a busy machine)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support import expected_conditions as ec

    for _ in range(5):
        try:
            wait.until(ec.element_to_be_clickable((by, selector))).click()
            return
        except WebDriverException as exc:  # stale, or chromium's "does not belong to the document"
            if not _swapped_out(exc):
                raise
    wait.until(ec.element_to_be_clickable((by, selector))).click()


def _swapped_out(exc: Exception) -> bool:
    from selenium.common.exceptions import StaleElementReferenceException

    return isinstance(
        exc, StaleElementReferenceException
    ) or "does not belong to the document" in str(exc)


def sign_in(driver, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    driver.get(live_server.url + "/healthz")
    driver.add_cookie({"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "path": "/"})


def submitted(driver) -> bool:
    """The orders are submitted; a refusal ("Not submitted: ...") fails with what the page says."""
    from selenium.webdriver.common.by import By

    text = driver.find_element(By.TAG_NAME, "main").text
    assert "Not submitted" not in text, text
    return "Your orders are submitted" in text


def tab_to(driver, selector: str, limit: int = 200):
    """Press Tab until the element ``selector`` finds has the focus (as a keyboard user moves
    through the page: nav, map, list, form); fails if it is never reached."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for _ in range(limit):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.execute_script(
            "const a = document.activeElement; return !!a && a.matches(arguments[0]);", selector
        ):
            return driver.switch_to.active_element
    raise AssertionError(f"{limit} presses of Tab never reached {selector}")


def enter_on(driver, selector: str) -> None:
    """Tab to the link or button ``selector`` finds and press Enter."""
    from selenium.webdriver.common.keys import Keys

    tab_to(driver, selector).send_keys(Keys.ENTER)


# The older tap map of the orders page (maps/tapmap.py) is the map of a page without JavaScript:
# with the map widget running it is hidden.
TAP_MAP_SHOWN = """
const m = document.querySelector('#preview .play-map');
return m ? m.getBoundingClientRect().height > 0 : null;
"""


def one_map(driver) -> None:
    """One map on the orders page: the widget's, or the tap map where there is no widget (no
    tiles, or no JavaScript)."""
    from selenium.webdriver.support.ui import WebDriverWait

    widget = driver.execute_script("return !!document.getElementById('mapwidget')")
    if widget:
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script(
                "return document.documentElement.classList.contains('mw-live')"
            )
        )
    shown = driver.execute_script(TAP_MAP_SHOWN)  # None: no unit chosen, no tap map drawn
    assert (shown is not True) if widget else (shown is True), ("two maps, or none", shown)


def press_ready(wait, label: str) -> None:
    """Press the button saying ``label`` (Ready, Submit my deployment) and wait for the orders
    to be submitted; a refusal ("Not submitted: ...", orders that break a rule) fails with what
    the page says, rather than passing for a submission."""
    from selenium.webdriver.common.by import By

    click(wait, By.XPATH, f"//button[contains(., '{label}')]")

    wait.until(submitted)


def sheets_ready(window) -> dict:
    """Each seat's sheet in ``window``: ready or not (what a failed phase check prints)."""
    return dict(OrderSheet.objects.filter(window=window).values_list("seat__power", "ready"))


def everyone_else_ready(campaign, but: str) -> None:
    window = campaign.open_window()
    for s in campaign.seats.filter(reserve=False):
        if s.power != but and window.owes(s):
            c = client_for(s.user)
            if window.phase == "deployment":
                deploy_seat(s, c)
            r = c.post(url("ready", s), in_phase(s))
            assert r.status_code == 302
            if not OrderSheet.objects.filter(window=window, seat=s, ready=True).exists():
                # Ready refused the sheet: say why, in the page's words
                page = c.get(r.url).content.decode()
                said = page[page.find("Not submitted") :][:600] if "Not submitted" in page else ""
                raise AssertionError(f"{s.power} was not readied: {said or r.url}")


@pytest.fixture
def live_campaign(tmp_path):
    from django.utils import timezone

    from campaign.models import organisers_group
    from campaign.services import setup
    from rules.armies import Army
    from tests.orders.test_play_fixtures import ARMY_POINTS

    organiser = make_user("umpire")
    organiser.groups.add(organisers_group())
    one = dict.fromkeys((a.value for a in Army), 1)
    campaign = setup.create_campaign(
        organiser, name="Phone 1757", players=5, now=timezone.now(),
        army_points=dict(ARMY_POINTS), map_name=write_map(tmp_path),
        rule_settings={"leaders": one,
                       "siege_trains": {**dict.fromkeys(one, 0), "prussia": 1}},
    )  # fmt: skip
    for s in campaign.seats.all():
        s.user = make_user(f"b-{s.power}")
        s.save()
    setup.start_campaign(campaign, organiser, now=timezone.now())
    campaign.refresh_from_db()
    return campaign


def test_a_turn_on_a_phone(browser, axe, live_server, live_campaign):
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    # A busy machine renders slowly; htmx swaps elements while a condition reads them, which
    # chromium reports as stale or as "does not belong to the document": look again.
    wait = WebDriverWait(
        browser, 40, ignored_exceptions=(StaleElementReferenceException, WebDriverException)
    )
    prussia = seat(live_campaign, "prussia")
    sign_in(browser, live_server, prussia.user)

    # Deploy: Frederick with his points, Berlin's garrison, the siege train; then submit.
    browser.get(live_server.url + url("deploy", prussia))
    shot(browser, "1-deploy-empty")
    axe.check(browser, "1-deploy-empty")
    # one by one, not by the shortcuts: the forms are folded under the army's summary
    click(wait, By.CSS_SELECTOR, "#army-prussia details.one-by-one > summary")
    row = browser.find_element(By.CSS_SELECTOR, "#army-prussia form.deploy-row")
    row.find_element(By.NAME, "hex").send_keys(POSITIONS["prussia"])
    points = row.find_element(By.NAME, "points")
    points.clear()
    points.send_keys(str(FREDERICK_POINTS))
    row.find_element(By.CSS_SELECTOR, "button").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "sheet"), "Deployment saved"))
    garrison = browser.find_elements(By.CSS_SELECTOR, "#army-prussia form.deploy-row")[1]
    garrison.find_element(By.NAME, "city").send_keys("Berlin")
    garrison.find_element(By.NAME, "points").send_keys(str(BERLIN_POINTS))
    garrison.find_element(By.CSS_SELECTOR, "button").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "sheet"), "Berlin: 983 points"))
    # The siege train by tapping: "on the map", then its hex (under Frederick's counter).
    train = browser.find_elements(By.CSS_SELECTOR, "#army-prussia form.deploy-row")[2]
    train.find_element(By.CSS_SELECTOR, "a.tap-link").click()
    target = f'a.tap[data-hex="{POSITIONS["prussia"]}"]'
    tap = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, target)))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", tap)
    tap.find_element(By.CSS_SELECTOR, "polygon").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "sheet"), "meets every restriction"))
    deployed = OrderSheet.objects.get(seat=prussia).draft["deployment"]["prussia"]
    assert deployed["siege_trains"]["prussia-1"]["hex"] == POSITIONS["prussia"]
    shot(browser, "2-deploy-valid")
    axe.check(browser, "2-deploy-valid")
    press_ready(wait, "Submit my deployment")

    everyone_else_ready(live_campaign, "prussia")
    assert live_campaign.open_window().phase == "march"

    # March, with the keyboard alone (WCAG 2.1.1): Tab to Frederick and Enter, type the line of
    # march (direction code 4, East) and Enter, then Tab to Ready and Enter. No click, no tap.
    browser.get(live_server.url + url("orders", prussia))
    enter_on(browser, 'ul.units a[href="?unit=frederick"]')
    wait.until(
        ec.presence_of_element_located((By.CSS_SELECTOR, "form.order-form input[name=path]"))
    )
    one_map(browser)
    shot(browser, "3-orders-map")
    axe.check(browser, "3-orders-map")
    path = tab_to(browser, "form.order-form input[name=path]")
    path.send_keys("4" + Keys.ENTER)
    wait.until(ec.text_to_be_present_in_element((By.ID, "play"), "Order saved"))
    shot(browser, "4-order-typed")
    sheet = OrderSheet.objects.get(seat=prussia, window=live_campaign.open_window())
    assert sheet.draft["march"] == [{"unit": "frederick", "path": "4", "marches": 1}]
    assert "MP" in browser.find_element(By.ID, "mp").text
    # A line too long for its MPs is kept as written, and the map says what is wrong with it
    # (not a hex the force cannot reach).
    path = tab_to(browser, "form.order-form input[name=path]")
    path.send_keys(Keys.CONTROL, "a")
    path.send_keys("-".join(["4"] * 8) + Keys.ENTER)
    wait.until(
        ec.text_to_be_present_in_element((By.ID, "mapwidget-status"), "cannot be carried out")
    )
    assert "MP are left (6.4.5)" in browser.find_element(By.ID, "mapwidget-status").text
    status = browser.find_element(By.ID, "mapwidget-status")
    browser.execute_script("arguments[0].scrollIntoView({block: 'end'})", status)
    shot(browser, "4b-order-too-long")
    axe.check(browser, "4b-order-too-long")
    # The preview follows the typing; Enter keeps it.
    path = tab_to(browser, "form.order-form input[name=path]")
    path.send_keys(Keys.CONTROL, "a")
    path.send_keys("4-4")
    wait.until(ec.text_to_be_present_in_element((By.ID, "preview"), "4 → 0502"))
    shot(browser, "5-order-typed")
    path = tab_to(browser, "form.order-form input[name=path]")
    path.send_keys(Keys.ENTER)
    typed = [{"unit": "frederick", "path": "4-4", "marches": 1}]

    def saved(_driver) -> bool:
        sheet.refresh_from_db()
        return sheet.draft.get("march") == typed

    wait.until(saved)
    # The draft is written before the response's swap lands: wait for the swap, whose message
    # words the path typed last (the first, "4", went 1 hex E).
    wait.until(
        ec.text_to_be_present_in_element((By.ID, "play"), "Order saved: Frederick, 2 hexes E")
    )
    # Without JavaScript the older tap map is the page's one map, its numbered hexes shown.
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.get(live_server.url + url("orders", prussia) + "?unit=frederick")
    assert browser.find_element(By.CSS_SELECTOR, "#preview .play-map").is_displayed()
    assert browser.find_element(By.CSS_SELECTOR, 'a.step[data-code="4"]').is_displayed()
    assert not browser.find_element(By.ID, "mapwidget").is_displayed()  # no empty box either
    shot(browser, "5b-orders-without-javascript")
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    browser.get(live_server.url + url("orders", prussia))
    one_map(browser)
    enter_on(browser, "form.ready button.primary")
    wait.until(submitted)

    everyone_else_ready(live_campaign, "prussia")  # the march phase resolves
    window = live_campaign.open_window()
    assert window.phase == "forced-march", (window.phase, window.turn, sheets_ready(window))
    browser.get(live_server.url + url("dashboard", prussia))
    click(wait, By.CSS_SELECTOR, "a.button")  # "You owe forced-march orders"
    wait.until(ec.presence_of_element_located((By.XPATH, "//button[contains(., 'Ready')]")))
    axe.check(browser, "forced-march-orders")
    press_ready(wait, "Ready")
    everyone_else_ready(live_campaign, "prussia")

    # The resolved turn: Frederick stands one hex East, and the report says so.
    browser.get(live_server.url + url("dashboard", prussia))
    main = browser.find_element(By.TAG_NAME, "main").text
    shot(browser, "6-turn-resolved")
    axe.check(browser, "6-turn-resolved")
    assert "0502" in main and "Turn 2" in main
    browser.get(live_server.url + url("report", prussia))
    shot(browser, "7-report")
    image = browser.find_element(By.CSS_SELECTOR, "img.map")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", image)
    wait.until(
        lambda d: d.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", image
        )
    )
    shot(browser, "8-report-map")
    axe.check(browser, "8-report-map")
    # axe-core over every page above, as the player: no break of WCAG 2.1 A/AA
    assert axe.pages == 7 and not axe.found, axe.report()


def test_the_deployment_rows_links_are_a_thumbs_height(browser, live_server, live_campaign):
    """ "on the map" beside each Place button was 22 px tall (the playthrough): as tall as the
    button now, so a thumb that misses the word does not land on nothing."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    prussia = seat(live_campaign, "prussia")
    sign_in(browser, live_server, prussia.user)
    browser.get(live_server.url + url("deploy", prussia))
    wait = WebDriverWait(browser, 30)
    click(wait, By.CSS_SELECTOR, "#army-prussia details.one-by-one > summary")
    links = [
        a for a in browser.find_elements(By.CSS_SELECTOR, "#army-prussia a.tap-link")
        if a.is_displayed()
    ]  # fmt: skip
    assert len(links) >= 3  # a leader, the garrisons, the siege train
    small = [(a.text, a.size) for a in links if a.size["height"] < 44]
    assert not small, small
