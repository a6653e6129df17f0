"""Hex geometry: direction codes of rule 6, hex ids, distances, march orders."""

import pytest

from maps.core.hexgrid import (
    Hex,
    HexIdError,
    PathError,
    direction_to,
    distance,
    format_path,
    hex_id,
    neighbour,
    opposite,
    parse_hex_id,
    parse_path,
    parse_side,
    side_key,
    side_vertices,
    walk,
    within,
)

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("start", "d", "expected"),
    [
        # even row (row 02 counted from 1 is odd from 0): neighbours of 0502
        ("0503", 1, "0403"),  # W
        ("0503", 4, "0603"),  # E
        ("0503", 2, "0402"),  # NW from an even row (0-based row 2)
        ("0503", 3, "0502"),  # NE
        ("0503", 5, "0504"),  # SE
        ("0503", 6, "0404"),  # SW
        ("0504", 2, "0503"),  # NW from an odd row (0-based row 3), shoved right
        ("0504", 3, "0603"),  # NE
        ("0504", 5, "0605"),  # SE
        ("0504", 6, "0505"),  # SW
    ],
)
def test_neighbours_follow_the_rule_6_codes(start, d, expected):
    assert hex_id(neighbour(parse_hex_id(start), d)) == expected


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5, 6])
def test_opposite_direction_leads_back(d):
    h = parse_hex_id("1010")
    assert neighbour(neighbour(h, d), opposite(d)) == h
    assert direction_to(h, neighbour(h, d)) == d


@pytest.mark.parametrize("text", ["0101", "0503", "8864", "9999"])
def test_hex_ids_round_trip(text):
    assert hex_id(parse_hex_id(text)) == text


@pytest.mark.parametrize("text", ["", "101", "01010", "ab01", "0001", "0100", None])
def test_bad_hex_ids_are_refused_with_a_message(text):
    with pytest.raises(HexIdError, match="hex id"):
        parse_hex_id(text)


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ("0101", "0101", 0),
        ("0101", "0201", 1),
        ("0101", "0501", 4),
        ("0101", "0105", 4),
        ("0503", "0404", 1),
        ("0101", "0303", 3),
    ],
)
def test_distance(a, b, d):
    assert distance(parse_hex_id(a), parse_hex_id(b)) == d


def test_within_counts_the_rings():
    assert len(list(within(Hex(0, 0), 2))) == 19
    assert all(distance(Hex(0, 0), h) <= 2 for h in within(Hex(0, 0), 2))


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("1-2-2-1-6", (1, 2, 2, 1, 6)),
        (" 1 - 2 ", (1, 2)),
        ("4,4,5", (4, 4, 5)),
        ("", ()),
        ("12216", (1, 2, 2, 1, 6)),
        ("3", (3,)),
    ],
)
def test_march_orders_are_read(text, codes):
    assert parse_path(text) == codes


@pytest.mark.parametrize(
    ("text", "message"),
    [("1-7-2", "step 2 is '7'"), ("1-x", "step 2 is 'x'"), ("0", "step 1 is '0'"), ("1--", None)],
)
def test_bad_march_orders_name_the_step(text, message):
    if message is None:
        assert parse_path(text) == (1,)
        return
    with pytest.raises(PathError, match=message):
        parse_path(text)


def test_the_book_example_path_is_walked_hex_by_hex():
    start = parse_hex_id("1010")
    hexes = walk(start, parse_path("1-2-2-1-6"))
    assert len(hexes) == 5
    assert [distance(a, b) for a, b in zip([start, *hexes], hexes, strict=False)] == [1] * 5
    assert (
        format_path(direction_to(a, b) for a, b in zip([start, *hexes], hexes, strict=False))
        == "1-2-2-1-6"
    )


def test_a_hexside_has_one_name_from_either_side():
    h = parse_hex_id("0505")
    for d in range(1, 7):
        assert side_key(h, d) == side_key(neighbour(h, d), opposite(d))
        assert set(side_vertices(side_key(h, d))) == set(
            side_vertices(side_key(neighbour(h, d), opposite(d)))
        )
    assert parse_side("0201/4") == parse_side("0301/1")
    with pytest.raises(HexIdError, match="direction codes"):
        parse_side("0201/7")
