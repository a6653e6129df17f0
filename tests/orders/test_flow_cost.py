# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Issue 44, the orders flow flat out: a unit picked, its march saved (htmx), again and again.
The save reads the sheet once (locked, its window with it), writes nothing when the draft is
as it was, and the tap map of a picked unit, or of the line its order has, is kept per (version,
seat, unit, line): each drawn as the page drew it, and never another seat's."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.template import engines
from django.test.utils import CaptureQueriesContext

from campaign.models import Seat
from campaign.services import viewcache
from orders.access import seat_context
from orders.models import OrderSheet
from orders.pages import orders_context, tap_map
from orders.sheets import same_draft
from tests.orders.test_march_saves import _one_step, _russian_marches, copy
from tests.orders.test_play_fixtures import (
    client_for,
    in_phase,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db

ORDER = {"unit": "frederick", "path": "4", "marches": "1", "meeting": "hold"}
TAP_MAP = re.compile(r'<div class="tapmap">.*?</svg>\s*</div>', re.S)
# The orders page before the tap map was kept: the map drawn by an include in the page.
INCLUDED = engines["django"].from_string('{% include "play/_map.html" %}')


def _save(c, s: Seat, order: dict | None = None, *, data: dict | None = None):
    """The march saved under htmx (``data``: the form's body, made beforehand)."""
    data = data or in_phase(s, order or ORDER)
    return c.post(url("save_march", s), data, HTTP_HX_REQUEST="true")


def _tables(queries) -> list[str]:
    """Each statement as its kind and the tables it reads or writes."""
    out = []
    for q in queries:
        sql = q["sql"]
        tables = sorted(set(re.findall(r'(?:FROM|JOIN|UPDATE|INTO) "(\w+)"', sql)))
        lock = m.group(0) if (m := re.search(r"FOR (NO KEY )?UPDATE( OF [^)]*)?", sql)) else ""
        out.append(" ".join(x for x in (sql.split()[0], *tables, lock) if x))
    return out


def test_a_march_saved_again_as_it_was_writes_nothing(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    assert _save(c, prussia).status_code == 200
    sheet = OrderSheet.objects.get(seat=prussia, window=marching.open_window())
    data = in_phase(prussia, ORDER)
    with CaptureQueriesContext(connection) as again:
        r = _save(c, prussia, data=data)
    assert r.status_code == 200 and "HX-Retarget" not in r
    assert "Order saved: Frederick, 1 hex E to " in r.content.decode()
    statements = _tables(again.captured_queries)
    assert not any(s.startswith(("UPDATE", "INSERT")) for s in statements), statements
    kept = OrderSheet.objects.get(id=sheet.id)
    assert (
        kept.draft == sheet.draft == {"march": [{"unit": "frederick", "path": "4", "marches": 1}]}
    )
    assert kept.updated == sheet.updated
    # A changed order is written.
    assert _save(c, prussia, {**ORDER, "path": "4-4"}).status_code == 200
    kept = OrderSheet.objects.get(id=sheet.id)
    assert kept.draft["march"] == [{"unit": "frederick", "path": "4-4", "marches": 1}]
    assert kept.updated > sheet.updated


def test_a_save_reads_the_sheet_once_with_its_window(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    c.get(url("orders", prussia), {"unit": "frederick"})  # the page makes the sheet
    data = in_phase(prussia, ORDER)
    with CaptureQueriesContext(connection) as save:
        assert _save(c, prussia, data=data).status_code == 200
    statements = [s for s in _tables(save.captured_queries) if "orders_ordersheet" in s]
    # the sheet and its window locked together, the window FOR SHARE (it waits for a resolution
    # that holds it, not for another seat's save: tests/orders/test_save_while_resolving.py)
    lock = (
        'FOR NO KEY UPDATE OF "orders_ordersheet" FOR SHARE OF "campaign_phasewindow"'
        if connection.features.has_select_for_update
        else ""
    )
    assert statements == [
        f"SELECT campaign_phasewindow orders_ordersheet {lock}".strip(),
        "UPDATE orders_ordersheet",
    ]
    # the window: the request's read (with its version), and the one with the locked sheet
    windows = [s for s in _tables(save.captured_queries) if "campaign_phasewindow" in s]
    assert len(windows) == 2, windows


def test_a_first_save_with_no_sheet_makes_it(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    assert not OrderSheet.objects.filter(seat=prussia, window=marching.open_window()).exists()
    assert _save(c, prussia).status_code == 200
    sheet = OrderSheet.objects.get(seat=prussia, window=marching.open_window())
    assert sheet.draft == {"march": [{"unit": "frederick", "path": "4", "marches": 1}]}


def test_a_save_on_a_submitted_sheet_is_refused_and_changes_nothing(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    assert _save(c, prussia).status_code == 200
    window = marching.open_window()
    OrderSheet.objects.filter(seat=prussia, window=window).update(ready=True)
    r = _save(c, prussia, {**ORDER, "path": "4-4"})
    assert r["HX-Retarget"] == "#sheet"
    assert "submitted and locked" in r.content.decode()
    assert OrderSheet.objects.get(seat=prussia, window=window).draft["march"][0]["path"] == "4"


def _march(**order) -> dict:
    return {"march": [{"unit": "a", **order}]}


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        (_march(path="1"), {"march": [{"path": "1", "unit": "a"}]}, True),  # keys: any order
        ({"march": [{"unit": "a"}, {"unit": "b"}]}, {"march": [{"unit": "b"}, {"unit": "a"}]}, 0),
        (_march(works=1), _march(works=True), False),
        (_march(marches=1), _march(marches=1.0), False),
        (_march(drop=["x"]), _march(drop=("x",)), True),  # (a tuple is kept as a list)
        ({}, {"march": []}, False),
        ({}, {}, True),
    ],
)
def test_a_draft_is_the_same_as_the_database_keeps_it(old, new, same):
    assert same_draft(old, new) is bool(same)


def _included(request, s: Seat) -> str:
    """The tap map of the orders page as the page drew it before it was kept: the include."""
    ctx = seat_context(request, s.code)
    page = orders_context(request, ctx)
    page["map_svg"] = tap_map(
        ctx.access, ctx.version, ctx.view, ctx.hexmap, page["preview"], page["steps"]
    )
    return f'<div class="tapmap">{INCLUDED.render(page, request)}</div>'


def test_the_kept_tap_map_is_the_one_the_page_drew(copy, rf):
    """Every unit of the Russian seat of the demo, picked and with each first step of its line,
    and the line saved: the page's tap map (drawn, then kept) is the one the include drew."""
    _russian_marches(copy, 5)
    russia = copy.seats.get(power="russia")
    c = client_for(russia.user)
    pages = 0
    for unit in ("apraxin", "saltykov", "fermor", "hamilton"):
        step = _one_step(copy, russia, unit)
        for path in ("", step):
            query = {"unit": unit, "path": path}
            for _ in ("drawn", "kept"):
                page = c.get(url("orders", russia), query).content.decode()
                request = rf.get(url("orders", russia), query)
                request.user, request.htmx, request.session = russia.user, False, {}
                assert TAP_MAP.findall(page) == [_included(request, russia)], (unit, path)
                pages += 1
        saved = c.post(
            url("save_march", russia),
            in_phase(russia, {"unit": unit, "path": step, "marches": "1"}),
            HTTP_HX_REQUEST="true",
        ).content.decode()
        request = rf.get(url("orders", russia), {"unit": unit, "path": step})
        request.user, request.htmx, request.session = russia.user, True, {}
        assert TAP_MAP.findall(saved) == [_included(request, russia)], unit
    assert pages == 16


def test_a_kept_tap_map_is_the_seat_s_own(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    cache.clear()
    viewcache.forget_views()
    c.get(url("orders", prussia), {"unit": "frederick"})
    kept = [k for k in cache._cache if ":tapmap-svg:" in k]  # (local memory in the tests)
    assert len(kept) == 1
    version = marching.open_window().version
    assert f"{viewcache.view_key(prussia, version)}:" in kept[0]
    # A line being typed is drawn each time, not kept.
    c.get(url("orders", prussia), {"unit": "frederick", "path": "4-4"})
    assert len([k for k in cache._cache if ":tapmap-svg:" in k]) == 1


def test_the_orders_page_reads_the_sheet_with_the_window(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    c.get(url("orders", prussia), {"unit": "frederick"})  # (the first makes the sheet)
    _save(c, prussia)
    with CaptureQueriesContext(connection) as page:
        r = c.get(url("orders", prussia), {"unit": "frederick"})
    assert "1 hex E to " in r.content.decode()  # the draft of the sheet read with the window
    statements = _tables(page.captured_queries)
    assert [s for s in statements if "orders_ordersheet" in s] == [
        "SELECT campaign_phasewindow campaign_stateversion orders_ordersheet"
    ], statements


def test_the_dashboard_and_ready_read_the_sheet_with_the_window(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    _save(c, prussia)
    c.get(url("dashboard", prussia))
    with CaptureQueriesContext(connection) as dashboard:
        assert c.get(url("dashboard", prussia)).status_code == 200
    data = in_phase(prussia)
    with CaptureQueriesContext(connection) as ready:
        assert c.post(url("ready", prussia), data).status_code == 302
    for statements in (_tables(dashboard.captured_queries), _tables(ready.captured_queries)):
        reads = [s for s in statements if s.startswith("SELECT") and "orders_ordersheet" in s]
        assert reads == ["SELECT campaign_phasewindow campaign_stateversion orders_ordersheet"]
    assert OrderSheet.objects.get(seat=prussia, window=marching.open_window()).ready
