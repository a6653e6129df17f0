"""Figures for the tabletop hand-off (issue 7): table generation, picture, quick resolution and
printing a briefing in chromium. Prints; asserts nothing.

    .venv/bin/python bench/tabletop_bench.py

Aims: a table under 50 ms, its picture under 300 ms, a quick resolution under 1 ms, a
briefing PDF under 5 s (chromium's start-up dominates).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from maps.core.model import CitySize, River, Terrain  # noqa: E402
from tabletop import quick  # noqa: E402
from tabletop.layout import (  # noqa: E402
    RiverSide,
    TableCity,
    TableRequest,
    TableSide,
    generate,
)
from tabletop.render import render_png  # noqa: E402


def timed(fn, repeat: int = 10) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    busy = TableRequest(
        terrain=Terrain.ROUGH,
        sides=(TableSide("Prussians", (2, 3), 36), TableSide("Austrians", (5,), 12)),
        rivers=(RiverSide(1, River.MINOR), RiverSide(2, River.MINOR), RiverSide(4, River.MAJOR)),
        city=TableCity("Prague", CitySize.STAR, fortress=True),
        seed="bench",
    )
    plain = TableRequest(
        terrain=Terrain.CLEAR,
        sides=(TableSide("Prussians", (1,)), TableSide("Austrians", (4,))),
        seed="bench",
    )
    for name, request in (("busy (rough, 3 rivers, star fortress)", busy), ("plain clear", plain)):
        t = timed(lambda r=request: generate(r))
        print(f"table, {name:38s} {t * 1000:8.1f} ms   aim < 50 ms")
    layout = generate(busy)
    t = timed(lambda: render_png(layout), repeat=5)
    size = len(render_png(layout))
    print(f"picture at 10 px/inch, busy table:            {t * 1000:8.1f} ms   {size // 1024} KiB")
    battle = quick.QuickBattle(
        "bench",
        (
            quick.QuickSide("Prussians", 2200, (quick.QuickLeader("Frederick", 1, 3),)),
            quick.QuickSide("Austrians", 3150, (quick.QuickLeader("Daun", 2, 2),)),
        ),
        Terrain.ROUGH,
    )
    t = timed(lambda: quick.resolve(battle, lambda name: 4), repeat=200)
    print(f"quick resolution:                             {t * 1e6:8.1f} µs   aim < 1 ms")
    try:
        import os

        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
        django.setup()
        from battles.services.printing import PrintError, chromium, html_to_pdf
    except Exception as exc:  # the bench runs without a configured site too
        print(f"briefing PDF: skipped ({exc})")
        return
    if chromium() is None:
        print("briefing PDF: skipped (no chromium)")
        return
    html = "<html><body><h1>Briefing</h1>" + "<p>Line of text.</p>" * 200 + "</body></html>"
    try:
        t = timed(lambda: html_to_pdf(html), repeat=3)
    except PrintError as exc:
        print(f"briefing PDF: failed ({exc})")
        return
    print(f"briefing PDF in chromium (3 pages of text):   {t:8.2f} s    aim < 5 s")


if __name__ == "__main__":
    main()
