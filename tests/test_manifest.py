"""Installable on a phone (issue 13): a web app manifest with icons of the sizes it names."""

import json
from pathlib import Path

import pytest
from PIL import Image

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[1]


def test_the_manifest_names_icons_that_exist_at_their_sizes():
    manifest = json.loads((ROOT / "static" / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/campaigns/"
    assert {i.get("purpose", "any") for i in manifest["icons"]} == {"any", "maskable"}
    for entry in manifest["icons"]:
        path = ROOT / entry["src"].lstrip("/")
        width, height = (int(n) for n in entry["sizes"].split("x"))
        assert Image.open(path).size == (width, height), path


def test_every_page_links_the_manifest():
    base = (ROOT / "templates" / "base.html").read_text()
    assert "manifest.webmanifest" in base and 'name="theme-color"' in base
