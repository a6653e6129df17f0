# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""A draft saved (on the page or by email) while the phase resolves (issue 44's review): the
resolution claims the window in its transaction (``campaign.services.resolution._resolve``:
locked, marked resolved) and reads the sheets; a save in that moment must not be answered
"saved" when the resolution did not see it. The save locks the window with the sheet
(``orders.sheets.writable_sheet``), a mail locks the window first (``orders.mailorders._apply``):
each waits for the resolution and then finds the phase resolved; and the saves of one
campaign's seats do not wait for each other (the window locked ``FOR SHARE``), while the
resolution's claim still waits for a save. Row locks: PostgreSQL's run (on SQLite the writers
are serialised by the database file's lock)."""

import threading

import pytest
from django.db import OperationalError, connection, transaction

from campaign.models import PhaseWindow, WindowStatus
from orders.mailorders import receive
from orders.models import OrderSheet
from orders.sheets import _LOCKED_SHEET
from tests.orders.test_flow_cost import _save
from tests.orders.test_mail_orders import a_mail, orders_domain
from tests.orders.test_play_fixtures import (
    client_for,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _claimed_while(window, act):
    """``act()`` while another connection holds the window as a resolution claims it, for half
    a second, then commits it resolved; what ``act`` returned."""
    claimed, release = threading.Event(), threading.Event()
    errors = []

    def resolution():
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
        threading.Timer(0.5, release.set).start()
        return act()
    finally:
        release.set()
        worker.join(10)
        assert not errors


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: the PostgreSQL run's")
def test_a_march_saved_while_the_phase_resolves_is_not_answered_as_saved(marching, player):
    prussia = seat(marching, "prussia")
    window = marching.open_window()
    c = client_for(player)
    assert c.get(url("orders", prussia)).status_code == 200  # (the page makes the sheet)
    before = OrderSheet.objects.get(seat=prussia, window=window).draft
    r = _claimed_while(window, lambda: _save(c, prussia))
    assert r.status_code == 200 and "HX-Retarget" in r, "answered as saved"
    assert "submitted and locked for this phase" in r.content.decode()
    assert OrderSheet.objects.get(seat=prussia, window=window).draft == before


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: the PostgreSQL run's")
def test_orders_mailed_while_the_phase_resolves_are_answered_as_too_late(marching, mailoutbox):
    prussia = seat(marching, "prussia")
    window = marching.open_window()
    out = _claimed_while(window, lambda: receive(a_mail(prussia, window, "Frederick 4")))
    assert out.status == "closed"
    assert "which has resolved: nothing was changed" in mailoutbox[-1].body
    sheet = OrderSheet.objects.filter(seat=prussia, window=window).first()
    assert sheet is None or not sheet.draft


def test_a_march_saved_when_no_resolution_runs_is_saved_as_before(marching, player):
    """(The control: the same save, the window open and no one holding it.)"""
    prussia = seat(marching, "prussia")
    c = client_for(player)
    assert c.get(url("orders", prussia)).status_code == 200
    r = _save(c, prussia)
    assert r.status_code == 200 and "HX-Retarget" not in r
    draft = OrderSheet.objects.get(seat=prussia, window=marching.open_window()).draft
    assert draft["march"][0]["unit"] == "frederick"


def _sheet_held(window, s):
    """Another connection holds the save's locks on ``s``'s sheet and the window (as a save in
    its transaction does) until the returned event is set; (release, the thread)."""
    held, release = threading.Event(), threading.Event()

    def save():
        try:
            with transaction.atomic():
                assert _LOCKED_SHEET(window.id, s.id)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    worker = threading.Thread(target=save)
    worker.start()
    assert held.wait(10)
    return release, worker


def _lock_timeout():
    with connection.cursor() as cursor:  # a wait for a lock fails at once instead
        cursor.execute("SET lock_timeout = '500ms'")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: the PostgreSQL run's")
def test_saves_of_one_campaign_s_seats_do_not_wait_for_each_other(marching, player, other):
    prussia, austria = seat(marching, "prussia"), seat(marching, "austria")
    window = marching.open_window()
    for s, user in ((prussia, player), (austria, other)):
        assert client_for(user).get(url("orders", s)).status_code == 200  # (makes the sheet)
    release, worker = _sheet_held(window, austria)
    try:
        _lock_timeout()
        r = _save(client_for(player), prussia)  # would fail on the lock's timeout if it waited
        assert r.status_code == 200 and "HX-Retarget" not in r
    finally:
        release.set()
        worker.join(10)
    draft = OrderSheet.objects.get(seat=prussia, window=window).draft
    assert draft["march"][0]["unit"] == "frederick"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: the PostgreSQL run's")
def test_a_resolution_s_claim_still_waits_for_a_save(marching, player):
    prussia = seat(marching, "prussia")
    window = marching.open_window()
    assert client_for(player).get(url("orders", prussia)).status_code == 200
    release, worker = _sheet_held(window, prussia)
    try:
        _lock_timeout()
        with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
            PhaseWindow.objects.select_for_update(of=("self",)).get(id=window.id)
    finally:
        release.set()
        worker.join(10)
