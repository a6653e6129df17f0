"""The picture of the house (docs/architecture.md) kept by a test: no import cycle in the
project's packages, and no import pointing up the layers.

The import graph is read from the source by grimp (nothing is imported or run); it counts every
import, those inside functions and under ``TYPE_CHECKING`` too, so an import moved into a function
to dodge a cycle is still seen. ``LAYERS`` below mirrors the table of the doc; when a package
moves, change its name here (the engine and the tabletop are named once, in ``ENGINE`` and
``TABLETOP``).
"""

from __future__ import annotations

import grimp
import pytest

from tests import house

pytestmark = pytest.mark.pure

PACKAGES = house.PACKAGES
ENGINE = "rules"
TABLETOP = "tabletop"
APPS = tuple(house.APPS)

# The layers, from the bottom up. A module belongs to the layer of the longest name below that
# is the module itself or one of its packages; it may import its own layer and the layers below,
# never one above.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("maps core", ("maps.core",)),
    ("engine", (ENGINE,)),
    (
        "projection and tabletop",
        (
            "campaign.projection",
            "campaign.reportlines",
            "campaign.eventfog",
            "seasons.warseries",
            "seasons.warcharts",
            TABLETOP,
        ),
    ),
    ("project settings", ("dgk", "dgk.settings", "dgk.celery")),
    (
        "models",
        (
            "campaign.models",
            "campaign.fields",
            "campaign.signals",
            "seasons.signals",
            "club.models",
            "battles.models",
            "letters.models",
            "orders.models",
            "maps.models",
            "feeds.models",
            "campaign.migrations",
            "battles.migrations",
            "letters.migrations",
            "orders.migrations",
            "maps.migrations",
            "club.migrations",
            "push.models",
            "push.migrations",
            "feeds.migrations",
        ),
    ),
    (
        "services",
        (
            "campaign.services",
            "battles.services",
            "letters.services",
            "mail.services",
            "seasons.services",
            "accounts.services",
            "club.services",
            "feeds.services",
            "orders.replyaddress",
            "orders.services",
            "maps.overlay",
            "maps.tapmap",
            "maps.seat_picture",
            "maps.war_picture",
            "maps.pictures",
            "maps.picture_queue",
            "maps.tiles",
            "push.services",
        ),
    ),
    # Everything else of the apps: views, forms, the pages' helpers (access, pages, sheets,
    # checks of a draft), tasks, admin, middleware, template tags, management commands, the map
    # generator.
    ("views and tasks", APPS),
    ("urls", ("dgk.urls", "dgk.wsgi", *(f"{app}.urls" for app in APPS))),
)

# The engine and the map core import no framework (tests/test_purity.py checks the same by
# importing every module; this says which line does it).
PURE_LAYERS = ("maps core", "engine", "projection and tabletop")
FRAMEWORKS = ("django", "django_htmx", "celery", "kombu", "redis")


def is_view(module: str) -> bool:
    """A module of views: ``views`` or ``*_views``. Only the urls import them."""
    last = module.rsplit(".", 1)[-1]
    return last == "views" or last.endswith("_views")


def layer_of(module: str, layers=LAYERS) -> int | None:
    best, found = -1, None
    for index, (_name, prefixes) in enumerate(layers):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    return found


def build(*packages: str) -> grimp.ImportGraph:
    return grimp.build_graph(*packages, include_external_packages=True, cache_dir=None)


def internal(graph: grimp.ImportGraph, packages) -> list[str]:
    return sorted(m for m in graph.modules if m.split(".")[0] in packages)


def cycles(graph: grimp.ImportGraph, packages=PACKAGES) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    modules = internal(graph, packages)
    inside = set(modules)
    edges = {
        m: sorted(n for n in graph.find_modules_directly_imported_by(m) if n in inside)
        for m in modules
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in modules:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def wrong_way(
    graph: grimp.ImportGraph, packages=PACKAGES, layers=LAYERS, pure_layers=PURE_LAYERS
) -> list[str]:
    """Every import that points up the layers, imports a view outside the urls, or takes a
    framework into a pure layer; and every module the table does not place."""
    problems = []
    urls = next(i for i, (name, _) in enumerate(layers) if name == "urls")
    pure = {i for i, (name, _) in enumerate(layers) if name in pure_layers}
    for module in internal(graph, packages):
        here = layer_of(module, layers)
        if here is None:
            problems.append(f"{module}: in no layer of the table (docs/architecture.md)")
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            top = imported.split(".")[0]
            line = f"{module} imports {imported}"
            if top not in packages:
                if here in pure and top in FRAMEWORKS:
                    problems.append(f"{line}: the {layers[here][0]} stay free of frameworks")
                continue
            there = layer_of(imported, layers)
            if there is None:
                continue  # reported as a module of its own
            if there > here:
                problems.append(f"{line}: {layers[here][0]} may not import {layers[there][0]}")
            elif is_view(imported) and here != urls:
                problems.append(f"{line}: only the urls import views")
    return problems


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return build(*PACKAGES)


def test_no_import_cycles(graph):
    assert cycles(graph) == []


def test_imports_follow_the_layers(graph):
    assert wrong_way(graph) == []


def test_every_package_of_the_doc_exists(graph):
    """A renamed package must be renamed here too, or the table would silently place nothing."""
    modules = set(graph.modules)
    missing = [p for _, prefixes in LAYERS for p in prefixes if p not in modules]
    assert missing == []


# --- the rules of the house: one app per job (issue 34) ---------------------------------------


def services_and_views(graph, packages=PACKAGES, depth: int = 0) -> list[str]:
    """Imports a service must not make (a view or a task), and views of another app imported
    anywhere (an app's urls import its own views, nothing else does). An app is the ``depth``-th
    part of a module's name."""
    problems = []
    for module in internal(graph, packages):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported.split(".")[0] not in packages:
                continue
            last = imported.rsplit(".", 1)[-1]
            line = f"{module} imports {imported}"
            if ".services" in module and (is_view(imported) or last == "tasks"):
                problems.append(f"{line}: services never import views or tasks")
            if is_view(imported) and imported.split(".")[depth] != module.split(".")[depth]:
                problems.append(f"{line}: no app imports another's views")
    return problems


def test_services_import_no_views_nor_tasks_and_no_app_imports_anothers_views(graph):
    assert services_and_views(graph) == []


def test_the_apps_import_each_other_without_a_cycle():
    assert house.app_cycles(house.arrows(house.build())) == []


def test_no_django_app_holds_more_than_a_quarter_of_the_code():
    """The pure engine (``rules``) is one package by design; the Django apps stay small."""
    counted = house.lines()
    total = sum(counted.values())
    big = {app: f"{100 * counted[app] / total:.0f}%" for app in APPS if counted[app] > total / 4}
    assert big == {}


def test_the_doc_draws_the_house_as_the_code_has_it():
    """docs/architecture.md carries the picture ``python -m tests.house`` makes; after a move,
    ``python -m tests.house --write`` brings it up to date."""
    assert house.carried() == house.picture()


def test_a_planted_app_cycle_and_a_service_importing_a_view_are_found(tmp_path, monkeypatch):
    _plant(
        tmp_path / "plantedapps",
        {
            "__init__.py": "",
            "one/__init__.py": "",
            "one/services/__init__.py": "",
            "one/services/work.py": "from plantedapps.two import views\n",
            "two/__init__.py": "",
            "two/views.py": "from plantedapps.one.services import work\n",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    planted = build("plantedapps")
    assert services_and_views(planted, ("plantedapps",), depth=1) == [
        "plantedapps.one.services.work imports plantedapps.two.views: "
        "services never import views or tasks",
        "plantedapps.one.services.work imports plantedapps.two.views: "
        "no app imports another's views",
    ]
    edges = {("one", "two"): ["x"], ("two", "one"): ["y"], ("two", "three"): ["z"]}
    assert house.app_cycles(edges) == [["one", "two"]]


# --- the test can fail: a throw-away package with a cycle and an import against the layers ---


def _plant(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_planted_cycle_is_found(tmp_path, monkeypatch):
    _plant(
        tmp_path / "planted",
        {
            "__init__.py": "",
            "a.py": "from planted import b\n",
            "b.py": "def later():\n    from planted import c  # dodged into a function\n",
            "c.py": "import planted.a\n",
            "d.py": "from planted import a\n",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cycles(build("planted"), ("planted",)) == [["planted.a", "planted.b", "planted.c"]]


def test_a_planted_import_against_the_layers_is_found(tmp_path, monkeypatch):
    _plant(
        tmp_path / "planted",
        {
            "__init__.py": "",
            "low/__init__.py": "",
            "low/rules.py": "import django\nfrom planted.high import service\n",
            "high/__init__.py": "",
            "high/service.py": "from planted.low import rules\n",
            "high/views.py": "from planted.high import service\n",
            "high/other_views.py": "from planted.high import views\n",
            "urls.py": "from planted.high import other_views, views\n",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    layers = (("low", ("planted.low",)), ("high", ("planted.high",)), ("urls", ("planted.urls",)))
    found = wrong_way(build("planted"), ("planted",), layers, ("low",))
    assert found == [
        "planted: in no layer of the table (docs/architecture.md)",
        "planted.high.other_views imports planted.high.views: only the urls import views",
        "planted.low.rules imports django: the low stay free of frameworks",
        "planted.low.rules imports planted.high.service: low may not import high",
    ]
