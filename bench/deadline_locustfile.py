"""The players of the deadline hour, for locust (``bench/deadline_hour.py`` runs it; issue 44).

Read from the environment: ``BENCH_PLAN`` (the players, written by the bench's set-up),
``BENCH_LOG`` (one JSON line per save and Ready the site answered as done, checked against the
database afterwards), ``BENCH_BURST_AT`` (seconds after the start when the burst signs in).

The hour of one player (``SignedInPlayer``: the session made before; ``SigningInPlayer``: signs
in first): the dashboard, the orders page, a unit picked and a march saved (both under htmx, as
the phone does: the page's play area comes back, not the whole page), Ready, the dashboard
after Ready, then a reload of the dashboard every 5 to 15 s.
``BurstSigner``: at ``BENCH_BURST_AT`` all sign in at once and open their dashboard, once.
``FlowFlatOut`` / ``BareFlatOut``: no pause, the orders flow (a unit picked, a save, as the
phone makes them) or the bare sign-in page, for the throughput of each.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
from pathlib import Path

import gevent
from locust import HttpUser, between, constant, task
from locust.exception import StopUser

PLAN = json.loads(Path(os.environ["BENCH_PLAN"]).read_text()) if os.getenv("BENCH_PLAN") else {}
LOG = open(os.environ["BENCH_LOG"], "a", buffering=1) if os.getenv("BENCH_LOG") else None  # noqa: SIM115
BURST_AT = float(os.getenv("BENCH_BURST_AT", "0"))
STARTED = time.time()
BURST = {"on": False, "left": 0}
_players = itertools.count()
_burst = itertools.count()
BUSY = "press Sign in again in a few seconds"
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# What htmx sends with a request of the orders page's (a unit's button: ``hx-target="#play"``).
HTMX = {"HX-Request": "true", "HX-Target": "play"}


def log(**entry) -> None:
    if LOG is not None:
        LOG.write(json.dumps(entry) + "\n")


class Player(HttpUser):
    """One seat's player through the deadline hour."""

    abstract = True
    wait_time = between(5, 15)

    def on_start(self) -> None:
        players = PLAN["players"]
        self.player = players[next(_players) % len(players)]
        self.code = self.player["seat"]
        self.sign_in()
        self.hour()

    def sign_in(self) -> None:
        raise NotImplementedError

    def name(self, kind: str) -> str:
        return f"{kind} [during burst]" if BURST["on"] else kind

    def hour(self) -> None:
        """The deadline hour's one pass: dashboard, orders, a march saved, Ready."""
        p, code = self.player, self.code
        self.client.get(f"/play/{code}/", name=self.name("dashboard"))
        self.client.get(f"/play/{code}/orders/", name=self.name("orders page"))
        # A unit picked as the phone picks it: htmx asks for the page's play area alone.
        r = self.client.get(
            f"/play/{code}/orders/?unit={p['unit']}", name=self.name("pick unit"), headers=HTMX
        )
        match = TOKEN.search(r.text or "")
        if match is None:
            return
        token = match.group(1)
        data = {"csrfmiddlewaretoken": token, "unit": p["unit"], "path": p["path"],
                "marches": str(p["marches"]), "phase": "march"}  # fmt: skip
        with self.client.post(
            f"/play/{code}/orders/march/", data=data, name=self.name("save march"),
            headers=HTMX, catch_response=True,
        ) as r:  # fmt: skip
            if r.status_code == 200 and "HX-Retarget" not in r.headers:
                log(kind="save", seat=code, unit=p["unit"], path=p["path"])
                r.success()
            else:
                r.failure(f"not saved ({r.status_code}, {r.headers.get('HX-Retarget')})")
                return
        with self.client.post(
            f"/play/{code}/orders/ready/", data={"csrfmiddlewaretoken": token, "phase": "march"},
            name=self.name("ready"), allow_redirects=False, catch_response=True,
        ) as r:  # fmt: skip
            if r.status_code == 302 and r.headers.get("Location", "").endswith(f"/play/{code}/"):
                log(kind="ready", seat=code)
                r.success()
            else:
                r.failure(f"not ready ({r.status_code} to {r.headers.get('Location')})")
        self.client.get(f"/play/{code}/", name=self.name("dashboard after ready"))

    @task
    def reload(self) -> None:
        self.client.get(f"/play/{self.code}/", name=self.name("dashboard reload"))


class SignedInPlayer(Player):
    """Signed in before the hour: the session cookie made by the set-up."""

    fixed_count = int(os.getenv("BENCH_PLAYERS", "0"))  # beside the burst: so many, not half

    def sign_in(self) -> None:
        self.client.cookies.set(PLAN["cookie_name"], self.player["session"])


def sign_in(client, username: str, password: str, name: str = "sign in") -> bool:
    """The sign-in page, then the form posted with its token: whether the site signed in. Told
    "press Sign in again in a few seconds" (many signing in at once), the player does."""
    r = client.get("/accounts/login/", name=f"{name}: page")
    match = TOKEN.search(r.text or "")
    if match is None:
        return False
    for _ in range(30):
        with client.post(
            "/accounts/login/", name=f"{name}: post", allow_redirects=False, catch_response=True,
            data={"csrfmiddlewaretoken": match.group(1), "username": username,
                  "password": password},
        ) as r:  # fmt: skip
            if r.status_code == 302:
                return True
            if r.status_code == 200 and BUSY in (r.text or ""):
                r.success()
                log(kind="told to retry")
                gevent.sleep(random.uniform(2, 5))
                continue
            r.failure(f"not signed in ({r.status_code})")
            return False
    return False


class SigningInPlayer(Player):
    """Signs in with the password at the start of the hour."""

    def sign_in(self) -> None:
        sign_in(self.client, self.player["username"], PLAN["password"])


class BurstSigner(HttpUser):
    """Waits for the burst, then signs in and opens the dashboard, once."""

    wait_time = constant(1)
    fixed_count = int(os.getenv("BENCH_BURST", "0"))

    def on_start(self) -> None:
        signers = PLAN["burst"]
        self.player = signers[next(_burst) % len(signers)]
        gevent.sleep(max(0.0, BURST_AT - (time.time() - STARTED)))
        BURST["on"] = True
        BURST["left"] += 1
        try:
            if sign_in(self.client, self.player["username"], PLAN["password"], "burst sign in"):
                self.client.get(f"/play/{self.player['seat']}/", name="burst: dashboard")
        finally:
            BURST["left"] -= 1
            if BURST["left"] == 0:
                BURST["on"] = False

    @task
    def done(self) -> None:
        raise StopUser()


class FlowFlatOut(HttpUser):
    """The orders flow with no pause: a unit picked on the orders page, then the save (htmx)."""

    wait_time = constant(0)

    def on_start(self) -> None:
        players = PLAN["players"]
        self.player = players[next(_players) % len(players)]
        self.client.cookies.set(PLAN["cookie_name"], self.player["session"])

    @task
    def flow(self) -> None:
        # The leader's two legal marches in turn (the set-up's ``other``), so that every save
        # changes the draft, as a player's saves do.
        self.turn = not getattr(self, "turn", False)
        p, code = self.player, self.player["seat"]
        order = p.get("other", p) if self.turn else p
        r = self.client.get(
            f"/play/{code}/orders/?unit={p['unit']}", name="flat: pick unit", headers=HTMX
        )
        match = TOKEN.search(r.text or "")
        if match is None:
            return
        data = {"csrfmiddlewaretoken": match.group(1), "unit": p["unit"], "path": order["path"],
                "marches": str(order["marches"]), "phase": "march"}  # fmt: skip
        with self.client.post(
            f"/play/{code}/orders/march/", data=data, name="flat: save march",
            headers=HTMX, catch_response=True,
        ) as r:  # fmt: skip
            if r.status_code == 200 and "HX-Retarget" not in r.headers:
                log(kind="save", seat=code, unit=p["unit"], path=order["path"])
            else:
                r.failure(f"not saved ({r.status_code})")


class BareFlatOut(HttpUser):
    """The bare sign-in page with no pause (what the server serves at its cheapest)."""

    wait_time = constant(0)

    @task
    def bare(self) -> None:
        self.client.get("/accounts/login/", name="flat: bare sign-in page")
