"""How large the battles' photos make a season file (issue 45, docs/export-format.md).

Each photo is a phone-like picture (4000x3000: a gradient with sensor-like noise, which JPEG
compresses about as badly as a real table) passed through the upload's processing
(``battles.services.imaging.process``: 1600 px display, quality 85), then written as the season
file writes it (base64 of the display size in the battle's row) and gzip'd as the file is. No
database: the photos' share of the file, which is most of it.

    .venv/bin/python -m bench.season_file_photos_bench [battles ...]
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import os
import sys

from PIL import Image, ImageFilter

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
import django  # noqa: E402

django.setup()
from django.conf import settings  # noqa: E402

from battles.services import imaging  # noqa: E402


def phone_photo(seed: int) -> bytes:
    noise = Image.effect_noise((4000, 3000), 40 + seed % 7).convert("L")
    base = Image.linear_gradient("L").resize((4000, 3000))
    rgb = Image.merge("RGB", (base, noise, Image.blend(base, noise, 0.5)))
    rgb = rgb.filter(ImageFilter.GaussianBlur(1.2))
    out = io.BytesIO()
    rgb.save(out, "JPEG", quality=92)
    return out.getvalue()


def main(counts: list[int]) -> None:
    made = imaging.process(phone_photo(1), "bench.jpg", imaging.Limits())
    image = base64.b64encode(made.display.data).decode()
    print(
        f"one photo: display {len(made.display.data):,} bytes "
        f"({made.display.width}x{made.display.height}), thumbnail "
        f"{len(made.thumbnail.data):,} bytes (not in the file), base64 {len(image):,}"
    )
    limit = settings.SEASON_FILE_MAX_BYTES
    for battles in counts:
        rows = [
            {"code": f"b{b}", "photos": [{"caption": "x" * 60, "image": image} for _ in range(20)]}
            for b in range(battles)
        ]
        text = json.dumps({"battles": rows}).encode()
        packed = gzip.compress(text)
        print(
            f"{battles} battles x 20 photos: {len(text):,} bytes decompressed, "
            f"{len(packed):,} gzip'd; limit {limit:,}: "
            f"{'within' if max(len(text), len(packed)) <= limit else 'OVER'}"
        )


if __name__ == "__main__":  # fmt: skip
    main([int(a) for a in sys.argv[1:]] or [1, 3, 5, 8])
