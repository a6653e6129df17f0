"""Bench: where the orders map opens on a phone, before and after issue 35 (the walk's far force).

    .venv/bin/python bench/orders_map_opening.py

The bundled map with every seat deployed as the engine's sample (5 players, turn 1, no order
given yet). For each seat: its leaders, the zoom at which the widget frames all of them (390 x
523 px, the map's box on a 390 x 844 phone; Leaflet's ``fitBounds`` with a 15 % pad, maximum
zoom 2, steps of 0.5), and its farthest leader from its strongest, in screen pixels at zoom 2
(before: the map opened on the strongest at zoom 2 whenever the forces did not fit at zoom 1),
with the drags of half a screen width it took to reach him, and the zoom-outs of one level.
After: the map opens framing them, so the farthest is in view; choosing him brings him to the
middle at zoom 2. Now (the phone review): the map opens at zoom 1 or closer on the most of the
seat's hexes one view holds (``open`` and ``mostInView`` in static/js/mapwidget.js, the map's
box 358 x 523 px less a margin of 64 px across and 48 up and down each side), the strongest
force's hex breaking ties; the last columns are that view's zoom, the hexes in it and the hexes
counted outside. Pure Python: no database, no browser.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from maps.core.hexgrid import parse_hex_id  # noqa: E402
from maps.core.loader import load_map  # noqa: E402
from maps.core.tiles import grid_of  # noqa: E402
from rules.armies import Seat, armies_of  # noqa: E402
from rules.autoplay import deployment_orders  # noqa: E402
from rules.rulesettings import RuleSettings  # noqa: E402

VIEW_W, VIEW_H = 390, 523
BOX_W, BOX_H = 358, 523  # the map's box inside the page's margins (the widget's own figure)
OPEN_ZOOM, MARGIN = 1, (64, 48)  # mapwidget.js: OPEN_ZOOM, OPEN_MARGIN


def frame_zoom(points: list[tuple[float, float]]) -> float:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    w, h = (max(xs) - min(xs)) * 1.3 or 1, (max(ys) - min(ys)) * 1.3 or 1
    z = min(math.log2(VIEW_W / w), math.log2(VIEW_H / h), 2)
    return math.floor(z * 2) / 2


def most_in_view(points: list[tuple[float, float]], span: tuple[float, float]) -> list:
    """``mostInView`` of mapwidget.js: the most of ``points`` (strongest first) that one view
    ``span`` map units wide and high holds; between as many, the one with the earlier point."""
    best: list = []
    best_first = math.inf
    for a in points:
        for b in points:
            held = [
                (i, p)
                for i, p in enumerate(points)
                if a[0] <= p[0] <= a[0] + span[0] and b[1] <= p[1] <= b[1] + span[1]
            ]
            first = min((i for i, _ in held), default=math.inf)
            if len(held) > len(best) or (len(held) == len(best) and first < best_first):
                best, best_first = held, first
    return [p for _, p in best]


def opening(hexes: list[tuple[float, float]]) -> tuple[float, int]:
    """The zoom the orders map opens at now and how many of ``hexes`` it holds."""
    room_w, room_h = 2 * MARGIN[0], 2 * MARGIN[1]
    scale = 2**OPEN_ZOOM
    held = most_in_view(hexes, ((BOX_W - room_w) / scale, (BOX_H - room_h) / scale))
    xs, ys = [p[0] for p in held], [p[1] for p in held]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    fit = min(
        math.log2((BOX_W - room_w) / w) if w else 2,
        math.log2((BOX_H - room_h) / h) if h else 2,
    )
    return max(OPEN_ZOOM, min(math.floor(fit * 2) / 2, 2)), len(held)


def main() -> None:
    hexmap = load_map("central_europe_1756")
    grid = grid_of(hexmap)
    _points, orders = deployment_orders(hexmap, RuleSettings())
    by_army = {d.army: d for d in orders.deployment}
    print(f"{'seat':8} {'leaders':>7} {'before: zoom':>12} {'after: zoom':>11} "
          f"{'farthest (px at z2)':>20} {'drags':>5} {'zoom-outs':>9} {'now: zoom':>9} "
          f"{'hexes in view':>13} {'outside':>7}")  # fmt: skip
    for seat in Seat:
        leaders = [
            (points, grid.centre(parse_hex_id(h)))
            for army in armies_of(seat, 5)
            for _key, h, points, *_ in by_army[army].leaders
        ]
        xy = [p for _, p in leaders]
        strongest = max(leaders, key=lambda lp: lp[0])[1]
        z = frame_zoom(xy)
        before = z if z >= 1 else 2
        far = max(math.dist(strongest, p) for p in xy) * 4  # zoom 2: four times zoom 0
        drags = math.ceil(max(0.0, far - VIEW_W / 2) / (VIEW_W / 2))
        outs = 0
        while far / 2**outs > VIEW_W / 2:
            outs += 1
        strength: dict[tuple[float, float], int] = {}
        for points, p in leaders:
            strength[p] = max(strength.get(p, 0), points)
        hexes = sorted(strength, key=lambda p: -strength[p])
        now, held = opening(hexes)
        print(
            f"{seat.value:8} {len(xy):>7} {before:>12} {z:>11} {far:>20.0f} {drags:>5} {outs:>9} "
            f"{now:>9} {held:>13} {len(hexes) - held:>7}"
        )


if __name__ == "__main__":
    main()
