"""The six printed example briefings (issue 14), as committed under ``docs/briefings/`` by
``manage.py printbriefings``: every item of the scenario sheet is on them, no box splits across
pages, a side's sheet is one page and the map, and the map page carries the drawn table.

The PDFs are read with pypdfium2 (requirements-browser.txt): each page's text, and each page
rendered to a PNG. The committed files are checked against what the code prints now (the same
text), and the Letter paper is printed fresh with Debian's chromium.
"""

import re
from fractions import Fraction
from pathlib import Path

import pytest

from battles.services import sheet as briefing
from battles.services.printing import chromium
from maps.core.loader import load_map
from tabletop import examples, units
from tabletop.sheet import UMPIRE, sheet

pdfium = pytest.importorskip("pypdfium2")
pytestmark = pytest.mark.browser

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "briefings"
AUDIENCES = ("prussian", "austrian", UMPIRE)


@pytest.fixture(scope="module")
def hexmap():
    return load_map()


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def pages_of(data: bytes) -> list[str]:
    return [flat(p.get_textpage().get_text_range()) for p in pdfium.PdfDocument(data)]


def the_sheet(key, audience, hexmap):
    ex = examples.example(key, hexmap)
    return sheet(
        ex.setup,
        ex.came_from,
        ex.layout,
        audience,
        ex.facts,
        units.system(briefing.EXAMPLE_UNITS[key]),
        Fraction(1),
        ex.wished,
    )


def boxes(s) -> dict[str, tuple[str, str]]:
    """Each box of the sheet: the text it starts with and the text it ends with."""
    out = {
        "situation": ("SITUATION", s["garrison"]),
        "table": ("THE TABLE", s["sides"][-1]["retreat"]),
        "victory": ("VICTORY CONDITIONS", s["stakes"][-1]),
        "features": ("TERRAIN FEATURES", s["features"][-1]["where"]),
        "result": ("RESULT", "the other side confirms."),
    }
    if s["unknown"]:
        out["unknown"] = ("WHAT YOU DO NOT KNOW", s["unknown"][-1])
    if s["hidden"]:
        out["hidden"] = ("HIDDEN FACTS", s["hidden"][-1]["lines"][-1])
    for side in s["sides"]:
        head = side["name"].upper() + (" (YOUR SIDE)" if side["own"] else "")
        end = side["oob"].notes[-1] if side["full"] else side["leaders"][-1]["name"]
        out[side["side"]] = (head, end)
    return out


def page_of(pages: list[str], text: str, after: int = 0) -> int | None:
    needle = flat(text)
    for i in range(after, len(pages)):
        if needle in pages[i]:
            return i
    return None


@pytest.mark.parametrize("key", examples.KEYS)
@pytest.mark.parametrize("audience", AUDIENCES)
def test_every_item_is_on_the_printed_sheet_and_no_box_splits(key, audience, hexmap, tmp_path):
    data = (FOLDER / f"{key}-{audience}-a4.pdf").read_bytes()
    pages = pages_of(data)
    s = the_sheet(key, audience, hexmap)
    first = pages[0]
    everything = " ".join(pages)
    # The items of the scenario sheet (issue 14).
    for item in (
        f"{s['title']}, {s['date']}",  # place and date
        s["attack"]["text"],  # who attacks (10.1)
        s["attack"]["setup_text"],  # order of set-up
        f"{s['length']['turns']} turns of {s['length']['minutes_per_turn']} minutes",
        s["frederick"],  # 12.7
        s["garrison"],
        "Retreats",
        *(side["retreat"] for side in s["sides"]),  # each side's retreat edge
        "Order of battle",
        "Siege trains:",  # 9.1
        "Retiring:",  # 10.1.1
        "VICTORY CONDITIONS",
        "(10.1, 10.1.3)",
        "TERRAIN FEATURES",
        " cm",
        "THE TABLE: ",
        "RESULT",
    ):
        assert flat(item) in everything, item
    assert ("HIDDEN FACTS" if audience == UMPIRE else "WHAT YOU DO NOT KNOW") in everything
    assert ("Umpire sheet" if audience == UMPIRE else f"{s['audience_label']}: for this side") in (
        first
    )
    assert "alliance" not in everything  # the side is named by who fights
    # No box splits across pages: each starts and ends on the same page.
    for name, (start, end) in boxes(s).items():
        at = page_of(pages, start)
        assert at is not None, (name, start)
        assert page_of(pages, end, at) == at, f"{name} splits: {end!r} not on page {at + 1}"
    # A side's sheet fits on one page, then the map; the umpire's on two, then the map.
    assert len(pages) == (2 if audience != UMPIRE else 3)
    assert "SCALE AND LEGEND ON THE MAP" in pages[-1]
    # The pages as pictures: every page has black ink; the map page carries the table.
    pictures = [p.render(scale=50 / 72).to_pil().convert("L") for p in pdfium.PdfDocument(data)]
    for i, image in enumerate(pictures):
        image.save(tmp_path / f"{key}-{audience}-{i + 1}.png")
        assert image.getextrema()[0] < 60, i
    # the table picture: black lines (the table's edges, grid labels) over most of the page
    x0, y0, x1, y1 = pictures[-1].point(lambda v: 255 if v < 100 else 0).getbbox()
    width, height = pictures[-1].size
    assert (x1 - x0) > 0.6 * width and (y1 - y0) > 0.4 * height, (x0, y0, x1, y1)


def test_the_committed_briefings_are_what_the_code_prints(hexmap):
    if chromium() is None:
        pytest.skip("chromium is needed (apt-get install chromium)")
    for key in ("hanover-alone", "siege"):
        fresh = pages_of(briefing.example_pdf(key, "prussian", hexmap))
        committed = pages_of((FOLDER / f"{key}-prussian-a4.pdf").read_bytes())
        assert fresh == committed, f"run manage.py printbriefings ({key})"


@pytest.mark.parametrize("key", examples.KEYS)
def test_a_sides_sheet_fits_one_letter_page(key, hexmap):
    if chromium() is None:
        pytest.skip("chromium is needed (apt-get install chromium)")
    for audience in ("prussian", "austrian"):
        data = briefing.example_pdf(key, audience, hexmap, paper="letter")
        document = pdfium.PdfDocument(data)
        assert [round(x) for x in document[0].get_size()] == [612, 792]
        pages = pages_of(data)
        assert len(pages) == 2, (key, audience, len(pages))
        s = the_sheet(key, audience, hexmap)
        for name, (start, end) in boxes(s).items():
            at = page_of(pages, start)
            assert at is not None and page_of(pages, end, at) == at, (key, audience, name)
