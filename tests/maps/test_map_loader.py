"""A broken map file is rejected with a message naming the problem."""

import copy
import json

import pytest

from maps.core.compact import compact_map
from maps.core.loader import MapError, load_map, map_from_dict, map_to_dict

pytestmark = pytest.mark.pure

GOOD = map_to_dict(
    compact_map(
        {
            "terrain": ["c c c r", "c m c r", "c c s s"],
            "areas": {"Prussia": "*", "Saxony": ["0103", "0203"]},
            "rivers": [{"name": "Elbe", "class": "major", "sides": ["0201/4", "0202/3"]}],
            "bridges": ["0201/4"],
            "roads": [["0101", "0201", "0301"]],
            "cities": [
                {"name": "Torgau", "hex": "0202", "size": "square", "fortress": True},
                {"name": "Wittenberg", "hex": "0101", "size": "circle", "fortress": False},
            ],
        },
        name="test",
    )
)


def broken(**changes):
    data = copy.deepcopy(GOOD)
    for path, value in changes.items():
        target = data
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        last = keys[-1]
        if value is DELETE:
            del target[last]
        else:
            target[int(last) if last.isdigit() else last] = value
    return data


DELETE = object()


def test_a_good_map_round_trips():
    hexmap = map_from_dict(GOOD)
    assert map_to_dict(hexmap) == GOOD
    assert hexmap.city("torgau").bastions == 8
    assert hexmap.city("Torgau").vp == 8


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "other"}, "'format' must be 'dgk-map/1'"),
        ({"columns": DELETE}, "missing 'columns'"),
        ({"terrain__1": "cmc"}, "'terrain' row 2 has 3 hexes"),
        ({"terrain__0": "cxcr"}, "hex 0201 has the unknown letter 'x'"),
        (
            {"areas__0": GOOD["areas"][0][:2] + "?" + GOOD["areas"][0][3:]},
            "'areas' hex 0301 has the unknown letter '?'",
        ),
        ({"rivers__0__class": "huge"}, "class must be 'major' or 'minor'"),
        ({"rivers__0__sides": ["0201/4", "0103/4"]}, "the river is broken: hexside 0103/4"),
        ({"bridges": ["0101/4"]}, "bridge '0101/4' is not on a river hexside"),
        ({"bridges": []}, "crosses the Elbe \\(a major river\\) between 0201 and 0301"),
        ({"roads__0__hexes": ["0101", "0301"]}, "not adjacent"),
        ({"cities__0__hex": "0303"}, "is sea; cities stand on land"),
        ({"cities__0__bastions": 5}, "bastions is 5 but the City Chart"),
        ({"cities__0__size": "huge"}, "not a city size"),
        ({"cities__0__size": "circled star"}, "cannot be a fortress"),
        ({"cities__0__area": "Saxony"}, "hex 0202 is in 'Prussia'"),
        ({"cities__1__hex": "0202"}, "share hex 0202"),
        ({"cities__1__name": "Torgau"}, "two cities are called 'Torgau'"),
    ],
)
def test_a_broken_map_is_rejected_with_a_message_naming_the_problem(changes, message):
    with pytest.raises(MapError, match=message):
        map_from_dict(broken(**changes))


def test_a_map_file_is_loaded_and_cached(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(GOOD))
    first = load_map(path)
    assert load_map(str(path)) is first
    assert first.source == str(path)


def test_a_missing_map_names_the_bundled_ones(tmp_path):
    with pytest.raises(MapError, match="no map file"):
        load_map(tmp_path / "nowhere.json")


def test_bad_json_is_reported(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(MapError, match="not valid JSON"):
        load_map(path)


def test_inline_maps_report_their_own_mistakes():
    with pytest.raises(MapError, match="every terrain row must have 3 hexes"):
        compact_map({"terrain": ["c c c", "c c"]})
    with pytest.raises(MapError, match="needs 'terrain'"):
        compact_map({})
