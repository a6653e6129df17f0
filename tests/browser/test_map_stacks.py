# ruff: noqa: F811 (the browser and campaign fixtures are imported)
"""The map's counters on a phone (390x844, Debian's chromium): a thumb's target each, stacks
picked from a list.

A newcomer's playthrough on a phone: the counters were 32 x 22 px with a 32 px tap target, and
the forces of one hex fanned out over the hexes around, so a stack and its neighbours' counters
covered one another. Every counter in the map's box is now a tap target of at least 44 x 44 CSS
px (WCAG 2.5.5, Apple's HIG; the face may be smaller, a transparent pad round it), no two faces
and no two targets overlap, and every label is 10 px or more and whole. The forces of one hex
(or, below zoom 2, of hexes too close for two targets) are one counter with a count badge; a tap
on it opens a small list, each force a row of its own. On the bundled map the Russian seat's
Apraxin and Fermor stand in one hex (the engine's sample deployment): each is chosen by tapping
the stack and then its row, on the orders map; on the dashboard the list names both.
Screenshot: docs/screenshots/orders-stack.png.
"""

import pytest

from rules.leaders import leader
from tests.browser.test_map_centring import marching, waiting  # noqa: F401 (fixtures)
from tests.browser.test_map_widget import (  # noqa: F401 (fixtures)
    deploying,
    mouse_away,
    shot,
    tiles,
    tiles_loaded,
    wait_idle,
)
from tests.browser.test_play_phone import browser, sign_in  # noqa: F401
from tests.orders.test_play_fixtures import url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THUMB = 44  # CSS px each way: WCAG 2.5.5 (AAA) and Apple's HIG

# Every counter wholly in the map's box: its face, the pad centred on it (its tap target), its
# label's size, whether the label is cut off, and the forces it stands for.
COUNTERS = """
const w = document.getElementById('mapwidget');
const box = w.getBoundingClientRect();
const mid = r => [r.left + r.width / 2, r.top + r.height / 2];
const pads = [...w.querySelectorAll('.mw-pad')].map(e => e.getBoundingClientRect());
const out = [];
for (const face of w.querySelectorAll('.mw-counter')) {
  const f = face.getBoundingClientRect(), [fx, fy] = mid(f);
  const found = pads.filter(p => Math.abs(mid(p)[0] - fx) < 1 && Math.abs(mid(p)[1] - fy) < 1);
  const t = found.length ? found[0] : f;
  if (t.left < box.left || t.top < box.top || t.right > box.right
      || t.bottom > Math.min(box.bottom, innerHeight)) continue;
  out.push({hex: face.dataset.hex, unit: face.dataset.unit, text: face.textContent,
            face: [f.left, f.top, f.right, f.bottom], pads: found.length,
            pad: [t.left, t.top, t.right, t.bottom],
            font: parseFloat(getComputedStyle(face).fontSize),
            clipped: face.scrollWidth > face.clientWidth + 1});
}
return out;
"""


def overlapping(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def assert_thumb_targets(driver, where: str) -> list[dict]:
    """Every counter in the map's box: one pad of THUMB px or more each way, a label of 10 px or
    more and not cut off; no two faces overlap, nor two targets."""
    driver.execute_script("document.getElementById('mapwidget').scrollIntoView({block: 'start'})")
    mouse_away(driver)
    found = driver.execute_script(COUNTERS)
    assert found, f"{where}: no counter in the map's box"
    small = [
        c for c in found
        if c["pads"] != 1 or c["pad"][2] - c["pad"][0] < THUMB or c["pad"][3] - c["pad"][1] < THUMB
    ]  # fmt: skip
    assert not small, f"{where}: tap targets under {THUMB} x {THUMB} px: {small}"
    unreadable = [c for c in found if not c["text"] or c["font"] < 10 or c["clipped"]]
    assert not unreadable, f"{where}: labels missing, under 10 px or cut off: {unreadable}"
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            assert not overlapping(a["face"], b["face"]), f"{where}: faces overlap: {a} {b}"
            assert not overlapping(a["pad"], b["pad"]), f"{where}: targets overlap: {a} {b}"
    return found


def tap_at(driver, x: float, y: float) -> None:
    """A pointer's tap where a thumb would put it (no script's click on an element)."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    tap = ActionBuilder(driver)
    tap.pointer_action.move_to_location(int(x), int(y))
    tap.pointer_action.click()
    tap.perform()


def centre_of(driver, css: str) -> list[float]:
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return null;"
        "e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height];",
        css,
    )


def open_stack(driver, wait, hexid: str) -> None:
    """Bring the hex to the middle at zoom 2 (a finger's pan) and tap its counter's face."""
    driver.execute_script(
        "const w = document.getElementById('mapwidget'); w.scrollIntoView({block: 'start'});"
        "w._widget.show(arguments[0], Math.max(2, w._widget.map.getZoom()));",
        hexid,
    )
    mouse_away(driver)
    faces = driver.execute_script(
        "return [...document.querySelectorAll('#mapwidget .mw-counter[data-hex=\"'"
        " + arguments[0] + '\"]')].length;",
        hexid,
    )
    assert faces == 1, f"{faces} counters drawn for the forces of {hexid}, not one stack"
    x, y, *_ = centre_of(driver, f'#mapwidget .mw-counter[data-hex="{hexid}"]')
    tap_at(driver, x, y)
    wait.until(lambda d: centre_of(d, "#mapwidget .mw-picker .mw-pick"))


def pick(driver, wait, unit: str) -> None:
    """Tap the force's row in the stack's list: it is chosen, as a tap on its own counter was."""
    row = centre_of(driver, f'#mapwidget .mw-picker button[data-unit="{unit}"]')
    assert row, f"{unit} has no row in the stack's list"
    assert row[3] >= THUMB, f"{unit}'s row is {row[3]} px high"
    tap_at(driver, row[0], row[1])
    wait.until(
        lambda d: (
            d.execute_script("return document.getElementById('mapwidget').dataset.followed") == unit
        )
    )
    wait_idle(wait)
    assert driver.execute_script("return document.getElementById('mapwidget')._widget.unit") == unit


def test_every_counter_is_a_thumb_target_and_each_force_of_a_stack_can_be_chosen(
    browser, axe, live_server, marching
):
    from selenium.webdriver.common.by import By

    campaign = marching
    russia = next(s for s in campaign.seats.all() if "russia" in s.armies)
    state = campaign.open_window().version.state
    hexes: dict[str, list[str]] = {}
    for key, x in sorted(state["leaders"].items()):
        if x["army"] == "russia":
            hexes.setdefault(x["hex"], []).append(key)
    hexid, together = next((h, ks) for h, ks in sorted(hexes.items()) if len(ks) >= 2)
    wait = waiting(browser)
    sign_in(browser, live_server, russia.user)

    # --- the orders map as it opens, then further out: every counter a thumb's target ---------
    browser.get(live_server.url + url("orders", russia))
    wait_idle(wait)
    browser.execute_script("document.getElementById('mapwidget').scrollIntoView({block: 'start'})")
    tiles_loaded(browser)
    assert_thumb_targets(browser, "orders as opened")
    for zoom in (1, 0):
        browser.execute_script(
            "document.getElementById('mapwidget')._widget.map.setZoom(arguments[0],"
            " {animate: false});",
            zoom,
        )
        wait.until(
            lambda d, z=zoom: (
                d.execute_script("return +document.getElementById('mapwidget').dataset.zoom") == z
            )
        )
        assert_thumb_targets(browser, f"orders at zoom {zoom}")
        shot(browser, f"stacks-zoom{zoom}")

    # --- two forces in one hex: each chosen by a tap on the stack, then on its row -------------
    open_stack(browser, wait, hexid)
    listed = browser.execute_script(
        "return [...document.querySelectorAll('#mapwidget .mw-picker [data-unit]')]"
        ".map(e => e.dataset.unit);"
    )
    assert set(together) <= set(listed), (together, listed)
    assert browser.switch_to.active_element.get_attribute("data-unit") == listed[0]
    shot(browser, "orders-stack", docs=True)
    axe.check(browser, "orders-stack")
    for unit in together:
        open_stack(browser, wait, hexid)
        pick(browser, wait, unit)
        assert not browser.find_elements(By.CSS_SELECTOR, "#mapwidget .mw-picker")
        assert_thumb_targets(browser, f"orders, {unit} chosen")

    # --- the dashboard: the same counters, the stack's list names each force -------------------
    browser.get(live_server.url + url("dashboard", russia))
    wait_idle(wait)
    assert_thumb_targets(browser, "dashboard")
    open_stack(browser, wait, hexid)
    text = browser.find_element(By.CSS_SELECTOR, "#mapwidget .mw-picker").text
    names = [leader(k).name for k in together]
    assert all(n in text for n in names), (names, text)
    shot(browser, "dashboard-stack")
    axe.check(browser, "dashboard-stack")
    assert axe.pages == 2 and not axe.found, axe.report()
