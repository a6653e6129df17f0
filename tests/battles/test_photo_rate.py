# ruff: noqa: F811 (the fixtures are imported)
"""Uploads of photos a minute, per player (``PHOTO_UPLOADS_PER_MINUTE``, docs/security.md,
"Doors, 30 November 2026"): each upload may cost the server a file's reading and decoding,
refused or not, so a player who sends more in a minute is answered at once, nothing read, with
a message saying when to send again; the script's page stays, its photos still chosen."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError

from battles import photo_views
from battles.services import photos as photo_service
from tests.battles import photo_files as files
from tests.battles.test_photos import (  # noqa: F401
    address,
    battle,
    photo_folder,
    said,
    upload,
)
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db

SCRIPT = {"X-Photo-Upload": "1"}


@pytest.fixture(autouse=True)
def two_a_minute(settings, monkeypatch):
    """Two uploads a minute, every request at 20:15:42 (no test straddles a minute)."""
    settings.PHOTO_UPLOADS_PER_MINUTE = 2
    at = datetime(2026, 11, 30, 20, 15, 42, tzinfo=UTC)
    monkeypatch.setattr(photo_views, "timezone", SimpleNamespace(now=lambda: at))
    cache.clear()
    yield
    cache.clear()


def test_it_takes_the_uploads_of_a_minute_and_refuses_the_next_unread(battle, player):
    client = client_for(player)
    for name in ("a.jpg", "b.jpg"):
        assert upload(client, battle, (name, files.jpeg())).status_code == 302
    r = upload(client, battle, ("c.jpg", files.jpeg()))
    assert r.status_code == 302 and r["Location"].endswith("#photos")
    assert r["Retry-After"] == "18"
    assert said(r)[-1].startswith(
        "You sent photos 2 times in the last minute, the most the site takes in a minute;"
        " nothing of this upload was read. Send it again in 18 seconds."
    )
    assert battle.photos.count() == 2


def test_the_script_is_answered_429_and_its_page_stays(battle, player):
    """No "next" page: the script shows the message where it is, the photos still chosen, and
    no message is left for the next page."""
    client = client_for(player)
    for name in ("a.jpg", "b.jpg"):
        upload(client, battle, (name, files.jpeg()), **SCRIPT)
    r = upload(client, battle, ("c.jpg", files.jpeg()), **SCRIPT)
    assert r.status_code == 429 and "next" not in r.json()
    assert r.json()["message"].startswith("You sent photos 2 times in the last minute")
    assert not any(m.startswith("You sent") for m in said(r)) and battle.photos.count() == 2


def test_refused_uploads_count_too(battle, player):
    client = client_for(player)
    for _ in range(2):
        upload(client, battle, ("page.jpg", files.HTML))
    r = upload(client, battle, ("a.jpg", files.jpeg()))
    assert "nothing of this upload was read" in said(r)[-1] and not battle.photos.exists()


def test_each_player_has_his_own_count(battle, player, other):
    for name in ("a.jpg", "b.jpg", "c.jpg"):
        upload(client_for(player), battle, (name, files.jpeg()))
    r = upload(client_for(other), battle, ("d.jpg", files.jpeg()))
    assert said(r) == ["1 photo added."]


def test_the_next_minute_takes_uploads_again(player):
    at = datetime(2026, 11, 30, 20, 15, 42, tzinfo=UTC)
    assert [photo_service.upload_wait(player, now=at) for _ in range(3)] == [0, 0, 18]
    assert photo_service.upload_wait(player, now=at.replace(minute=16, second=1)) == 0


def test_no_one_else_spends_a_players_count(battle, player, outsider):
    """A player not in the battle is answered 404 before anything is counted."""
    for _ in range(3):
        assert upload(client_for(outsider), battle, ("a.jpg", files.jpeg())).status_code == 404
    assert said(upload(client_for(player), battle, ("a.jpg", files.jpeg()))) == ["1 photo added."]


class DeadRedis:
    """The cache while Redis cannot be reached: an add is dropped, an incr raises."""

    def add(self, *args, **kwargs) -> bool:
        return False

    def incr(self, *args, **kwargs) -> int:
        raise RedisConnectionError("Connection refused")


def test_a_cache_that_cannot_count_lets_the_upload_through(battle, player, monkeypatch):
    monkeypatch.setattr(photo_service, "cache", DeadRedis())
    client = client_for(player)
    for name in ("a.jpg", "b.jpg", "c.jpg"):
        upload(client, battle, (name, files.jpeg()))
    assert battle.photos.count() == 3
