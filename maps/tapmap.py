"""The tap map of the orders and deployment pages, drawn as one SVG by
``templates/play/_map.html`` from the numbers made here.

Pure Python (no Django). It works without JavaScript: every tappable hex is a link (a step of the
line of march, or a hex to deploy in), so it stays below the forms as the map widget's fallback
(docs/map-widget.md). Its counters come only from ``map_counters(view)``, like every map a seat
sees.
"""

from __future__ import annotations

from campaign.projection import Relation, View, map_counters
from maps.core.hexgrid import HexIdError, hex_corners, hex_id, hex_to_pixel, parse_hex_id, within
from maps.core.model import HexMap
from maps.overlay import ARMY_COLOURS

HEX_SIZE = 18.0
TERRAIN_FILL = {"c": "#e9e2c9", "m": "#b9d3b0", "r": "#c8b49a", "s": "#9cc0de", "l": "#9cc0de"}
DEFAULT_COLOURS = ("#888888", "#ffffff")


def map_svg(
    view: View,
    hexmap: HexMap,
    preview,
    steps=None,
    *,
    focus: list[str] | None = None,
    radius: int = 4,
) -> dict:
    """The tappable map of the orders page: the hexes around the seat's forces (or the march
    being written, or ``focus``), the counters of the view, the line of march and the next
    steps."""
    if focus is None and preview is not None:
        focus = [preview.start, *(s.hex for s in preview.steps if s.hex[:1].isdigit())]
    elif focus is None:
        focus = [f.hex for f in view.own_forces()]
    centre_hexes = []
    for text in focus:
        try:
            centre_hexes.append(parse_hex_id(text))
        except HexIdError:
            continue
    shown = hexes_near(hexmap, tuple(centre_hexes), radius)
    if not shown:
        shown = list(hexmap.hexes)[:200]
    pixels = {h: hex_to_pixel(h, HEX_SIZE) for h in shown}
    min_x = min(x for x, _ in pixels.values()) - HEX_SIZE
    min_y = min(y for _, y in pixels.values()) - HEX_SIZE
    max_x = max(x for x, _ in pixels.values()) + HEX_SIZE
    max_y = max(y for _, y in pixels.values()) + HEX_SIZE
    cells = []
    for h in shown:
        corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in hex_corners(h, HEX_SIZE))
        x, y = pixels[h]
        cells.append(
            {
                "id": hex_id(h),
                "points": corners,
                "x": round(x, 1),
                "y": round(y, 1),
                "fill": TERRAIN_FILL.get(hexmap.terrain(h).value, "#ddd"),
            }
        )
    shown_ids = {c["id"] for c in cells}
    counters = []
    for c in map_counters(view, hexmap):
        if c.hex not in shown_ids:
            continue
        x, y = hex_to_pixel(parse_hex_id(c.hex), HEX_SIZE)
        counters.append(
            {
                "x": round(x, 1),
                "y": round(y, 1),
                "kind": c.kind,
                "label": c.label,
                "fill": ARMY_COLOURS.get(c.army.value, DEFAULT_COLOURS)[0],
                "text": ARMY_COLOURS.get(c.army.value, DEFAULT_COLOURS)[1],
                "own": c.relation is Relation.OWNER,
                "short": (c.name or c.label)[:3],
                "flags": "".join(c.flags),
            }
        )
    line = []
    if preview is not None:
        for text in [preview.start, *(s.hex for s in preview.steps if s.hex[:1].isdigit())]:
            x, y = hex_to_pixel(parse_hex_id(text), HEX_SIZE)
            line.append(f"{x:.1f},{y:.1f}")
    cities = [
        {"x": round(hex_to_pixel(c.hex, HEX_SIZE)[0], 1),
         "y": round(hex_to_pixel(c.hex, HEX_SIZE)[1], 1), "name": c.name, "fortress": c.fortress}
        for c in hexmap.cities if hex_id(c.hex) in shown_ids
    ]  # fmt: skip
    targets = []
    for code, name, target in steps or []:
        h = parse_hex_id(target)
        x, y = hex_to_pixel(h, HEX_SIZE)
        corners = " ".join(f"{px:.1f},{py:.1f}" for px, py in hex_corners(h, HEX_SIZE))
        path = "-".join(str(s.code) for s in preview.steps) if preview is not None else ""
        targets.append(
            {
                "code": code,
                "name": name,
                "hex": target,
                "x": round(x, 1),
                "y": round(y, 1),
                "points": corners,
                "path": f"{path}-{code}" if path else str(code),
            }
        )
    return {
        "targets": targets,
        "viewbox": f"{min_x:.1f} {min_y:.1f} {max_x - min_x:.1f} {max_y - min_y:.1f}",
        "cells": cells,
        "counters": counters,
        "line": " ".join(line),
        "cities": cities,
    }


def hexes_near(hexmap: HexMap, centres: tuple, radius: int = 4) -> list:
    """The map's hexes within ``radius`` of any of ``centres``, each once, in order."""
    out = []
    seen = set()
    for c in centres:
        for h in within(c, radius):
            if h in hexmap and h not in seen:
                seen.add(h)
                out.append(h)
    return out
