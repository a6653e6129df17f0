# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""The seats' map pictures (docs/map-pictures.md): drawn once per (version, seat) by the worker,
never in a web request; served from the ``pictures`` storage with the version's cache headers;
holding nothing the seat's view does not. (The same behaviour in an S3 bucket:
tests/storage/test_files.py.)

The renderer is watched, not replaced: ``renders`` wraps ``maps.pictures.seat_picture_png`` and
counts its calls, and ``pieces_drawn`` keeps what ``maps.core.picture.draw_picture`` is given.
"""

import pytest
from django.urls import reverse

from campaign.projection import map_counters
from campaign.services import knowledge
from dgk import files
from maps import pictures
from maps.core import picture
from maps.tasks import draw_map_picture, draw_wanted_map_pictures
from tests.orders.test_play_fixtures import (
    MARKERS,
    client_for,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)
from tests.storage.folders import with_folders

pytestmark = pytest.mark.django_db
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def folder(settings, tmp_path):
    """A picture folder of this test's own (set before the campaign resolves anything)."""
    settings.STORAGES = with_folders(pictures=tmp_path / "pictures")
    return tmp_path / "pictures"


@pytest.fixture
def renders(monkeypatch) -> list:
    """One entry per picture drawn, by whoever draws it."""
    calls = []
    draw = pictures.seat_picture_png

    def counted(view, hexmap, **kwargs):
        calls.append(view.viewer_label)
        return draw(view, hexmap, **kwargs)

    monkeypatch.setattr(pictures, "seat_picture_png", counted)
    return calls


@pytest.fixture
def pieces_drawn(monkeypatch) -> dict:
    """The picture's title -> the pieces and remarks it was drawn with."""
    seen = {}
    draw = picture.draw_picture

    def kept(hexmap, pieces, remarks=(), **kwargs):
        seen[kwargs["title"]] = (list(pieces), list(remarks))
        return draw(hexmap, pieces, remarks, **kwargs)

    monkeypatch.setattr(picture, "draw_picture", kept)
    return seen


def umpire_url(campaign, number: int) -> str:
    return reverse("orders:umpire_map", args=[campaign.code, number])


def test_no_web_request_draws_a_picture(marching, player, organiser, renders):
    prussia = seat(marching, "prussia")
    latest = marching.latest_version()
    c, umpire = client_for(player), client_for(organiser)
    r = c.get(url("map", prussia, latest.number), {"v": latest.id})
    assert r.status_code == 202
    assert r["Content-Type"] == "image/svg+xml" and b"being drawn" in r.content
    assert r["Retry-After"] and r["Cache-Control"] == "no-store" and "ETag" not in r
    assert umpire.get(umpire_url(marching, latest.number)).status_code == 202
    assert renders == []
    assert not pictures.picture_stored(latest, prussia)

    assert draw_wanted_map_pictures.delay().get() >= 2  # runperiodic's part, without a broker
    drawn = len(renders)
    r = c.get(url("map", prussia, latest.number), {"v": latest.id})
    assert r.status_code == 200 and r["Content-Type"] == "image/png"
    assert b"".join(r.streaming_content).startswith(PNG)
    assert "immutable" in r["Cache-Control"]
    assert umpire.get(umpire_url(marching, latest.number)).status_code == 200
    assert len(renders) == drawn  # served as stored, not drawn again


def test_a_resolution_asks_for_every_seats_picture(marching, renders):
    latest = marching.latest_version()
    notes = set(pictures.wanted_notes())
    seats = list(marching.seats.filter(reserve=False))
    assert {f"{latest.id}-{s.id}" for s in seats} | {f"{latest.id}-umpire"} <= notes
    assert renders == []  # asked for, not drawn, in the request that resolved the phase
    draw_wanted_map_pictures.delay()
    for s in seats:
        assert files.read_bytes(pictures.KIND, pictures.picture_key(latest, s)).startswith(PNG)
    assert pictures.picture_stored(latest, None)
    assert pictures.wanted_notes() == []


def test_without_a_broker_the_page_leaves_a_note_for_runperiodic(
    marching, player, renders, django_capture_on_commit_callbacks
):
    prussia = seat(marching, "prussia")
    first = marching.versions.get(number=0)  # no resolution asked for this one
    note = f"{first.id}-{prussia.id}"
    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(player).get(url("map", prussia, 0)).status_code == 202
    assert note in pictures.wanted_notes() and renders == []
    draw_wanted_map_pictures.delay()
    assert renders and pictures.picture_stored(first, prussia)
    assert note not in pictures.wanted_notes()


def test_with_a_broker_the_page_queues_the_task_once(
    marching, player, renders, settings, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the web sends tasks to a worker
    prussia = seat(marching, "prussia")
    latest = marching.latest_version()
    c = client_for(player)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert c.get(url("map", prussia, latest.number)).status_code == 202
        assert c.get(url("map", prussia, latest.number)).status_code == 202
    assert len(queued) == 1  # asked twice, queued once
    assert renders == []
    for task in queued:  # the worker (Celery stays eager in tests: the task runs here)
        task()
    assert len(renders) == 1
    r = c.get(url("map", prussia, latest.number))
    assert r.status_code == 200 and b"".join(r.streaming_content).startswith(PNG)


def test_the_task_is_safe_to_run_twice(marching, renders):
    prussia = seat(marching, "prussia")
    latest = marching.latest_version()
    assert draw_map_picture.delay(latest.id, prussia.id).get()
    assert draw_map_picture.delay(latest.id, prussia.id).get()
    assert len(renders) == 1


def test_a_note_for_a_version_rolled_back_is_dropped(marching, renders):
    pictures.mark_wanted(10**9, None)
    draw_wanted_map_pictures.delay()
    assert f"{10**9}-umpire" not in pictures.wanted_notes()


def test_a_seat_gets_a_new_picture_when_its_view_changes(marching):
    # allies_share changes what an ally knows: the picture's name (and ETag) follow it.
    hanover = seat(marching, "hanover")
    before = pictures.picture_name(hanover)
    marching.options = {**marching.options, "allies_share": True}
    marching.save()
    assert pictures.picture_name(seat(marching, "hanover")) != before


def test_the_fog_holds_in_the_picture(marching, pieces_drawn):
    latest = marching.latest_version()
    austria, prussia = seat(marching, "austria"), seat(marching, "prussia")
    draw_map_picture.delay(latest.id, austria.id)
    draw_map_picture.delay(latest.id, prussia.id)
    (enemy_title,) = [t for t in pieces_drawn if "Austrian" in t]
    (own_title,) = [t for t in pieces_drawn if "Prussian" in t]
    enemy, enemy_remarks = pieces_drawn[enemy_title]
    own, _ = pieces_drawn[own_title]

    prussian = [p for p in enemy if p.army == "Prussia"]
    assert prussian, "Frederick's position and Berlin's garrison chit are public (3.1.1, 3.1.2)"
    assert all(p.points == "" for p in prussian)  # their points are not (3.1.2)
    assert not [p for p in prussian if p.name.startswith("T")]  # nor the siege train (8)
    words = " ".join(f"{p.name} {p.points}" for p in enemy) + enemy_title
    words += " ".join(r.text for r in enemy_remarks)
    for marker in MARKERS:
        assert marker not in words
    # exactly the counters of the Austrian view, nothing more
    view = knowledge.seat_view(austria, latest)
    hexmap = pictures.load_campaign_map(marching.map_name)
    assert len(enemy) + len(enemy_remarks) == len(map_counters(view, hexmap))

    # the owner's picture does carry them (so this test can fail)
    assert {"31017", "983"} <= {p.points for p in own}
    assert [p for p in own if p.army == "Prussia" and p.name == "T1"]
