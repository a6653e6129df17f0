"""Figures for the map (issue 3): load, render, paths, reach. Prints; asserts nothing.

    .venv/bin/python bench/map_bench.py

Aims: load under 0.3 s, whole map under 1 s, region under 0.2 s, one path under 50 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from maps.core import loader  # noqa: E402
from maps.core.paths import least_cost_path, reachable  # noqa: E402
from maps.core.render import render_png  # noqa: E402


def timed(fn, repeat: int = 5) -> tuple[float, object]:
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> None:
    def cold_load():
        loader._load_cached.cache_clear()
        return loader.load_map()

    t, m = timed(cold_load)
    print(f"load (parse + validate + build, cold cache): {t * 1000:8.1f} ms   aim < 300 ms")
    t, _ = timed(loader.load_map, repeat=20)
    print(f"load (cached):                              {t * 1000:8.3f} ms")

    t, data = timed(lambda: render_png(m, hex_size=9), repeat=3)
    print(
        f"whole map PNG, hex size 9 ({len(data) // 1024} KiB):"
        f"      {t * 1000:8.1f} ms   aim < 1000 ms"
    )
    t, data = timed(lambda: render_png(m, hex_size=14), repeat=3)
    print(f"whole map PNG, hex size 14 ({len(data) // 1024} KiB):     {t * 1000:8.1f} ms")
    t, data = timed(lambda: render_png(m, region="Dresden+8", hex_size=14))
    print(f"region PNG Dresden+8, hex size 14:          {t * 1000:8.1f} ms   aim < 200 ms")

    a, b = m.city("Paris").hex, m.city("Koenigsberg").hex
    t, path = timed(lambda: least_cost_path(m, a, b), repeat=10)
    print(
        f"least-cost path Paris-Koenigsberg ({len(path)} hexes): {t * 1000:8.1f} ms   aim < 50 ms"
    )
    a, b = m.city("Amsterdam").hex, m.city("Budapest").hex
    t, path = timed(lambda: least_cost_path(m, a, b), repeat=10)
    print(f"least-cost path Amsterdam-Budapest ({len(path)} hexes): {t * 1000:7.1f} ms")

    forts = m.fortresses

    def reach_all():
        return [len(reachable(m, f.hex, 10)) for f in forts]

    t, sizes = timed(reach_all, repeat=3)
    print(
        f"reachable within 10 MP from all {len(forts)} fortresses: {t * 1000:8.1f} ms "
        f"({t / len(forts) * 1000:.2f} ms each; {statistics.mean(sizes):.1f} hexes on average)"
    )


if __name__ == "__main__":
    main()
