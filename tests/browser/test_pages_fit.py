# ruff: noqa: F811 (pytest fixtures imported from other test modules)
"""Every page an organiser or a player opens fits a 390 px phone: no sideways scrolling, no
template comment shown, and on a page with the map every force of the seat is tappable (issues 12
and 13). Screenshots at 390x844 go to docs/screenshots/ (committed; look at them).

The campaign is the battle of ``test_battles`` (a small map), the battle still pending.
"""

from pathlib import Path

import pytest
from django.urls import reverse
from selenium.webdriver.support.ui import WebDriverWait

from campaign.services import battle_results, press
from campaign.services.email import preferences_token
from tests.browser.test_map_widget import EVERY_ONE
from tests.browser.test_play_phone import browser, sign_in  # noqa: F401
from tests.web.conftest import ally, now, organiser, other, player  # noqa: F401
from tests.web.test_battles import battle, battle_map, campaign  # noqa: F401
from tests.web.test_play_fixtures import seat

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


def test_the_pages_fit_a_phone(browser, live_server, battle, organiser, player, other):
    campaign = battle.campaign
    prussia = seat(campaign, "prussia")
    austria = seat(campaign, "austria")
    press.send(austria, [prussia.id], "Your Majesty, a word on Silesia. " * 6, now=campaign.created)
    pages = {
        organiser: [
            ("board", reverse("organiser_board", args=[campaign.code])),
            ("setup", reverse("campaign_setup", args=[campaign.code])),
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
        look_at(browser, live_server, user, targets, wide)
    # a disputed result, as the organiser settles it: the entry and the dispute side by side
    entered = battle_results.enter_result(
        battle, prussia, {"loser": "austrian", "outcome": "defeated",
                          "losses": {"prussia": 150, "austria": 600}}, now=campaign.created,
    )  # fmt: skip
    battle_results.dispute_result(
        entered, austria, 1, "We lost 400, not 600.", now=campaign.created
    )
    target = reverse("battles:battle", args=[campaign.code, battle.code])
    look_at(browser, live_server, organiser, [("battle-disputed", target)], wide)
    both = browser.find_element("css selector", ".side-by-side")
    assert "We lost 400, not 600." in both.text
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", both)
    browser.save_screenshot(str(SCREENSHOTS / "battle-disputed.png"))
    assert not wide, wide


def look_at(browser, live_server, user, targets, wide: list[str]) -> None:
    """Open each page as ``user`` at 390 px, take its screenshot, note what does not fit."""
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
