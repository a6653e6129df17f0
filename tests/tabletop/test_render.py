"""The battle table as a picture."""

import io

import pytest
from PIL import Image

from maps.core.model import CitySize, River, Terrain
from tabletop.layout import (
    FeatureKind,
    RiverSide,
    TableCity,
    TableRequest,
    TableSide,
    generate,
)
from tabletop.render import (
    MARGIN_BOTTOM,
    MARGIN_LEFT,
    MARGIN_RIGHT,
    MARGIN_TOP,
    image_size,
    render_png,
)

pytestmark = pytest.mark.pure


@pytest.fixture(scope="module")
def layout():
    return generate(
        TableRequest(
            terrain=Terrain.CLEAR,
            sides=(TableSide("Prussians", (2,), field_works=24), TableSide("Austrians", (5,))),
            rivers=(RiverSide(4, River.MINOR, bridge=True),),
            city=TableCity("Glatz", CitySize.CIRCLED_DOT, fortress=True),
            seed="render",
        )
    )


@pytest.fixture(scope="module")
def picture(layout):
    return Image.open(io.BytesIO(render_png(layout, pixels_per_inch=10))).convert("L")


def at(layout_point, ppi=10):
    x, y = layout_point
    return (round(MARGIN_LEFT + x * ppi), round(MARGIN_TOP + y * ppi))


def test_it_is_a_png_of_the_table_at_its_scale(layout, picture):
    assert picture.size == image_size(layout, 10)
    # the table at 10 px an inch and the margins (its legend fits the bottom margin's rows)
    margins = (MARGIN_LEFT + MARGIN_RIGHT, MARGIN_TOP + MARGIN_BOTTOM)
    assert picture.size == (72 * 10 + margins[0], 48 * 10 + margins[1])


def test_a_bigger_scale_gives_a_bigger_picture(layout):
    small = Image.open(io.BytesIO(render_png(layout, pixels_per_inch=5)))
    big = Image.open(io.BytesIO(render_png(layout, pixels_per_inch=12)))
    assert big.size[0] - small.size[0] == round(72 * 12) - round(72 * 5)


def test_buildings_are_drawn_dark(layout, picture):
    buildings = layout.of_kind(FeatureKind.BUILDING)
    assert buildings
    for b in buildings:
        assert picture.getpixel(at((b.x, b.y))) < 100


@pytest.mark.parametrize("kind", [FeatureKind.WOOD, FeatureKind.HILL])
def test_woods_and_hills_are_not_blank(layout, picture, kind):
    for f in layout.of_kind(kind):
        x, y = at((f.x, f.y))
        patch = picture.crop((x - 15, y - 15, x + 15, y + 15))
        # Patterned and outlined: many pixels well away from white.
        dark = sum(patch.histogram()[:200])
        assert dark > 40, f.label


def test_the_river_is_drawn_with_black_banks(layout, picture):
    (river,) = layout.of_kind(FeatureKind.RIVER)
    x, y = at(river.points[len(river.points) // 2])
    row = [picture.getpixel((x + dx, y)) for dx in range(-30, 31)]
    assert min(row) < 60


def test_an_empty_part_of_the_table_is_light(layout, picture):
    # The margin right of the table, below the feet labels: nothing there but paper.
    x, y = at((layout.width, layout.depth / 2))
    assert picture.getpixel((x + 60, y + 40)) > 240


def test_a_legend_that_needs_more_rows_makes_the_picture_taller():
    """A busy coastal table on a narrow (4 x 6, portrait) picture: its legend takes more rows
    than the bottom margin holds, the picture grows by those rows and the legend sits below the
    scale bar, not over it."""
    from tests.tabletop.test_shore import LAYOUTS

    busiest = max(LAYOUTS, key=lambda lay: len({f.kind for f in lay.features}))
    width, height = image_size(busiest, 10)
    plain = round(busiest.depth * 10) + MARGIN_TOP + MARGIN_BOTTOM
    assert height > plain and (height - plain) % 24 == 0, (height, plain)
    picture = Image.open(io.BytesIO(render_png(busiest))).convert("L")
    assert picture.size == (width, height)
    # the last legend row (the deployment zones) is drawn inside the picture
    bottom = picture.crop((MARGIN_LEFT, height - 30, width, height))
    assert bottom.getextrema()[0] < 100
