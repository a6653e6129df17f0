"""`python manage.py rendertiles [--map NAME] [--zoom Z ...] [--force]`: the widget's tiles."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from maps.core.loader import DEFAULT_MAP, MapError, load_map
from maps.core.tiles import ZOOMS
from maps.tiles import render_tiles, tile_folder


class Command(BaseCommand):
    help = "Draw the map widget's tile pyramid into the tiles storage (skipped if complete)."

    def add_arguments(self, parser):
        parser.add_argument("--map", default=DEFAULT_MAP, help="a bundled map name or a file path")
        parser.add_argument(
            "--zoom", type=int, action="append", help=f"only these zoom levels, of {ZOOMS}"
        )
        parser.add_argument("--force", action="store_true", help="draw again even if complete")

    def handle(self, *args, **options):
        try:
            hexmap = load_map(options["map"])
        except MapError as exc:
            raise CommandError(str(exc).strip('"')) from exc
        zooms = tuple(options["zoom"] or ZOOMS)
        wrong = [z for z in zooms if z not in ZOOMS]
        if wrong:
            raise CommandError(f"--zoom must be one of {ZOOMS}, not {wrong}")
        started = time.monotonic()
        count = render_tiles(hexmap, zooms, force=options["force"])
        folder = tile_folder(hexmap)
        if count:
            self.stdout.write(f"{count} tiles in {folder} ({time.monotonic() - started:.1f} s)")
        else:
            self.stdout.write(f"tiles already complete in {folder}")
