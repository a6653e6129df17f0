# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""The cache of what a seat sees of a version (campaign/services/viewcache.py): computed once per
(version, seat), a new version gets a new projection, and two seats never share one.

The real projection runs; what the tests look at is the cache itself: what is kept under the
seat's key is what the next request is served, so a value planted there shows whether the page
projected again or not."""

import dataclasses

import pytest
from django.core.cache import cache

from campaign.models import StateVersion
from campaign.services import viewcache
from orders.access import _version
from orders.warmup import warm_pages
from tests.campaign.test_fog_review import without_noise
from tests.maps.test_map_widget import embedded
from tests.orders.test_play_fixtures import (
    FREDERICK_POINTS,
    MARKERS,
    client_for,
    deploy_everyone,
    marching,
    play_map,
    ready,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def deployed(rules_campaign, django_capture_on_commit_callbacks, mailoutbox):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    # The worker made every seat's view when the deployment resolved (orders.warmup): these
    # tests look at what the pages themselves keep, so they start from nothing kept.
    cache.clear()
    viewcache.forget()
    return rules_campaign


def test_the_first_request_keeps_the_view_and_the_second_is_served_from_it(deployed, player):
    prussia = seat(deployed, "prussia")
    version = _version(deployed)
    key = viewcache.view_key(prussia, version)
    assert cache.get(key) is None
    c = client_for(player)
    assert c.get(url("dashboard", prussia)).status_code == 200
    kept = cache.get(key)
    assert kept is not None and kept.turn == version.turn
    assert any(f.points is not None for f in kept.forces)  # the owner's own strengths
    # Plant a view that no projection would make where another process would find it (this
    # process's own copy forgotten): the next page shows it, so it was not projected again.
    cache.set(key, dataclasses.replace(kept, turn=4321), viewcache.TIMEOUT)
    viewcache.forget_views()
    page = c.get(url("dashboard", prussia)).content.decode()
    assert "Turn 4321:" in page
    # This process keeps what it read: planted again, the page still shows the view it had.
    cache.set(key, dataclasses.replace(kept, turn=8765), viewcache.TIMEOUT)
    page = c.get(url("dashboard", prussia)).content.decode()
    assert "Turn 4321:" in page and "8765" not in page


def test_a_new_version_gets_a_new_projection(deployed, player, now):
    prussia = seat(deployed, "prussia")
    first = _version(deployed)
    view = viewcache.seat_view(prussia, first)
    latest = StateVersion.objects.get(id=first.id)
    latest.pk = None
    latest.number = first.number + 1
    latest.turn = first.turn + 1
    latest.state = {**latest.state, "turn": first.turn + 1}
    latest.save()
    later = _version(deployed)
    assert later.number == first.number + 1
    assert viewcache.view_key(prussia, later) != viewcache.view_key(prussia, first)
    again = viewcache.seat_view(prussia, later)
    assert (view.turn, again.turn) == (first.turn, first.turn + 1)


def test_two_seats_never_share_a_cached_view(deployed, player, other):
    prussia, austria = seat(deployed, "prussia"), seat(deployed, "austria")
    version = _version(deployed)
    assert viewcache.view_key(prussia, version) != viewcache.view_key(austria, version)
    assert client_for(player).get(url("dashboard", prussia)).status_code == 200
    # (without its codes, tokens, times and row ids, whose random digits could hold a marker)
    page = without_noise(client_for(other).get(url("dashboard", austria)).content.decode())
    for marker in MARKERS:
        assert marker not in page  # Prussia's cached view is not Austria's
    kept = cache.get(viewcache.view_key(austria, version))
    assert all(f.points is None for f in kept.forces if f.army.value == "prussia")
    assert any(f.points is not None for f in cache.get(viewcache.view_key(prussia, version)).forces)


def test_allies_sharing_is_part_of_the_key(deployed):
    hanover = seat(deployed, "hanover")
    version = _version(deployed)
    before = viewcache.view_key(hanover, version)
    deployed.options = {**(deployed.options or {}), "allies_share": True}
    deployed.save()
    hanover = seat(deployed, "hanover")
    assert viewcache.view_key(hanover, version) != before


def test_a_resolution_keeps_the_state_it_made_for_this_process(
    campaign, now, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """Once the resolution commits, its new versions' states are decoded already: reading one
    makes no query, and it is the state stored."""
    from campaign.services.resolution import resolve_due_phase
    from rules.state import state_from_dict

    window = campaign.open_window()
    with django_capture_on_commit_callbacks(execute=True):
        resolve_due_phase(window.id, now=window.deadline)
    latest = StateVersion.objects.defer("state").filter(campaign=campaign).latest("number")
    assert latest.number > window.version.number
    with django_assert_num_queries(0):
        state = viewcache.version_state(latest)
    assert state == state_from_dict(StateVersion.objects.get(id=latest.id).state)


def part_key(s, version, name: str) -> str:
    """Where ``{% seatcache name %}`` keeps a part of the seat's page (viewcache.derived)."""
    return f"{viewcache.view_key(s, version)}:{viewcache.code_stamp()}:part:{name}"


def test_a_part_of_the_dashboard_is_kept_per_version_and_seat(
    marching, player, other, django_capture_on_commit_callbacks
):
    prussia, austria = seat(marching, "prussia"), seat(marching, "austria")
    version = _version(marching)
    mine, theirs = client_for(player), client_for(other)
    assert str(FREDERICK_POINTS) in mine.get(url("dashboard", prussia)).content.decode()
    page = without_noise(theirs.get(url("dashboard", austria)).content.decode())
    kept = cache.get(part_key(prussia, version, "dashboard-forces"))
    assert str(FREDERICK_POINTS) in kept  # the Prussian part: Frederick's own strength
    assert part_key(austria, version, "dashboard-forces") != part_key(
        prussia, version, "dashboard-forces"
    )
    for marker in MARKERS:
        assert marker not in cache.get(part_key(austria, version, "dashboard-forces"))
        assert marker not in page
    # Served from the cache (another process's, this one's copy forgotten), not drawn again.
    cache.set(
        part_key(prussia, version, "dashboard-forces"), "<p>PLANTED-PART</p>", viewcache.TIMEOUT
    )
    viewcache.forget_views()
    assert "PLANTED-PART" in mine.get(url("dashboard", prussia)).content.decode()
    assert "PLANTED-PART" not in theirs.get(url("dashboard", austria)).content.decode()
    # A new version is a new key: the part is drawn afresh.
    for s in marching.seats.filter(reserve=False):
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    assert _version(marching).number > version.number
    page = mine.get(url("dashboard", prussia)).content.decode()
    assert "PLANTED-PART" not in page and "Your forces" in page


def test_the_map_block_a_page_embeds_follows_the_draft_and_ready(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    before = embedded(c.get(url("orders", prussia)).content.decode())
    assert before["orders"] == [] and before["locked"] is False
    assert embedded(c.get(url("orders", prussia)).content.decode()) == before  # kept
    r = c.post(
        url("save_march", prussia),
        {"unit": "frederick", "path": "4", "marches": "1", "phase": "march"},
    )
    assert r.status_code in (200, 302)
    after = embedded(c.get(url("orders", prussia)).content.decode())
    assert [o["unit"] for o in after["orders"]] == ["frederick"]
    assert embedded(c.get(url("dashboard", prussia)).content.decode())["orders"] == after["orders"]
    # Another unit asked for is another block: Frederick's reach.
    chosen = embedded(c.get(url("orders", prussia), {"unit": "frederick"}).content.decode())
    assert chosen["reach"]["unit"] == "frederick" and "reach" not in after
    c.post(url("ready", prussia), {"phase": "march"})
    assert embedded(c.get(url("orders", prussia)).content.decode())["locked"] is True


def test_the_worker_leaves_the_seats_pages_in_the_cache_and_keeps_none_itself(deployed, player):
    """The worker's warm-up (``orders.warmup``) serves no page: what it makes is left in
    Django's cache for the web processes, not among the views its own process keeps."""
    version = _version(deployed)
    prussia = seat(deployed, "prussia")
    earlier = deployed.versions.order_by("number").first()
    assert earlier.id != version.id and warm_pages(earlier.id) == 0  # no longer the latest
    assert warm_pages(version.id + 1000) == 0  # (gone)
    assert warm_pages(version.id) == len(deployed.seats.filter(reserve=False))
    # (made_for_others) only the version's battles and alliances, which the resolution reads
    assert {k.rsplit(":", 1)[1] for k in viewcache._local} <= {"battles", "alliances"}
    kept = cache.get(viewcache.view_key(prussia, version))
    assert kept is not None and kept.viewer_label == prussia.label
    # and a page served after it takes the view the worker made, and keeps it for itself
    cache.set(viewcache.view_key(prussia, version), dataclasses.replace(kept, turn=99))
    assert client_for(player).get(url("orders", prussia)).status_code == 200
    assert viewcache._local[viewcache.view_key(prussia, version)].turn == 99


@pytest.mark.django_db(databases=[])
def test_a_process_keeps_the_settings_number_of_values_the_oldest_out_first(settings):
    """``VIEW_CACHE_ENTRIES``: what a web process keeps of the views in its own memory, in front
    of Django's cache; past it the oldest goes, and is read from Django's cache again."""
    settings.VIEW_CACHE_ENTRIES = 16
    viewcache.forget_views()
    made = []
    for i in range(20):
        viewcache._kept(f"test:kept:{i}", lambda i=i: made.append(i) or f"value {i}")
    assert list(viewcache._local) == [f"test:kept:{i}" for i in range(4, 20)]
    cache.delete("test:kept:0")  # (gone from Django's cache too: made again)
    assert viewcache._kept("test:kept:0", lambda: "made again") == "made again"
    assert viewcache._kept("test:kept:1", lambda: "not made") == "value 1"  # Django's cache's
    assert made == list(range(20))
    viewcache.forget_views()
