"""The generated battle table (9.3, 9.4, 2.3.2)."""

import math
from statistics import mean

import pytest

from maps.core.model import CitySize, River, Terrain
from tabletop.layout import (
    Edge,
    FeatureKind,
    RiverSide,
    TableCity,
    TableRequest,
    TableSide,
    generate,
)

pytestmark = pytest.mark.pure

NORTH_SOUTH = (TableSide("Prussians", (2, 3)), TableSide("Austrians", (5,)))
WEST_EAST = (TableSide("Prussians", (1,)), TableSide("Austrians", (4,)))


def table(terrain=Terrain.CLEAR, sides=NORTH_SOUTH, seed="s", **kwargs):
    return generate(TableRequest(terrain=terrain, sides=sides, seed=seed, **kwargs))


def test_the_same_seed_gives_the_same_table():
    request = TableRequest(
        terrain=Terrain.ROUGH,
        sides=NORTH_SOUTH,
        rivers=(RiverSide(4, River.MINOR),),
        city=TableCity("Dresden", CitySize.STAR, fortress=True),
        seed="campaign-1:battle-4",
    )
    assert generate(request) == generate(request)


def test_another_seed_gives_another_table():
    assert table(seed="a").features != table(seed="b").features


@pytest.mark.parametrize("seed", [f"seed-{i}" for i in range(25)])
def test_rough_has_more_woods_and_hills_than_clear(seed):
    def woods_and_hills(layout):
        return layout.count(FeatureKind.WOOD) + layout.count(FeatureKind.HILL)

    rough, clear = table(Terrain.ROUGH, seed=seed), table(Terrain.CLEAR, seed=seed)
    assert woods_and_hills(rough) > woods_and_hills(clear)
    assert rough.count(FeatureKind.TOWN) <= 1  # few towns (9.3)


@pytest.mark.parametrize("seed", [f"seed-{i}" for i in range(10)])
def test_marsh_has_marsh_patches_and_few_hills(seed):
    marsh = table(Terrain.MARSH, seed=seed)
    assert marsh.count(FeatureKind.MARSH) >= 3
    assert marsh.count(FeatureKind.HILL) <= 1
    assert table(Terrain.CLEAR, seed=seed).count(FeatureKind.MARSH) == 0


def test_no_river_in_the_hex_means_no_river_on_the_table():
    layout = table()
    assert layout.count(FeatureKind.RIVER) == 0
    assert layout.count(FeatureKind.BRIDGE) == layout.count(FeatureKind.FORD) == 0


@pytest.mark.parametrize(
    ("direction", "where"),
    [(1, "west"), (4, "east"), (2, "north-west"), (3, "north-east"), (5, "south-east")],
)
def test_a_river_runs_along_the_part_of_the_table_facing_its_hexside(direction, where):
    layout = table(rivers=(RiverSide(direction, River.MINOR),))
    rivers = layout.of_kind(FeatureKind.RIVER)
    assert rivers, "the hex has a river, so the table has one"
    points = [p for r in rivers for p in r.points]
    x, y = mean(p[0] for p in points), mean(p[1] for p in points)
    cx, cy = layout.width / 2, layout.depth / 2
    if "west" in where:
        assert x < cx
    if "east" in where:
        assert x > cx
    if "north" in where:
        assert y < cy
    if "south" in where:
        assert y > cy


def test_a_river_crosses_the_table_from_edge_to_edge():
    layout = table(rivers=(RiverSide(1, River.MINOR),))
    (river,) = layout.of_kind(FeatureKind.RIVER)
    y0, y1 = river.points[0][1], river.points[-1][1]
    assert min(y0, y1) == pytest.approx(0, abs=0.01)
    assert max(y0, y1) == pytest.approx(layout.depth, abs=0.01)


def test_neighbouring_river_hexsides_make_one_river():
    layout = table(rivers=(RiverSide(3, River.MINOR), RiverSide(4, River.MINOR)))
    labels = {r.label for r in layout.of_kind(FeatureKind.RIVER)}
    assert labels == {"Minor river (NE-E hexsides)"}


def test_a_major_river_has_bridges_and_no_fords():
    layout = table(rivers=(RiverSide(1, River.MAJOR, bridge=True),))
    assert layout.count(FeatureKind.BRIDGE) == 2
    assert layout.count(FeatureKind.FORD) == 0


def test_a_minor_river_has_fords():
    layout = table(rivers=(RiverSide(1, River.MINOR),))
    assert layout.count(FeatureKind.FORD) == 2


def test_crossings_lie_on_their_river():
    layout = table(rivers=(RiverSide(4, River.MINOR, bridge=True),))
    (river,) = layout.of_kind(FeatureKind.RIVER)
    for crossing in layout.of_kind(FeatureKind.BRIDGE) + layout.of_kind(FeatureKind.FORD):
        nearest = min(math.dist((crossing.x, crossing.y), p) for p in river.points)
        assert nearest < 4


@pytest.mark.parametrize("size", list(CitySize))
def test_the_city_has_the_city_charts_buildings(size):
    layout = table(city=TableCity("Somewhere", size, fortress=False), seed="city")
    towns = layout.of_kind(FeatureKind.TOWN)
    city = [t for t in towns if t.label.startswith("Somewhere")]
    assert len(city) == 1
    x0, x1 = city[0].x - city[0].width / 2, city[0].x + city[0].width / 2
    y0, y1 = city[0].y - city[0].depth / 2, city[0].y + city[0].depth / 2
    inside = [
        b for b in layout.of_kind(FeatureKind.BUILDING) if x0 <= b.x <= x1 and y0 <= b.y <= y1
    ]
    assert len(inside) == size.buildings
    assert f"{size.buildings} buildings" in city[0].label


def test_a_fortress_city_is_walled_with_its_bastions():
    layout = table(city=TableCity("Glatz", CitySize.CIRCLED_DOT, fortress=True))
    (walls,) = layout.of_kind(FeatureKind.FORTRESS)
    assert len(walls.points) == 2 * CitySize.CIRCLED_DOT.bastions
    assert "6 bastions" in walls.label


def test_an_open_city_has_no_walls():
    layout = table(city=TableCity("Leipzig", CitySize.STAR, fortress=False))
    assert layout.count(FeatureKind.FORTRESS) == 0


def test_the_city_keeps_out_of_the_river():
    layout = table(
        rivers=(RiverSide(1, River.MAJOR),),
        city=TableCity("Dresden", CitySize.STAR, fortress=True),
        seed="dresden",
    )
    (river,) = layout.of_kind(FeatureKind.RIVER)
    for b in layout.of_kind(FeatureKind.BUILDING):
        assert min(math.dist((b.x, b.y), p) for p in river.points) > river.line_width / 2


@pytest.mark.parametrize("inches", [12, 24, 36, 100])
def test_field_works_are_the_inches_earned(inches):
    sides = (TableSide("Prussians", (2,), field_works=inches), TableSide("Austrians", (5,)))
    layout = table(sides=sides)
    works = layout.of_kind(FeatureKind.FIELD_WORKS)
    assert sum(w.length for w in works) == pytest.approx(inches, abs=0.05)
    assert all(w.length <= 12.01 for w in works)
    # In front of the Prussians' own (north) deployment zone.
    assert all(w.y < layout.depth / 2 for w in works)


def test_no_field_works_without_inches():
    assert table().count(FeatureKind.FIELD_WORKS) == 0


def test_sides_from_north_and_south_face_each_other_across_the_long_edges():
    layout = table(sides=NORTH_SOUTH)
    assert (layout.width, layout.depth) == (72, 48)
    assert layout.deployment_of("Prussians").edge is Edge.NORTH
    assert layout.deployment_of("Austrians").edge is Edge.SOUTH


def test_sides_from_west_and_east_get_a_table_turned_north_south():
    layout = table(sides=WEST_EAST)
    assert (layout.width, layout.depth) == (48, 72)
    assert layout.deployment_of("Prussians").edge is Edge.WEST
    assert layout.deployment_of("Austrians").edge is Edge.EAST


def test_a_side_that_held_the_hex_takes_the_edge_opposite_its_enemy():
    sides = (TableSide("Prussians", ()), TableSide("Austrians", (6,)))
    layout = table(sides=sides)
    assert layout.deployment_of("Austrians").edge is Edge.SOUTH
    assert layout.deployment_of("Prussians").edge is Edge.NORTH


def test_sides_from_the_same_direction_still_get_opposite_edges():
    sides = (TableSide("Prussians", (4,)), TableSide("Austrians", (4,)))
    layout = table(sides=sides)
    edges = {d.edge for d in layout.deployments}
    assert edges == {Edge.EAST, Edge.WEST}
    assert layout.deployment_of("Prussians").edge is Edge.EAST


def test_the_table_size_is_a_setting():
    layout = table(table_feet=(8, 5))
    assert (layout.width, layout.depth) == (96, 60)


def test_every_feature_is_on_the_table():
    layout = table(
        Terrain.ROUGH,
        rivers=(RiverSide(2, River.MINOR), RiverSide(5, River.MAJOR)),
        city=TableCity("Prague", CitySize.STAR, fortress=True),
    )
    for f in layout.features:
        for x, y in f.points:
            assert -0.01 <= x <= layout.width + 0.01, f
            assert -0.01 <= y <= layout.depth + 0.01, f


@pytest.mark.parametrize(
    "make",
    [
        lambda: TableRequest(terrain=Terrain.SEA, sides=NORTH_SOUTH),
        lambda: TableRequest(terrain=Terrain.CLEAR, sides=NORTH_SOUTH, table_feet=(4, 6)),
        lambda: TableSide("Prussians", came_from=(7,)),
        lambda: RiverSide(0, River.MINOR),
        lambda: TableSide("Prussians", field_works=-12),
        lambda: TableRequest(
            terrain=Terrain.CLEAR,
            sides=NORTH_SOUTH,
            rivers=(RiverSide(1, River.MINOR), RiverSide(1, River.MAJOR)),
        ),
    ],
)
def test_it_rejects_impossible_requests(make):
    with pytest.raises(ValueError):
        make()


def test_deployments_say_where_each_side_came_from():
    sides = (TableSide("Prussians", ()), TableSide("Austrians", (5, 6)))
    lines = [d.description for d in table(sides=sides).deployments]
    assert lines == [
        'Prussians: north edge, 12" deep (held the hex)',
        'Austrians: south edge, 12" deep (came from SE, SW)',
    ]
