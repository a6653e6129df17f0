"""`python manage.py mapinfo [--json] [--map NAME_OR_PATH]`: what a map file holds.

``--json`` prints ``{"name", "columns", "rows", "hexes", "terrain", "areas", "cities": [...]}``;
each city carries its hex id, its axial coordinates q and r (docs/map.md), its City Chart size,
whether it is a fortress, its bastions and fortress VPs, and its area.
"""

from __future__ import annotations

import json
from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from maps.core.loader import DEFAULT_MAP, MapError, load_map


class Command(BaseCommand):
    help = "Describe a map file: size, terrain, areas and cities (with --json for machines)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument("--map", default=DEFAULT_MAP, help="a bundled map name or a file path")

    def handle(self, *args, **options):
        try:
            hexmap = load_map(options["map"])
        except MapError as exc:
            raise CommandError(str(exc)) from exc
        info = describe(hexmap)
        if options["json"]:
            self.stdout.write(json.dumps(info, ensure_ascii=False, indent=1))
            return
        self.stdout.write(f"{hexmap.title} ({hexmap.name}): {hexmap.columns} x {hexmap.rows} hexes")
        self.stdout.write("terrain: " + ", ".join(f"{k} {v}" for k, v in info["terrain"].items()))
        fortresses = [c for c in info["cities"] if c["fortress"]]
        self.stdout.write(f"{len(info['cities'])} cities, {len(fortresses)} fortresses")
        for area, count in info["areas"].items():
            self.stdout.write(f"  {area}: {count} hexes")


def describe(hexmap) -> dict:
    terrain = Counter(hexmap.terrain(h).label for h in hexmap.hexes)
    areas = Counter(hexmap.area(h) for h in hexmap.hexes)
    return {
        "name": hexmap.name,
        "title": hexmap.title,
        "columns": hexmap.columns,
        "rows": hexmap.rows,
        "hexes": len(hexmap.hexes),
        "terrain": dict(sorted(terrain.items())),
        "areas": dict(sorted(areas.items())),
        "cities": [
            {
                "name": c.name,
                "hex": c.hex_id,
                "q": c.hex.q,
                "r": c.hex.r,
                "size": c.size.value,
                "fortress": c.fortress,
                "bastions": c.bastions,
                "vp": c.vp,
                "area": c.area,
                "rivers": list(c.rivers),
            }
            for c in hexmap.cities
        ],
    }
