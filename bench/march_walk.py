"""Bench: the places one march order touches, from the orders view to the engine and the emails.

    .venv/bin/python bench/march_walk.py [--root DIR]

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


if __name__ == "__main__":
    main()
