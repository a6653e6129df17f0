# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""A draft saved while the phase resolves (issue 44's review): the resolution claims the window
in its transaction (``campaign.services.resolution._resolve``: locked, marked resolved) and reads
the sheets; a save in that moment must not be answered "saved" when the resolution did not see
it. The save locks the window with the sheet (``orders.sheets.writable_sheet``), so it waits for
the resolution and then finds the sheet locked. Row locks: PostgreSQL's run (on SQLite the
writers are serialised by the database file's lock)."""

import threading

import pytest
from django.db import connection, transaction

from campaign.models import PhaseWindow, WindowStatus
from orders.models import OrderSheet
from tests.orders.test_flow_cost import _save
from tests.orders.test_play_fixtures import (
    client_for,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: the PostgreSQL run's")
def test_a_march_saved_while_the_phase_resolves_is_not_answered_as_saved(marching, player):
    prussia = seat(marching, "prussia")
    window = marching.open_window()
    c = client_for(player)
    assert c.get(url("orders", prussia)).status_code == 200  # (the page makes the sheet)
    before = OrderSheet.objects.get(seat=prussia, window=window).draft
    claimed, release = threading.Event(), threading.Event()
    errors = []

    def resolution():  # as ``_resolve`` claims the window, its transaction held open a while
        try:
            with transaction.atomic():
                PhaseWindow.objects.select_for_update(of=("self",)).get(id=window.id)
                PhaseWindow.objects.filter(id=window.id).update(status=WindowStatus.RESOLVED)
                claimed.set()
                release.wait(10)
        except Exception as exc:  # collected, asserted below
            errors.append(exc)
        finally:
            connection.close()

    worker = threading.Thread(target=resolution)
    worker.start()
    try:
        assert claimed.wait(10)
        threading.Timer(0.5, release.set).start()  # the resolution commits while the save waits
        r = _save(c, prussia)
    finally:
        release.set()
        worker.join(10)
    assert not errors
    assert r.status_code == 200 and "HX-Retarget" in r, "answered as saved"
    assert "submitted and locked for this phase" in r.content.decode()
    assert OrderSheet.objects.get(seat=prussia, window=window).draft == before


def test_a_march_saved_when_no_resolution_runs_is_saved_as_before(marching, player):
    """(The control: the same save, the window open and no one holding it.)"""
    prussia = seat(marching, "prussia")
    c = client_for(player)
    assert c.get(url("orders", prussia)).status_code == 200
    r = _save(c, prussia)
    assert r.status_code == 200 and "HX-Retarget" not in r
    draft = OrderSheet.objects.get(seat=prussia, window=marching.open_window()).draft
    assert draft["march"][0]["unit"] == "frederick"
