"""Bench: the places one march order touches, from the orders view to the engine and the emails.

    .venv/bin/python bench/march_walk.py [--root DIR] [--stays]

``--root`` is a checkout of the project to walk (default: this one), so a former version can be
measured with this script, e.g. ``git archive <commit> | tar -x -C /tmp/before``.

In a scratch in-memory SQLite database, ``manage.py loaddemo`` makes the demo campaign (every
army deployed, the march phase open, every seat but the Prussian away). Then, signed in as the
Prussian player, with Django's test client and eager tasks: a march order for Frederick (one
hex, the first direction he may take) is saved and the orders are marked Ready, which resolves
the phase when the transaction commits and builds and sends every email (the worker's part runs
in the process, as with no broker).
Only those two requests are traced (``sys.setprofile``). It prints:

- **modules**: the project's modules (rules, tabletop, campaign, orders, maps, dgk) one of whose
  functions runs;
- **functions**: the project's functions that run;
- **calls up the layers**: the pairs (caller module, called module) where a module calls a module
  of a layer above its own, by the layer table of ``tests/test_architecture.py`` (read from this
  checkout, so both versions are judged by the same table);
- **imports up the layers**: the import lines of the modules touched that point up the layers or
  into a view (what that test refuses), functions' own imports included (grimp);
- **modules in an import cycle** among those touched.

``--stays`` traces instead one save of a march order at a time, as a request travels through
the project's modules: a march saved (a first step Frederick may take) and one refused (a line
of march that is no direction code), each sent plainly and as htmx sends it. For each it prints
the **modules entered** (distinct), the **stays** (the module the request is in, taken as the
innermost frame of a project module, each run of one module counted once: time spent in Django
or a library between two stays in one module does not split it) and the **returns** to a
module already left (stays less modules), then the modules by their number of stays.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PACKAGES = ("campaign", "orders", "maps", "dgk", "rules", "tabletop")


def layer_table():
    spec = importlib.util.spec_from_file_location(
        "_layers", HERE / "tests" / "test_architecture.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def project(name: str | None) -> bool:
    return bool(name) and name.split(".")[0] in PACKAGES and ".migrations" not in name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(HERE))
    parser.add_argument("--stays", action="store_true", help="the stays of one save, by module")
    args = parser.parse_args()
    table = layer_table()  # before the project is on the path
    layer_of, layers = table.layer_of, table.LAYERS
    root = Path(args.root).resolve()
    sys.path.insert(0, str(root))
    os.chdir(root)
    scratch = tempfile.mkdtemp(prefix="march-walk-")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="dgk.settings",
        DATABASE_URL="",
        CELERY_BROKER_URL="",
        REDIS_URL="",
        MAP_PICTURES_DIR=scratch,
        MAP_TILES_DIR=scratch,
    )
    import django

    django.setup()
    from django.conf import settings
    from django.core import mail
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    setup_test_environment()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    connection.creation.create_test_db(verbosity=0)
    with open(os.devnull, "w") as quiet:
        call_command("loaddemo", force=True, stdout=quiet)
    from campaign.models import Campaign

    campaign = Campaign.objects.get(name="Demo 1757")
    seat = campaign.seats.get(power="prussia")
    client = Client()
    client.force_login(seat.user)
    window = campaign.open_window()
    march = reverse("orders:save_march", args=[seat.code])
    order = {"unit": "frederick", "marches": "1", "leave_fortress": "on", "phase": window.phase}
    path = next(  # a first step Frederick may take (not traced; the traced save replaces it)
        step for step in "123456" if client.post(march, {**order, "path": step}).status_code == 302
    )

    if args.stays:
        stays(client, march, order, path, root)
        return

    modules: set[str] = set()
    functions: set[tuple[str, str]] = set()
    climbs: set[tuple[str, str]] = set()

    def profile(frame, event, _arg):
        if event != "call":
            return
        callee = frame.f_globals.get("__name__")
        if not project(callee) or frame.f_code.co_name == "<module>":
            return
        modules.add(callee)
        functions.add((callee, frame.f_code.co_qualname))
        caller = frame.f_back.f_globals.get("__name__") if frame.f_back else None
        if project(caller) and caller != callee:
            here, there = layer_of(caller, layers), layer_of(callee, layers)
            if here is not None and there is not None and there > here:
                climbs.add((caller, callee))

    mail.outbox = []
    sys.setprofile(profile)
    try:
        saved = client.post(march, {**order, "path": path})
        ready = client.post(reverse("orders:ready", args=[seat.code]), {"phase": window.phase})
    finally:
        sys.setprofile(None)
    window.refresh_from_db()
    print(f"root: {root}")
    print(
        f"save: HTTP {saved.status_code}; ready: HTTP {ready.status_code}; window "
        f"{window.phase}: {window.status}; emails sent by the walk: {len(mail.outbox)}"
    )
    print(f"modules: {len(modules)}")
    print(f"functions: {len(functions)}")
    print(f"calls up the layers: {len(climbs)}")
    for caller, callee in sorted(climbs):
        print(f"  {caller} -> {callee}")
    graph = table.build(*(p for p in PACKAGES if (root / p).is_dir()))
    wrong = [
        line
        for line in table.wrong_way(graph)
        if line.split(" ", 1)[0] in modules and " imports " in line
    ]
    print(f"imports up the layers (or into a view) from the modules touched: {len(wrong)}")
    for line in wrong:
        print(f"  {line}")
    looped = sorted({m for group in table.cycles(graph) for m in group} & modules)
    print(f"modules touched that sit in an import cycle: {len(looped)}")
    for name in looped:
        print(f"  {name}")
    print("modules touched:")
    for name in sorted(modules):
        print(f"  {name}")


class Stays:
    """The modules a request stays in, in order (``sys.setprofile``): the innermost frame of a
    project module says where it is; a new stay begins when that module changes."""

    def __init__(self, counted=project) -> None:
        self.counted = counted
        self.stack: list[tuple[int, str]] = []  # (frame id, module) of the project's frames
        self.path: list[str] = []

    def __call__(self, frame, event, _arg) -> None:
        if event not in ("call", "return"):
            return
        module = frame.f_globals.get("__name__")
        if not self.counted(module) or frame.f_code.co_name == "<module>":
            return
        if event == "call":
            self.stack.append((id(frame), module))
        elif self.stack and self.stack[-1][0] == id(frame):
            self.stack.pop()
        else:
            return  # (a frame entered before the trace began)
        here = self.stack[-1][1] if self.stack else None
        if here is not None and (not self.path or self.path[-1] != here):
            self.path.append(here)


LIBRARIES = ("rules", "maps.core")  # pure code called as a library (docs/architecture.md)


def route(name: str | None) -> bool:
    """A module of the site's own layers: the pure engine and map core called from one count
    as part of the caller's stay, as Django's code does."""
    return project(name) and not any(name == lib or name.startswith(lib + ".") for lib in LIBRARIES)


def stays(client, march: str, order: dict, path: str, root: Path) -> None:
    """One save of each kind, traced: its stays by module."""
    print(f"root: {root}")
    cases = (
        ("saved", path, {}),
        ("refused", "9", {}),
        ("saved, htmx", path, {"HTTP_HX_REQUEST": "true"}),
        ("refused, htmx", "9", {"HTTP_HX_REQUEST": "true"}),
    )
    for name, line, headers in cases:
        client.post(march, {**order, "path": line}, **headers)  # the same request, warm
        every, own = Stays(), Stays(route)

        def both(frame, event, arg, every=every, own=own) -> None:
            every(frame, event, arg)
            own(frame, event, arg)

        sys.setprofile(both)
        try:
            response = client.post(march, {**order, "path": line}, **headers)
        finally:
            sys.setprofile(None)
        print(f"{name}: HTTP {response.status_code}, {len(response.content)} bytes")
        for label, trace in (("every project module", every), ("the site's layers", own)):
            counts: dict[str, int] = {}
            for module in trace.path:
                counts[module] = counts.get(module, 0) + 1
            print(
                f"  {label}: modules entered {len(counts)}, stays {len(trace.path)}, "
                f"returns to a module already left {len(trace.path) - len(counts)}"
            )
            if trace is own:
                print("    " + ", ".join(f"{m} {n}" for m, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
