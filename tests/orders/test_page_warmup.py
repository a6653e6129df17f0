# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Issue 34: a refused save answers with the orders list alone (htmx) and keeps the draft; the
worker makes every seat's view of a new version when the phase resolves, each its own."""

import re

import pytest
from django.core.cache import cache
from django.utils import timezone

from campaign.models import PhaseWindow, StateVersion, WindowStatus
from campaign.projection import Relation
from campaign.services import knowledge, viewcache
from campaign.services import organiser as tools
from campaign.services.resolution import resolve_due_phase
from orders.access import _version
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (
    FREDERICK_POINTS,
    MARKERS,
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


def test_a_refused_save_under_htmx_answers_with_the_sheet_and_keeps_the_draft(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    assert c.post(url("save_march", prussia), in_phase(prussia, ORDER)).status_code == 302
    r = c.post(
        url("save_march", prussia),
        in_phase(prussia, {**ORDER, "path": "4-9"}),  # 9 is no direction code
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 200
    assert r["HX-Retarget"] == "#sheet" and r["HX-Reswap"] == "outerHTML"
    body = r.content.decode()
    assert body.lstrip().startswith('<div id="sheet">')
    assert "<html" not in body and 'id="builder"' not in body and 'id="play"' not in body
    assert "That order could not be saved; your other orders are kept." in body
    assert "Frederick" in body and "1 hex E to " in body  # the order saved before, listed
    sheet = OrderSheet.objects.get(seat=prussia, window=marching.open_window())
    assert sheet.draft["march"] == [{"unit": "frederick", "path": "4", "marches": 1}]


def test_a_refused_save_without_htmx_is_the_whole_page_with_the_typed_order(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    r = c.post(url("save_march", prussia), in_phase(prussia, {**ORDER, "path": "4-9"}))
    assert r.status_code == 400
    body = r.content.decode()
    assert "<html" in body and 'value="4-9"' in body
    assert "That order could not be saved" in body
    sheet = OrderSheet.objects.get(seat=prussia, window=marching.open_window())
    assert not sheet.draft.get("march")


def test_after_resolution_every_seat_s_view_is_cached_and_its_own(marching):
    # ``marching``: every seat deployed and ready, the deployment resolved, the tasks run.
    version = _version(marching)
    seats = [s for s in marching.seats.filter(reserve=False) if s.armies]
    assert len(seats) >= 2
    for s in seats:
        kept = cache.get(viewcache.view_key(s, version))
        assert kept is not None, s.power  # made by the worker, before any page asked
        assert kept == knowledge.seat_view(s, version)  # this seat's own view
        own = {f.army.value for f in kept.forces if f.relation is Relation.OWNER}
        assert own <= set(s.armies)
        if "prussia" not in s.armies:  # Frederick's secret strength stays Prussia's
            assert all(str(f.points) not in MARKERS for f in kept.forces)
            assert str(FREDERICK_POINTS) not in repr(kept)
    prussia = seat(marching, "prussia")
    assert str(FREDERICK_POINTS) in repr(cache.get(viewcache.view_key(prussia, version)))
    layers = [k for k in cache._cache if ":layer:" in k]  # (local memory in the tests)
    assert len(layers) == len(seats)


def unmasked(page: str) -> str:
    """The page without what every request draws anew (the CSRF token's mask, the nonce, and
    "Since you last looked", which changes with each visit: docs/catch-up.md)."""
    page = re.sub(r'("X-CSRFToken": |name="csrfmiddlewaretoken" value=)"[^"]+"', r"\1", page)
    page = re.sub(r'<section class="catch-up".*?</section>', "", page, flags=re.S)
    return re.sub(r'nonce="[^"]+"', "", page)


def test_after_resolution_the_dashboard_s_parts_are_drawn_as_the_page_draws_them(marching, player):
    """The worker drew every seat's kept parts of the dashboard (orders.dashboard); the page
    that finds them is the page that draws them itself, byte for byte."""
    version = _version(marching)
    prussia = seat(marching, "prussia")
    parts = [k for k in cache._cache if ":part:dashboard-" in k]
    seats = [s for s in marching.seats.filter(reserve=False) if s.armies]
    assert len(parts) == 3 * len(seats)
    assert all(any(f":s{s.id}:" in k for k in parts) for s in seats)
    c = client_for(player)
    with_parts = c.get(url("dashboard", prussia)).content.decode()
    cache.clear()
    viewcache.forget()
    drawn_here = c.get(url("dashboard", prussia)).content.decode()
    assert "Every army's strength (rule 3)" in drawn_here and "Your forces" in drawn_here
    assert unmasked(with_parts) == unmasked(drawn_here)
    assert viewcache.view_key(prussia, version) in "".join(cache._cache)  # (drawn again)


def test_after_resolution_each_player_s_map_block_is_drawn_and_the_pages_use_it(marching, player):
    """The worker drew the map block the pages embed (``layers.warm_inline``) for each seat
    with a player, from its blank draft: the dashboard (which makes no sheet: it only shows it)
    and the orders page (which makes the seat's sheet on its first load) find it kept and draw
    none; a march saved draws a new one (the block follows the draft)."""
    seats = [s for s in marching.seats.filter(reserve=False) if s.armies and s.user_id]
    prussia = seat(marching, "prussia")

    def blocks(s=None) -> list[str]:
        return [
            k for k in cache._cache if ":layer-script:" in k and (s is None or f":s{s.id}:" in k)
        ]

    assert len(blocks()) == len(seats)
    (kept,) = blocks(prussia)
    assert not OrderSheet.objects.filter(seat=prussia, window=marching.open_window()).exists()
    c = client_for(player)
    for page, made in (("dashboard", False), ("orders", True)):
        body = c.get(url(page, prussia)).content.decode()
        assert 'id="mapwidget-data"' in body, page
        assert blocks(prussia) == [kept], page
        sheets = OrderSheet.objects.filter(seat=prussia, window=marching.open_window())
        assert sheets.exists() is made, page
    assert c.post(url("save_march", prussia), in_phase(prussia, ORDER)).status_code == 302
    c.get(url("dashboard", prussia))
    assert len(blocks(prussia)) == 2


def test_an_open_window_is_of_the_latest_version_and_the_pages_read_it_with_it(
    marching, organiser, player
):
    """``seat_context`` reads the version with the open window (one query): an open window is
    of the latest version when the phase opens, after a resolution and after a roll back, and
    the pages show that version."""
    prussia = seat(marching, "prussia")
    c = client_for(player)

    def check() -> PhaseWindow:
        window = marching.open_window()
        assert window is not None and window.status == WindowStatus.OPEN
        latest = marching.latest_version()
        assert window.version_id == latest.id
        page = c.get(url("dashboard", prussia)).content.decode()
        assert f"Turn {latest.turn}: {window.phase} phase" in page
        return window

    window = check()
    resolve_due_phase(window.id, now=window.deadline)
    after = check()
    assert after.id != window.id
    tools.roll_back(marching, organiser, now=timezone.now())
    again = check()
    assert again.id == window.id  # the window opened again, of the version it came from


def test_a_refused_order_says_why_in_words_and_a_saved_one_asks_for_ready(marching, player):
    """The player reads what was wrong by the field's label (never Django's "__all__"), and,
    once an order is saved, that it is not sent until he presses Ready (the draft is not read
    when the phase resolves without it: docs/rules-interpretations.md)."""
    prussia = seat(marching, "prussia")
    c = client_for(player)
    page = c.get(url("orders", prussia)).content.decode()
    assert "Saved, not sent yet" not in page  # nothing saved: nothing to warn of
    assert c.post(url("save_march", prussia), in_phase(prussia, ORDER)).status_code == 302
    page = c.get(url("orders", prussia)).content.decode()
    assert "Saved, not sent yet: press Ready when your orders are complete." in page
    r = c.post(
        url("save_march", prussia),
        in_phase(prussia, {**ORDER, "path": "4-9"}),
        HTTP_HX_REQUEST="true",
    )
    body = r.content.decode()
    assert "__all__" not in body and '<ul class="errorlist' not in body
    assert re.search(r"<p>Line of march: [^<]+</p>", body), body
    assert c.post(url("ready", prussia), in_phase(prussia, {})).status_code == 302
    page = c.get(url("orders", prussia)).content.decode()
    assert "Saved, not sent yet" not in page and "Submitted: your orders are locked." in page
