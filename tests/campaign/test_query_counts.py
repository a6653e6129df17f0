"""SQL queries per player page do not grow with the season: the same count at the first march
of turn 1 and at the march of the last turn played, and the same for a seat of one army as for
a seat of two (more forces), with the view cached or projected afresh."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from campaign.models import Event
from campaign.projection import project
from campaign.services import viewcache
from campaign.services.knowledge import seat_viewer
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db
PAGES = ("dashboard", "orders", "report", "handover", "map_overlay")


def cold() -> None:
    """Nothing cached: neither in Django's cache nor in this process's (``viewcache._kept``)."""
    cache.clear()
    viewcache.forget_views()


def page_queries(campaign) -> dict[tuple[str, str, str], int]:
    counts = {}
    latest = campaign.latest_version()
    for power in ("prussia", "austria"):
        s = campaign.seats.select_related("user").get(power=power)
        client = Client()
        client.force_login(s.user)
        urls = {name: reverse(f"orders:{name}", args=[s.code]) for name in PAGES}
        urls["json"] = reverse("orders:view_json", args=[s.code, latest.number])
        for name, path in urls.items():
            for state in ("cold", "warm"):
                if state == "cold":
                    cold()
                with CaptureQueriesContext(connection) as ctx:
                    r = client.get(path)
                assert r.status_code == 200, (name, r.status_code)
                counts[(power, name, state)] = len(ctx.captured_queries)
                if state == "warm" and name in ("dashboard", "orders"):
                    # what each table was read for: the map's block reads no row again (a
                    # table read in another's query, as the version with the open window, counts)
                    for table in ("stateversion", "phasewindow", "ordersheet"):
                        counts[(power, name, table)] = sum(
                            f'FROM "{app(table)}_{table}"' in q["sql"]
                            or f'JOIN "{app(table)}_{table}"' in q["sql"]
                            for q in ctx.captured_queries
                        )
    return counts


def app(table: str) -> str:
    return "orders" if table == "ordersheet" else "campaign"


def measured_each_turn(organiser, capture, measure, **season) -> dict[int, dict]:
    """Play a season on the real map (``play_real_season``) and ``measure(campaign)`` as each
    turn's march phase opens: {turn: what it measured}."""
    seen: dict[int, dict] = {}

    def step(what, subject) -> None:
        campaign = subject if what == "start" else subject.campaign
        window = campaign.open_window()
        if window is not None and window.phase == "march" and window.turn not in seen:
            seen[window.turn] = measure(campaign)

    play_real_season(organiser, capture, step=step, **season)
    return seen


def test_queries_per_page_are_the_same_on_turn_1_and_on_turn_3(
    organiser, django_capture_on_commit_callbacks
):
    seen = measured_each_turn(
        organiser, django_capture_on_commit_callbacks, page_queries, turns=3, name="Counts",
        prefix="qc",
    )  # fmt: skip
    assert {1, 3} <= set(seen), seen.keys()
    early, late = seen[1], seen[3]
    assert early == late
    for name in (*PAGES, "json"):
        for state in ("cold", "warm"):
            # Austria commands two armies (Austria and the Empire), Prussia one: the same queries.
            assert early[("prussia", name, state)] == early[("austria", name, state)], name
    # The cached view spares the event and dice queries.
    assert early[("prussia", "dashboard", "warm")] < early[("prussia", "dashboard", "cold")]
    # The latest version, the open window and the sheet are read once a page, the map's
    # embedded layer taking the page's own (the dashboard's battles too).
    for name in ("dashboard", "orders"):
        for table in ("stateversion", "phasewindow", "ordersheet"):
            assert early[("prussia", name, table)] == 1, (name, table)


def handover_pages(campaign) -> dict[str, object]:
    """The Prussian seat's handover page, cold and warm: queries and size; and its pages of
    earlier turns (``?turn=N``)."""
    s = campaign.seats.select_related("user").get(power="prussia")
    client = Client()
    client.force_login(s.user)
    path = reverse("orders:handover", args=[s.code])
    out: dict[str, object] = {}
    for state in ("cold", "warm"):
        if state == "cold":
            cold()
        with CaptureQueriesContext(connection) as ctx:
            r = client.get(path)
        assert r.status_code == 200
        out[state] = len(ctx.captured_queries)
        out["size"] = len(r.content)
        out["page"] = r.content.decode()
    turn = campaign.open_window().turn
    version = campaign.latest_version()
    every = Event.objects.filter(campaign=campaign).select_related("version")
    out["history"] = project(
        viewcache.version_state(version), seat_viewer(s),
        events=every.order_by("version__number", "seq"),
    )  # fmt: skip
    out["earlier"] = {}
    for n in range(1, turn - 1):
        cold()
        with CaptureQueriesContext(connection) as ctx:
            r = client.get(f"{path}?turn={n}")
        assert r.status_code == 200
        out["earlier"][n] = (len(ctx.captured_queries), r.content.decode())
    return out


def test_the_handover_page_costs_the_same_late_in_the_season(
    organiser, django_capture_on_commit_callbacks
):
    seen = measured_each_turn(
        organiser, django_capture_on_commit_callbacks, handover_pages, turns=6, name="Handover",
        prefix="ho",
    )  # fmt: skip
    first, late = seen[1], seen[6]
    assert (first["cold"], first["warm"]) == (late["cold"], late["warm"])
    # Two turns in full at most, whatever the season's length: the page does not grow with it.
    assert late["page"].count("<h3>Turn ") == 2
    # (The whole history at turn 6 was about three times the page of turn 1.)
    assert late["size"] <= 2 * first["size"], (first["size"], late["size"])
    # Every earlier turn is on a page of its own, with the same queries each, linked from the
    # page; together they hold what the whole history held, far more than one page.
    earlier = late["earlier"]
    assert sorted(earlier) == [1, 2, 3, 4]
    assert len({queries for queries, _ in earlier.values()}) == 1
    assert "?turn=4#reports" in late["page"] and "?turn=1#reports" in late["page"]
    for n, (_, text) in earlier.items():
        assert text.count("<h3>Turn ") == 1 and f"<h3>Turn {n}</h3>" in text
    assert "?turn=3#reports" in earlier[4][1] and "?turn=2#reports" in earlier[1][1]
    # Nothing the seat could read before is out of reach: each event of the whole history, as
    # projected for the seat, is on the page of its turn.
    pages = {**{n: text for n, (_, text) in earlier.items()}, 6: late["page"], 5: late["page"]}
    for e in late["history"].events:
        if e.turn:
            assert escape(e.text) in pages[e.turn], (e.turn, e.text)
