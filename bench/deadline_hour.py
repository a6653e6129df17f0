"""Bench: the deadline hour (issue 44). Players arrive, sign in (or come back signed in), open
the dashboard and the orders page, pick a unit, save a march, press Ready and reload the
dashboard every 5 to 15 s, against the site as it runs: gunicorn with the project's own config,
DEBUG off, PostgreSQL, Redis, one Celery worker with beat beside it.

    .venv/bin/python bench/deadline_hour.py [--players 50 200 500]
        [--scenario signed-in sign-in burst flat-out] [--duration 45] [--tree /tmp/before]
        [--database postgres://postgres@127.0.0.1:5432/postgres] [--redis-db 13] [--json out]
        [--cache warm|cold]

For each number of players:

1. A throw-away database (``dgk_bench_tpl``) is migrated and filled with copies of the demo
   campaign ("Demo 1757", ``loaddemo``): each seat its own player (one password, hashed once),
   the march of turn 1 open, no deadline; plus 40 more campaigns whose 200 players make the
   burst. Each player's session is made beforehand (for "signed-in") and one legal march order
   of one of its leaders is chosen (``rules.autoplay.march_orders``). The notes asking the
   worker for the open phase's map pictures are removed: a live site drew them when the phase
   opened, not in the hour.
2. Each scenario starts from a copy of it (``dgk_bench``, ``CREATE DATABASE ... TEMPLATE``),
   an emptied Redis db (``--redis-db``: broker and cache) into which, with ``--cache warm``
   (the default), each seat's pages are prepared as the worker does when a phase opens
   (``orders.warmup``; ``cold``: as after a Redis restart), a Celery worker with beat
   (``celery -A dgk worker -B`` as ``bin/run`` starts it, at ``nice`` ``WORKER_NICE`` when the
   tree's ``bin/run`` says so, sweep every 2 s) and gunicorn started
   as ``bin/run`` does (``-c deploy/gunicorn.conf.py`` when the tree has it; else the old
   command line: 2 sync workers), then locust (``bench/deadline_locustfile.py``), headless,
   players arriving 20 a second:

   - ``signed-in``: every player's session made before the hour;
   - ``sign-in``: everyone signs in with the password first;
   - ``burst``: the signed-in players play, and when all have arrived 200 more sign in at
     once; the players' requests during the burst are counted apart ("[during burst]");
   - ``flat-out``: min(players, 100) clients with no pause run the orders flow (the orders
     page with a unit picked, a save) for half the duration, then the bare sign-in page for
     the other half: flow req/s / bare req/s is the ratio.
3. Then the check: every save and Ready the site answered as done is in the database; every
   seat is made Ready, every open window's deadline put in the past, and the worker's sweep
   must resolve them all (the time it took is printed).

Prints, per request kind, count, failures, p50/p95/p99 (ms) and req/s, the machine's load
average (other work on the machine inflates the figures: note it), and ``--json`` keeps them.
``--tree`` serves another checkout (``git worktree add /tmp/before <commit>``) with this bench.
A full table (3 sizes x 4 scenarios, 45 s each) takes about 15 minutes.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
# After PYTHONPATH: a child serving another tree (--tree) imports that tree's Django first.
sys.path.append(str(HERE.parent))
from bench.web_bench import admin_sql, free_port  # noqa: E402 (the path above first)

LOCUSTFILE = HERE / "deadline_locustfile.py"
SCENARIOS = ("signed-in", "sign-in", "burst", "flat-out")
TEMPLATE, DATABASE = "dgk_bench_tpl", "dgk_bench"
PASSWORD = "deadline-hour"
BURST_SIGNERS = 200
ARRIVALS_PER_SECOND = 20
FLAT_CLIENTS = 100


# --- in a child process, with the served tree's Django ---------------------------------------


def setup(players: int, out: Path) -> None:
    """Copies of the demo campaign for ``players`` players and the burst's 200, with the march
    of turn 1 open; the plan for locust in ``out``."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.files.storage import storages
    from django.core.management import call_command
    from django.test import Client
    from django.utils import timezone

    from campaign.models import Campaign
    from campaign.services import gameplay
    from campaign.services import setup as campaign_setup
    from campaign.services.resolution import resolve_due_phase
    from orders.models import OrderSheet
    from rules.autoplay import deployment_orders
    from rules.orders import Orders, orders_to_dict

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    password = make_password(PASSWORD)  # hashed once: the same hash for everyone
    organiser = users.create(username="bench-umpire", password=password)
    rules = gameplay.rule_settings(Campaign(rule_settings={}))
    hexmap = gameplay.load_campaign_map("")
    points, orders = deployment_orders(hexmap, rules)
    deployments = {d.army.value: d for d in orders.deployment}
    now = timezone.now()
    campaigns = -(-players // 5) + BURST_SIGNERS // 5
    plan: dict = {"password": PASSWORD, "cookie_name": settings.SESSION_COOKIE_NAME,
                  "players": [], "burst": [], "windows": []}  # fmt: skip
    t0 = time.perf_counter()

    def copy(i: int, seed: str):
        """The demo's copy ``i``, its dice from ``seed``: the march of turn 1 open."""
        campaign = campaign_setup.create_campaign(
            organiser, name=f"Demo 1757 #{i}", players=5, now=now, army_points=points,
            options={"allies_share": False},
        )  # fmt: skip
        Campaign.objects.filter(id=campaign.id).update(seed=seed)
        for seat in campaign.seats.all():
            seat.user = users.create(
                username=f"p{i}-{seat.power}", email=f"p{i}-{seat.power}@bench.invalid",
                password=password,
            )  # fmt: skip
            seat.joined = now
            seat.leaders = {a: [k for k, *_ in deployments[a].leaders] for a in seat.armies}
            seat.save()
        campaign_setup.start_campaign(campaign, organiser, now=now)
        window = campaign.open_window()
        for seat in campaign.seats.all():
            draft = orders_to_dict(Orders(deployment=tuple(deployments[a] for a in seat.armies)))
            OrderSheet.objects.create(
                campaign=campaign, seat=seat, window=window, draft=draft, ready=True,
                submitted_at=now,
            )  # fmt: skip
        resolve_due_phase(window.id, now=now)
        campaign.refresh_from_db()
        return campaign, campaign.open_window()

    # Every copy rolls the same dice (one seed), so one legal march per power fits them all:
    # the first seed whose marches (6.1) give every power at least one.
    for attempt in range(20):
        seed = f"{attempt:064x}"
        campaign, window = copy(0, seed)
        try:
            marches = legal_marches(campaign, window.version, hexmap, rules)
            break
        except RuntimeError:
            users.filter(seats__campaign=campaign).delete()
            campaign.delete()
    for i in range(campaigns):
        if i:
            campaign, window = copy(i, seed)
        plan["windows"].append(window.id)
        for seat in campaign.seats.all():
            entry = {"seat": str(seat.code), "username": seat.user.username}
            if len(plan["players"]) < players:
                client = Client()
                client.force_login(seat.user)
                entry["session"] = client.cookies[settings.SESSION_COOKIE_NAME].value
                entry.update(marches[seat.power])
                plan["players"].append(entry)
            else:
                plan["burst"].append(entry)
    out.write_text(json.dumps(plan))
    # The notes asking for the seats' map pictures of the open phase, left by the set-up (no
    # broker): a live site's worker drew those pictures when the phase opened, hours before the
    # deadline. Left, the worker would draw them all (960 at 200 players, 0.7 s each) in the
    # middle of the hour, a load no deadline hour has; drawing them here would take 10 minutes.
    # No request of the hour shows a picture (locust fetches no image), so removing the notes
    # is what drawing them would be to the hour. The pictures of the phases resolved during the
    # hour are asked for and drawn as on a live site.
    try:
        from maps.pictures import KIND, WANTED, wanted_notes
    except ImportError:  # (a tree from before the notes: its pictures were drawn eagerly)
        notes = []
    else:
        notes = wanted_notes()
        store = storages[KIND]
        for note in notes:
            store.delete(f"{WANTED}/{note}")
    print(
        f"set-up: {campaigns} campaigns, {len(plan['players'])} players and "
        f"{len(plan['burst'])} for the burst in {time.perf_counter() - t0:.0f} s; "
        f"{len(notes)} notes asking for the open phase's map pictures removed; "
        f"{sum(m['other']['path'] != m['path'] for m in marches.values())} of {len(marches)} "
        f"powers have a second legal march for the flat-out flow"
    )


def warm(plan_path: Path) -> None:
    """Each seat's pages of the open phase prepared, as the worker does when a phase opens
    (``orders.warmup.warm_pages``), into the cache the servers share (``--cache warm``)."""
    import django

    django.setup()
    from campaign.models import PhaseWindow

    try:
        from orders.warmup import warm_pages
    except ImportError:  # (a tree from before the warm-up: nothing to prepare)
        print("warm: this tree has no warm-up")
        return
    t0 = time.perf_counter()
    windows = json.loads(plan_path.read_text())["windows"]
    versions = PhaseWindow.objects.filter(id__in=windows).values_list("version_id", flat=True)
    seats = sum(warm_pages(v) for v in versions)
    print(f"warm: {seats} seats' pages prepared in {time.perf_counter() - t0:.0f} s")


def legal_marches(campaign, version, hexmap, rules) -> dict[str, dict]:
    """power -> one march order of one of its leaders that the orders page accepts alone (the
    automatic players' orders, checked as Ready checks them), with ``other``: the same march
    stopped sooner where that is legal too (the flat-out flow saves the two in turn, so that
    every save changes the draft), else the same."""
    from campaign.services import viewcache
    from orders.pages import march_problems
    from rules.autoplay import march_orders
    from rules.orders import orders_to_dict

    state = viewcache.version_state(version)
    out: dict[str, dict] = {}
    for seat in campaign.seats.all():
        view = viewcache.seat_view(seat, version)
        for seed in range(60):
            orders = orders_to_dict(march_orders(state, hexmap, f"bench-{seed}"))
            for order in orders.get("march", []):
                army = next((x.army for x in state.leaders if x.key == order["unit"]), None)
                if army is None or army.value not in seat.armies:
                    continue
                if any(march_problems(version, view, hexmap, rules, {"march": [order]},
                                      "march").values()):  # fmt: skip
                    continue
                out[seat.power] = {**order, "other": order}
                steps = order["path"].split("-")  # the other: the same march, stopped sooner
                for k in range(len(steps) - 1, 0, -1):
                    shorter = {**order, "path": "-".join(steps[:k])}
                    if not any(march_problems(version, view, hexmap, rules,
                                              {"march": [shorter]}, "march").values()):  # fmt: skip
                        out[seat.power]["other"] = shorter
                        break
                break
            if seat.power in out:
                break
        if seat.power not in out:
            raise RuntimeError(f"no legal march found for {seat.power}")
    return out


def verify(plan_path: Path, log_path: Path) -> None:
    """Every save and Ready answered as done is in the database; then every seat Ready, every
    window's deadline past: the sweep (run here, the servers down) must resolve them all."""
    import django

    django.setup()
    from django.utils import timezone

    from campaign.models import PhaseWindow, WindowStatus
    from campaign.services import sweep
    from orders.models import OrderSheet

    plan = json.loads(plan_path.read_text())
    windows = plan["windows"]
    saved: dict[tuple[str, str], str] = {}
    ready: set[str] = set()
    retries = 0  # sign-ins told to try again in a few seconds
    for line in log_path.read_text().splitlines() if log_path.exists() else []:
        entry = json.loads(line)
        if entry["kind"] == "save":
            saved[(entry["seat"], entry["unit"])] = entry["path"]
        elif entry["kind"] == "ready":
            ready.add(entry["seat"])
        else:
            retries += 1
    sheets = {
        str(s.seat.code): s
        for s in OrderSheet.objects.filter(window_id__in=windows).select_related("seat")
    }
    missing = []
    for (seat, unit), path in saved.items():
        sheet = sheets.get(seat)
        items = (sheet.draft or {}).get("march", []) if sheet is not None else []
        if not any(o.get("unit") == unit and o.get("path") == path for o in items):
            missing.append(f"save {seat} {unit}")
    missing += [f"ready {s}" for s in ready if s not in sheets or not sheets[s].ready]
    print(
        f"check: {len(saved)} saves and {len(ready)} Ready answered as done, "
        f"{len(missing)} missing from the database"
        + (f": {missing[:5]}" if missing else "")
        + f"; {retries} sign-ins told to try again in a few seconds"
    )
    now = timezone.now()
    OrderSheet.objects.filter(window_id__in=windows, ready=False).update(
        ready=True, submitted_at=now
    )
    made = 0
    for window in PhaseWindow.objects.filter(id__in=windows, status=WindowStatus.OPEN):
        for code in window.owing:
            _, new = OrderSheet.objects.get_or_create(
                window=window, seat=window.campaign.seats.get(code=code),
                defaults={"campaign": window.campaign, "ready": True, "submitted_at": now},
            )  # fmt: skip
            made += new
    # The servers are down: the sweep runs here, the resolutions in this process (no broker),
    # after the claims the worker's sweeps left (a second resolution finds nothing to do).
    by_players = PhaseWindow.objects.filter(id__in=windows, status=WindowStatus.RESOLVED).count()
    due = PhaseWindow.objects.filter(id__in=windows, status=WindowStatus.OPEN)
    due.update(deadline=now, queued_at=None)
    t0 = time.perf_counter()
    for _ in range(3):
        sweep.sweep(timezone.now())
    took = time.perf_counter() - t0
    resolved = PhaseWindow.objects.filter(id__in=windows, status=WindowStatus.RESOLVED).count()
    left = len(windows) - resolved
    print(
        f"check: {by_players} phases resolved during the hour (every seat Ready); the sweep "
        f"resolved the other {len(windows) - by_players - left} in {took:.1f} s (in process); "
        f"{resolved}/{len(windows)} resolved" + ("" if not left else f", {left} NOT RESOLVED")
    )
    print(json.dumps({"missing": len(missing), "saves": len(saved), "ready": len(ready),
                      "resolved": resolved, "windows": len(windows), "sweep_s": round(took, 1),
                      "by_players": by_players}))  # fmt: skip


# --- the orchestra, in this process ----------------------------------------------------------


def wait_for(url: str, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            urllib.request.urlopen(url, timeout=5).read()
            return
        except Exception:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def child(tree: Path, env: dict, *args: str) -> str:
    """This script in ``tree``'s Django (set-up or check); its output."""
    r = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args], cwd=tree, env=env,
        capture_output=True, text=True,
    )  # fmt: skip
    if r.returncode:
        raise RuntimeError(f"{args[0]} failed:\n{r.stdout}\n{r.stderr[-3000:]}")
    return r.stdout


def web_command(tree: Path, port: int) -> list[str]:
    """gunicorn as ``bin/run`` starts it: with the tree's config when it has one."""
    gunicorn = [sys.executable, "-m", "gunicorn", "dgk.wsgi", "--bind", f"127.0.0.1:{port}"]
    if (tree / "deploy" / "gunicorn.conf.py").exists():
        return [*gunicorn, "-c", "deploy/gunicorn.conf.py", "--access-logfile", "/dev/null"]
    return [*gunicorn, "--workers", os.getenv("WEB_CONCURRENCY", "2"), "--timeout", "120",
            "--no-control-socket"]  # fmt: skip


def worker_nice(tree: Path) -> list[str]:
    """``nice -n N`` as the tree's ``bin/run`` starts the worker (``WORKER_NICE``, default 10),
    or nothing for a tree whose worker runs at the web server's priority."""
    if "WORKER_NICE" not in (tree / "bin" / "run").read_text():
        return []
    return ["nice", "-n", os.getenv("WORKER_NICE", "10")]


def stats(csv_path: Path) -> list[dict]:
    rows = []
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            rows.append({
                "name": row["Name"], "count": int(row["Request Count"]),
                "failures": int(row["Failure Count"]), "p50": row["50%"], "p95": row["95%"],
                "p99": row["99%"], "rps": float(row["Requests/s"]),
            })  # fmt: skip
    return rows


def print_stats(rows: list[dict]) -> None:
    print(
        f"  {'request':36} {'count':>6} {'fail':>5} {'p50':>6} {'p95':>6} {'p99':>6} {'req/s':>7}"
    )
    for r in rows:
        print(
            f"  {r['name']:36} {r['count']:6d} {r['failures']:5d} {r['p50']:>6} {r['p95']:>6} "
            f"{r['p99']:>6} {r['rps']:7.1f}"
        )


def locust(env: dict, host: str, users: int, rate: float, seconds: float, classes: list[str],
           prefix: Path) -> list[dict]:  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--host", host,
         "-u", str(users), "-r", str(rate), "-t", f"{int(seconds)}s", "--csv", str(prefix),
         "--only-summary", "--loglevel", "ERROR", "--stop-timeout", "30", *classes],
        env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    failures = Path(f"{prefix}_failures.csv")
    if failures.exists():
        with open(failures) as f:
            rows = list(csv.DictReader(f))
        for row in rows[:5]:
            print(f"  failed: {row['Name']}: {row['Error'][:150]} ({row['Occurrences']}x)")
    return stats(Path(f"{prefix}_stats.csv"))


def print_errors(log: Path, start: int, kind: str, most: int = 60) -> None:
    """The errors the ``kind`` servers logged during this scenario (from byte ``start`` of
    ``log``): each line at ERROR or CRITICAL and each traceback, so a failure the table counts
    is told with its cause (a 500's traceback is logged by ``django.request``, one of
    gunicorn's own by its error log)."""
    with open(log, errors="replace") as f:
        f.seek(start)
        lines = f.read().splitlines()
    shown, inside = [], False
    for line in lines:
        if "Traceback (most recent call last)" in line or re.search(
            r"\b(ERROR|CRITICAL)\b|\[ERROR\]|Error handling request|Internal Server Error", line
        ):
            inside = True
        elif inside and line and not line[0].isspace() and not re.match(r"^\w+(\.\w+)*: ", line):
            inside = False
        if inside:
            shown.append(line)
    if shown:
        print(f"  the {kind} logged {len(shown)} lines of errors (the first {most}):")
        for line in shown[:most]:
            print(f"    {line}")


def scenario(name: str, players: int, args, tree: Path, env: dict, plan: Path, work: Path):
    """One scenario from a fresh copy of the set-up: servers up, locust, check, servers down."""
    import redis

    admin_sql(args.database, f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    admin_sql(args.database, f'CREATE DATABASE "{DATABASE}" TEMPLATE "{TEMPLATE}"')
    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    if args.cache == "warm":  # before the worker starts: its beat would compete
        print("  " + child(tree, env, "warm", str(plan)).strip().splitlines()[-1])
    port = free_port()
    host = f"http://127.0.0.1:{port}"
    logs = {k: open(work / f"{k}.log", "a") for k in ("worker", "web")}  # noqa: SIM115
    log_starts = {k: f.tell() for k, f in logs.items()}
    procs = [
        subprocess.Popen(
            [*worker_nice(tree), sys.executable, "-m", "celery", "-A", "dgk", "worker", "-B",
             "--loglevel", "INFO", "--schedule", str(work / "beat-schedule")],
            cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=logs["worker"],
            process_group=0,
        ),
        subprocess.Popen(web_command(tree, port), cwd=tree, env=env, stdout=subprocess.DEVNULL,
                         stderr=logs["web"], process_group=0),
    ]  # fmt: skip
    log_path = work / f"log-{name}-{players}.jsonl"
    log_path.unlink(missing_ok=True)
    result: dict = {"players": players, "scenario": name, "cache": args.cache,
                    "worker_nice": " ".join(worker_nice(tree)[2:]) or "0"}  # fmt: skip
    try:
        wait_for(f"{host}/accounts/login/")
        for _ in range(8):  # every web worker reads its templates once
            urllib.request.urlopen(f"{host}/accounts/login/", timeout=30).read()
        lenv = {**env, "BENCH_PLAN": str(plan), "BENCH_LOG": str(log_path)}
        result["load_before"] = load()
        prefix = work / f"{name}-{players}"
        arrival = players / ARRIVALS_PER_SECOND
        if name == "signed-in":
            rows = locust(lenv, host, players, ARRIVALS_PER_SECOND, max(args.duration,
                          arrival + 20), ["SignedInPlayer"], prefix)  # fmt: skip
        elif name == "sign-in":
            rows = locust(lenv, host, players, ARRIVALS_PER_SECOND, max(args.duration,
                          arrival + 20), ["SigningInPlayer"], prefix)  # fmt: skip
        elif name == "burst":
            spawn = (players + BURST_SIGNERS) / ARRIVALS_PER_SECOND
            lenv.update(BENCH_BURST_AT=str(spawn + 2), BENCH_PLAYERS=str(players),
                        BENCH_BURST=str(BURST_SIGNERS))  # fmt: skip
            rows = locust(lenv, host, players + BURST_SIGNERS, ARRIVALS_PER_SECOND,
                          max(args.duration, spawn + 30), ["SignedInPlayer", "BurstSigner"],
                          prefix)  # fmt: skip
        else:
            clients = min(players, FLAT_CLIENTS)
            rows = locust(lenv, host, clients, clients, args.duration / 2, ["FlowFlatOut"],
                          prefix)  # fmt: skip
            rows += locust(lenv, host, clients, clients, args.duration / 2, ["BareFlatOut"],
                           Path(f"{prefix}-bare"))  # fmt: skip
            rows = [r for r in rows if r["name"] != "Aggregated"]
            flow = sum(r["rps"] for r in rows if r["name"].startswith("flat: ") and
                       "bare" not in r["name"])  # fmt: skip
            bare = sum(r["rps"] for r in rows if "bare" in r["name"])
            result["flow_rps"], result["bare_rps"] = round(flow, 1), round(bare, 1)
            result["ratio"] = round(flow / bare, 2) if bare else None
        result["load_after"] = load()
        result["rows"] = rows
        print(
            f"\n== {name}, {players} players, cache {args.cache}, worker at nice "
            f"{result['worker_nice']} (load average 1/5/15 min: before "
            f"{result['load_before']}, after {result['load_after']}; {os.cpu_count()} CPUs)"
        )
        print_stats(rows)
        if "ratio" in result:
            print(f"  flat out: orders flow {result['flow_rps']} req/s, bare sign-in page "
                  f"{result['bare_rps']} req/s: ratio {result['ratio']}")  # fmt: skip
    finally:
        # Each in its own process group: the worker's pool and beat, and gunicorn's workers,
        # stop with it (a worker left behind would take the next scenario's tasks). A group,
        # not a session (``process_group=0``, not ``start_new_session``): with the kernel's
        # autogroup scheduling each session is its own group of CPU time, shared equally
        # between groups whatever their niceness, and the worker's ``nice`` would then count
        # for nothing against gunicorn's (docs/performance.md, "The fourth pass").
        # The leader is asked to stop first (Celery's warm shutdown lets the task at hand end,
        # gunicorn's lets the requests at hand be answered); what is left of its group then.
        # Terminated all at once, the pool's processes died under their tasks and the worker
        # logged each as lost, errors of the bench's own making among those of the hour.
        for p in procs:
            os.kill(p.pid, signal.SIGTERM)
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=20)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
        for f in logs.values():
            f.close()
        for kind, start in log_starts.items():
            print_errors(work / f"{kind}.log", start, kind)
    out = child(tree, {**env, "CELERY_BROKER_URL": ""}, "verify", str(plan), str(log_path))
    print("\n".join("  " + x for x in out.splitlines() if x.startswith("check: ")))
    result["check"] = json.loads(out.strip().splitlines()[-1])
    return result


def p95(rows: list[dict], *names: str, during: bool = False) -> str:
    """The largest p95 (ms) of the request kinds named (with ``during``, of the players'
    requests counted during the burst); "-" when none was made."""
    found = [
        int(r["p95"])
        for r in rows
        if r["p95"] not in ("", "N/A") and r["count"]
        and (r["name"].endswith("[during burst]") if during else r["name"] in names)
    ]  # fmt: skip
    return str(max(found)) if found else "-"


def compare(paths: list[Path]) -> None:
    """A Markdown table of the runs kept with ``--json`` (before, after), side by side."""
    runs = [json.loads(p.read_text()) for p in paths]
    print("| players | scenario | figure | " + " | ".join(p.stem for p in paths) + " |")
    print("|---|---|---|" + "---|" * len(paths))
    figures = {
        "signed-in": [("save p95", ("save march",)), ("Ready p95", ("ready",)),
                      ("reload p95", ("dashboard reload",)),
                      ("first dashboard p95", ("dashboard",))],
        "sign-in": [("sign-in post p95", ("sign in: post",)), ("save p95", ("save march",)),
                    ("Ready p95", ("ready",)), ("reload p95", ("dashboard reload",))],
        "burst": [("players' p95 during the burst", ()),
                  ("burst sign-in post p95", ("burst sign in: post",))],
    }  # fmt: skip
    keys = [(r["players"], r["scenario"]) for r in runs[0]]
    for players, name in keys:
        found = [next((r for r in run if (r["players"], r["scenario"]) == (players, name)), None)
                 for run in runs]  # fmt: skip
        lines = [(label, lambda r, n=names, d=not names: p95(r["rows"], *n, during=d))
                 for label, names in figures.get(name, [])]  # fmt: skip
        if name == "flat-out":
            lines = [("flow / bare req/s", lambda r: f"{r['flow_rps']} / {r['bare_rps']} = "
                      f"{r['ratio']}")]  # fmt: skip
        lines.append(("saves, Ready done / lost", lambda r: f"{r['check']['saves']}, "
                      f"{r['check']['ready']} / {r['check']['missing']}"))  # fmt: skip
        lines.append(("load average", lambda r: r["load_before"].split("/")[0]))
        for label, value in lines:
            cells = [value(r) if r is not None else "" for r in found]
            print(f"| {players} | {name} | {label} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[50, 200, 500])
    parser.add_argument("--scenario", nargs="+", choices=SCENARIOS, default=list(SCENARIOS))
    parser.add_argument("--duration", type=float, default=45, help="seconds per scenario")
    parser.add_argument("--tree", type=Path, default=HERE.parent, help="the checkout to serve")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-db", type=int, default=13)
    parser.add_argument(
        "--cache", choices=("warm", "cold"), default="warm",
        help="warm: each seat's pages prepared before the hour, as the worker does when the "
        "phase opens (a live site); cold: an empty cache, as after a Redis restart",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, help="keep the figures in this file")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs)")
    parser.add_argument(
        "--compare", type=Path, nargs="+", help="print a table of runs kept with --json, only"
    )
    args = parser.parse_args()
    if args.compare:
        compare(args.compare)
        return
    tree = args.tree.resolve()
    work = Path(tempfile.mkdtemp(prefix="deadline-hour-"))
    base = args.database.rsplit("/", 1)[0]
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "DJANGO_SETTINGS_MODULE": "dgk.settings",
        "DATABASE_URL": f"{base}/{DATABASE}",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{args.redis_db}",
        "REDIS_URL": "",
        "CACHE_URL": "",
        "DEBUG": "0",
        "SECRET_KEY": "deadline-hour-bench-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SITE_URL": "http://127.0.0.1",
        "EMAIL_URL": "console://",
        "LOG_LEVEL": "WARNING",
        "SWEEP_SECONDS": "2",
        "STATIC_ROOT": str(work / "static"),
        # The bundled map's tiles, drawn once (``manage.py rendertiles``), else the worker
        # draws them at its start, in the middle of the hour.
        "MAP_TILES_DIR": os.getenv("MAP_TILES_DIR", str(HERE.parent / "var" / "tiles")),
        **{
            f"{k}_DIR": str(work / k.lower())
            for k in ("MAP_PICTURES", "SEASON_BOOKS", "BACKUP", "PHOTOS")
        },  # fmt: skip
    }
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=tree,
                   env=env, check=True)  # fmt: skip
    results = []
    print(f"serving {tree} (git {subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=tree, capture_output=True, text=True).stdout.strip()}); "  # noqa: E501
          f"load average {load()}")  # fmt: skip
    try:
        for players in args.players:
            admin_sql(args.database, f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
            admin_sql(args.database, f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)')
            admin_sql(args.database, f'CREATE DATABASE "{TEMPLATE}"')
            plan = work / f"plan-{players}.json"
            shutil.rmtree(work / "map_pictures", ignore_errors=True)  # (another size's ids)
            setup_env = {**env, "DATABASE_URL": f"{base}/{TEMPLATE}", "CELERY_BROKER_URL": ""}
            out = child(tree, setup_env, "setup", str(players), str(plan))
            print(out.strip().splitlines()[-1])
            for name in args.scenario:
                results.append(scenario(name, players, args, tree, env, plan, work))
                if args.json:
                    args.json.write_text(json.dumps(results, indent=1))
    finally:
        admin_sql(args.database, f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        admin_sql(args.database, f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)')
        if args.keep:
            print(f"work folder kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "setup":
        setup(int(sys.argv[2]), Path(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "warm":
        warm(Path(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "verify":
        verify(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        main()
