"""Cut the home page's two pictures from renders the project makes itself.

- ``static/home/map.png``: part of the map picture the site draws for a player
  (``docs/screenshots/map-picture-prussia.png``, the demo's turn 1 as the Prussian player knows
  it: ``maps.pictures``), around Berlin, Dresden, Breslau and Prague; ``map-phone.png`` a
  smaller part of it for a phone's screen.
- ``static/home/briefing.png``: the top of a printed battle briefing
  (``docs/screenshots/briefing-units-print.png``, made by ``templates/battles/briefing.html``).

Run it again after those screenshots are made again. The pictures are palette PNGs, small
enough for a phone on a slow line.
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from PIL import Image

SOURCE = Path(settings.BASE_DIR) / "docs" / "screenshots"
TARGET = Path(settings.BASE_DIR) / "static" / "home"
# (source, target, crop box (left, top, right, bottom) in the source's pixels, width out)
PICTURES = (
    ("map-picture-prussia.png", "map.png", (1030, 420, 1890, 1040), 860),
    # a phone's: Saxony, Silesia and Bohemia, the counters legible at 360 px
    ("map-picture-prussia.png", "map-phone.png", (1250, 590, 1730, 990), 480),
    ("briefing-units-print.png", "briefing.png", (0, 0, 794, 400), 794),
    # a phone's: the title, the situation and what the side does not know
    ("briefing-units-print.png", "briefing-phone.png", (0, 0, 390, 362), 390),
)


class Command(BaseCommand):
    help = "Cut the home page's pictures (static/home/) from docs/screenshots/."

    def handle(self, *args, **options):
        TARGET.mkdir(parents=True, exist_ok=True)
        for source, target, box, width in PICTURES:
            with Image.open(SOURCE / source) as image:
                part = image.convert("RGB").crop(box)
            if part.width != width:
                part = part.resize((width, round(part.height * width / part.width)), Image.LANCZOS)
            part = part.quantize(colors=128, method=Image.Quantize.MEDIANCUT)
            part.save(TARGET / target, optimize=True)
            size = (TARGET / target).stat().st_size // 1024
            self.stdout.write(f"{target}: {part.width}x{part.height}, {size} KB")
