"""The table generator, by properties over battles drawn from the real map (issue 14).

Every river hex of the bundled map of 1756 whose terrain a battle may be fought in (9.3), up to
600 of them chosen in map order, each with the sides coming from two directions that vary with
the hex: rivers never turn back on themselves, and the same battle code gives the same table.
"""

from __future__ import annotations

import math

import pytest

from campaign.tabletop.layout import (
    TABLE_TERRAINS,
    Edge,
    FeatureKind,
    RiverSide,
    TableCity,
    TableRequest,
    TableSide,
    generate,
)
from maps.core.hexgrid import hex_id
from maps.core.loader import load_map

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
