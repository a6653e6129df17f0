"""SQL queries per player page do not grow with the season: the same count at the first march
of turn 1 and at the march of the last turn played, and the same for a seat of one army as for
a seat of two (more forces), with the view cached or projected afresh."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.web.real_season import play_real_season

pytestmark = pytest.mark.django_db
PAGES = ("dashboard", "orders", "report", "handover", "map_overlay")


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
                    cache.clear()
                with CaptureQueriesContext(connection) as ctx:
                    r = client.get(path)
                assert r.status_code == 200, (name, r.status_code)
                counts[(power, name, state)] = len(ctx.captured_queries)
    return counts


def test_queries_per_page_are_the_same_on_turn_1_and_on_turn_3(
    organiser, django_capture_on_commit_callbacks
):
    seen: dict[int, dict] = {}

    def step(what, subject) -> None:
        campaign = subject if what == "start" else subject.campaign
        window = campaign.open_window()
        if window is not None and window.phase == "march" and window.turn not in seen:
            seen[window.turn] = page_queries(campaign)

    play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=3, name="Counts", prefix="qc",
        step=step,
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
