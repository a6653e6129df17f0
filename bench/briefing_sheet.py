"""How long a printed briefing takes to make (issue 14): the six example battles, each side's and
the umpire's scenario sheet as HTML (table generated, picture drawn, template rendered), and
optionally as PDF with chromium.

    .venv/bin/python bench/briefing_sheet.py [--pdf]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")

import django  # noqa: E402

django.setup()

from battles.services import sheet as briefing  # noqa: E402
from maps.core.loader import load_map  # noqa: E402
from tabletop import examples  # noqa: E402


def main() -> None:
    hexmap = load_map()
    pdf = "--pdf" in sys.argv
    for key in examples.KEYS:
        for audience in ("prussian", "austrian", "umpire"):
            start = time.perf_counter()
            html = briefing.example_html(key, audience, hexmap)
            took = time.perf_counter() - start
            line = f"{key:15} {audience:9} html {took * 1000:6.0f} ms {len(html) // 1024:4d} KB"
            if pdf:
                start = time.perf_counter()
                data = briefing.example_pdf(key, audience, hexmap)
                line += f"   pdf {time.perf_counter() - start:5.2f} s {len(data) // 1024:4d} KB"
            print(line)


if __name__ == "__main__":
    main()
