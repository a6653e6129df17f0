"""`python manage.py rendermap OUT.png [--region R] [--hex-ids] [--size N] [--areas]`."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from maps.core.loader import DEFAULT_MAP, MapError, load_map
from maps.core.render import Region, area_highlights, render_png


class Command(BaseCommand):
    help = "Draw the map (or a region: '0510-2030', 'Dresden+6' or 'lat0,lon0,lat1,lon1') as PNG."

    def add_arguments(self, parser):
        parser.add_argument("out", help="the PNG file to write")
        parser.add_argument("--region", default="", help="hex ids, a city+radius, or a box")
        parser.add_argument("--hex-ids", action="store_true", help="print hex ids in the hexes")
        parser.add_argument("--size", type=float, default=14.0, help="hex corner radius in px")
        parser.add_argument("--areas", action="store_true", help="tint the areas of 3.4")
        parser.add_argument("--map", default=DEFAULT_MAP, help="a bundled map name or a file path")

    def handle(self, *args, **options):
        try:
            hexmap = load_map(options["map"])
            region = Region.parse(options["region"], hexmap) if options["region"] else None
        except (MapError, ValueError, KeyError) as exc:
            raise CommandError(str(exc).strip('"')) from exc
        if not 4 <= options["size"] <= 64:
            raise CommandError("--size is the hex corner radius in pixels, 4 to 64")
        overlays = area_highlights(hexmap) if options["areas"] else ()
        try:
            data = render_png(
                hexmap,
                region=region,
                hex_size=options["size"],
                hex_ids=options["hex_ids"],
                overlays=overlays,
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        out = Path(options["out"])
        out.write_bytes(data)
        self.stdout.write(f"wrote {out} ({len(data)} bytes)")
