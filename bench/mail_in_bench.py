"""Figures for orders by mail (issue 36): how long the reader takes over hostile text. Prints;
asserts nothing.

    .venv/bin/python bench/mail_in_bench.py

On the campaign map (``maps.core.loader.load_map``), Frederick at its first city:
- a line of 100 KB of waypoints (``Frederick to X via Y via X …``): refused unread by
  ``MAX_LINE_CHARS``; aim under 1 s;
- 100 KB of such lines, one per line (``MAX_BODY_LINES`` read, each refused by
  ``MAX_WAYPOINTS`` before any path search); aim under 1 s;
- one march of ``MAX_WAYPOINTS`` waypoints, the most a line may ask: one least-cost path
  search per waypoint (the real cost of a waypoint: a Dijkstra search of the map, ~30 ms
  when the waypoint is far), between neighbours and across the map;
- 100 such lines in one mail: ``MAX_ROUTE_LEGS`` searches, then refused; aim under 1 s.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from maps.core import loader  # noqa: E402
from maps.core.hexgrid import neighbour, parse_hex_id  # noqa: E402
from orders.textorders import (  # noqa: E402
    MAX_WAYPOINTS,
    Vocabulary,
    map_route,
    read_orders,
)


def timed(fn, repeat: int = 3) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> None:
    hexmap = loader.load_map()
    start = hexmap.cities[0].hex_id
    hexes = frozenset(hexmap.hex_id(h) for h in hexmap.hexes)
    near = next(
        hexmap.hex_id(n)
        for d in range(1, 7)
        if (n := neighbour(parse_hex_id(start), d)) in hexmap.hexes
    )
    vocab = Vocabulary(
        phase="march",
        units={"frederick": "Frederick"},
        positions={"frederick": start},
        places={c.name: c.hex_id for c in hexmap.cities},
        hexes=hexes,
        route=map_route(hexmap),
    )
    pair = f" via {near} via {start}"
    one_line = f"Frederick to {start}" + pair * (100_000 // len(pair))
    t, reading = timed(lambda: read_orders(one_line, vocab))
    print(f"one line, {len(one_line) // 1000} KB of waypoints:     {t * 1000:8.1f} ms  aim < 1 s")
    print(f"   -> {reading.lines[0].problem}")
    line = f"Frederick to {start}" + pair * 20
    many = "\n".join([line] * (100_000 // len(line)))
    t, reading = timed(lambda: read_orders(many, vocab))
    print(
        f"100 KB of waypoint lines ({len(reading.lines)} read, {reading.cut} cut): "
        f"{t * 1000:8.1f} ms"
    )
    print(f"   -> {reading.lines[0].problem}")
    far = hexmap.cities[-1].hex_id
    for name, way in (("neighbours", near), ("across the map", far)):
        most = f"Frederick to {start}" + f" via {way} via {start}" * (MAX_WAYPOINTS // 2)
        t, reading = timed(lambda m=most: read_orders(m, vocab))
        got = reading.lines[0]
        print(
            f"one march of {MAX_WAYPOINTS} waypoints, {name}: {t * 1000:8.1f} ms"
            f"  ({t * 1000 / MAX_WAYPOINTS:.1f} ms a waypoint; "
            f"{'read' if got.order else got.problem})"
        )
    hostile = "\n".join([f"Frederick to {start}" + f" via {far} via {start}" * 6] * 100)
    t, reading = timed(lambda: read_orders(hostile, vocab))
    searched = sum(x.order is not None for x in reading.lines)
    print(
        f"100 such lines across the map in one mail ({searched} read, then refused by "
        f"MAX_ROUTE_LEGS): {t * 1000:8.1f} ms  aim < 1 s"
    )


if __name__ == "__main__":
    main()
