# ruff: noqa: F811 (the browser and tiles fixtures are imported)
"""An absent player on a phone (issue 43): Debian's chromium at 390x844 against the live server.

The organiser makes a 3-player campaign from the set-up form on his phone, choosing the
caretaker policy with no excused miss and the "plays on" style; the three players are seated,
the organiser starts, every seat deploys the engine's sample deployment (as tests/fog does).
Turn 1 is played by all three in the browser. From turn 2 France's player is silent: his first
march deadline passes (the window resolved with ``now=`` a minute past it, as the sweep would
then), and the caretaker holds his seat; from then on every window resolves the moment
Austria's and Prussia's players press Ready, no deadline waited, and France's forces march.
At turn 5 he signs in, reads in "Since you last looked" that the caretaker gave his orders in
turns 2 to 4, takes his seat back with one tap, and the next window waits for him again.

The campaign's dice are fixed (``SEED``), so the caretaker's marches are the same every run.
Every tap is counted from the seat's dashboard, per seat and turn, and printed (``-s``).
Screenshots go to ``artifacts/absent-player-*.png`` (git-ignored), and to
``docs/screenshots/absent-player-*.png`` when ``DGK_SCREENSHOTS=1`` (the form, France's
dashboard on his return, his seat taken back).
"""

import os
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from campaign.models import Campaign, PhaseWindow, Seat, organisers_group
from campaign.services import gameplay
from campaign.services.gameplay import read_state
from campaign.services.resolution import resolve_due_phase
from campaign.services.sweep import sweep
from maps.core.loader import load_map
from orders.models import OrderSheet
from rules.autoplay import deployment_orders
from rules.orders import Orders, orders_to_dict
from tests.browser.test_map_widget import tiles  # noqa: F401
from tests.browser.test_play_phone import ARTIFACTS, browser, click, sign_in  # noqa: F401
from tests.browser.test_setup_phone import no_overflow
from tests.standing import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = ("austria", "france", "prussia")  # the seats of 3 players (1.2)
PRESENT = ("austria", "prussia")
SEED = "absent-1757-43"  # the same dice every run (the campaign's, in the database)
DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"absent-player-{name}.png"))
    if os.getenv("DGK_SCREENSHOTS") == "1":
        DOCS_SHOT.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(DOCS_SHOT / f"absent-player-{name}.png"))


def french_hexes(version) -> dict[str, str]:
    """Where each French leader stands in ``version``."""
    return {x.key: x.hex for x in read_state(version.state).leaders if x.army.value == "france"}


class Phone:
    """The one phone the test holds, handed from player to player; every tap counted by seat
    and turn, from the seat's dashboard."""

    def __init__(self, driver, live_server, wait):
        self.driver, self.live_server, self.wait = driver, live_server, wait
        self.taps: dict[tuple[str, int], int] = defaultdict(int)
        self.wide: list[str] = []

    def dashboard(self, seat: Seat) -> None:
        self.driver.delete_all_cookies()
        sign_in(self.driver, self.live_server, seat.user)
        self.driver.get(f"{self.live_server.url}/play/{seat.code}/")

    def tap(self, seat: Seat, turn: int, by, selector) -> None:
        click(self.wait, by, selector)
        self.taps[(seat.power, turn)] += 1

    def ready(self, seat: Seat, window: PhaseWindow) -> None:
        """From the dashboard: "You owe ... orders", then Ready on the orders page (2 taps)."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as ec

        self.dashboard(seat)
        self.tap(seat, window.turn, By.CSS_SELECTOR, "p.owed a.button")
        self.wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "form.ready")))
        self.wide += no_overflow(self.driver, f"{seat.power}'s {window.phase} orders")
        self.tap(seat, window.turn, By.XPATH, "//button[contains(., 'Ready: submit')]")
        self.wait.until(ec.url_matches(r"/play/[^/]+/$"))
        main = self.driver.find_element(By.TAG_NAME, "main").text
        assert "Not submitted" not in main, main[:2000]
        assert "Your orders are submitted" in main, main[:2000]
        ready = OrderSheet.objects.filter(window=window, seat=seat, ready=True).exists()
        assert ready, f"{seat.power}'s Ready in {window.phase} of turn {window.turn} not saved"


def form_campaign(phone: Phone, organiser) -> Campaign:
    """The organiser's set-up form, posted from his phone: 3 players, Sweden 400 (so the
    engine's sample deployment fits), historical leaders, the caretaker policy with no
    excused miss, playing on."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select

    driver = phone.driver
    sign_in(driver, phone.live_server, organiser)
    driver.get(phone.live_server.url + "/campaigns/new/")
    driver.find_element(By.NAME, "name").send_keys("The absent friend, 1757")
    Select(driver.find_element(By.NAME, "players")).select_by_value("3")
    Select(driver.find_element(By.NAME, "base_army")).select_by_value("sweden")
    points = driver.find_element(By.NAME, "base_points")
    points.clear()
    points.send_keys("400")
    Select(driver.find_element(By.NAME, "leader_selection")).select_by_value("historical")
    click(phone.wait, By.CSS_SELECTOR, 'input[name="missed_policy"][value="caretaker"]')
    excused = driver.find_element(By.NAME, "excused_misses")
    excused.clear()
    excused.send_keys("0")
    Select(driver.find_element(By.NAME, "caretaker_style")).select_by_value("plays-on")
    phone.wide += no_overflow(driver, "the set-up form, the caretaker chosen")
    shot(driver, "1-form")
    click(phone.wait, By.XPATH, "//button[normalize-space()='Create the campaign']")
    phone.wait.until(ec.url_contains("/setup/"))
    campaign = Campaign.objects.get(name="The absent friend, 1757")
    campaign.seed = SEED
    campaign.save(update_fields=["seed"])
    missed = campaign.options["missed"]
    assert (missed["policy"], missed["excused"], missed["style"]) == ("caretaker", 0, "plays-on")
    return campaign


def test_an_absent_player_costs_the_others_one_deadline(browser, axe, live_server, tiles):
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(
        browser, 60, ignored_exceptions=(StaleElementReferenceException, WebDriverException)
    )
    phone = Phone(browser, live_server, wait)
    organiser = make_user("olga")
    organiser.groups.add(organisers_group())
    campaign = form_campaign(phone, organiser)

    # --- three players seated with the sample deployment's leaders; the organiser starts ---
    _, sample = deployment_orders(load_map(), gameplay.rule_settings(campaign))
    by_army = {d.army.value: d for d in sample.deployment}
    seats = {}
    for s in campaign.seats.filter(reserve=False):
        s.user = make_user(f"friend-{s.power}")
        s.leaders = {a: [k for k, *_ in by_army[a].leaders] for a in s.armies}
        s.save()
        seats[s.power] = s
    assert sorted(seats) == list(SEATS)
    browser.get(f"{live_server.url}/campaigns/{campaign.code}/setup/")
    click(wait, By.XPATH, "//button[contains(., 'Start the campaign')]")
    wait.until(lambda _d: campaign.open_window() and campaign.open_window().phase == "deployment")

    # --- the deployment: every seat the sample deployment, ready (as tests/fog does) ---
    window = campaign.open_window()
    for s in seats.values():
        draft = orders_to_dict(Orders(deployment=tuple(by_army[a] for a in s.armies)))
        OrderSheet.objects.create(
            campaign=campaign, window=window, seat=s, draft=draft, ready=True,
            submitted_at=window.opened_at,
        )  # fmt: skip
    resolve_due_phase(window.id, now=window.opened_at)
    assert campaign.open_window().phase == "march", campaign.open_window()

    def owing(w: PhaseWindow, powers) -> list[Seat]:
        return [seats[p] for p in powers if w.owes(seats[p])]

    def next_window(after: PhaseWindow) -> PhaseWindow:
        wait.until(lambda _d: (w := campaign.open_window()) is not None and w.id != after.id)
        w = campaign.open_window()
        assert w.owing, f"turn {w.turn}'s {w.phase} awaits the tabletop: {w}"
        return w

    # --- turn 1: all three play ---
    window = campaign.open_window()
    while window.turn == 1:
        for s in owing(window, SEATS):
            phone.ready(s, window)
        window = next_window(window)
    before = window.version  # France's leaders where the caretaker finds them
    print("France's leaders at the start of turn 2:", french_hexes(before))

    # --- turn 2: France is silent; the march waits for him until its deadline ---
    assert window.phase == "march" and window.owes(seats["france"]), window
    for s in owing(window, PRESENT):
        phone.ready(s, window)
    window.refresh_from_db()
    assert window.status == "open", "the first miss is not yet a miss: the window waits"
    missed = window.deadline + timedelta(minutes=1)  # (the sweep's minute after it)
    assert resolve_due_phase(window.id, now=missed) is not None
    france = Seat.objects.get(id=seats["france"].id)
    assert (france.caretaker_style, france.caretaker_since, france.caretaker_held) == (
        "plays-on", 2, True,
    )  # fmt: skip
    first_miss = window
    window = next_window(window)

    # --- from the first miss to turn 5: each window resolves at the second Ready ---
    resolved = []
    while window.turn < 5:
        present = owing(window, PRESENT)
        if not present:  # owed by France alone: due at once, for beat's next sweep (a minute)
            sweep(timezone.now())
        for s in present:
            phone.ready(s, window)
        window.refresh_from_db()
        assert window.status == "resolved", (
            f"turn {window.turn}'s {window.phase} still waits after the present seats' Ready"
        )
        assert window.resolved_at < window.deadline
        last_ready = max(
            OrderSheet.objects.filter(window=window, ready=True).values_list(
                "submitted_at", flat=True
            ),
            default=window.opened_at,
        )
        assert window.resolved_at - last_ready < timedelta(seconds=30)
        resolved.append((window.turn, window.phase, window.owes(seats["france"])))
        window = next_window(window)
    print("windows resolved at the present seats' Ready (turn, phase, France owed):", resolved)
    assert {t for t, *_ in resolved} >= {2, 3, 4}
    assert sum(1 for *_, owed in resolved if owed) >= 3

    # France's forces moved: the caretaker's marches
    after = window.version
    moved = {
        k: (h, french_hexes(after)[k])
        for k, h in french_hexes(before).items()
        if french_hexes(after).get(k) != h
    }
    print("France's leaders at turn 5:", french_hexes(after), "moved:", moved)
    assert moved, "the caretaker gave France's forces no march"
    gave = campaign.versions.filter(number__gt=first_miss.version.number).exclude(orders={})
    assert any(v.orders.get("france", {}).get("caretaker") == "plays-on" for v in gave)

    # --- turn 5: France is back: his catch-up, one tap, and the window waits for him again ---
    assert (window.turn, window.phase) == (5, "march"), window
    france = seats["france"]
    phone.dashboard(france)
    catch_up = browser.find_element(By.CSS_SELECTOR, ".catch-up").text
    print("France's catch-up:\n" + catch_up)
    assert "Since you last looked" in catch_up
    assert "The caretaker gave your orders in turns 2, 3 and 4" in catch_up, catch_up
    turns = [
        a
        for a in browser.find_elements(By.CSS_SELECTOR, ".catch-up li a")
        if a.text in ("turn 2", "turn 3", "turn 4")
    ]
    assert [a.text for a in turns] == ["turn 2", "turn 3", "turn 4"]
    assert all("/report/" in a.get_attribute("href") for a in turns), turns
    # the links to the caretaker's turns read on one line, "(turn 2, turn 3, turn 4)"
    tops = {round(a.rect["y"]) for a in turns}
    assert len(tops) == 1, f"the turns' links sit on {len(tops)} lines"
    phone.wide += no_overflow(browser, "France's dashboard, back at turn 5")
    axe.check(browser, "absent-player-back")
    shot(browser, "back")
    phone.tap(france, 5, By.XPATH, "//button[contains(., 'Take my seat back')]")
    wait.until(lambda d: "Your seat is yours again" in d.find_element(By.TAG_NAME, "main").text)
    assert not browser.find_elements(By.CSS_SELECTOR, "form.caretaker-back")
    france.refresh_from_db()
    assert (france.caretaker_style, france.caretaker_held) == ("", False)
    phone.wide += no_overflow(browser, "France's dashboard, his seat taken back")
    shot(browser, "seat-taken-back")

    for s in owing(window, PRESENT):
        phone.ready(s, window)
    window.refresh_from_db()
    assert window.status == "open", "the window waits for France again"
    phone.ready(france, window)
    window.refresh_from_db()
    assert window.status == "resolved", "France's Ready, the last, resolves it"

    print("taps per seat per turn:")
    for power in SEATS:
        row = {t: phone.taps.get((power, t), 0) for t in range(1, 6)}
        print(f"  {power}: {row}")
    assert not phone.wide, phone.wide
