"""Bench: the map widget's tile pyramid and what a phone fetches to open the orders page's map.

    .venv/bin/python bench/map_widget_bench.py

Prints the time and size of the whole pyramid of the bundled map (every zoom level), the tiles a
390 px wide phone fetches for its opening view (the widget is 390 x 523 px at zoom 2, centred on
a hex; the count is of the 256 px tiles that view meets, as Leaflet fetches them), and the
vendored Leaflet and widget files. The per-seat overlay JSON is measured on a live site (it needs
a campaign): ``curl -s -b sessionid=... /play/<seat>/map/overlay.json | wc -c``.
"""

from __future__ import annotations

import gzip
import math
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from maps.core.loader import load_map  # noqa: E402
from maps.core.tiles import TILE, ZOOMS, grid_of, write_tiles  # noqa: E402

VIEW_W, VIEW_H = 390, 523  # the widget on a 390 x 844 phone (62vh)


def main() -> None:
    hexmap = load_map("central_europe_1756")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        started = time.perf_counter()
        count = write_tiles(hexmap, root, ZOOMS)
        seconds = time.perf_counter() - started
        total = sum(p.stat().st_size for p in root.rglob("*.png"))
        print(f"pyramid: {count} tiles, {total / 1024:.0f} KB, {seconds:.1f} s (zooms {ZOOMS})")
        for z in ZOOMS:
            sizes = [p.stat().st_size for p in (root / str(z)).rglob("*.png")]
            mean = sum(sizes) / len(sizes) / 1024
            print(f"  zoom {z:>2}: {len(sizes):>3} tiles, mean {mean:.1f} KB")
        # the opening view: zoom 2, centred on Breslau (the Prussian main army of the sample)
        g = grid_of(hexmap)
        cx, cy = g.centre(hexmap.city("Breslau").hex)
        z = 2
        x0, y0 = cx * 2**z - VIEW_W / 2, cy * 2**z - VIEW_H / 2
        tiles = [
            root / str(z) / str(tx) / f"{ty}.png"
            for tx in range(math.floor(x0 / TILE), math.floor((x0 + VIEW_W) / TILE) + 1)
            for ty in range(math.floor(y0 / TILE), math.floor((y0 + VIEW_H) / TILE) + 1)
        ]
        opening = sum(p.stat().st_size for p in tiles if p.exists())
        print(f"opening view (zoom 2, 390x523): {len(tiles)} tiles, {opening / 1024:.0f} KB")
    static = ROOT / "static"
    for name in ("vendor/leaflet/leaflet.js", "vendor/leaflet/leaflet.css", "js/mapwidget.js",
                 "css/play.css"):  # fmt: skip
        data = (static / name).read_bytes()
        print(f"{name}: {len(data) / 1024:.1f} KB, gzip {len(gzip.compress(data)) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
