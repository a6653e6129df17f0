"""The table generator, by properties over battles drawn from the real map (issue 14).

Also, over the first 600 hexes a road crosses (with their rivers and cities) and every fortress:
roads run from their edges through the town and cross rivers on bridges, town outlines and
fortress walls keep off the water, the long side of the table runs along the front.

Every river hex of the bundled map of 1756 whose terrain a battle may be fought in (9.3), up to
600 of them chosen in map order, each with the sides coming from two directions that vary with
the hex: rivers never turn back on themselves, and the same battle code gives the same table.
"""

from __future__ import annotations

import math

import pytest

from maps.core.hexgrid import hex_id
from maps.core.loader import load_map
from tabletop.layout import (
    TABLE_TERRAINS,
    Edge,
    FeatureKind,
    RiverSide,
    TableCity,
    TableRequest,
    TableSide,
    generate,
)
from tabletop.render import render_png

LIMIT = 600


def river_battles() -> list[TableRequest]:
    hexmap = load_map()
    out = []
    for i, h in enumerate(sorted(hexmap.hexes, key=hex_id)):
        rivers = hexmap.rivers_of(h)
        terrain = hexmap.terrain(h)
        if not rivers or terrain not in TABLE_TERRAINS:
            continue
        a = 1 + i % 6
        b = 1 + (a + 2) % 6  # the other side comes from across the hex, give or take
        out.append(
            TableRequest(
                terrain=terrain,
                sides=(TableSide("prussian", (a,)), TableSide("austrian", (b,))),
                rivers=tuple(RiverSide(d, river) for d, river, _name in rivers),
                seed=hex_id(h),
            )
        )
        if len(out) == LIMIT:
            break
    return out


BATTLES = river_battles()


def sharpest_turn(points) -> float:
    """The largest change of direction along a line, in degrees."""
    worst = 0.0
    for a, b, c in zip(points, points[1:], points[2:], strict=False):
        u = (b[0] - a[0], b[1] - a[1])
        v = (c[0] - b[0], c[1] - b[1])
        nu, nv = math.hypot(*u), math.hypot(*v)
        if nu < 1e-9 or nv < 1e-9:
            continue
        cos = max(-1.0, min(1.0, (u[0] * v[0] + u[1] * v[1]) / (nu * nv)))
        worst = max(worst, math.degrees(math.acos(cos)))
    return worst


def test_enough_river_battles_are_drawn_from_the_map():
    assert len(BATTLES) >= 500
    assert {b.terrain for b in BATTLES} == set(TABLE_TERRAINS)
    assert any(len(b.rivers) >= 2 for b in BATTLES)


def test_rivers_never_turn_back():
    bad = []
    for request in BATTLES:
        for f in generate(request).of_kind(FeatureKind.RIVER):
            turn = sharpest_turn(f.points)
            if turn > 100:
                bad.append(f"{request.seed} {f.label}: turns {turn:.0f}°")
    assert not bad, f"{len(bad)} rivers turn back, e.g. {bad[:5]}"


@pytest.mark.parametrize("request_", BATTLES[:: len(BATTLES) // 25])
def test_the_same_battle_code_gives_the_same_table(request_):
    assert generate(request_) == generate(request_)


def fortress_battles() -> list[TableRequest]:
    """A battle at every fortress of the map a battle may be fought at, in two directions."""
    hexmap = load_map()
    out = []
    for i, city in enumerate(sorted(hexmap.fortresses, key=lambda c: c.name)):
        terrain = hexmap.terrain(city.hex)
        if terrain not in TABLE_TERRAINS:
            continue
        for a in (1 + i % 6, 1 + (i + 1) % 6):
            b = 1 + (a + 2) % 6
            out.append(
                TableRequest(
                    terrain=terrain,
                    sides=(TableSide("prussian", (a,)), TableSide("austrian", (b,))),
                    rivers=tuple(RiverSide(d, r) for d, r, _ in hexmap.rivers_of(city.hex)),
                    city=TableCity(city.name, city.size, fortress=True),
                    seed=f"{hex_id(city.hex)}-{a}",
                )
            )
    return out


def in_zone(x: float, y: float, layout, d) -> bool:
    z = d.zone
    return {
        Edge.WEST: x < z,
        Edge.EAST: x > layout.width - z,
        Edge.NORTH: y < z,
        Edge.SOUTH: y > layout.depth - z,
    }[d.edge]


def test_fortresses_and_towns_stay_out_of_the_deployment_zones():
    battles = fortress_battles()
    assert len(battles) >= 100 and any(b.city.name == "Prague" for b in battles)
    bad = []
    for request in battles:
        layout = generate(request)
        city = [
            f
            for f in layout.of_kind(FeatureKind.FORTRESS) + layout.of_kind(FeatureKind.TOWN)
            if f.label.startswith(request.city.name)
        ]
        assert city or layout.notes, request.seed
        for f in city:
            for d in layout.deployments:
                if any(in_zone(x, y, layout, d) for x, y in f.points):
                    bad.append(f"{request.seed} {f.label} in the {d.edge.value} zone")
                    break
    assert not bad, f"{len(bad)} in a deployment zone, e.g. {bad[:5]}"


def works_battles() -> list[TableRequest]:
    """River battles where both sides have field works (9.4): 24" and 36"."""
    return [
        TableRequest(
            terrain=b.terrain,
            sides=(
                TableSide("prussian", b.sides[0].came_from, field_works=24),
                TableSide("austrian", b.sides[1].came_from, field_works=36),
            ),
            rivers=b.rivers,
            seed=b.seed,
        )
        for b in BATTLES
    ]


def inside(p, outline) -> bool:
    x, y = p
    hit = False
    for (x0, y0), (x1, y1) in zip(outline, [*outline[1:], outline[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def distance_to(p, path) -> float:
    best = math.inf
    for a, b in zip(path, path[1:], strict=False):
        dx, dy = b[0] - a[0], b[1] - a[1]
        if dx == dy == 0:
            best = min(best, math.dist(p, a))
            continue
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.dist(p, (a[0] + t * dx, a[1] + t * dy)))
    return best


def test_field_works_stand_off_rivers_and_out_of_woods():
    bad = []
    laid = 0
    for request in works_battles():
        layout = generate(request)
        rivers = layout.of_kind(FeatureKind.RIVER)
        woods = layout.of_kind(FeatureKind.WOOD)
        for works in layout.of_kind(FeatureKind.FIELD_WORKS):
            laid += 1
            (ax, ay), (bx, by) = works.points[0], works.points[-1]
            samples = [(ax + (bx - ax) * i / 12, ay + (by - ay) * i / 12) for i in range(13)]
            if any(distance_to(q, r.points) < r.line_width / 2 for r in rivers for q in samples):
                bad.append(f"{request.seed}: works across a river")
            if any(inside(q, w.points) for w in woods for q in samples):
                bad.append(f"{request.seed}: works in a wood")
    assert laid > 1000
    assert not bad, f"{len(bad)} works on water or in woods, e.g. {bad[:5]}"


# ---- roads, towns off the water, the long side along the front (issue 14) --------------------


def road_battles() -> list[TableRequest]:
    """Every hex of the map a battle may be fought in that a road crosses (up to 600), with its
    rivers and its city (walled if a fortress): the roads of the campaign map on the table."""
    hexmap = load_map()
    out = []
    for i, h in enumerate(sorted(hexmap.hexes, key=hex_id)):
        roads = tuple(d for d in range(1, 7) if hexmap.road(h, d))
        terrain = hexmap.terrain(h)
        if not roads or terrain not in TABLE_TERRAINS:
            continue
        city = hexmap.city_at(h)
        a = 1 + i % 6
        b = 1 + (a + 2) % 6
        out.append(
            TableRequest(
                terrain=terrain,
                sides=(TableSide("prussian", (a,)), TableSide("austrian", (b,))),
                rivers=tuple(RiverSide(d, r) for d, r, _ in hexmap.rivers_of(h)),
                city=TableCity(city.name, city.size, city.fortress) if city else None,
                seed=f"road-{hex_id(h)}",
                roads=roads,
            )
        )
        if len(out) == LIMIT:
            break
    return out


ROAD_BATTLES = road_battles()


def test_enough_road_battles_are_drawn_from_the_map():
    assert len(ROAD_BATTLES) >= 500
    assert sum(b.city is not None for b in ROAD_BATTLES) >= 100
    assert sum(bool(b.rivers) for b in ROAD_BATTLES) >= 200
    assert {b.terrain for b in ROAD_BATTLES} == set(TABLE_TERRAINS)


def on_border(p, layout) -> bool:
    x, y = p
    return min(abs(x), abs(y), abs(layout.width - x), abs(layout.depth - y)) < 0.05


def crossing_points(a_path, b_path):
    """Where two polylines cross (segment by segment)."""
    out = []
    for a, b in zip(a_path, a_path[1:], strict=False):
        for c, d in zip(b_path, b_path[1:], strict=False):
            r = (b[0] - a[0], b[1] - a[1])
            s = (d[0] - c[0], d[1] - c[1])
            den = r[0] * s[1] - r[1] * s[0]
            if abs(den) < 1e-12:
                continue
            t = ((c[0] - a[0]) * s[1] - (c[1] - a[1]) * s[0]) / den
            u = ((c[0] - a[0]) * r[1] - (c[1] - a[1]) * r[0]) / den
            if 0 <= t <= 1 and 0 <= u <= 1:
                out.append((a[0] + t * r[0], a[1] + t * r[1]))
    return out


def test_roads_run_from_their_edges_through_the_town_and_cross_rivers_on_bridges():
    bad = []
    crossings = 0
    for request in ROAD_BATTLES:
        layout = generate(request)
        roads = layout.of_kind(FeatureKind.ROAD)
        if len(roads) != len(set(request.roads)):
            bad.append(f"{request.seed}: {len(roads)} roads for hexsides {request.roads}")
            continue
        # Each road leaves the table at an edge and all meet at one place: the town.
        hubs = {road.points[-1] for road in roads}
        if len(hubs) != 1 or not all(on_border(road.points[0], layout) for road in roads):
            bad.append(f"{request.seed}: roads do not run from the edges to one town")
            continue
        hub = hubs.pop()
        towns = layout.of_kind(FeatureKind.TOWN) + layout.of_kind(FeatureKind.FORTRESS)
        if request.city is not None:
            towns = tuple(t for t in towns if t.label.startswith(request.city.name))
        if towns and not any(inside(hub, t.points) for t in towns):
            bad.append(f"{request.seed}: the roads meet outside the town")
        # Every crossing of a road and a river has a bridge there.
        bridges = [
            ((f.points[0][0] + f.points[-1][0]) / 2, (f.points[0][1] + f.points[-1][1]) / 2)
            for f in layout.of_kind(FeatureKind.BRIDGE)
        ]
        for road in roads:
            for river in layout.of_kind(FeatureKind.RIVER):
                for p in crossing_points(road.points, river.points):
                    crossings += 1
                    if not any(math.dist(p, b) <= 2.5 for b in bridges):
                        bad.append(f"{request.seed}: {road.label} fords the river at {p}")
    assert crossings > 200
    assert not bad, f"{len(bad)} bad roads, e.g. {bad[:5]}"


def city_battles() -> list[TableRequest]:
    """The fortress battles and every road battle with a city."""
    return fortress_battles() + [b for b in ROAD_BATTLES if b.city is not None]


def test_town_and_fortress_outlines_keep_off_the_water():
    bad = []
    checked = 0
    for request in city_battles():
        layout = generate(request)
        rivers = layout.of_kind(FeatureKind.RIVER)
        for f in layout.of_kind(FeatureKind.TOWN) + layout.of_kind(FeatureKind.FORTRESS):
            checked += 1
            ring = [*f.points, f.points[0]]
            samples = [
                (a[0] + (b[0] - a[0]) * i / 8, a[1] + (b[1] - a[1]) * i / 8)
                for a, b in zip(ring, ring[1:], strict=False)
                for i in range(8)
            ]
            for r in rivers:
                if any(distance_to(q, r.points) < r.line_width / 2 for q in samples) or any(
                    inside(p, f.points) for p in r.points
                ):
                    bad.append(f"{request.seed} {f.label} over the {r.label}")
                    break
    assert checked > 500
    assert not bad, f"{len(bad)} outlines over water, e.g. {bad[:5]}"


def test_the_long_side_of_the_table_runs_along_the_front():
    """The sides deploy on the long edges, whatever the table size (6 x 4, 8 x 5...)."""
    bad = []
    for request in BATTLES + ROAD_BATTLES:
        for feet in ((6, 4), (8, 5)):
            layout = generate(
                TableRequest(request.terrain, request.sides, request.rivers, request.city,
                             feet, request.seed, request.roads)
            )  # fmt: skip
            long = max(layout.width, layout.depth)
            assert {layout.width, layout.depth} == {feet[0] * 12, feet[1] * 12}
            for d in layout.deployments:
                along = layout.width if d.edge in (Edge.NORTH, Edge.SOUTH) else layout.depth
                if along != long:
                    bad.append(f"{request.seed} {feet}: {d.side} on a short edge")
    assert not bad, f"{len(bad)} tables across the front, e.g. {bad[:5]}"


@pytest.mark.parametrize("request_", ROAD_BATTLES[:: len(ROAD_BATTLES) // 25])
def test_the_same_battle_code_gives_the_same_table_with_roads_and_towns(request_):
    first = generate(request_)
    assert first == generate(request_)
    assert render_png(first) == render_png(generate(request_))
