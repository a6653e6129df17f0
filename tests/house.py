"""The house by job: which app each module belongs to, the arrows between the apps, and the lines
of each, read from the code (grimp reads the imports without running anything).

    .venv/bin/python -m tests.house            print the picture docs/architecture.md carries
    .venv/bin/python -m tests.house --write    write it into docs/architecture.md

``tests/test_architecture.py`` checks the rules of the house on the same graph and that the doc
carries the picture this prints, so the doc stays true.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- house:begin (made by `python -m tests.house --write`; do not edit by hand) -->"
END = "<!-- house:end -->"

# The Django apps, each named for its job (docs/architecture.md, "The apps").
APPS: dict[str, str] = {
    "campaign": "the campaign, its seats, set-up, resolution, deadlines, the organiser's tools, "
    "the fog, what it tells (queued on commit)",
    "orders": "the seat's orders: the sheets, their checks, the player's pages, orders by email",
    "maps": "the map pages, tiles, a seat's view on the map, the map pictures",
    "battles": (
        "battles on the tabletop: records, briefings, results, dates, news, their emails, "
        "the photos of the table and the sides' accounts"
    ),
    "letters": "letters between seats (press)",
    "mail": "composing and sending every email, digests, the call for orders, the outbox",
    "seasons": "the season as a whole: its file, import, backups, the war, the book, next year",
    "accounts": "signing in, its throttling, password reset, the organiser's unlock",
    "organiser": "the organiser's pages: set-up, invitations, the board and its tools",
    "club": "the club: its channel (a webhook for the public news), its roster of players",
    "front": "the home page, /healthz and /readyz, the error pages, the demo",
    "push": "web push notifications: a player's devices, what each seat wants pushed",
    "feeds": "the private calendar feeds (RFC 5545): a seat's deadlines and battle nights, "
    "the organiser's whole campaign",
}
# Libraries beneath every app: pure Python, no Django (the engine, the map core, the tabletop),
# and the project's settings package.
LIBRARIES: dict[str, str] = {
    "rules": "the rules engine (pure)",
    "tabletop": "the tabletop battle (pure)",
    "maps.core": "the map core (pure)",
    "dgk": (
        "settings, the Celery app, the root urls, the guard on addresses users give, "
        "the file storages, SQL compiled once, the collector set aside, the widget's JSON"
    ),
}
PACKAGES = (*APPS, "rules", "tabletop", "dgk")
# Not the product: the map generator is a development tool with its own requirements.
TOOLS = ("maps.tools",)


def part_of(module: str) -> str | None:
    """The app or library a module belongs to (None: a development tool)."""
    if any(module == t or module.startswith(t + ".") for t in TOOLS):
        return None
    if module == "maps.core" or module.startswith("maps.core."):
        return "maps.core"
    return module.split(".")[0]


def build() -> grimp.ImportGraph:
    sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)


def arrows(graph: grimp.ImportGraph) -> dict[tuple[str, str], list[str]]:
    """(importer, imported) part → the module imports behind the arrow."""
    found: dict[tuple[str, str], list[str]] = {}
    for module in sorted(graph.modules):
        here = part_of(module)
        if here is None:
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            there = part_of(imported)
            if there is not None and there != here:
                found.setdefault((here, there), []).append(f"{module} -> {imported}")
    return found


def app_cycles(edges) -> list[list[str]]:
    """The groups of apps that import each other round (empty: the apps make a DAG)."""
    nodes = sorted({a for pair in edges for a in pair})
    reach = {n: {b for (a, b) in edges if a == n} for n in nodes}
    changed = True
    while changed:
        changed = False
        for n in nodes:
            more = set().union(*(reach[m] for m in reach[n])) - reach[n]
            if more:
                reach[n] |= more
                changed = True
    groups = {frozenset(m for m in nodes if n in reach[m] and m in reach[n]) for n in nodes}
    return sorted(sorted(g) for g in groups if len(g) > 1)


def lines(root: Path = ROOT) -> Counter:
    """Lines of Python of each part (migrations, tests, benches and tools not counted)."""
    counted: Counter = Counter()
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            relative = path.relative_to(root)
            if "migrations" in relative.parts:
                continue
            module = ".".join(relative.with_suffix("").parts)
            part = part_of(module)
            if part is not None:
                counted[part] += len(path.read_text(encoding="utf-8").splitlines())
    return counted


def layered(edges) -> list[list[str]]:
    """The parts by level: a part stands above every part it imports."""
    parts = [*APPS, *LIBRARIES]
    level: dict[str, int] = {}

    def depth(part: str, seen=()) -> int:
        if part not in level:
            below = [b for (a, b) in edges if a == part and b not in seen]
            level[part] = 1 + max((depth(b, (*seen, part)) for b in below), default=-1)
        return level[part]

    for part in parts:
        depth(part)
    top = max(level.values())
    return [sorted(p for p in parts if level[p] == n) for n in range(top, -1, -1)]


def picture(graph: grimp.ImportGraph | None = None) -> str:
    """The block docs/architecture.md carries: the apps by level with their arrows, and a table
    of their lines."""
    graph = graph or build()
    edges = arrows(graph)
    counted = lines()
    total = sum(counted.values())
    out = [BEGIN, "", "```"]
    for row in layered(edges):
        for part in row:
            below = sorted(b for (a, b) in edges if a == part)
            out.append(f"{part:<10} -> {', '.join(below) if below else '(nothing of ours)'}")
        out.append("")
    out[-1] = "```"
    out += ["", "| part | its job | lines | share |", "| --- | --- | ---: | ---: |"]
    for part, job in [*APPS.items(), *LIBRARIES.items()]:
        share = 100 * counted[part] / total
        out.append(f"| `{part}` | {job} | {counted[part]} | {share:.0f}% |")
    out += [f"| all | | {total} | 100% |", "", END]
    return "\n".join(out)


def write(text: str, doc: Path = DOC) -> bool:
    """Put ``text`` between the markers of the doc; whether it changed."""
    old = doc.read_text(encoding="utf-8")
    start, end = old.index(BEGIN), old.index(END) + len(END)
    new = old[:start] + text + old[end:]
    doc.write_text(new, encoding="utf-8")
    return new != old


def carried(doc: Path = DOC) -> str:
    old = doc.read_text(encoding="utf-8")
    return old[old.index(BEGIN) : old.index(END) + len(END)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write it into the doc")
    text = picture()
    if parser.parse_args().write:
        print("docs/architecture.md", "rewritten" if write(text) else "already true")
    else:
        print(text)


if __name__ == "__main__":
    main()
