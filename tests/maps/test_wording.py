"""A line of march in words (maps.core.wording): how far, which way, to where by the name the map
prints there, and the towns on the way, never the direction codes a player would have to decode
(a newcomer on a phone read "1-6-1" in his list of orders and could not tell where it went)."""

import doctest

import pytest

from maps.core import wording
from maps.core.compact import compact_map
from maps.core.hexgrid import Hex, neighbour, parse_hex_id
from maps.core.wording import bearing, hex_in_words, march_in_words

pytestmark = pytest.mark.pure

# Clear ground, 10 x 8; Pirna and Dresden on row 3, Glatz alone in the South-East corner.
MAP = compact_map(
    {
        "terrain": ["c" * 10] * 8,
        "cities": [
            {"name": "Pirna", "hex": "0403", "size": "circle"},
            {"name": "Dresden", "hex": "0603", "size": "star"},
            {"name": "Meissen", "hex": "0803", "size": "circle"},
            {"name": "Glatz", "hex": "1008", "size": "square", "fortress": True},
        ],
    },
    name="test-wording",
)


def test_the_doctests():
    assert doctest.testmod(wording).failed == 0


@pytest.mark.parametrize(
    ("start", "path", "words"),
    [
        ("0303", "4-4-4", "3 hexes E to Dresden (hex 0603), via Pirna"),
        ("0303", "4 4 4 4 4", "5 hexes E to Meissen (hex 0803), via Pirna and Dresden"),
        ("0603", "1", "1 hex W to hex 0503 (1 hex W of Dresden)"),
        ("0603", "4-1", "2 hexes, back to Dresden (hex 0603)"),
        ("0106", "5", "1 hex SE to hex 0207"),  # no town within 3 hexes
        ("0603", "", "stands"),
        ("0603", "4-9", "4-9"),  # a code out of 1-6: said as written
        ("not a hex", "4", "4"),
    ],
)
def test_a_march_is_said_in_words(start, path, words):
    assert march_in_words(MAP, start, path) == words


STEPS = [(1, "W"), (2, "NW"), (3, "NE"), (4, "E"), (5, "SE"), (6, "SW")]


@pytest.mark.parametrize(("code", "way"), STEPS)
def test_one_step_reads_as_its_direction_code_of_rule_6(code, way):
    here = parse_hex_id("0505")
    assert bearing(here, neighbour(here, code)) == way


def test_a_hex_is_named_by_its_town_or_the_nearest_one():
    assert hex_in_words(MAP, parse_hex_id("0603")) == "Dresden (hex 0603)"
    # two towns as near: the larger (Dresden, a star city, over Meissen, a circle)
    assert hex_in_words(MAP, parse_hex_id("0703")) == "hex 0703 (1 hex E of Dresden)"
    assert hex_in_words(MAP, Hex(0, 0)) == "hex 0101"
    assert hex_in_words(None, parse_hex_id("0603")) == "hex 0603"  # no map: the id alone


def test_a_long_line_names_three_towns_and_counts_the_rest():
    wide = compact_map(
        {
            "terrain": ["c" * 12],
            "cities": [{"name": f"Town{i}", "hex": f"{i:02d}01"} for i in range(2, 12)],
        },
        name="test-wording-wide",
    )
    said = march_in_words(wide, "0101", "4-4-4-4-4-4")
    assert said == "6 hexes E to Town7 (hex 0701), via Town2, Town3, Town4 and 2 more towns"
