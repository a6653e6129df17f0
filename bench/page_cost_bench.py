"""Bench: what one request of each player page costs against the sign-in page, in one process.

    .venv/bin/python bench/page_cost_bench.py [--rounds 40] [--warmups 5] [--turns 3]
        [--database sqlite|postgres://postgres@127.0.0.1:5432/postgres] [--profile orders]
        [--profile-first orders] [--flow-sql]

A throw-away site (a temporary SQLite file by default, or a scratch PostgreSQL database; DEBUG
off; the view cache in local memory, as ``./bin/run`` without Redis) with a five-seat campaign
on the bundled map played by the automatic players (``tests/seasons/real_season.py``) to the march
of turn ``--turns``. Django's test client requests, for the Prussian seat, the orders page, the
dashboard and the history page, and, signed out, the sign-in page and the bench's bare page
(``base.html`` alone, ``bench/urls.py``): ``--warmups`` rounds first (the view cache warm, the
templates compiled), then ``--rounds`` rounds, the pages taken in turn within each round so
the machine's load weighs on all alike. Prints each page's median and its ratio to the sign-in
page's median (issue 25's aim: orders and dashboard <= 3x): the **warm** loads.

The **first loads**: while the season is played (``--seasons`` times, the same season), after
each phase that resolves, one of the three player pages (in turn, one step further each season,
so that each page meets each kind of phase) is requested once, first: the page as the first
player to open it after the resolution finds it. Before that request this
process forgets the views, derived values and decoded states it keeps for itself
(``viewcache.forget``) but not Django's cache: the resolution ran in this process (eager
tasks) but in production it runs in the worker, which shares only Django's cache (Redis) with
the web processes. Each first load's ratio is to the warm sign-in page's median (issue 34's
aim: <= 4x).

No server and one client: this is the page's own cost. Under load the ratio of two pages' p95
measures the queue instead (docs/performance.md, "Page cost"); ``bench/page_ratio_bench.py``
measures that side.

``--profile PAGE`` runs pyinstrument (if installed) over ``--rounds`` warm requests of that page
and prints its tree instead; ``--profile-first PAGE`` profiles that page's first loads (every
one after a resolution, not in turn) with pyinstrument, else cProfile (``PROFILE_SORT``,
``PROFILE_CALLEES``). ``PROFILE_ALL=1`` shows Django's own frames in pyinstrument's tree;
``PROFILE_DUMP=FILE`` keeps cProfile's statistics of ``--profile`` in FILE.
``BENCH_EACH=1`` prints every first load beside the window it found open.

The **orders flow** of the deadline hour's flat-out scenario (``bench/deadline_hour.py``,
issue 44), made as its clients make it: ``pick unit``, a unit picked on the orders page as
the phone picks it (``GET .../orders/?unit=<unit>`` under htmx: the page's play area), then
``save march``, the save of one legal march of that
unit under htmx (``POST .../orders/march/``, ``HX-Request: true``; unit, path, marches,
phase, and the CSRF token read from the page just before, the client checking CSRF as a
browser's would). The same march each time, as the bench's clients save it. Both are timed in
the rounds with the other pages (``--profile "pick unit"`` or ``--profile "save march"``), and
each one's SQL statements counted; ``--flow-sql`` prints them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORK = tempfile.mkdtemp(prefix="dgk-cost-")  # the SQLite file and the collected static files
PAGES = ("orders", "pick unit", "save march", "dashboard", "history", "sign-in", "bare")
FLOW = ("pick unit", "save march")  # the flat-out orders flow (issue 44)
PLAYER_PAGES = ("orders", "dashboard", "history")
BASE = "sign-in"


class Reached(Exception):
    """The season reached the march of the turn asked for."""


def configure(database: str) -> str | None:
    """Environment for a throw-away site; returns the scratch PostgreSQL database's name."""
    from bench.web_bench import scratch_site

    return scratch_site(database, "dgk_cost", tempfile.mkdtemp(prefix="dgk-cost-", dir=WORK))


def season(
    turn: int, firsts: dict[str, list[float]], profiled: str | None = None, seasons: int = 1
):
    """``seasons`` campaigns played by the automatic players to the march of ``turn`` (the
    same season each time: their dice are named); the last one is returned. After each phase
    that resolves, one page's first load is timed into ``firsts`` (ms, wall clock and CPU:
    ``firsts[page]``, ``firsts[page + " cpu"]``), the pages in turn."""
    from django.test import TestCase

    from campaign.models import organisers_group
    from campaign.services import viewcache
    from tests.seasons.real_season import play_real_season
    from tests.standing import make_user

    organiser = make_user("cost-organiser")
    organiser.groups.add(organisers_group())
    found = []
    resolved = []
    profiler = None
    if profiled:
        profiler = _profiler()

    clients: dict[int, dict] = {}  # one client per page and campaign, as a browser keeps one

    def first_load(campaign) -> None:
        pages = clients[campaign.id]
        # The pages in turn, one step further each season: a turn resolves three phases, so
        # without the step each page would always meet the same phases.
        season_number = list(clients).index(campaign.id)
        name = profiled or PLAYER_PAGES[(len(resolved) + season_number) % len(PLAYER_PAGES)]
        resolved.append(name)
        viewcache.forget()  # the web process did not resolve it (the worker did)
        if profiler is not None:
            profiler.start() if hasattr(profiler, "start") else profiler.enable()
        t0, c0 = time.perf_counter(), time.process_time()
        response = pages[name]()
        elapsed, used = time.perf_counter() - t0, time.process_time() - c0
        if profiler is not None:
            profiler.stop() if hasattr(profiler, "stop") else profiler.disable()
        assert response.status_code == 200, (name, response.status_code)
        firsts.setdefault(name, []).append(elapsed * 1000)
        firsts.setdefault(name + " cpu", []).append(used * 1000)
        # The sign-in page at the same moment (three warm loads): the first loads' baseline,
        # so that a machine slower or quicker while the season is played than while the warm
        # loads are measured moves both figures of the ratio alike.
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.process_time()
            pages[BASE]()
            firsts.setdefault(BASE, []).append((time.perf_counter() - t0) * 1000)
            firsts.setdefault(BASE + " cpu", []).append((time.process_time() - c0) * 1000)
        window = campaign.open_window()
        firsts.setdefault(name + " after", []).append(
            f"{window.phase} {window.turn}" if window is not None else "none open"
        )
        read_all(pages)  # the others, as the players read them

    def read_all(pages) -> None:
        for name in PLAYER_PAGES:
            pages[name]()

    def stop_at_march(what, subject) -> None:
        campaign = subject if what == "start" else subject.campaign
        window = campaign.open_window()
        if what == "start":
            # The clients' middleware loaded (WhiteNoise scans the static files as it starts)
            # and the templates compiled before the first timing.
            clients[campaign.id] = requests(campaign)
            read_all(clients[campaign.id])
            for _ in range(3):  # (the baseline's templates compiled too)
                clients[campaign.id][BASE]()
        elif what == "phase" and window is not None:
            first_load(campaign)
        if window is not None and window.phase == "march" and window.turn == turn:
            found.append(campaign)
            raise Reached

    for number in range(1, seasons + 1):
        with contextlib.suppress(Reached):
            play_real_season(
                organiser, TestCase.captureOnCommitCallbacks, turns=turn,
                name=f"Cost season {number}", prefix=f"cost{number}", step=stop_at_march,
            )  # fmt: skip
    if profiler is not None:
        _print_profile(profiler)
    return found[-1]


# PROFILE_ALL=1: pyinstrument's tree with Django's own frames (the template engine, the ORM).
SHOW_ALL = bool(os.environ.get("PROFILE_ALL"))


def _profiler():
    """pyinstrument's profiler (its tree), else cProfile's: PROFILE_SORT, PROFILE_CALLEES."""
    try:
        from pyinstrument import Profiler
    except ImportError:
        import cProfile

        return cProfile.Profile()
    # Kept across the first loads: each start() adds to the same session.
    return Profiler(interval=0.0002)


def _print_profile(profiler) -> None:
    if hasattr(profiler, "output_text"):
        print(profiler.output_text(unicode=True, color=False, show_all=SHOW_ALL))
        return
    import pstats

    stats = pstats.Stats(profiler).sort_stats(os.environ.get("PROFILE_SORT", "cumulative"))
    stats.print_stats(50)
    if os.environ.get("PROFILE_CALLEES"):
        stats.print_callees(os.environ["PROFILE_CALLEES"])


class Get:
    """One page asked for by one client: called, the response."""

    def __init__(self, client, url: str) -> None:
        self.client, self.url = client, url

    def __call__(self):
        return self.client.get(self.url)


class Flow:
    """The flat-out scenario's orders flow (``bench/deadline_locustfile.py FlowFlatOut``): the
    orders page with the unit picked, whose CSRF token the save then posts, as its clients do.
    ``pick`` and ``save`` are the two requests."""

    TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

    def __init__(self, client, seat, order: dict) -> None:
        from django.urls import reverse

        self.client, self.order, self.token = client, order, ""
        self.page = reverse("orders:orders", args=[seat.code]) + f"?unit={order['unit']}"
        self.save_url = reverse("orders:save_march", args=[seat.code])

    def pick(self):
        response = self.client.get(self.page, headers={"HX-Request": "true"})
        match = self.TOKEN.search(response.content.decode())
        assert match is not None, "no CSRF token on the orders page"
        self.token = match.group(1)
        return response

    def save(self):
        if not self.token:
            self.pick()
        o = self.order
        data = {"csrfmiddlewaretoken": self.token, "unit": o["unit"], "path": o["path"],
                "marches": str(o["marches"]), "phase": "march"}  # fmt: skip
        response = self.client.post(self.save_url, data, headers={"HX-Request": "true"})
        # Saved, as the bench counts a save: 200 and not retargeted to the sheet (refused).
        assert response.status_code == 200 and "HX-Retarget" not in response, response
        return response


def flow_march(campaign, seat) -> dict:
    """One march order of one of the seat's leaders that the orders page accepts alone (the
    automatic players' orders, checked as Ready checks them): what the flow saves, as
    ``bench/deadline_hour.py legal_marches`` chooses it."""
    from campaign.services import gameplay, viewcache
    from orders.pages import march_problems
    from rules.autoplay import march_orders
    from rules.orders import orders_to_dict
    from rules.rulesettings import settings_from_dict

    version = campaign.open_window().version
    state = viewcache.version_state(version)
    hexmap = gameplay.load_campaign_map(campaign.map_name)
    rules = settings_from_dict(campaign.rule_settings)
    view = viewcache.seat_view(seat, version)
    for seed in range(60):
        for order in orders_to_dict(march_orders(state, hexmap, f"bench-{seed}")).get("march", []):
            army = next((x.army for x in state.leaders if x.key == order["unit"]), None)
            if army is None or army.value not in seat.armies:
                continue
            if not any(march_problems(version, view, hexmap, rules, {"march": [order]},
                                      "march").values()):  # fmt: skip
                return order
    raise RuntimeError(f"no legal march found for {seat.power}")


def requests(campaign, *, flow: bool = False) -> dict:
    """{page: request}: the Prussian seat's pages, with ``flow`` its orders flow (``Flow``: a
    client of its own, which checks CSRF; only while the march is open), and the signed-out
    pages."""
    from django.test import Client
    from django.urls import reverse

    seat = campaign.seats.select_related("user").get(power="prussia")
    player, stranger, flower = Client(), Client(), Client(enforce_csrf_checks=True)
    player.force_login(seat.user)
    flower.force_login(seat.user)
    pages = {"orders": Get(player, reverse("orders:orders", args=[seat.code]))}
    if flow:
        orders_flow = Flow(flower, seat, flow_march(campaign, seat))
        pages.update({"pick unit": orders_flow.pick, "save march": orders_flow.save})
    return pages | {
        "dashboard": Get(player, reverse("orders:dashboard", args=[seat.code])),
        "history": Get(player, reverse("orders:history", args=[seat.code])),
        "sign-in": Get(stranger, reverse("login")),
        "bare": Get(stranger, reverse("bench_bare")),
    }


def measure(pages: dict, rounds: int, warmups: int) -> tuple[dict, dict]:
    """Each page's times in ms, wall clock and this process's CPU time (on a shared machine
    the CPU time is the steadier: another process's load stretches the wall clock only)."""
    wall: dict[str, list[float]] = {name: [] for name in pages}
    cpu: dict[str, list[float]] = {name: [] for name in pages}
    for i in range(warmups + rounds):
        for name, request in pages.items():
            t0, c0 = time.perf_counter(), time.process_time()
            response = request()
            elapsed, used = time.perf_counter() - t0, time.process_time() - c0
            assert response.status_code == 200, (name, response.status_code)
            if i >= warmups:
                wall[name].append(elapsed * 1000)
                cpu[name].append(used * 1000)
    return wall, cpu


def queries(pages: dict) -> dict[str, list[str]]:
    """The SQL each page runs, warm."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    out = {}
    for name, request in pages.items():
        with CaptureQueriesContext(connection) as ctx:
            request()
        out[name] = [q["sql"] for q in ctx.captured_queries]
    return out


def profile(pages: dict, name: str, rounds: int) -> None:
    """pyinstrument's tree of ``rounds`` warm requests of one page; with no pyinstrument,
    cProfile's 40 costliest calls (cumulative)."""
    request = pages[name]
    for _ in range(5):
        request()
    try:
        from pyinstrument import Profiler
    except ImportError:
        import cProfile
        import pstats

        with cProfile.Profile() as prof:
            for _ in range(rounds):
                request()
        if os.environ.get("PROFILE_DUMP"):  # kept for pstats (``python -m pstats FILE``)
            prof.dump_stats(os.environ["PROFILE_DUMP"])
        pstats.Stats(prof).sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(40)
        if os.environ.get("PROFILE_CALLEES"):
            pstats.Stats(prof).print_callees(os.environ["PROFILE_CALLEES"])
        return
    profiler = Profiler(interval=0.0002)
    profiler.start()
    for _ in range(rounds):
        request()
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=SHOW_ALL))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--warmups", type=int, default=5)
    parser.add_argument("--turns", type=int, default=3, help="the march of this turn")
    parser.add_argument("--database", default="sqlite")
    parser.add_argument("--profile", choices=PAGES)
    parser.add_argument("--profile-first", choices=PLAYER_PAGES)
    parser.add_argument("--seasons", type=int, default=3, help="seasons played (first loads)")
    parser.add_argument("--sql", action="store_true", help="print each page's queries")
    parser.add_argument("--flow-sql", action="store_true", help="print the flow's queries")
    args = parser.parse_args()
    scratch = configure(args.database)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # As deployed: static files collected and named by their hash (WhiteNoise's manifest).
    settings.STATIC_ROOT = Path(tempfile.mkdtemp(prefix="static-", dir=WORK))
    try:
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("migrate", verbosity=0)
        call_command("rendertiles", verbosity=0)  # once: var/tiles, as ./bin/run draws them
        t0 = time.perf_counter()
        firsts: dict[str, list[float]] = {}
        campaign = season(args.turns, firsts, args.profile_first, args.seasons)
        if args.profile_first:
            return
        window = campaign.open_window()
        pages = requests(campaign, flow=True)
        print(
            f"{args.seasons} x {campaign.name[:-2]}: the {window.phase} of turn {window.turn}, "
            f"played in "
            f"{time.perf_counter() - t0:.0f} s; {settings.DATABASES['default']['ENGINE']}, "
            f"cache {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}, "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        if args.profile:
            profile(pages, args.profile, args.rounds)
            return
        wall, cpu = measure(pages, args.rounds, args.warmups)
        sql = queries(pages)
        if args.sql or args.flow_sql:
            for name, lines in sql.items():
                if args.flow_sql and not args.sql and name not in FLOW:
                    continue
                print(f"{name}:", *(f"  {line[:160]}" for line in lines), sep="\n")
        print(
            f"warm loads: one process, Django's test client, medians of {args.rounds} after "
            f"{args.warmups} warm-ups (view cache warm); wall clock, then CPU time:"
        )
        base, base_cpu = statistics.median(wall[BASE]), statistics.median(cpu[BASE])
        for name in PAGES:
            median, median_cpu = statistics.median(wall[name]), statistics.median(cpu[name])
            aim = "  (aim <= 3x)" if name in ("orders", "dashboard") else ""
            print(
                f"  {name:10} {median:6.2f} ms = {median / base:5.2f}x sign-in;  CPU "
                f"{median_cpu:6.2f} ms = {median_cpu / base_cpu:5.2f}x;  "
                f"{len(sql[name])} queries{aim}"
            )
        # Issue 44's flat-out ratio: flow requests/s over the sign-in page's (the deadline
        # hour's "bare sign-in page"), with no queue: the sign-in page's cost / a flow request's.
        flow_wall = statistics.mean(statistics.median(wall[n]) for n in FLOW)
        flow_cpu = statistics.mean(statistics.median(cpu[n]) for n in FLOW)
        print(
            f"  the orders flow: a request {flow_wall:.2f} ms, CPU {flow_cpu:.2f} ms, "
            f"{sum(len(sql[n]) for n in FLOW) / len(FLOW):.1f} queries; sign-in / flow request "
            f"{base / flow_wall:.2f} (wall clock), {base_cpu / flow_cpu:.2f} (CPU)  (issue 44's "
            "flat-out aim >= 0.3, measured there with the queue and the database's own time)"
        )
        # The sign-in page's median while the season was played (beside the first loads).
        warm_cpu = base_cpu
        base, base_cpu = statistics.median(firsts[BASE]), statistics.median(firsts[BASE + " cpu"])
        print(
            "first loads: the first request of a page after a phase resolves (the process's "
            "own kept views forgotten, Django's cache as the worker left it), against the warm "
            f"sign-in page timed beside them ({base:.2f} ms, CPU {base_cpu:.2f} ms, median of "
            f"{len(firsts[BASE])}); median of each page's first loads:"
        )
        for name in PLAYER_PAGES:
            times, times_cpu = firsts.get(name, []), firsts.get(name + " cpu", [])
            if not times:
                continue
            median, median_cpu = statistics.median(times), statistics.median(times_cpu)
            print(
                f"  {name:10} {median:6.2f} ms = {median / base:5.2f}x sign-in;  CPU "
                f"{median_cpu:6.2f} ms = {median_cpu / base_cpu:5.2f}x;  "
                f"{len(times)} first loads (aim <= 4x); CPU {median_cpu / warm_cpu:5.2f}x "
                "the warm loads' sign-in"
            )
            if os.environ.get("BENCH_EACH"):  # each first load, and the window it found open
                for ms, where in zip(times_cpu, firsts[name + " after"], strict=True):
                    print(f"      {ms:6.2f} ms CPU = {ms / base_cpu:5.2f}x  ({where})")
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
        if scratch:
            from django.db import connections

            from bench.web_bench import drop_scratch

            connections.close_all()
            drop_scratch(args.database, scratch)


if __name__ == "__main__":
    main()
