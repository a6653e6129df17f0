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
from tests.web.test_fog_review import without_noise
from tests.web.test_play_fixtures import (
    MARKERS,
    client_for,
    deploy_everyone,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def deployed(rules_campaign, django_capture_on_commit_callbacks, mailoutbox):
    cache.clear()
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
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
    cache.set(key, dataclasses.replace(kept, marches={"prussia": 4321}), viewcache.TIMEOUT)
    viewcache.forget_views()
    page = c.get(url("dashboard", prussia)).content.decode()
    assert "4321" in page
    # This process keeps what it read: planted again, the page still shows the view it had.
    cache.set(key, dataclasses.replace(kept, marches={"prussia": 8765}), viewcache.TIMEOUT)
    page = c.get(url("dashboard", prussia)).content.decode()
    assert "4321" in page and "8765" not in page


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
