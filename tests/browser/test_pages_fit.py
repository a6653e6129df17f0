# ruff: noqa: F811 (pytest fixtures imported from other test modules)
"""Every page an organiser or a player opens fits a 390 px phone: no sideways scrolling, no
template comment shown, and on a page with the map every force of the seat is tappable (issues 12
and 13). Screenshots at 390x844 go to docs/screenshots/ (committed; look at them).

The campaign is the battle of ``test_battles`` (a small map), the battle still pending.
"""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from selenium.webdriver.support.ui import WebDriverWait

from battles.services import results as battle_results
from campaign.models import Campaign, StateVersion
from campaign.services import setup
from letters.services import press
from mail.services.email import preferences_token
from rules.armies import ADJECTIVES, Army
from tests.battles.test_battles import battle, battle_map, campaign  # noqa: F401
from tests.browser.axe import Axe
from tests.browser.test_map_widget import EVERY_ONE
from tests.browser.test_play_phone import browser, sign_in  # noqa: F401
from tests.orders.test_play_fixtures import seat
from tests.seasons.test_next_year import finished
from tests.standing import ally, now, organiser, other, player  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


PHONE = 390  # px: the screen. Not window.innerWidth: Chrome's mobile emulation widens the
# layout viewport to fit a page that overflows, so a page is always as wide as its "window".


def fits(driver) -> tuple[int, int]:
    return driver.execute_script("return [document.documentElement.scrollWidth, 390];")


# Elements whose right edge runs past the screen: cut off by a container that hides its
# overflow, which the page's scroll width does not show. The map's own panes are left out.
CUT_OFF = """
return Array.from(document.querySelectorAll('body *'))
  .filter(e => !e.closest('.leaflet-container, details:not([open]), svg'))
  .filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > 391;
  })
  .map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ': '
       + (e.textContent || '').trim().slice(0, 30));
"""


def test_the_pages_fit_a_phone(browser, axe, live_server, battle, organiser, player, other):
    campaign = battle.campaign
    prussia = seat(campaign, "prussia")
    austria = seat(campaign, "austria")
    press.send(austria, [prussia.id], "Your Majesty, a word on Silesia. " * 6, now=campaign.created)
    pages = {
        organiser: [
            ("board", reverse("organiser_board", args=[campaign.code])),
            ("setup-running", reverse("campaign_setup", args=[campaign.code])),
            ("confirm-end", reverse("end_campaign", args=[campaign.code])),
            ("dice", reverse("campaign_dice", args=[campaign.code])),
            ("log", reverse("action_log", args=[campaign.code])),
            ("battle-umpire", reverse("battles:battle", args=[campaign.code, battle.code])),
            ("new-campaign", reverse("new_campaign")),
            ("confirm-pause", reverse("pause", args=[campaign.code])),
        ],
        player: [
            ("dashboard", reverse("orders:dashboard", args=[prussia.code])),
            ("history", reverse("orders:history", args=[prussia.code])),
            ("orders-battle", reverse("orders:orders", args=[prussia.code])),
            ("chronicle", reverse("battles:chronicle", args=[campaign.code])),
            ("battle", reverse("battles:battle", args=[campaign.code, battle.code])),
            ("error-403", reverse("orders:dashboard", args=[austria.code])),
            ("letters", reverse("letters", args=[prussia.code])),
            ("seat-settings", reverse("seat_settings", args=[prussia.code])),
        ],
        None: [
            (
                "email-preferences",
                reverse("email_preferences", args=[preferences_token(prussia.id)]),
            ),
            ("sign-in", reverse("login")),
            ("password-reset", reverse("password_reset")),
            ("error-404", "/no-such-page/"),
        ],
    }
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    wide = []
    for user, targets in pages.items():
        look_at(browser, live_server, user, targets, wide, axe)
    # the board with a seat opened and its "Replace…" open: its form fits the phone
    board = reverse("organiser_board", args=[campaign.code])
    look_at(browser, live_server, organiser, [("board", board)], wide)
    browser.find_element("css selector", "details.seat summary").click()
    browser.find_element("css selector", "details.seat details.replace summary").click()
    width, inner = fits(browser)
    browser.save_screenshot(str(SCREENSHOTS / "board-replace.png"))
    axe.check(browser, "board-replace")
    if width > inner:
        wide.append(f"board, Replace… open: {width} px wide on a {inner} px screen")
    if cut := browser.execute_script(CUT_OFF):
        wide.append(f"board, Replace… open: cut off at the right edge: {cut[:3]}")
    # a disputed result, as the organiser settles it: the entry and the dispute side by side
    entered = battle_results.enter_result(
        battle, prussia, {"loser": "austrian", "outcome": "defeated",
                          "losses": {"prussia": 150, "austria": 600}}, now=campaign.created,
    )  # fmt: skip
    battle_results.dispute_result(
        entered, austria, 1, "We lost 400, not 600.", now=campaign.created
    )
    target = reverse("battles:battle", args=[campaign.code, battle.code])
    look_at(browser, live_server, organiser, [("battle-disputed", target)], wide, axe)
    both = browser.find_element("css selector", ".side-by-side")
    assert "We lost 400, not 600." in both.text
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", both)
    browser.save_screenshot(str(SCREENSHOTS / "battle-disputed.png"))
    # the sign-up page a newcomer opens from the invitation's email (made last: a reserve seat)
    invited = setup.add_reserve(campaign, "newcomer@example.org", now=campaign.created)
    signup = reverse("accept_invitation", args=[invited.token])
    look_at(browser, live_server, None, [("sign-up", signup)], wide, axe)
    assert not wide, wide
    assert axe.pages >= 20 and not axe.found, axe.report()


def look_at(browser, live_server, user, targets, wide: list[str], axe: Axe | None = None) -> None:
    """Open each page as ``user`` at 390 px, take its screenshot, note what does not fit (and,
    given ``axe``, what breaks WCAG 2.1 A/AA)."""
    browser.delete_all_cookies()
    if user is not None:
        sign_in(browser, live_server, user)
    for name, target in targets:
        browser.get(live_server.url + target)
        # a page with the map: its layer drawn before the screenshot
        WebDriverWait(browser, 20).until(
            lambda d: d.execute_script(
                "const w = document.getElementById('mapwidget');"
                "return !w || (w.dataset.version && !w.dataset.loading);"
            )
        )
        width, inner = fits(browser)
        browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
        if axe is not None:
            axe.check(browser, name)
        if width > inner:
            wide.append(f"{name}: {width} px wide on a {inner} px screen")
        cut = browser.execute_script(CUT_OFF)
        if cut:
            wide.append(f"{name}: cut off at the right edge: {cut[:3]}")
        source = browser.page_source
        if "{#" in source or "#}" in source:
            wide.append(f"{name}: a template comment shows on the page")
        if browser.find_elements("id", "mapwidget"):
            # every force of the seat on the map is its own button, seen and not covered
            counters = browser.execute_script(EVERY_ONE)
            hidden = [c for c in counters if not (c["visible"] and c["own"])]
            if hidden:
                wide.append(f"{name}: forces not tappable on the map: {hidden[:3]}")


def scrolled_to(browser, selector: str, name: str) -> None:
    """The screenshot of the part of the page ``selector`` begins."""
    element = browser.find_element("css selector", selector)
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", element)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def test_this_seasons_new_pages_fit_a_phone(
    browser, axe, live_server, battle, organiser, player, django_capture_on_commit_callbacks
):
    """The set-up page's opening and Clock of Fate, the next year of a finished campaign and its
    question, the printed scenario sheet with its order of battle in units, the gazette's card."""
    from selenium.webdriver.support.ui import Select

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    wide: list[str] = []
    campaign = battle.campaign
    prussia = seat(campaign, "prussia")
    side = next(iter(battle.setup["sides"]))
    sheet = reverse("battles:briefing", args=[campaign.code, battle.code, side])
    look_at(browser, live_server, organiser, [("new-campaign", reverse("new_campaign"))], wide, axe)
    Select(browser.find_element("name", "fate")).select_by_value("season")
    Select(browser.find_element("name", "opening")).select_by_index(1)
    scrolled_to(browser, "[name=fate]", "setup-fate-opening")
    assert browser.find_element("name", "opening").size["height"] >= 44
    # the printed scenario sheet, as the umpire reads it on a phone and as it prints on A4
    look_at(
        browser,
        live_server,
        organiser,
        [("briefing-units", f"{sheet}?paper=a4&units=per-battalion")],
        wide,
        axe,
    )
    # printed: an A4 page's width (210 mm at 96 px an inch), the print style sheet
    metrics = {"width": 794, "height": 1123, "deviceScaleFactor": 1, "mobile": False}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    browser.save_screenshot(str(SCREENSHOTS / "briefing-units-print.png"))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    phone = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", phone)
    look_at(
        browser,
        live_server,
        player,
        [("battle-briefing", reverse("battles:battle", args=[campaign.code, battle.code]))],
        wide,
        axe,
    )
    assert prussia.user == player
    # a finished season with the Clock of Fate: its next year, asked first, then started
    old = finished(organiser, django_capture_on_commit_callbacks, prefix="ph")
    look_at(
        browser,
        live_server,
        organiser,
        [("board-ended", reverse("organiser_board", args=[old.code]))],
        wide,
        axe,
    )
    browser.find_element("link text", "Start the next year…").click()
    look_at(
        browser,
        live_server,
        organiser,
        [("next-year", reverse("next_year", args=[old.code]))],
        wide,
        axe,
    )
    browser.find_element("css selector", "form.next-year button[type=submit]").click()
    WebDriverWait(browser, 20).until(lambda d: "Start the next year?" in d.page_source)
    assert fits(browser)[0] <= PHONE, "the question is wider than the phone"
    browser.save_screenshot(str(SCREENSHOTS / "next-year-confirm.png"))
    axe.check(browser, "next-year-confirm")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        browser.find_element("css selector", "form button.primary").click()
        WebDriverWait(browser, 30).until(lambda d: "/next-year/" not in d.current_url)
    new = Campaign.objects.get(previous=old)
    browser.save_screenshot(str(SCREENSHOTS / "next-year-started.png"))
    # the emails the action sends: one a seat, named for the new year, links on the site's
    # address, and the new points an army raised (13.4) told to that army alone
    assert sorted(a for m in mail.outbox for a in m.to) == sorted(
        s.user.email for s in new.seats.filter(reserve=False)
    )
    for m in mail.outbox:
        assert m.subject.startswith(f"{new.name}: turn 1"), m.subject
        links = re.findall(r"https?://\S+", m.body)
        assert links and all(link.startswith(settings.SITE_URL + "/") for link in links)
        seat_of = next(s for s in new.seats.all() if s.user.email in m.to)
        raised = re.findall(r"raises \d+ new (\w+) points", m.body)
        own = {ADJECTIVES[Army(a)] for a in seat_of.armies}
        assert own >= set(raised), (seat_of.power, raised)
        assert "(fate-" not in m.body
    assert any(re.search(r"raises \d+ new", m.body) for m in mail.outbox)  # the check has teeth
    # the card of fate in the gazette, once its delay has passed
    StateVersion.objects.filter(campaign=new).update(created=timezone.now() - timedelta(days=30))
    look_at(
        browser,
        live_server,
        None,
        [("gazette-fate", reverse("battles:gazette", args=[new.code]))],
        wide,
        axe,
    )
    assert "Clock of Fate" in browser.page_source
    assert "(fate-" not in browser.page_source  # a card's name in the code is no news
    assert not wide, wide
    assert axe.pages >= 7 and not axe.found, axe.report()
