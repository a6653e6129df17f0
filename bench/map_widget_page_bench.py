"""Bench: the orders page with its map on a phone over Chromium's "Slow 3G" profile.

    .venv/bin/python bench/map_widget_page_bench.py [--waterfall]

Sets up a throw-away site (a temporary SQLite file, the demo campaign of ``loaddemo``, the tile
pyramid in a temporary folder; DEBUG off, static files collected as deployed), serves it from a
thread (HTTP/1.1, so Chromium opens at most 6 connections to it), and opens the Prussian seat's
orders page in Debian's chromium at 390x844 with DevTools' Slow 3G conditions (2000 ms latency
per request, 50 KB/s down and up). Three visits: a cold cache; a second visit (a later turn: the
page is new, the static files and tiles are cached); and a cold visit with Leaflet blocked, to
show the orders list and Ready are usable without the map's scripts.

For each it prints the bytes and requests, and two moments, each with the serial round trips
that led to it and its floor (latency x round trips + bytes / bandwidth):
- usable: the orders list painted and its scripts run (the later of first contentful paint and
  DOMContentLoaded);
- map drawn: the seat's layer drawn and the tiles of the first view loaded (the widget's
  performance marks "mapwidget:layer" and "mapwidget:tiles").
A round trip is counted from the waterfall: a request is one round trip after the latest one that
had ended when it was sent (a request waiting for one of the 6 connections counts as a later
round trip, as it is). Needs /usr/bin/chromium and chromedriver.
"""

from __future__ import annotations

import gzip
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="dgk-bench-"))
os.environ["DATABASE_URL"] = f"sqlite:///{WORK / 'db.sqlite3'}"
# As deployed: DEBUG off, static files collected, compressed and named by their hash (WhiteNoise)
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
os.environ["MAP_TILES_DIR"] = str(WORK / "tiles")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.test import Client  # noqa: E402

LATENCY, BANDWIDTH = 2.0, 50_000  # DevTools' Slow 3G: seconds a request, bytes a second
SLOW_3G = {"offline": False, "latency": LATENCY * 1000, "downloadThroughput": BANDWIDTH,
           "uploadThroughput": BANDWIDTH}  # fmt: skip
READY = """
const m = document.getElementById('mapwidget');
return document.readyState === 'complete' && !!m && !!m.dataset.version && !!m.dataset.tiles;
"""
ENTRIES = """
const nav = performance.getEntriesByType('navigation')[0];
const rows = [nav, ...performance.getEntriesByType('resource')].map(r => ({
  name: r.name, sent: r.requestStart || r.startTime, end: r.responseEnd, bytes: r.transferSize,
  cached: r.transferSize === 0}));  // from the cache, or blocked: no round trip
const fcp = performance.getEntriesByName('first-contentful-paint')[0];
const mark = n => (performance.getEntriesByName(n)[0] || {}).startTime || null;
return {rows: rows, dcl: nav.domContentLoadedEventEnd, fcp: fcp ? fcp.startTime : null,
        layer: mark('mapwidget:layer'), tiles: mark('mapwidget:tiles'),
        ready: !!document.querySelector('form.ready button'), htmx: !!window.htmx};
"""


def round_trips(rows: list[dict]) -> None:
    """Give each row its serial round trip: the page is the first; a resource is one more than
    the latest row that had ended when it was sent, and at least the second (it was found in the
    page); a row from the cache adds none."""
    for i, r in enumerate(rows):
        before = [q["trip"] for q in rows[:i] if q["end"] <= r["sent"] + 1]
        least = 1 if i else 0
        r["trip"] = max([least, *before]) + (0 if r["cached"] else 1)


def moment(rows: list[dict], at: float | None) -> str:
    """When, after how many round trips and bytes, and the floor those give: each round trip
    costs the latency, each byte its share of the bandwidth. Transfers overlap other requests'
    latency, so a time may come in under the sum (never under the larger of the two)."""
    if at is None:
        return "never"
    done = [r for r in rows if r["end"] <= at + 1]
    trips = max((r["trip"] for r in done), default=0)
    size = sum(r["bytes"] for r in done)
    wait, move = LATENCY * trips, size / BANDWIDTH
    return (
        f"{at / 1000:.1f} s after {trips} round trips and {size / 1024:.0f} KB; floor "
        f"{LATENCY:.0f} s x {trips} + {size / 1024:.0f} KB / {BANDWIDTH // 1000} KB/s = "
        f"{wait:.1f} + {move:.1f} = {wait + move:.1f} s"
    )


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
    for query in ("", "?unit=frederick"):
        answer = client.get(f"/play/{seat.code}/map/overlay.json{query}")
        assert answer.status_code == 200, answer.status_code
        layer = answer.content
        print(f"the seat's layer{query and ' with Frederick reach'}: {len(layer) / 1024:.1f} KB, "
              f"gzip {len(gzip.compress(layer)) / 1024:.1f} KB (embedded in the page)")  # fmt: skip

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
        visits = ("cold cache", "second visit (a later turn)", "cold, Leaflet blocked")
        for visit in visits:
            if visit.startswith("cold, "):
                driver.execute_cdp_cmd("Network.clearBrowserCache", {})
                driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*leaflet*"]})
            driver.get(f"{base}/play/{seat.code}/orders/")
            if visit.startswith("cold, "):
                WebDriverWait(driver, 120).until(
                    lambda d: d.execute_script("return document.readyState === 'complete'")
                )
            else:
                WebDriverWait(driver, 120).until(lambda d: d.execute_script(READY))
            m = driver.execute_script(ENTRIES)
            rows = sorted(m["rows"], key=lambda r: r["sent"])
            round_trips(rows)
            usable = max(m["dcl"], m["fcp"] or m["dcl"])
            drawn = max(m["layer"], m["tiles"]) if m["layer"] and m["tiles"] else None
            total = sum(r["bytes"] for r in rows)
            overlay = [r for r in rows if "/map/overlay.json" in r["name"]]
            tiles = sum(r["bytes"] for r in rows if "/map/tiles/" in r["name"])
            print(f"{visit}: {total / 1024:.0f} KB in {len(rows)} requests "
                  f"({len([r for r in rows if not r['cached']])} from the network; tiles "
                  f"{tiles / 1024:.0f} KB; overlay requests {len(overlay)})")  # fmt: skip
            works = "" if m["ready"] and m["htmx"] else " [NO READY BUTTON OR NO HTMX]"
            print(f"  usable: {moment(rows, usable)}{works}")
            print(f"  map drawn: {moment(rows, drawn)}")
            if "--waterfall" in sys.argv:
                for r in rows:
                    print(f"    trip {r['trip']} {r['sent'] / 1000:5.2f}-{r['end'] / 1000:5.2f} s "
                          f"{r['bytes']:6d} B {r['name'][-60:]}")  # fmt: skip
    finally:
        driver.quit()
        server.shutdown()
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
