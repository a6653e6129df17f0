"""The container deployment, for real (docs/operations.md, "Host it for your club" and "Backups
and restore"), with the README's commands as written: `up -d` builds the image from the
Dockerfile (no BuildKit) and brings compose.yaml up with a real dockerd; the site reached over
HTTPS through Caddy (its own authority trusted), the demo's organiser and a player at work, the
worker resolving the phase, the first nightly dump and season file; then the upgrade (`down`,
`up -d --build`, built from the same base image), a worker that dies brought back and one
stopped told by /healthz, and the restore drill (a dump, the database dropped, the dump
restored): the same pages each time.

Slow (minutes) and needs root and a docker daemon: it runs only with DGK_DOCKER_SMOKE=1, which
.ci/run sets after .ci/docker/setup.sh has made the machine ready. The tests run in order on one
site; the later ones read what the first one played.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import time
from pathlib import Path

import pytest

from tests.docker.compose_site import (
    IMAGE,
    PIP_CA_FILE,
    ROOT,
    Browser,
    Compose,
    comparable,
    docker,
    env_file,
    run,
    text_of,
    wait_for,
)

pytestmark = [
    pytest.mark.docker,
    pytest.mark.skipif(
        os.getenv("DGK_DOCKER_SMOKE") != "1",
        reason="the container smoke test runs with DGK_DOCKER_SMOKE=1 (.ci/run sets it)",
    ),
]

CA_FILE = "/data/caddy/pki/authorities/local/root.crt"
DUMPS = "/var/lib/dgk/backups/database"
# Directions of a one-hex march (6.2): the test gives Frederick the first the page accepts.
DIRECTIONS = ("1", "2", "3", "4", "5", "6")


class Site:
    """The running deployment and what the tests found out about it."""

    def __init__(self, compose: Compose, cafile):
        self.compose = compose
        self.cafile = cafile
        self.pages: dict[str, str] = {}
        self.seat_path = ""
        self.board_path = ""
        self.timings: dict[str, float] = {}
        self.demo_loaded = 0.0

    def browser(self, username: str) -> Browser:
        browser = Browser(self.cafile)
        browser.sign_in(username, "demo")
        return browser

    def healthy(self, timeout: float = 300) -> dict:
        """Wait for /healthz through Caddy to say ok (database, broker, worker's heartbeat)."""

        def probe():
            status, _, body = Browser(self.cafile).get("/healthz")
            return status == 200 and json.loads(body)

        return wait_for("/healthz through Caddy", probe, timeout)

    def base_layer(self, image: str) -> str:
        inspect = run([docker(), "image", "inspect", image, "--format", "{{json .RootFS.Layers}}"])
        return json.loads(inspect.stdout)[0]

    def dumps(self) -> list[str]:
        listed = self.compose.exec("backup", "ls", "-1", DUMPS)
        return sorted(name for name in listed.split() if name.endswith(".dump"))

    def snapshot(self) -> dict[str, str]:
        """The pages a player and the organiser read, without the per-response tokens."""
        player, umpire = self.browser("prussia"), self.browser("umpire")
        pages = {}
        for who, browser, path in (
            ("player", player, self.seat_path),
            ("player", player, self.seat_path + "history/"),
            ("player", player, self.seat_path + "report/"),
            ("organiser", umpire, self.board_path),
        ):
            status, _, body = browser.get(path)
            assert status == 200, f"{who} {path}: HTTP {status}"
            pages[path] = comparable(body)
        return pages


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    env, pip_ca = ROOT / ".env", ROOT / PIP_CA_FILE
    for mine in (env, pip_ca):
        if mine.exists():
            pytest.fail(f"{mine} exists: the smoke test writes its own and would overwrite it")
    compose = Compose()
    timings: dict[str, float] = {}
    env.write_text(env_file(), encoding="utf-8")
    if "DGK_PIP_CA_FILE" in env_file():
        pip_ca.write_bytes(Path(os.environ["PIP_CERT"]).read_bytes())
    cafile = tmp_path_factory.mktemp("caddy") / "root.crt"
    compose("down", "--volumes", "--remove-orphans", check=False)  # an earlier run's leftovers
    # Built by `up` below (the layers of an earlier build stay, as the build's cache).
    run([docker(), "image", "rm", "--force", "--no-prune", IMAGE], check=False)
    try:
        started = time.monotonic()
        # The README's command as written: the image is built here, without BuildKit.
        compose("up", "-d", timeout=2400)
        timings["build and up"] = time.monotonic() - started

        def root_certificate():
            found = compose.exec("caddy", "cat", CA_FILE, check=False)
            return "BEGIN CERTIFICATE" in found and found

        cafile.write_text(wait_for("Caddy's root certificate", root_certificate, 120))
        running = Site(compose, cafile)
        running.healthy()
        timings["up"] = time.monotonic() - started
        running.timings = timings
        yield running
    finally:
        log = ROOT / "artifacts" / "docker-smoke.log"
        log.parent.mkdir(exist_ok=True)
        log.write_text(compose.logs(), encoding="utf-8")
        compose("down", "--volumes", "--remove-orphans", check=False)
        env.unlink()
        pip_ca.unlink(missing_ok=True)
        print(f"docker smoke: timings {timings}; the services' last lines in {log}")


def frederick_hex(text: str) -> str:
    """The hex the dashboard lists Frederick's force in: "Hex 3318" in open country, "Dresden
    (hex 3318)" in a city's hex."""
    found = re.search(r"Frederick\b[^()·]{0,80}?(?:Hex (\d{4})|\(hex (\d{4})\))", text)
    assert found, text[:2000]
    return found.group(1) or found.group(2)


def test_a_club_site_serves_https_and_the_worker_resolves_a_phase(site):
    compose = site.compose
    assert site.healthy() == {"status": "ok"}

    # Plain HTTP goes to HTTPS (Caddy); the site runs as dgk, not root; migrations ran once.
    connection = http.client.HTTPConnection("127.0.0.1", 18080, timeout=10)
    connection.request("GET", "/", headers={"Host": "localhost"})
    response = connection.getresponse()
    assert response.status in (301, 308)
    # ... on the port HTTPS is published on (DGK_HTTPS_PORT), not Caddy's default 443.
    assert response.getheader("Location") == "https://localhost:18443/"
    assert compose.exec("web", "id", "-un").strip() == "dgk"
    inspect = run([docker(), "image", "inspect", IMAGE, "--format", "{{json .Config}}"])
    config = json.loads(inspect.stdout)
    assert config["User"] == "dgk"
    assert config["Healthcheck"]["Test"] == ["CMD", "dgk-healthcheck"]
    assert "[X]" in compose.exec("web", "python", "manage.py", "showmigrations", "campaign")
    # Django's deployment checks on the settings compose.yaml gives: only the two HSTS choices
    # left to the club (its other subdomains, the browsers' preload list) are reported.
    checked = compose("exec", "-T", "web", "python", "manage.py", "check", "--deploy")
    warnings = re.findall(r"\(security\.(W\d+)\)", checked.stdout + checked.stderr)
    assert warnings == ["W005", "W021"], checked.stderr

    # The demo, as docs/operations.md loads it.
    refused = compose("exec", "-T", "web", "python", "manage.py", "loaddemo", check=False)
    assert refused.returncode == 1 and "DEBUG is off" in refused.stderr
    loaded = compose.exec("web", "python", "manage.py", "loaddemo", "--force")
    assert "Demo 1757" in loaded
    site.demo_loaded = time.monotonic()
    # The README's last command, here without a terminal (the password from the environment).
    compose(
        "exec", "-T", "-e", "DGK_ORGANISER_PASSWORD=a-long-password-1757", "web",
        "python", "manage.py", "createorganiser", "--username", "anna",
        "--email", "anna@example.org", "--noinput",
    )  # fmt: skip
    Browser(site.cafile).sign_in("anna", "a-long-password-1757")

    # The organiser's board.
    umpire = site.browser("umpire")
    status, _, body = umpire.get("/campaigns/")
    board = re.search(r'href="(/campaigns/[0-9a-f-]+/organiser/)"', body)
    assert status == 200 and board, text_of(body)[:500]
    site.board_path = board.group(1)
    status, _, body = umpire.get(site.board_path)
    assert status == 200 and "Demo 1757" in body

    # A player gives a march order and presses Ready (the phase field of the window sent).
    player = site.browser("prussia")
    status, _, body = player.get("/play/")
    seat = re.search(r'href="(/play/[0-9a-f-]{36}/)"', body)
    assert status == 200 and seat
    site.seat_path = seat.group(1)
    status, _, body = player.get(site.seat_path)
    assert "Turn 1: march phase" in text_of(body)
    before = frederick_hex(text_of(body))

    # Static files (hashed names, from the image) and a map tile drawn into the image.
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', body)
    assert stylesheet and player.get(stylesheet.group(1))[0] == 200
    tiles = re.search(r"/map/tiles/([0-9a-f]{12})/", body).group(1)
    assert player.get(f"/map/tiles/{tiles}/0/0/0.png")[0] == 200
    compose.exec("web", "test", "-f", f"/app/var/tiles/{tiles}/grid.json")

    orders = site.seat_path + "orders/"
    status, _, body = player.get(orders)
    assert 'name="phase" value="march"' in body
    for direction in DIRECTIONS:
        march = {"unit": "frederick", "path": direction, "marches": "1", "phase": "march"}
        status, _, body = player.post(orders + "march/", march, referer=orders)
        assert status == 200 and "Order saved" in text_of(body)
        if "Put these right" not in text_of(body):
            break
    else:
        pytest.fail("no one-hex march of Frederick's was accepted")
    status, path, body = player.post(orders + "ready/", {"phase": "march"}, referer=orders)
    assert status == 200 and path == site.seat_path
    assert "Your orders are submitted" in text_of(body)

    # The worker (not the web request) resolves the phase: the forced-march phase opens.
    started = time.monotonic()

    def resolved():
        page = text_of(player.get(site.seat_path)[2])
        return "Turn 1: forced-march phase" in page and page

    page = wait_for("the march phase resolved by the worker", resolved, 600, every=5)
    site.timings["resolution"] = time.monotonic() - started
    after = frederick_hex(page)
    assert after != before
    history = text_of(player.get(site.seat_path + "history/")[2])
    assert "Marches (6) resolved" in history
    worker_log = compose("logs", "--no-color", "worker").stdout
    assert "campaign.tasks.resolve_phase" in worker_log

    site.pages = site.snapshot()


def test_the_first_backups_come_soon_after_the_first_start(site):
    """The first nightly dump holds the site's tables (taken after the migrations), the night is
    recorded, and the demo campaign's season file is written minutes after it started."""
    compose = site.compose
    first = wait_for("the first nightly dump", site.dumps, 120)[0]
    listed = compose.exec("backup", "pg_restore", "--list", f"{DUMPS}/{first}")
    assert "TABLE public campaign_campaign" in listed
    assert compose.exec("backup", "cat", f"{DUMPS}/.nightly").strip().isdigit()
    when = int(compose.exec("backup", "dgk-pg-backup", "next").split()[0])
    assert time.time() < when <= time.time() + 86400  # tonight's, not at once again

    def season_file():
        found = compose.exec("web", "find", "/var/lib/dgk/backups/campaigns", "-name", "*.gz")
        return found.strip()

    left = 360 - (time.monotonic() - site.demo_loaded)  # the check runs every 5 minutes
    assert ".dgk.json.gz" in wait_for("the demo's season file", season_file, max(left, 5), 10)


def test_the_upgrade_builds_from_the_same_base_and_keeps_everything(site):
    """The README's upgrade with Debian's docker-compose: `up -d --build` (after `pull`, which
    CI's stand-ins cannot do). The build arguments come from .env again: the same base image."""
    assert site.pages, "the first test played nothing"
    compose = site.compose
    base = os.getenv("DGK_DOCKER_BASE_IMAGE", "python:3.11-slim-bookworm")
    compose("down")
    started = time.monotonic()
    compose("up", "-d", "--build", timeout=2400)
    site.healthy()
    site.timings["upgrade"] = time.monotonic() - started
    assert site.base_layer(IMAGE) == site.base_layer(base)

    assert site.snapshot() == site.pages


def test_a_worker_that_dies_comes_back_and_one_stopped_is_told(site):
    """A worker whose process dies (killed as the kernel's OOM killer would) is restarted by
    `restart: unless-stopped`; one stopped (`stop`, or `docker kill`: Docker counts both as the
    operator's doing) stays down, and /healthz says so within two minutes."""
    compose = site.compose
    container = compose("ps", "-q", "worker").stdout.strip()

    def state():
        found = run([docker(), "inspect", container, "--format", "{{json .State}}"])
        return json.loads(found.stdout)

    before = run([docker(), "inspect", container, "--format", "{{.RestartCount}}"]).stdout
    run(["kill", "-KILL", str(state()["Pid"])])

    def back():
        now = run([docker(), "inspect", container, "--format", "{{.RestartCount}}"]).stdout
        return state()["Running"] and int(now) > int(before)

    wait_for("the killed worker restarted", back, 60, every=1)
    site.healthy()

    compose("stop", "worker")
    stopped = time.monotonic()

    def told():
        status, _, _ = Browser(site.cafile).get("/healthz")
        return status == 503

    wait_for("/healthz telling the worker is gone", told, 150, every=5)
    site.timings["dead worker told"] = time.monotonic() - stopped
    assert site.timings["dead worker told"] <= 135
    compose("up", "-d")
    site.healthy()


def test_the_restore_drill_gives_back_the_same_site(site, tmp_path):
    """docs/operations.md, "Backups and restore" → "the whole site from a dump", step by step."""
    assert site.pages, "the first test played nothing"
    compose = site.compose

    # A dump (the nightly service's own command, at once), copied off the server; the nightly
    # schedule does not move.
    night = compose.exec("backup", "cat", f"{DUMPS}/.nightly")
    scheduled = compose.exec("backup", "dgk-pg-backup", "next")
    dump = compose.exec("backup", "dgk-pg-backup", "now").strip().splitlines()[-1]
    assert compose.exec("backup", "cat", f"{DUMPS}/.nightly") == night
    assert compose.exec("backup", "dgk-pg-backup", "next") == scheduled
    assert re.fullmatch(r"/var/lib/dgk/backups/database/dgk-\d{8}-\d{6}\.dump", dump), dump
    listed = compose.exec("backup", "ls", "-l", "/var/lib/dgk/backups/database")
    assert dump.rsplit("/", 1)[1] in listed
    copy = tmp_path / "dgk.dump"
    compose.exec_to_file(copy, "backup", "cat", dump)
    assert copy.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format

    # 1. Stop everything that writes to the database, or dumps it half restored.
    compose("stop", "web", "worker", "beat", "backup")
    # 2. Drop the database and make it again, empty.
    compose.exec("db", "dropdb", "--username", "dgk", "dgk")
    compose.exec("db", "createdb", "--username", "dgk", "dgk")
    empty = compose.exec("db", "psql", "--username", "dgk", "--dbname", "dgk", "-Atc", "\\dt")
    assert empty.strip() == ""
    # 3. Restore the dump into it, from standard input.
    with copy.open("rb") as dumped:
        compose(
            "exec", "-T", "db", "pg_restore", "--username", "dgk", "--dbname", "dgk",
            "--no-owner", stdin=dumped,
        )  # fmt: skip
    # 4. Start the site again.
    compose("up", "-d")
    site.healthy()

    assert site.snapshot() == site.pages
