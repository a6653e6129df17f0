"""Battles on a coast or a lake shore, by properties over every such hex of the bundled map of
1756 a battle may be fought in (``tabletop.shore``): the water beyond the hexside is on the
table, outside the deployment zones, and nothing but rivers and their crossings lies in it."""

from __future__ import annotations

import pytest

from maps.core.hexgrid import hex_id
from maps.core.loader import load_map
from maps.core.model import Terrain
from tabletop import geometry
from tabletop.layout import (
    TABLE_TERRAINS,
    FeatureKind,
    RiverSide,
    TableCity,
    TableRequest,
    TableSide,
    generate,
)
from tabletop.render import render_png
from tabletop.shore import WaterSide, road_sides, runs, water_sides

pytestmark = pytest.mark.pure

WET_ALLOWED = {FeatureKind.WATER, FeatureKind.RIVER, FeatureKind.BRIDGE, FeatureKind.FORD}


def coastal_battles() -> list[TableRequest]:
    """Every battle hex with sea or a lake beyond a hexside, with its rivers, city and roads,
    the two sides coming from the land hexsides furthest apart."""
    hexmap = load_map()
    out = []
    for h in sorted(hexmap.hexes, key=hex_id):
        terrain = hexmap.terrain(h)
        waters = water_sides(hexmap, h)
        if terrain not in TABLE_TERRAINS or not waters:
            continue
        land = [d for d in range(1, 7) if d not in {w.direction for w in waters}]
        a = land[0]
        b = max(land, key=lambda d: min((d - a) % 6, (a - d) % 6))
        city = hexmap.city_at(h)
        out.append(
            TableRequest(
                terrain=terrain,
                sides=(TableSide("prussian", (a,), 12), TableSide("austrian", (b,))),
                rivers=tuple(RiverSide(d, r) for d, r, _ in hexmap.rivers_of(h)),
                city=TableCity(city.name, city.size, city.fortress) if city else None,
                seed=hex_id(h),
                roads=road_sides(hexmap, h),
                waters=waters,
            )
        )
    return out


BATTLES = coastal_battles()
LAYOUTS = [generate(b) for b in BATTLES]


def test_every_coast_of_the_map_is_drawn_from():
    assert len(BATTLES) >= 200
    # No marsh hex of this map touches the sea or a lake; clear and rough ones do.
    assert {b.terrain for b in BATTLES} == {Terrain.CLEAR, Terrain.ROUGH}
    assert any(w.lake for b in BATTLES for w in b.waters)
    assert any(b.city and b.city.fortress for b in BATTLES)
    assert any(b.rivers for b in BATTLES) and any(b.roads for b in BATTLES)


def test_the_water_is_on_the_table_or_a_note_says_why():
    drawn = 0
    for request, layout in zip(BATTLES, LAYOUTS, strict=True):
        waters = layout.of_kind(FeatureKind.WATER)
        drawn += bool(waters)
        left_off = [n for n in layout.notes if "behind a deployment zone" in n]
        assert len(waters) + len(left_off) == len(runs(request.waters)), request.seed
    assert drawn >= len(BATTLES) // 2, drawn


def test_no_deployment_zone_is_under_water():
    for layout in LAYOUTS:
        zones = [
            (0, 0, 12, layout.depth) if d.edge.value == "west" else
            (layout.width - 12, 0, layout.width, layout.depth) if d.edge.value == "east" else
            (0, 0, layout.width, 12) if d.edge.value == "north" else
            (0, layout.depth - 12, layout.width, layout.depth)
            for d in layout.deployments
        ]  # fmt: skip
        for water in layout.of_kind(FeatureKind.WATER):
            for x, y in water.points:
                assert not any(
                    x0 + 1e-6 < x < x1 - 1e-6 and y0 + 1e-6 < y < y1 - 1e-6
                    for x0, y0, x1, y1 in zones
                ), (layout.seed, water.label)


def test_nothing_but_rivers_and_their_crossings_lies_in_the_water():
    for layout in LAYOUTS:
        waters = layout.of_kind(FeatureKind.WATER)
        for f in layout.features:
            if f.kind in WET_ALLOWED:
                continue
            for water in waters:
                wet = [p for p in (*f.points, (f.x, f.y)) if geometry.inside(p, water.points)]
                assert not wet, (layout.seed, f.label, water.label, wet[:3])


def test_the_same_coast_gives_the_same_table_and_a_picture():
    request = next(b for b in BATTLES if b.city and b.waters)
    assert generate(request) == generate(request)
    assert render_png(generate(request), title="A coast")[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_hexside_has_one_water_beyond_it():
    with pytest.raises(ValueError, match="one water"):
        TableRequest(
            terrain=BATTLES[0].terrain,
            sides=BATTLES[0].sides,
            waters=(WaterSide(1), WaterSide(1, lake=True)),
        )


def test_water_beyond_neighbouring_hexsides_is_one_shore():
    sides = [WaterSide(d) for d in (1, 3, 6)] + [WaterSide(4, lake=True)]
    assert [[w.direction for w in run] for run in runs(sides)] == [[6, 1], [3, 4]]
    assert [[w.direction for w in run] for run in runs([WaterSide(2)])] == [[2]]
