"""Bench: the orders page with its map on a phone over Chromium's "Slow 3G" profile.

    .venv/bin/python bench/map_widget_page_bench.py

Sets up a throw-away site (a temporary SQLite file, the demo campaign of ``loaddemo``, the tile
pyramid in a temporary folder; DEBUG off, static files collected as deployed), serves it from a
thread, and opens the Prussian seat's orders page in Debian's chromium at 390x844 with DevTools'
Slow 3G conditions (2000 ms latency, 400 kbit/s each way). Prints, for a cold cache and then for
a second visit: the bytes transferred (navigation and every resource) and the time until the map
has drawn the seat's layer and its tiles. Needs /usr/bin/chromium and chromedriver.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="dgk-bench-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORK / 'db.sqlite3'}"
# As deployed: DEBUG off, static files collected, compressed and named by their hash (WhiteNoise)
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
os.environ["MAP_TILES_DIR"] = str(WORK / "tiles")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.test import Client  # noqa: E402

SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 50_000,
           "uploadThroughput": 50_000}  # fmt: skip
MEASURE = """
const nav = performance.getEntriesByType('navigation')[0];
const res = performance.getEntriesByType('resource');
return {bytes: nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0),
        requests: 1 + res.length,
        tiles: res.filter(r => r.name.includes('/map/tiles/'))
                  .reduce((n, r) => n + r.transferSize, 0)};
"""


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def main() -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    settings.STATIC_ROOT = WORK / "static"
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    call_command("loaddemo", force=True, verbosity=0)
    call_command("rendertiles", verbosity=0)
    from campaign.models import Campaign

    seat = Campaign.objects.get(name="Demo 1757").seats.get(power="prussia")
    client = Client()
    client.force_login(seat.user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value

    server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
    server.set_app(get_wsgi_application())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=390,844", f"--user-data-dir={WORK / 'profile'}"):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(base + "/healthz")
        driver.add_cookie({"name": settings.SESSION_COOKIE_NAME, "value": cookie, "path": "/"})
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW_3G)
        for visit in ("cold cache", "second visit"):
            started = time.time()
            driver.get(f"{base}/play/{seat.code}/orders/")
            WebDriverWait(driver, 120).until(
                lambda d: d.execute_script(
                    "const m = document.getElementById('mapwidget');"
                    "return m && m.dataset.version && !m.dataset.loading"
                    " && [...document.querySelectorAll('.leaflet-tile')]"
                    ".every(t => t.complete);"
                )
            )
            usable = time.time() - started
            m = driver.execute_script(MEASURE)
            print(
                f"{visit}: {m['bytes'] / 1024:.0f} KB in {m['requests']} requests "
                f"(tiles {m['tiles'] / 1024:.0f} KB); map drawn with its tiles after "
                f"{usable:.1f} s on Slow 3G"
            )
    finally:
        driver.quit()
        server.shutdown()
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
