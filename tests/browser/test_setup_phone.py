# ruff: noqa: F811 (pytest fixtures imported from other test modules)
"""The set-up page on a phone (issue 26): it fits 390 px before and after the invitations, and
one real tap on Invite sends the invitation. Screenshot: docs/screenshots/setup.png."""

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from campaign.models import Invitation
from campaign.services import setup
from tests.browser.test_pages_fit import CUT_OFF, fits
from tests.browser.test_play_phone import browser, sign_in  # noqa: F401
from tests.standing import make_user, organiser  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
NOW = datetime(2026, 4, 1, 9, tzinfo=UTC)
POINTS = {"austria": 4800, "empire": 1200, "france": 4500, "hanover": 2250,
          "prussia": 4800, "russia": 2250, "sweden": 300}  # fmt: skip


def tap(driver, element) -> None:
    """A finger's tap on the middle of ``element`` where it is on the screen (touch events,
    not a script's click)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    rect = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.x + r.width / 2, r.y + r.height / 2];",
        element,
    )
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to_location(int(rect[0]), int(rect[1]))
    actions.pointer_action.pointer_down()
    actions.pointer_action.pointer_up()
    actions.perform()


def no_overflow(driver, name: str) -> list[str]:
    width, screen = fits(driver)
    out = [f"{name}: {width} px wide on a {screen} px screen"] if width > screen else []
    if cut := driver.execute_script(CUT_OFF):
        out.append(f"{name}: cut off at the right edge: {cut[:3]}")
    return out


def test_the_set_up_page_fits_and_one_tap_invites(browser, live_server, organiser):
    campaign = setup.create_campaign(
        organiser, name="Silesia 1757", players=3, army_points=POINTS,
        now=NOW, emails={"france": "louis@example.org"},
    )  # fmt: skip
    sign_in(browser, live_server, organiser)
    page = live_server.url + reverse("campaign_setup", args=[campaign.code])
    browser.get(page)
    wide = no_overflow(browser, "set-up, before the invitations")
    # who commands which army (1.2): each army's seat box a thumb's height and wide to tap
    boxes = browser.find_elements(By.CSS_SELECTOR, "form.armies select")
    assert len(boxes) == 7
    assert all(b.size["height"] >= 44 and b.size["width"] >= 200 for b in boxes), [
        b.size for b in boxes
    ]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "setup.png"))
    prussia = campaign.seats.get(power="prussia")
    box = browser.find_element(By.CSS_SELECTOR, f'#seat-{prussia.code} input[name="email"]')
    box.send_keys("fritz@example.org")
    mail.outbox.clear()
    tap(browser, browser.find_element(By.CSS_SELECTOR, f"#seat-{prussia.code} button.invite"))
    WebDriverWait(browser, 20).until(
        lambda d: "Invitation sent to fritz@example.org" in d.page_source
    )
    assert Invitation.objects.filter(seat=prussia, email="fritz@example.org").count() == 1
    assert [m.to for m in mail.outbox] == [["fritz@example.org"]]
    # the seat now shows its invitation (resend, withdraw), not an empty box
    row = browser.find_element(By.CSS_SELECTOR, f"#seat-{prussia.code}")
    assert "fritz@example.org" in row.text and "Resend" in row.text and "Withdraw" in row.text
    assert not row.find_elements(By.CSS_SELECTOR, 'input[name="email"]')
    wide += no_overflow(browser, "set-up, after an invitation")
    # every seat's leaders open, a reserve invited with a long address, a seat joined
    setup.add_reserve(campaign, "a.very.long.address.of.a.reserve.player@example.org", now=NOW)
    setup.accept_invitation(Invitation.objects.get(seat=prussia).token, make_user("fritz"), now=NOW)
    browser.get(page)
    for summary in browser.find_elements(By.CSS_SELECTOR, "details.leaders summary"):
        tap(browser, summary)
    assert "D'Estrees" in browser.find_element(By.TAG_NAME, "main").text
    wide += no_overflow(browser, "set-up, leaders open, a reserve, a seat joined")
    assert not wide, wide


def test_the_form_follows_the_player_count_and_the_size(browser, live_server, organiser):
    from selenium.webdriver.support.ui import Select

    sign_in(browser, live_server, organiser)
    browser.get(live_server.url + reverse("new_campaign"))

    def shown() -> list[str]:
        rows = browser.find_elements(By.CSS_SELECTOR, "[data-seat-row]")
        return sorted(r.get_attribute("data-seat-row") for r in rows if r.is_displayed())

    def choices() -> list[str]:  # every option there is: a seat not in play is none at all
        return sorted(
            o.get_attribute("value")
            for o in browser.find_elements(By.CSS_SELECTOR, "#id_organiser_seat option")
            if o.get_attribute("value")
        )

    def help_of(seat: str) -> str:
        return browser.find_element(By.ID, f"id_email_{seat}_helptext").text

    assert shown() == ["austria", "france", "hanover", "prussia", "russia"]
    assert help_of("prussia") == "Commands Prussia."
    # every box and round button a fingertip's size at least (24 px), a seat's address box
    # as wide as the form
    ticks = "form.new-campaign input[type=checkbox], form.new-campaign input[type=radio]"
    small = [
        t.get_attribute("id")
        for t in browser.find_elements(By.CSS_SELECTOR, ticks)
        if t.size["width"] < 24 or t.size["height"] < 24
    ]
    assert not small, small
    form = browser.find_element(By.CSS_SELECTOR, "form.new-campaign").size["width"]
    assert browser.find_element(By.NAME, "email_prussia").size["width"] == form
    Select(browser.find_element(By.NAME, "players")).select_by_value("3")
    assert shown() == choices() == ["austria", "france", "prussia"]
    # the seats' help follows the count (1.2), as the set-up page will say
    assert help_of("austria") == "Commands Austria, Empire, Russia, Sweden."
    assert help_of("prussia") == "Commands Hanover, Prussia."
    Select(browser.find_element(By.NAME, "players")).select_by_value("2")
    assert shown() == choices() == ["austria", "prussia"]
    assert help_of("austria") == "Commands Austria, Empire, France, Russia, Sweden."
    Select(browser.find_element(By.NAME, "players")).select_by_value("5")
    assert help_of("austria") == "Commands Austria, Empire."

    # fields that say something only with another's choice show with it: the organiser's seat
    # once he ticks "I also play a seat", the courier's phases with letters by courier, the
    # Clock of Fate's details with a clock chosen
    def row_shown(name: str) -> bool:
        return browser.find_element(By.ID, f"id_{name}").is_displayed()

    assert not any(map(row_shown, ("organiser_seat", "courier_phases", "fate_from_year")))
    browser.find_element(By.ID, "id_umpire_plays").click()
    Select(browser.find_element(By.NAME, "press")).select_by_value("courier")
    Select(browser.find_element(By.NAME, "fate")).select_by_value("season")
    assert all(map(row_shown, ("organiser_seat", "courier_phases", "fate_from_year")))
    assert row_shown("fate_less_extreme")
    Select(browser.find_element(By.NAME, "press")).select_by_value("off")
    assert not row_shown("courier_phases") and row_shown("organiser_seat")
    # the organiser's own seat: reset when its seat leaves the game, kept while it stays
    own = Select(browser.find_element(By.NAME, "organiser_seat"))
    own.select_by_value("france")
    Select(browser.find_element(By.NAME, "players")).select_by_value("2")
    assert own.first_selected_option.get_attribute("value") == ""
    own.select_by_value("prussia")
    Select(browser.find_element(By.NAME, "players")).select_by_value("3")
    assert own.first_selected_option.get_attribute("value") == "prussia"
    Select(browser.find_element(By.NAME, "players")).select_by_value("2")
    # the armies' table follows the size chosen
    points = browser.find_element(By.NAME, "base_points")
    points.clear()
    points.send_keys("150")
    browser.find_element(By.NAME, "name").click()  # the change event, as leaving the box
    WebDriverWait(browser, 20, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: "Some army cannot deploy at this size" in d.find_element(By.ID, "room").text
    )
    row = browser.find_element(By.CSS_SELECTOR, "#room tr.short")
    assert row.text.split()[:3] == ["Empire", "600", "750"]
    wide = no_overflow(browser, "new campaign, 2 players, Sweden 150")
    room = browser.find_element(By.ID, "room")
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", room)
    browser.save_screenshot(str(SCREENSHOTS / "setup-form-size.png"))
    assert not wide, wide


def test_a_seat_opened_on_the_board_stays_open_when_it_refreshes(browser, live_server, organiser):
    campaign = setup.create_campaign(
        organiser, name="Board 1757", players=3, army_points=POINTS, now=NOW,
    )  # fmt: skip
    for s in campaign.seats.all():
        s.user = make_user(f"u-{s.power}")
        s.save()
    setup.start_campaign(campaign, organiser, now=NOW)
    sign_in(browser, live_server, organiser)
    board = reverse("organiser_board", args=[campaign.code])
    browser.get(live_server.url + board)
    prussia = campaign.seats.get(power="prussia")
    details = browser.find_element(By.ID, f"board-{prussia.code}")
    assert details.get_attribute("open") is None
    tap(browser, details.find_element(By.TAG_NAME, "summary"))
    assert details.get_attribute("open") is not None
    browser.execute_script(
        "window._swapped = false;"
        "document.addEventListener('htmx:afterSettle', () => { window._swapped = true; });"
        "htmx.ajax('GET', arguments[0], {target: '#board', swap: 'outerHTML'});",
        board,
    )
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return window._swapped"))
    again = browser.find_element(By.ID, f"board-{prussia.code}")
    assert again.get_attribute("open") is not None
    assert "Prussian player: what it owes" in again.text
    assert not no_overflow(browser, "board, a seat open")


def test_a_refused_form_says_what_to_put_right_on_the_first_screen(browser, live_server, organiser):
    """The tester's set-up form: settings that cannot be read came back as Python's JSON
    message, many screens below the top the page reloaded at."""
    from tests.browser.test_play_phone import ARTIFACTS

    sign_in(browser, live_server, organiser)
    browser.get(live_server.url + reverse("new_campaign"))
    browser.find_element(By.NAME, "name").send_keys("Refused 1757")
    settings = browser.find_element(By.NAME, "rule_settings")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", settings)
    settings.send_keys('{"march_mp": }')
    submit = browser.find_element(By.CSS_SELECTOR, "form.new-campaign button.primary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", submit)
    tap(browser, submit)
    problems = WebDriverWait(browser, 20).until(lambda d: d.find_element(By.ID, "problems"))
    assert problems.rect["y"] + problems.rect["height"] < 844, problems.rect  # first screen
    assert "Not readable as settings (line 1, character 14)" in problems.text
    assert browser.find_element(By.NAME, "name").get_attribute("value") == "Refused 1757"
    link = problems.find_element(By.CSS_SELECTOR, 'a[href="#id_rule_settings"]')
    assert link.size["height"] >= 24
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "setup-form-problems.png"))
    wide = no_overflow(browser, "new campaign, refused")
    assert not wide, wide


# Every control of the page a thumb taps, where it is drawn: its name and its size. A box or a
# round button counts by the row of its label (the row is what the thumb taps).
CONTROLS = """
const out = [];
for (const e of document.querySelectorAll(
    'header a, header button, main a.button, main button, main summary, main select,'
    + ' main input:not([type=hidden])')) {
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height) continue;
  const tick = e.type === 'checkbox' || e.type === 'radio';
  const h = tick ? e.closest('label').getBoundingClientRect().height : r.height;
  out.push([e.tagName + ' ' + (e.innerText || e.name || '').trim().slice(0, 40), Math.round(h)]);
}
return out;
"""


def test_the_boards_tools_fit_a_thumb_and_read_one_field_a_line(browser, live_server, organiser):
    """The newcomer's board on a phone: the folded tools (a missed deadline, Caretaker…,
    Replace…) were 24 px lines to tap, Log out too; in the missed-deadline form "Grace, hours"
    and its box, "Excused misses a season, per seat" and its box and "Caretaker's style" ran on
    together, so which box was which could not be read.
    Screenshot: docs/screenshots/board-tools.png."""
    campaign = setup.create_campaign(
        organiser, name="Tools 1757", players=3, army_points=POINTS, now=NOW,
    )  # fmt: skip
    for s in campaign.seats.all():
        s.user = make_user(f"t-{s.power}")
        s.save()
    setup.start_campaign(campaign, organiser, now=NOW)
    sign_in(browser, live_server, organiser)
    browser.get(live_server.url + reverse("organiser_board", args=[campaign.code]))
    prussia = campaign.seats.get(power="prussia")
    for selector in (
        f"#board-{prussia.code} > summary",
        f"#caretaker-{prussia.code} > summary",
        f"#replace-{prussia.code} > summary",
        "#missed-policy > summary",
    ):
        tap(browser, browser.find_element(By.CSS_SELECTOR, selector))
    assert browser.find_element(By.ID, "missed-policy").get_attribute("open") is not None
    small = [c for c in browser.execute_script(CONTROLS) if c[1] < 44]
    assert not small, small
    # the missed-deadline form: one field a line, its box under its words, within the form
    labels = browser.find_elements(By.CSS_SELECTOR, "#missed-policy form > label")
    assert [lb.text.split("\n")[0] for lb in labels][:3] == [
        "Grace, hours", "Excused misses a season, per seat", "Caretaker's style",
    ]  # fmt: skip
    rows = [lb.rect for lb in labels]
    overlapping = [
        (a, b) for a, b in zip(rows, rows[1:], strict=False) if b["y"] < a["y"] + a["height"] - 1
    ]
    assert not overlapping, overlapping
    for label in labels[:3]:
        words = browser.execute_script(
            "const r = document.createRange(); r.selectNodeContents(arguments[0].firstChild);"
            "return r.getBoundingClientRect().bottom;",
            label,
        )
        box = label.find_element(By.CSS_SELECTOR, "input, select").rect
        assert box["y"] >= words - 1, (label.text, words, box)  # under its words
    missed = browser.find_element(By.ID, "missed-policy")
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", missed)
    browser.save_screenshot(str(SCREENSHOTS / "board-tools.png"))
    assert not no_overflow(browser, "board, its tools open")
