# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""``dgk.prepared``: a queryset's SQL compiled once gives what the queryset gives (issue 44).
The player pages' two statements (``orders.access``: the seat with its campaign and last
visit, the open window with its version and the seat's sheet) against the plain querysets they
replace, on a real campaign: the same rows, the same related objects read with them (and none
read later), the same statement sent; the save's locked sheet (``orders.sheets``), only in a
transaction; then the cases that must fall back to Django."""

import uuid

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.models import Seat
from dgk.prepared import Prepared
from orders.access import _SEAT, _WINDOWS, _windows
from orders.models import OrderSheet, SeatVisit
from orders.sheets import _LOCKED_SHEET, _locked_sheet, _share_the_window
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    marching,
    play_map,
    rules_campaign,
)

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    """A model instance's loaded values (its deferred fields stay unloaded on both sides)."""
    return {k: v for k, v in obj.__dict__.items() if not k.startswith("_")}


def ran(call) -> tuple[list, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        result = call()
    return result, [q["sql"] for q in queries.captured_queries]


def test_the_seat_with_its_campaign_and_visit_as_django_reads_it(marching):
    seats = list(marching.seats.order_by("id"))
    SeatVisit.objects.create(seat=seats[0], seen_at=timezone.now(), seen_version=1)
    for seat in seats[:2]:  # one with a visit, one without
        plain, plain_sql = ran(
            lambda s=seat: list(
                Seat.objects.select_related("campaign", "visit").filter(code=s.code)[:1]
            )
        )
        prepared, prepared_sql = ran(lambda s=seat: _SEAT(s.code))
        assert prepared_sql == plain_sql and len(prepared_sql) == 1
        (a,), (b,) = plain, prepared
        assert fields(a) == fields(b)
        assert fields(a.campaign) == fields(b.campaign)
        with CaptureQueriesContext(connection) as later:
            visit = getattr(b, "visit", None)
        assert later.captured_queries == []  # read with the seat, found or not
        if seat == seats[0]:
            assert visit is not None and fields(visit) == fields(a.visit)
        else:
            assert visit is None and not hasattr(a, "visit")
    assert _SEAT(uuid.uuid4()) == []
    assert _SEAT.compiled() is not None


@pytest.mark.parametrize("with_version", [False, True])
@pytest.mark.parametrize("with_sheet", [False, True])
def test_the_open_window_in_each_shape_as_django_reads_it(marching, with_version, with_sheet):
    window = marching.open_window()
    seats = list(marching.seats.filter(reserve=False).order_by("id"))
    OrderSheet.objects.get_or_create(window=window, seat=seats[0], campaign=marching)
    OrderSheet.objects.filter(window=window, seat=seats[1]).delete()
    build = _windows(with_version, with_sheet)
    prepared = _WINDOWS[with_version, with_sheet]
    for seat in seats[:2]:  # one with a sheet, one without
        ids = (marching.id, seat.id) if with_sheet else (marching.id,)
        plain, plain_sql = ran(lambda ids=ids: list(build(*ids)))
        mine, mine_sql = ran(lambda ids=ids: prepared(*ids))
        assert mine_sql == plain_sql and len(mine_sql) == 1
        (a,), (b,) = plain, mine
        assert b.id == window.id and fields(a) == fields(b)
        with CaptureQueriesContext(connection) as later:
            version = b.version if with_version else None
            sheet = getattr(b, "seat_sheet", None) if with_sheet else None
        assert later.captured_queries == []
        if with_version:
            assert fields(version) == fields(a.version)
            assert "state" not in fields(version)  # deferred as in the queryset
        if with_sheet:
            other = getattr(a, "seat_sheet", None)
            assert (sheet is None) == (other is None) == (seat != seats[0])
            if sheet is not None:
                assert fields(sheet) == fields(other)
    assert prepared(10**12, *([10**12] if with_sheet else [])) == []


def test_a_value_of_another_type_runs_the_queryset_as_django_would(marching):
    seat = marching.seats.first()
    (found,) = _SEAT(str(seat.code))  # a string, not the URL's UUID
    assert found.id == seat.id


def test_the_locked_sheet_as_django_reads_it_and_only_in_a_transaction(marching):
    window = marching.open_window()
    seat = marching.seats.filter(reserve=False).order_by("id").first()
    OrderSheet.objects.get_or_create(window=window, seat=seat, campaign=marching)
    with transaction.atomic():
        plain, plain_sql = ran(lambda: list(_locked_sheet(window.id, seat.id)))
        mine, mine_sql = ran(lambda: _LOCKED_SHEET(window.id, seat.id))
    # Django's statement, the window's lock made FOR SHARE (``orders.sheets._share_the_window``).
    assert mine_sql == [_share_the_window(plain_sql[0], connection)]
    if connection.features.has_select_for_update:
        assert mine_sql[0].endswith(
            'FOR NO KEY UPDATE OF "orders_ordersheet" FOR SHARE OF "campaign_phasewindow"'
        )
    (a,), (b,) = plain, mine
    assert fields(a) == fields(b) and fields(a.window) == fields(b.window)


@pytest.mark.django_db(transaction=True)
def test_out_of_a_transaction_the_locked_sheet_is_refused_as_django_refuses_it(marching):
    window = marching.open_window()
    seat = marching.seats.filter(reserve=False).order_by("id").first()
    OrderSheet.objects.get_or_create(window=window, seat=seat, campaign=marching)
    refused = []
    for call in (
        lambda: list(_locked_sheet(window.id, seat.id)),
        lambda: _LOCKED_SHEET(window.id, seat.id),
    ):
        try:
            call()
        except TransactionManagementError:
            refused.append(True)
        else:
            refused.append(False)
    # PostgreSQL locks rows and both refuse; SQLite locks nothing and neither checks.
    assert refused == [connection.features.has_select_for_update] * 2


def test_shapes_it_cannot_prepare_run_as_django_would(marching):
    seat = marching.seats.first()
    # An example that is also a constant of the query could be mistaken for it: refused.
    twice = Prepared(lambda seat_id: Seat.objects.filter(id=seat_id).exclude(id=7), 7)
    assert twice.compiled() is None
    assert [s.id for s in twice(seat.id)] == ([] if seat.id == 7 else [seat.id])
    unused = Prepared(lambda seat_id: Seat.objects.filter(code=seat.code), 123456789)
    assert unused.compiled() is None
    assert [s.id for s in unused(1)] == [seat.id]
