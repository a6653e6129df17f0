# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""A full disk under the map pictures (issue 27): a picture that cannot be written leaves no
half file, the page still answers, /healthz names the folder, and the picture is drawn once
there is room again. A real full filesystem: a 4 MB tmpfs, filled (needs root to mount; skips
with the reason elsewhere, unless DGK_REQUIRE_SERVICES=1)."""

import errno
import subprocess
from pathlib import Path

import pytest

from campaign.tasks import record_heartbeat
from dgk import files
from maps.pictures import KIND, draw_picture, picture_key
from orders.access import _version
from tests.conftest import REQUIRE_SERVICES
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    play_map,
    rules_campaign,
    seat,
    url,
)
from tests.storage.folders import with_folders

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_disk(tmp_path, settings):
    """The pictures' folder on a 4 MB filesystem of its own, with not a byte free."""
    folder = tmp_path / "pictures"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        reason = f"cannot mount a small tmpfs (needs root): {mounted.stderr.strip()}"
        if REQUIRE_SERVICES:
            pytest.fail(reason)
        pytest.skip(reason)
    settings.STORAGES = with_folders(pictures=folder)
    filler = folder / "filler"
    try:
        with filler.open("wb") as out:
            while True:
                out.write(b"\0" * 65536)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    try:
        yield filler
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_picture_on_a_full_disk_leaves_nothing_and_is_drawn_when_there_is_room(
    rules_campaign, player, admin_client, full_disk, settings
):
    prussia = seat(rules_campaign, "prussia")
    version = _version(rules_campaign)
    key = picture_key(version, prussia)
    path = Path(files.storage(KIND).path(key))
    with pytest.raises(OSError) as raised:
        draw_picture(version.id, prussia.id)
    assert raised.value.errno == errno.ENOSPC
    assert not path.exists() and not list(path.parent.glob(".write-*"))  # no half file
    # The page and its picture answer: "being drawn", asked for again.
    c = client_for(player)
    assert c.get(url("dashboard", prussia)).status_code == 200
    assert c.get(url("map", prussia, version.number)).status_code == 202
    # /healthz names the full folder (degraded: play goes on).
    record_heartbeat.delay()
    settings.DISK_MIN_FREE_MB = 2
    body = admin_client.get("/healthz").json()
    assert body["status"] == "degraded"
    assert str(full_disk.parent) in body["disk"]["pictures"]["error"]
    # Room again: the picture is drawn, whole, and /healthz is ok.
    full_disk.unlink()
    assert draw_picture(version.id, prussia.id) == key
    assert path.read_bytes().startswith(b"\x89PNG")
    assert admin_client.get("/healthz").json()["status"] == "ok"
