"""Notifications on a phone, in Debian's chromium at 390x844: the service worker registers
with the whole site as its scope, and the page stores this device's subscription.

Headless chromium has no push service to subscribe to (Debian's build carries no key for
Google's, and a headless browser is not given one): ``pushManager.subscribe`` is tried and,
when it is refused as it is there, the page's own ``dgkPush.store`` posts a subscription the
test made, as the page does with the browser's. What the push service then receives is tested
against a push service of our own (``test_delivery``). The screenshot of the settings goes to
docs/screenshots/.
"""

from pathlib import Path

import pytest
from django.urls import reverse

from push.models import PushDevice
from tests.browser.axe import Axe, axe_or_skip
from tests.browser.test_pages_fit import CUT_OFF, fits
from tests.browser.test_play_phone import sign_in, start_chromium

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/headless-chromium"

REGISTERED = """
const done = arguments[arguments.length - 1];
(window.dgkPush && window.dgkPush.ready || Promise.resolve())
  .then(() => navigator.serviceWorker.getRegistration('/'))
  .then(r => done(r && r.active ? [r.scope, r.active.scriptURL] : null))
  .catch(e => done(String(e)));
"""

SUBSCRIBE = """
const done = arguments[arguments.length - 1];
const key = Uint8Array.from(atob(arguments[0].replace(/-/g, '+').replace(/_/g, '/')),
                            c => c.charCodeAt(0));
const silence = new Promise(resolve => setTimeout(() => resolve({error: 'no answer'}), 5000));
const subscribed = navigator.serviceWorker.ready
  .then(r => r.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key}))
  .then(s => ({endpoint: s.endpoint}))
  .catch(e => ({error: e.name + ': ' + e.message}));
Promise.race([subscribed, silence]).then(done);
"""

STORE = """
const done = arguments[arguments.length - 1];
window.dgkPush.store({endpoint: arguments[0], keys: {p256dh: arguments[1], auth: arguments[2]}})
  .then(answer => done(answer)).catch(e => done({error: String(e)}));
"""


@pytest.fixture
def axe() -> Axe:
    return axe_or_skip()


@pytest.fixture
def browser():
    yield from start_chromium(390, 844)


def test_the_service_worker_registers_and_the_device_is_stored(
    browser, axe, live_server, player, prussia, subscriber
):
    from selenium.webdriver.support.ui import WebDriverWait

    browser.set_script_timeout(30)
    sign_in(browser, live_server, player)
    origin = live_server.url
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": origin, "permissions": ["notifications"]}
    )
    browser.get(origin + reverse("orders:dashboard", args=[prussia.code]))
    scope, script = browser.execute_async_script(REGISTERED)
    assert scope == origin + "/" and script == origin + "/sw.js"
    state = browser.find_element("css selector", "[data-push-state]")
    WebDriverWait(browser, 20).until(lambda d: "This device is not notified" in state.text)
    assert fits(browser)[0] <= 390  # the dashboard with its notifications section

    # The real thing, where the browser has a push service; headless chromium has none.
    key = browser.find_element("css selector", "[data-push]").get_attribute("data-key")
    padded = key + "=" * (-len(key) % 4)
    tried = browser.execute_async_script(SUBSCRIBE, padded)
    print("pushManager.subscribe in this chromium:", tried)
    endpoint = tried.get("endpoint") or ENDPOINT

    answer = browser.execute_async_script(STORE, endpoint, subscriber.p256dh, subscriber.auth)
    device = PushDevice.objects.get()
    assert answer == {"device": str(device.code)}
    assert (device.user, device.endpoint, device.p256dh) == (player, endpoint, subscriber.p256dh)
    assert device.name.startswith("Chrome")

    browser.get(origin + reverse("push:settings", args=[prussia.code]))
    page = browser.find_element("tag name", "main").text
    assert device.name in page and "Remove" in page
    width, screen = fits(browser)
    assert width <= screen, f"the settings are {width} px wide on a {screen} px screen"
    assert not browser.execute_script(CUT_OFF)
    browser.save_screenshot(str(SCREENSHOTS / "push-settings.png"))
    assert not axe.check(browser, "push-settings"), axe.report()
