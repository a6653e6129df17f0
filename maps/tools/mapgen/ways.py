"""Crossings and roads of the map generator: which river sides carry a bridge (bridges.toml, with
each crossing's type: bridge, ferry, ford or none) and the roads laid through their towns."""

from __future__ import annotations

import heapq
import math

from maps.core.hexgrid import DIRECTIONS, Hex, Side, hex_id, neighbour, side_key, side_vertices
from maps.tools.mapgen.facts_io import Facts
from maps.tools.mapgen.geo import HEX_KM, Point
from maps.tools.mapgen.state import Build, city_hex, sides_of_river

# Only a bridge lets an army over a major river (Terrain Effects Chart 2.2); a ferry or a ford
# is written down with its source but gives the map no bridge.
CROSSING_TYPES = ("bridge", "ferry", "ford", "none")


def _side_midpoint(b: Build, side: Side) -> Point:
    u, v = side_vertices(side)
    (x1, y1), (x2, y2) = b.grid.vertex_xy(u), b.grid.vertex_xy(v)
    return ((x1 + x2) / 2, (y1 + y2) / 2)


def unbridged_cities(facts: Facts) -> set[tuple[str, str]]:
    """(city, river) pairs where the period had a ferry, a ford or nothing, not a bridge."""
    out = set()
    for entry in facts.city_crossings:
        if entry["type"] not in CROSSING_TYPES:
            raise SystemExit(f"crossing at {entry['city']}: unknown type {entry['type']!r}")
        if entry["type"] != "bridge":
            out.add((entry["city"], entry["river"]))
    return out


def build_bridges(b: Build, facts: Facts) -> None:
    majors = sorted({r["name"] for r in b.rivers if r["class"] == "major"})
    no_bridge = unbridged_cities(facts)
    for city in b.cities:
        h = city["_hex"]
        for river in majors:
            if (city["name"], river) in no_bridge:
                continue
            sides = sides_of_river(b, h, river)
            if sides:
                best = min(sides, key=lambda s: (math.dist(_side_midpoint(b, s), city["_xy"]), s))
                b.bridges.add(best)
    for bridge in facts.bridges:
        kind = bridge.get("type", "bridge")
        if kind not in CROSSING_TYPES:
            raise SystemExit(f"crossing at {bridge['at']}: unknown type {kind!r}")
        if kind != "bridge":
            continue
        p = b.xy(*facts.locate(bridge["at"]))
        h = b.grid.hex_at(*p)
        candidates = []
        for n in [h, *(neighbour(h, d) for d in DIRECTIONS)]:
            candidates.extend(sides_of_river(b, n, bridge["river"]))
        if not candidates:
            b.notes.append(f"bridge at {bridge['at']}: the {bridge['river']} is not near")
            continue
        b.bridges.add(min(candidates, key=lambda s: (math.dist(_side_midpoint(b, s), p), s)))


# --- roads ---------------------------------------------------------------------------------------

_TERRAIN_COST = {"c": 2.0, "m": 3.0, "r": 4.0}
REUSE = 4.0  # extra cost of laying a road over a hex it already passed (two clear hexes)


def _road_path(
    b: Build, start: Hex, goal: Hex, avoid: frozenset[Hex] = frozenset()
) -> list[Hex] | None:
    """Cheapest line of hexes for a road: terrain costs, minor rivers +2, major rivers only at a
    bridge, water impassable (the Terrain Effects Chart, used here to lay the road). Entering a
    hex of ``avoid`` (the road laid so far) costs REUSE more, so a road goes on rather than back
    over itself unless going on is a long way round."""
    goal_xy = b.grid.hex_centre(goal)
    frontier = [(0.0, 0, start)]
    came: dict[Hex, Hex | None] = {start: None}
    cost = {start: 0.0}
    counter = 0
    while frontier:
        _, _, h = heapq.heappop(frontier)
        if h == goal:
            path = [h]
            while came[path[-1]] is not None:
                path.append(came[path[-1]])
            return path[::-1]
        for d in DIRECTIONS:
            n = neighbour(h, d)
            if not b.grid.contains(n) or not b.land(n):
                continue
            step = _TERRAIN_COST[b.terrain[n]] + (REUSE if n in avoid else 0.0)
            side = side_key(h, d)
            river = b.river_sides.get(side)
            if river and side not in b.bridges:
                if river[1] == "major":
                    continue
                step += 2.0
            c = cost[h] + step
            if n not in cost or c < cost[n] - 1e-9:
                cost[n] = c
                came[n] = h
                counter += 1
                est = math.dist(b.grid.hex_centre(n), goal_xy) / HEX_KM * 2.0
                heapq.heappush(frontier, (c + est, counter, n))
    return None


def _land_hex_near(b: Build, p: Point) -> Hex:
    h = b.grid.hex_at(*p)
    if b.grid.contains(h) and b.land(h):
        return h
    options = [neighbour(h, d) for d in DIRECTIONS]
    options = [n for n in options if b.grid.contains(n) and b.land(n)]
    return min(options, key=lambda n: (math.dist(b.grid.hex_centre(n), p), n))


def build_roads(b: Build, facts: Facts) -> None:
    """Each road follows its towns in order, from one town to the next on the cheapest line of
    hexes (going back over the road laid so far costs extra, see _road_path). Nothing is cut out
    afterwards, so every town of the list is on the road; where a road has to go back over itself
    (a town off the line, a bridge behind), it is laid over itself, with a note."""
    for road in facts.roads:
        hexes: list[Hex] = []
        for ref in road["via"]:
            h = city_hex(b, ref) if isinstance(ref, str) else None
            if h is None:
                h = _land_hex_near(b, b.xy(*facts.locate(ref)))
            if not b.grid.contains(h):
                continue
            if not hexes:
                hexes.append(h)
                continue
            if h == hexes[-1]:
                continue
            laid = frozenset(hexes[:-1]) - {h}
            path = _road_path(b, hexes[-1], h, laid)
            if path is not None and laid.intersection(path):
                b.notes.append(f"road {road['name']}: doubles back to reach {ref}")
            if path is None:
                b.notes.append(f"road {road['name']}: no way from {hex_id(hexes[-1])} to {ref}")
                continue
            hexes.extend(path[1:])
        if len(hexes) >= 2:
            b.roads.append({"name": road["name"], "hexes": hexes})
    # where a road crosses a river beside a city, the city's bridge carries it (minor rivers too),
    # unless the crossings say the period had only a ferry, a ford or nothing there
    no_bridge = unbridged_cities(facts)
    by_hex = {c["_hex"]: c["name"] for c in b.cities}
    for road in b.roads:
        for a, c in zip(road["hexes"], road["hexes"][1:], strict=False):
            d = next(d for d in DIRECTIONS if neighbour(a, d) == c)
            side = side_key(a, d)
            river = b.river_sides.get(side)
            if river is None:
                continue
            towns = [by_hex[x] for x in (a, c) if x in by_hex]
            if towns and not all((t, river[0]) in no_bridge for t in towns):
                b.bridges.add(side)
