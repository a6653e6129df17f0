"""The map's management commands: mapinfo and rendermap."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from PIL import Image

pytestmark = pytest.mark.pure


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_mapinfo_json_lists_hexes_and_cities():
    info = json.loads(run("mapinfo", "--json"))
    assert info["hexes"] == info["columns"] * info["rows"] == 88 * 64
    berlin = next(c for c in info["cities"] if c["name"] == "Berlin")
    assert set(berlin) >= {"name", "hex", "q", "r", "size", "fortress", "bastions", "vp", "area"}
    assert berlin["area"] == "Prussia" and berlin["fortress"] is False
    magdeburg = next(c for c in info["cities"] if c["name"] == "Magdeburg")
    assert magdeburg["fortress"] and magdeburg["bastions"] == 8 and magdeburg["vp"] == 8


def test_mapinfo_axial_coordinates_match_the_hex_id():
    from maps.core.hexgrid import parse_hex_id

    info = json.loads(run("mapinfo", "--json"))
    for c in info["cities"]:
        assert tuple(parse_hex_id(c["hex"])) == (c["q"], c["r"]), c["name"]


def test_mapinfo_in_words():
    text = run("mapinfo")
    assert "88 x 64 hexes" in text and "fortresses" in text


def test_mapinfo_names_a_missing_map():
    with pytest.raises(CommandError, match="no map file"):
        run("mapinfo", "--map", "/nonexistent/map.json")


def test_rendermap_writes_a_png(tmp_path):
    out = tmp_path / "dresden.png"
    text = run("rendermap", str(out), "--region", "Dresden+4", "--hex-ids")
    assert "wrote" in text
    img = Image.open(out)
    assert img.format == "PNG" and 150 < img.width < 600


def test_rendermap_whole_map_with_areas(tmp_path):
    out = tmp_path / "all.png"
    run("rendermap", str(out), "--size", "5", "--areas")
    assert Image.open(out).width > 700


def test_rendermap_rejects_a_bad_region(tmp_path):
    with pytest.raises(CommandError, match="no city called"):
        run("rendermap", str(tmp_path / "x.png"), "--region", "Atlantis+3")
    with pytest.raises(CommandError, match="not a region"):
        run("rendermap", str(tmp_path / "x.png"), "--region", "here and there")
