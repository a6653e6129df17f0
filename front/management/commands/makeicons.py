"""``manage.py makeicons``: draw the home-screen icons of the web app manifest with Pillow
(static/icons/icon-192.png, icon-512.png, maskable-512.png). The drawn files are committed;
run this again only to change the design."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from PIL import Image, ImageDraw, ImageFont

NAVY = (28, 47, 90)
GOLD = (226, 188, 92)
PAPER = (245, 240, 230)
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")


def icon(size: int, *, maskable: bool = False) -> Image.Image:
    """A navy field, a gold border and the letters GK (Der Grosse König)."""
    image = Image.new("RGB", (size, size), NAVY)
    draw = ImageDraw.Draw(image)
    inset = size // 5 if maskable else size // 14  # maskable: the safe zone is the middle 80 %
    draw.rectangle(
        [inset, inset, size - inset, size - inset], outline=GOLD, width=max(2, size // 40)
    )
    try:
        font = ImageFont.truetype(str(FONT), size // (4 if maskable else 3))
    except OSError:
        font = ImageFont.load_default()
    draw.text((size / 2, size / 2), "GK", font=font, fill=PAPER, anchor="mm")
    return image


class Command(BaseCommand):
    help = "Draw the web app's home-screen icons into static/icons/."

    def handle(self, **options):
        folder = Path(settings.BASE_DIR) / "static" / "icons"
        folder.mkdir(parents=True, exist_ok=True)
        for name, size, maskable in (
            ("icon-192.png", 192, False),
            ("icon-512.png", 512, False),
            ("maskable-512.png", 512, True),
        ):
            icon(size, maskable=maskable).save(folder / name, optimize=True)
            self.stdout.write(f"static/icons/{name}")
