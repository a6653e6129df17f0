# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Every file the site writes and serves goes through Django's storages (docs/operations.md,
"When one server is not enough"): the same behaviour in folders of this machine and in a real
S3 server (moto's, ``files_in``): a picture drawn by the worker's code and served by the view
with its headers and its seat check, tiles, the book of the season, the backups kept to the
last N, /healthz, and files written whole."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from campaign.services import organiser as organiser_service
from campaign.tasks import record_heartbeat
from dgk import files
from maps import pictures
from maps.core.loader import load_map
from maps.core.tiles import map_stamp
from maps.tasks import draw_map_picture
from maps.tiles import render_tiles, tile_key, tiles_ready
from orders.access import _version
from seasons.services import backups, bookfiles
from tests.orders.test_play_fixtures import client_for, play_map, rules_campaign, seat, url
from tests.storage.conftest import bucket_storages, new_bucket, s3_client

pytestmark = pytest.mark.django_db
PNG = b"\x89PNG\r\n\x1a\n"


def body_of(response) -> bytes:
    return b"".join(response.streaming_content)


def test_a_picture_drawn_by_the_worker_is_served_by_the_view_to_its_seat_only(
    files_in, rules_campaign, player, other
):
    prussia = seat(rules_campaign, "prussia")
    version = _version(rules_campaign)
    key = pictures.picture_key(version, prussia)
    c = client_for(player)
    assert c.get(url("map", prussia, version.number)).status_code == 202  # being drawn
    assert not pictures.picture_stored(version, prussia)

    assert draw_map_picture.delay(version.id, prussia.id).get()  # the worker's code
    stored = files.read_bytes(pictures.KIND, key)
    r = c.get(url("map", prussia, version.number), {"v": version.id})
    assert r.status_code == 200 and r["Content-Type"] == "image/png"
    assert body_of(r) == stored and stored.startswith(PNG)
    assert r["Content-Length"] == str(len(stored))
    assert r["Cache-Control"] == "private, max-age=31536000, immutable"
    again = c.get(url("map", prussia, version.number), HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304
    assert "Location" not in r and "X-Amz" not in str(r.headers)  # streamed, never a link

    # Another seat's player gets nothing of it; a version that does not exist is a 404.
    denied = client_for(other).get(url("map", prussia, version.number))
    assert denied.status_code in (403, 404) and not denied.content.startswith(PNG)
    assert c.get(url("map", prussia, version.number + 50)).status_code == 404


def test_the_notes_asking_for_pictures_are_in_the_storage_too(files_in, rules_campaign):
    version = _version(rules_campaign)
    pictures.mark_wanted(version.id, None)
    pictures.mark_wanted(version.id, None)  # twice: one note
    assert pictures.wanted_notes() == [f"{version.id}-umpire"]
    assert pictures.draw_wanted() == 1
    assert pictures.wanted_notes() == [] and pictures.picture_stored(version, None)


def test_tiles_written_then_served_the_marker_last(files_in, client):
    hexmap = load_map("central_europe_1756")
    stamp = map_stamp(hexmap)
    tile = reverse("maps:tile", args=[stamp, "-1", "0", "0"])
    assert not tiles_ready(hexmap) and client.get(tile).status_code == 404
    count = render_tiles(hexmap, zooms=(-1,))
    assert count > 0 and tiles_ready(hexmap)
    r = client.get(tile)
    assert r.status_code == 200 and r["Content-Type"] == "image/png"
    assert r["Cache-Control"] == "public, max-age=31536000, immutable"
    body = body_of(r)
    assert body == files.read_bytes("tiles", tile_key(stamp, -1, 0, 0)) and body.startswith(PNG)
    assert r["Content-Length"] == str(len(body))
    assert render_tiles(hexmap, zooms=(-1,)) == 0  # complete: one "exists?", nothing drawn
    assert client.get(reverse("maps:tile", args=[stamp, "2", "0", "0"])).status_code == 404


def test_a_book_written_is_served_to_members_only(
    files_in, campaign, organiser, player, outsider, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):  # no printing here
        organiser_service.end_campaign(campaign, organiser, now=campaign.started)
    campaign.refresh_from_db()
    address = reverse("war_book", args=[campaign.code, "a4"])
    c = client_for(player)
    assert c.get(address).status_code == 202  # not printed yet: asked for
    assert not bookfiles.book_ready(campaign)
    book = b"%PDF-1.4 the book of the season"
    for paper in bookfiles.PAPERS:
        files.save_whole(bookfiles.KIND, bookfiles.book_key(campaign, paper), book)
    assert bookfiles.book_ready(campaign)
    r = c.get(address)
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    assert body_of(r) == book and r["Content-Length"] == str(len(book))
    assert r["Cache-Control"] == "private, no-cache"
    assert "book-of-the-season-a4.pdf" in r["Content-Disposition"]
    assert client_for(outsider).get(address).status_code in (403, 404)


def test_backups_are_written_listed_and_kept_to_the_last_n(files_in, campaign, now):
    made = []
    for night in range(4):
        done = backups.backup_campaigns(keep=2, now=now + timedelta(days=night))
        assert done.failed == []
        made += done.written
    kept = backups.backups_of(campaign.code)
    assert kept == made[-2:]
    body = backups.read_backup(kept[-1])
    assert body["campaign"]["code"] == str(campaign.code)
    assert body["campaign"]["seed"] == campaign.seed
    assert not backups.due(campaign, every=timedelta(hours=24), now=now + timedelta(days=3))


def test_a_file_written_again_is_replaced_under_its_own_name(files_in):
    store = files.storage("pictures")
    assert files.save_whole("pictures", "c/1/a.png", b"first") == "c/1/a.png"
    assert files.save_whole("pictures", "c/1/a.png", b"second") == "c/1/a.png"
    assert files.read_bytes("pictures", "c/1/a.png") == b"second"
    assert store.listdir("c/1") == ([], ["a.png"])


def test_a_write_that_fails_leaves_the_old_file_whole(files_in):
    files.save_whole("books", "c/v1-a4.pdf", b"%PDF whole")

    class Broken(ContentFile):
        """Half a book, then the disk (or the line) gives up."""

        def chunks(self, chunk_size=None):
            yield b"%PDF half"
            raise OSError("the disk is full")

        def read(self, size=-1):
            if self.tell():
                raise OSError("the line is down")
            return super().read(9)

    with pytest.raises(OSError):
        files.storage("books").save("c/v1-a4.pdf", Broken(b"%PDF half, and more"))
    assert files.read_bytes("books", "c/v1-a4.pdf") == b"%PDF whole"
    assert files.storage("books").listdir("c") == ([], ["v1-a4.pdf"])


def test_healthz_tells_the_folders_room_or_that_the_bucket_answers(files_in, admin_client, client):
    record_heartbeat.delay()
    body = admin_client.get("/healthz").json()
    assert body["status"] == "ok" and body["disk"]["ok"] is True
    for kind in ("pictures", "tiles", "books", "backups"):
        if files_in == "local":
            assert body["disk"][kind]["free_mb"] > 0
        else:
            assert body["disk"][kind] == {"bucket": "ok"}
    assert client.get("/healthz").json() == {"status": "ok"}


def test_healthz_is_degraded_by_a_missing_bucket_and_tells_no_address(
    s3_endpoint, admin_client, client
):
    record_heartbeat.delay()
    with override_settings(STORAGES=bucket_storages(s3_endpoint, "no-such-bucket")):
        r = admin_client.get("/healthz")
        assert r.status_code == 200  # play goes on; pictures wait
        body = r.json()
        assert body["status"] == "degraded" and body["disk"]["ok"] is False
        assert body["disk"]["pictures"] == {
            "bucket": "down",
            "error": "the bucket answered HTTP 404",
        }
        assert s3_endpoint not in r.content.decode() and "no-such-bucket" not in r.content.decode()
        assert client.get("/healthz").json() == {"status": "degraded"}


def test_the_bucket_holds_the_files_privately(s3_endpoint):
    bucket = new_bucket(s3_endpoint)
    with override_settings(STORAGES=bucket_storages(s3_endpoint, bucket)):
        files.save_whole("pictures", "c/1/prussia.png", PNG)
    s3 = s3_client(s3_endpoint)
    assert s3.get_object(Bucket=bucket, Key="pictures/c/1/prussia.png")["Body"].read() == PNG
    grants = s3.get_object_acl(Bucket=bucket, Key="pictures/c/1/prussia.png")["Grants"]
    assert [g["Permission"] for g in grants] == ["FULL_CONTROL"]  # the owner's, nobody else's
    assert all("URI" not in g["Grantee"] for g in grants)  # not AllUsers, not AuthenticatedUsers


def test_makebucket_makes_the_bucket_once_and_copies_the_folders_in(
    s3_endpoint, tmp_path, settings, capsys
):
    bucket = f"dgk-made-{hashlib.sha256(str(tmp_path).encode()).hexdigest()[:8]}"
    (tmp_path / "pictures" / "c" / "1").mkdir(parents=True)
    (tmp_path / "pictures" / "c" / "1" / "prussia.png").write_bytes(PNG)
    (tmp_path / "pictures" / "c" / "1" / ".write-x.tmp").write_bytes(b"half")
    kinds = {kind: tmp_path / kind for kind in settings.FILE_KINDS}  # the old folders
    with override_settings(STORAGES=bucket_storages(s3_endpoint, bucket), FILE_KINDS=kinds):
        call_command("makebucket", "--copy-folders")
        assert f"bucket {bucket}: made" in capsys.readouterr().out
        assert files.read_bytes("pictures", "c/1/prussia.png") == PNG
        call_command("makebucket", "--copy-folders")
        out = capsys.readouterr().out
        assert f"bucket {bucket}: there already" in out
        assert "pictures: 0 copied" in out and "1 there already" in out
    keys = [o["Key"] for o in s3_client(s3_endpoint).list_objects_v2(Bucket=bucket)["Contents"]]
    assert keys == ["pictures/c/1/prussia.png"]


def test_makebucket_says_there_is_no_bucket_with_folders(capsys):
    call_command("makebucket")
    assert "FILE_STORAGE=local" in capsys.readouterr().out
