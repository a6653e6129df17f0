# ruff: noqa: F811 (the browser and tile fixtures are imported)
"""The orders map goes where the player looks (issue 35: the walk of a new club at 390x844).

On the bundled map, every seat deployed as the engine's sample, turn 1's march phase: the
Austrian seat's forces lie from Bohemia to Hungary. The orders map opens at zoom 1 or closer on
the most of those that still have a march one view holds, every counter labelled and a thumb's
target, and the line under the map counts the rest (the phone review: framing them all opened
the map at zoom -1.5, every counter a 22 x 16 px speck); a force chosen in the list comes to
the middle of the map at zoom 2 at least, and so does one chosen by a tap, on its face or on
the pad round it. A tap on a counter standing in a lit hex (a garrison's, an enemy's: where
sieges and battles begin) marches the chosen force there as a tap on the hex does, and Ready
waits for a line of march typed and not saved. On the battle-decision page the map opens on the
battle and the page says nothing of marches; a decision saves itself when ticked, and Ready waits
for one ticked and not saved (with JavaScript and without). Screenshots:
docs/screenshots/orders-opening.png, orders-far-force.png and battle-decision.png.
"""

import copy
import json
from datetime import timedelta

import pytest

from campaign.models import PhaseWindow, StateVersion
from maps.core.loader import load_map
from maps.core.tiles import grid_of
from maps.overlay import hex_xy
from orders.models import OrderSheet
from rules.orders import Orders, orders_to_dict
from tests.browser.test_map_widget import (  # noqa: F401 (fixtures)
    arrows,
    assert_opens_on_the_most,
    choose_in_list,
    deploying,
    map_zoom,
    mouse_away,
    off_centre,
    shot,
    tap_counter,
    tap_targets,
    tiles,
    tiles_loaded,
    wait_idle,
)
from tests.browser.test_play_phone import browser, sign_in  # noqa: F401
from tests.orders.test_play_fixtures import client_for, in_phase, url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def marching(deploying):
    """Turn 1's march phase on the bundled map, every seat deployed as the engine's sample."""
    campaign, sample = deploying
    # The Austrian march modifier at 0 (6.1, 1.4): 2d6 marches, never none. With the book's -2
    # a double 1 (1 roll in 36) leaves the pool empty: no force has a march, none a lit hex.
    campaign.rule_settings = {**campaign.rule_settings, "march_modifier": {"austria": 0}}
    campaign.save(update_fields=["rule_settings"])
    window = campaign.open_window()
    prussia = campaign.seats.get(power="prussia")
    sheet = OrderSheet.objects.get(window=window, seat=prussia)
    sheet.draft = orders_to_dict(Orders(deployment=(sample,)))
    sheet.save(update_fields=["draft"])
    r = client_for(prussia.user).post(url("ready", prussia), in_phase(prussia))
    assert r.status_code == 302
    window = campaign.open_window()
    assert window is not None and window.phase == "march", window
    return campaign


def waiting(driver):
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(
        driver, 40, ignored_exceptions=(StaleElementReferenceException, WebDriverException)
    )


def test_the_first_view_is_chosen_again_when_the_box_changes_before_the_player_touches_it(
    browser, live_server, marching
):
    """On a slow phone the map's box may be laid out after the first view was chosen (a run of
    the browser tests under load opened on 1 of the 4 forces one view holds, 9 outside): the
    first view follows the box until the player touches the map, and never after."""
    austria = marching.seats.get(power="austria")
    wait = waiting(browser)
    sign_in(browser, live_server, austria.user)
    browser.get(live_server.url + url("orders", austria))
    wait_idle(wait)
    shrunk = (
        "const el = document.getElementById('mapwidget'), w = el._widget;"
        "el.style.height = '120px'; el.style.width = '160px';"
        "w.map.invalidateSize(false); w.centred = false; w.centre();"
        "return el.dataset.outside;"
    )
    small = browser.execute_script(shrunk)
    grown = (
        "const el = document.getElementById('mapwidget');el.style.height = ''; el.style.width = '';"
    )
    browser.execute_script(grown)
    wait.until(lambda d: d.execute_script(
        "return document.getElementById('mapwidget').dataset.outside") != small)  # fmt: skip
    opening = assert_opens_on_the_most(browser)  # chosen again for the box as it is now
    assert opening["status"].count("outside this view") <= 1, opening["status"]
    # touched, the view is the player's: the box shrunk as before, it is not chosen again
    browser.execute_script(
        "document.getElementById('mapwidget').dispatchEvent(new PointerEvent('pointerdown'));"
        "const el = document.getElementById('mapwidget');"
        "el.style.height = '120px'; el.style.width = '160px';"
    )
    browser.execute_script("return new Promise(r => setTimeout(r, 500));")
    kept = browser.execute_script("return document.getElementById('mapwidget').dataset.outside")
    assert kept == opening["outside"] != small, (kept, opening["outside"], small)


def test_the_orders_map_opens_on_the_most_marches_a_view_holds_and_goes_to_the_force_chosen(
    browser, live_server, marching
):
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.by import By

    campaign = marching
    austria = campaign.seats.get(power="austria")
    state = campaign.open_window().version.state
    mine = {k: x for k, x in state["leaders"].items() if x["army"] in austria.armies}
    strongest = max(mine, key=lambda k: mine[k]["points"])
    grid = grid_of(load_map(campaign.map_name or "central_europe_1756"))

    def apart(k: str) -> float:
        a, b = hex_xy(grid, mine[k]["hex"]), hex_xy(grid, mine[strongest]["hex"])
        return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5

    far = max(mine, key=apart)
    assert apart(far) > 300, (far, apart(far))  # farther than a phone's map at zoom 0
    wait = waiting(browser)
    sign_in(browser, live_server, austria.user)
    browser.get(live_server.url + url("orders", austria))
    wait_idle(wait)
    # spread from Bohemia to Hungary: not all at zoom 1, so the most of them, the rest counted
    opening = assert_opens_on_the_most(browser)
    assert opening["inView"] >= 2 and int(opening["outside"]) >= 1, opening
    browser.execute_script("document.getElementById('mapwidget').scrollIntoView({block: 'start'})")
    tiles_loaded(browser)
    mouse_away(browser)
    shot(browser, "orders-opening", docs=True)
    # every counter of the seat in view labelled, and a thumb's target (44 x 44 px at least)
    targets = tap_targets(browser)
    assert all(t["text"] and t["font"] >= 10 and not t["clipped"] for t in targets), targets
    # a tap on a counter's pad, off its face, does what a tap on the face does: a force alone is
    # chosen; a stack (each Austrian leader stands with a garrison) opens its list, where the
    # force is chosen
    alone = next(t for t in targets if (t["unit"] or t["units"]) and set(t["hits"]) == {"own"})
    assert (alone["pad"][1] - alone["face"][1]) / 2 > 2, alone  # (x0 + 2, y0 + 2) is off the face
    x0, y0, *_ = alone["box"]
    tap = ActionBuilder(browser)
    tap.pointer_action.move_to_location(int(x0 + 2), int(y0 + 2))
    tap.pointer_action.click()
    tap.perform()
    unit = alone["unit"] or alone["units"].split()[0]
    if not alone["unit"]:
        row = wait.until(
            lambda d: d.find_elements(
                By.CSS_SELECTOR, f'#mapwidget .mw-picker button[data-unit="{unit}"]'
            )
        )
        row[0].click()
    wait.until(
        lambda d: (
            d.execute_script("return document.getElementById('mapwidget').dataset.followed") == unit
        )
    )
    wait_idle(wait)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#mapwidget path.mw-reach"))

    # chosen in the list: the map goes there, close enough to tap its lit hexes
    choose_in_list(browser, wait, far)
    assert off_centre(browser, mine[far]["hex"]) < 40
    assert map_zoom(browser) >= 2
    status = browser.find_element(By.ID, "mapwidget-status").text
    assert "Tap a lit hex" in status or "no further" in status, status
    browser.execute_script("document.getElementById('mapwidget').scrollIntoView({block: 'start'})")
    shot(browser, "orders-far-force", docs=True)

    # chosen by a tap on its counter, off the middle: the map centres it too
    other = next(k for k in mine if k != far and mine[k]["hex"] != mine[far]["hex"])
    browser.execute_script(
        "const w = document.getElementById('mapwidget')._widget;"
        "w.show(arguments[0], 2); w.map.panBy([90, 70], {animate: false});",
        mine[other]["hex"],
    )
    assert off_centre(browser, mine[other]["hex"]) > 80
    tap_counter(browser, wait, other)
    wait.until(
        lambda d: (
            d.execute_script("return document.getElementById('mapwidget').dataset.followed")
            == other
        )
    )
    assert off_centre(browser, mine[other]["hex"]) < 40

    # a force demoralized and out of supply (3.1.4): its flags on its counter, never cut off
    assert not browser.execute_script(FLAGGED)


# Every force flagged "U", then "DU", at zooms 1 to 3: the counters whose flags do not show or
# whose label is cut off (wider than its counter).
FLAGGED = """
const w = document.getElementById('mapwidget')._widget;
const out = [];
for (const zoom of [1, 2, 3]) {
  w.map.setZoom(zoom, {animate: false});
  for (const flags of ['U', 'DU']) {
    w.data.counters.forEach(c => { if (c.kind === 'force') c.flags = flags; });
    w.draw();
    for (const e of document.querySelectorAll('#mapwidget .mw-counter.mw-force')) {
      const sup = e.querySelector('sup');
      if (!sup || sup.textContent !== flags || e.scrollWidth > e.clientWidth + 1) {
        out.push([zoom, e.textContent, e.scrollWidth, e.clientWidth]);
      }
    }
  }
}
return out;
"""


# The counter's face in the hex, where a tap lands on it (on top at its centre), and its pad.
FACE_IN = """
const out = [];
const here = '#mapwidget .mw-counter[data-hex="' + arguments[0] + '"]';
for (const face of document.querySelectorAll(here)) {
  const r = face.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const t = document.elementFromPoint(x, y);
  if (t && t.closest('.mw-counter') === face) {
    out.push({x: x, y: y, unit: face.dataset.unit, lit: face.classList.contains('mw-lit'),
              label: face.getAttribute('aria-label')});
  }
}
return out;
"""


def lit_counters(campaign, seat) -> dict[str, list[str]]:
    """For each force of ``seat``: the hexes it can reach that a counter stands in (its overlay,
    as the widget reads it), its own hex left out."""
    c = client_for(seat.user)
    layer = json.loads(c.get(url("map_overlay", seat)).content)
    where = {x["hex"] for x in layer["counters"] if x.get("kind") != "report"}
    out = {}
    for unit in {x["unit"] for x in layer["counters"] if x.get("unit")}:
        reach = json.loads(c.get(url("map_overlay", seat) + f"?unit={unit}").content)["reach"]
        out[unit] = sorted({h["hex"] for h in reach["hexes"]} & where)
    return {unit: hexes for unit, hexes in out.items() if hexes}


def test_a_tap_on_a_counter_in_a_lit_hex_marches_there(browser, live_server, marching):
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.by import By

    campaign = marching
    austria = campaign.seats.get(power="austria")
    window = campaign.open_window()
    found = lit_counters(campaign, austria)
    assert found, "no force of the Austrian seat can reach a hex a counter stands in"
    unit = max(sorted(found), key=lambda k: len(found[k]))
    wait = waiting(browser)
    sign_in(browser, live_server, austria.user)
    browser.get(live_server.url + url("orders", austria))
    wait_idle(wait)
    choose_in_list(browser, wait, unit)
    # the lit hex the counter stands in, in the middle of the map: a tap on its counter's face
    target = found[unit][0]
    browser.execute_script(
        "const w = document.getElementById('mapwidget'); w.scrollIntoView({block: 'start'});"
        "w._widget.show(arguments[0], 2);",
        target,
    )
    mouse_away(browser)
    faces = browser.execute_script(FACE_IN, target)
    assert faces and all(f["lit"] for f in faces), faces
    assert "tap to march" in faces[0]["label"], faces[0]
    tap = ActionBuilder(browser)
    tap.pointer_action.move_to_location(int(faces[0]["x"]), int(faces[0]["y"]))
    tap.pointer_action.click()
    tap.perform()
    sheet = OrderSheet.objects.get(window=window, seat=austria)
    reach = json.loads(
        client_for(austria.user).get(url("map_overlay", austria) + f"?unit={unit}").content
    )["reach"]
    codes = next(h["codes"] for h in reach["hexes"] if h["hex"] == target)

    def marched(_d) -> bool:
        sheet.refresh_from_db()
        return [o["path"] for o in sheet.draft.get("march", []) if o["unit"] == unit] == [codes]

    wait.until(marched)
    # the march line drawn to the counter's hex; the force is still the one chosen
    wait.until(lambda d: arrows(d).get(unit) == codes)
    wait_idle(wait)
    assert (
        browser.execute_script("return document.getElementById('mapwidget')._widget.unit") == unit
    )
    shot(browser, "orders-tap-a-counter-in-a-lit-hex")

    # Ready waits for a line of march typed and not saved: said, nothing sent, nothing lost
    field = browser.find_element(By.CSS_SELECTOR, "form.order-form input[name=path]")
    assert field.get_attribute("value") == codes
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.clear()
    field.send_keys("1")
    ready = browser.find_element(By.CSS_SELECTOR, "form.ready button.primary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", ready)
    ready.click()
    said = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "form.ready .ready-unsaved"))
    assert "is not saved yet" in said[0].text and "Save order" in said[0].text, said[0].text
    assert browser.find_element(By.CSS_SELECTOR, "form.order-form.unsaved-here")
    assert browser.find_element(By.CSS_SELECTOR, "input[name=path]").get_attribute("value") == "1"
    sheet.refresh_from_db()
    assert not sheet.ready and [o["path"] for o in sheet.draft["march"] if o["unit"] == unit] == [
        codes
    ]
    shot(browser, "orders-ready-waits-for-a-typed-line")
    # the line as saved again: nothing else on the page holds a change (its selects, its boxes),
    # and Ready submits
    field = browser.find_element(By.CSS_SELECTOR, "form.order-form input[name=path]")
    field.clear()
    field.send_keys(codes)
    ready = browser.find_element(By.CSS_SELECTOR, "form.ready button.primary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", ready)
    ready.click()
    wait.until(lambda d: "Your orders are submitted" in d.find_element(By.TAG_NAME, "main").text)
    sheet.refresh_from_db()
    assert sheet.ready


def test_the_battle_decision_page_opens_on_the_battle(browser, live_server, marching):
    from django.utils import timezone
    from selenium.webdriver.common.by import By

    campaign = marching
    austria, prussia = campaign.seats.get(power="austria"), campaign.seats.get(power="prussia")
    latest = campaign.latest_version()
    state = copy.deepcopy(latest.state)
    where = state["leaders"]["frederick"]["hex"]
    state["leaders"][austria.leaders["austria"][0]]["hex"] = where
    state["phase"] = "battle"
    PhaseWindow.objects.filter(campaign=campaign).update(status="resolved")
    now = timezone.now()
    version = StateVersion.objects.create(
        campaign=campaign, number=latest.number + 1, turn=latest.turn,
        resolved_phase="reconnaissance", phase="battle", state=state, created=now,
    )  # fmt: skip
    PhaseWindow.objects.create(
        campaign=campaign, version=version, phase="battle", turn=latest.turn,
        owing=[str(austria.code), str(prussia.code)], opened_at=now,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    wait = waiting(browser)
    sign_in(browser, live_server, prussia.user)
    browser.get(live_server.url + url("orders", prussia))
    wait_idle(wait)
    assert browser.find_element(By.TAG_NAME, "h1").text == "Battle decisions (9)"
    page = browser.find_element(By.TAG_NAME, "main").text
    assert "Marches this turn" not in page and "march there" not in page, page[:400]
    assert off_centre(browser, where) < 40
    assert browser.find_elements(By.CSS_SELECTOR, "#mapwidget .mw-battle")
    shot(browser, "battle-decision", docs=True)

    # A decision ticked is saved at once, without "Save decision" (the playthrough: "Fight"
    # ticked, Ready pressed, the orders submitted with no decision, 9).
    window = campaign.open_window()
    sheet = OrderSheet.objects.get(window=window, seat=prussia)

    def decided(choice):
        def check(_d) -> bool:
            sheet.refresh_from_db()
            return [d["choice"] for d in sheet.draft.get("battle", [])] == [choice]

        return check

    def tick(choice: str) -> None:
        radio = browser.find_element(By.CSS_SELECTOR, f'form.decision input[value="{choice}"]')
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", radio)
        radio.click()

    tick("fight")
    wait.until(decided("fight"))
    wait.until(lambda d: "Decision saved" in d.find_element(By.ID, "play").text)
    checked = browser.find_element(By.CSS_SELECTOR, "form.decision input:checked")
    assert checked.get_attribute("value") == "fight"
    shot(browser, "battle-decision-saved")

    # As without JavaScript (play.css, when readyguard.js has not set "ready-guard"; no
    # htmx either, so a tick saves nothing): ticked and not saved, Ready gives way to a line
    # saying so; saved, Ready is back
    browser.execute_script(
        "document.documentElement.classList.remove('ready-guard');"
        "document.querySelector('form.decision input[value=\"decline\"]').checked = true;"
    )
    assert not browser.find_element(By.CSS_SELECTOR, "form.ready button.primary").is_displayed()
    note = browser.find_element(By.CSS_SELECTOR, "form.ready .unsaved")
    assert note.is_displayed() and "Save decision" in note.text
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", note)
    shot(browser, "battle-decision-not-saved-without-javascript")
    browser.find_element(By.XPATH, "//button[contains(., 'Save decision')]").click()
    wait.until(decided("decline"))
    wait.until(
        lambda d: d.find_element(By.CSS_SELECTOR, "form.ready button.primary").is_displayed()
    )
    assert not browser.find_element(By.CSS_SELECTOR, "form.ready .unsaved").is_displayed()

    # With JavaScript, a decision ticked whose save has not landed (as if the line were slow):
    # Ready is not sent, and says why; the decision saved stands
    browser.get(live_server.url + url("orders", prussia))
    wait_idle(wait)
    browser.execute_script(
        "document.querySelector('form.decision input[value=\"fight\"]').checked = true;"
    )
    browser.find_element(By.CSS_SELECTOR, "form.ready button.primary").click()
    said = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "form.ready .ready-unsaved"))
    assert said[0].text.startswith(
        f"Not submitted: your decision for Prussia at {where} is not saved yet"
    ), said[0].text
    assert "Save decision" in said[0].text
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", said[0])
    shot(browser, "battle-decision-ready-waits")
    sheet.refresh_from_db()
    assert not sheet.ready and sheet.draft["battle"][0]["choice"] == "decline"
    # saved, then Ready: submitted with the decision
    browser.find_element(By.XPATH, "//button[contains(., 'Save decision')]").click()
    wait.until(decided("fight"))
    wait.until(lambda d: "Decision saved" in d.find_element(By.ID, "play").text)
    browser.find_element(By.CSS_SELECTOR, "form.ready button.primary").click()
    wait.until(lambda d: "Your orders are submitted" in d.find_element(By.TAG_NAME, "main").text)
    sheet.refresh_from_db()
    assert sheet.ready and sheet.draft["battle"][0]["choice"] == "fight"
