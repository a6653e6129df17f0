# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""The battle page with its photos and accounts (issue 45), on a battle the engine set up:
the sides see the section and its controls; a player not in the battle is shown no page."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.battles import photo_files as files
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    battle,
    battle_map,
    campaign,
    page,
)
from tests.orders.test_play_fixtures import client_for
from tests.storage.folders import with_folders

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def photo_folder(settings, tmp_path):
    settings.STORAGES = with_folders(photos=tmp_path / "photos")


def test_the_battle_page_carries_the_photos_and_the_accounts(battle, player, other, ally):
    upload = reverse("battles:photo_upload", args=[battle.campaign.code, battle.code])
    client_for(player).post(upload, {"photos": [SimpleUploadedFile("a.jpg", files.jpeg())]})
    account = reverse("battles:account", args=[battle.campaign.code, battle.code, "austrian"])
    client_for(other).post(account, {"text": "The Prussians came at dawn."})
    shown = page(client_for(other), "battle", battle).content.decode()
    assert 'id="photos"' in shown and 'id="accounts"' in shown
    assert "The Prussians came at dawn." in shown
    assert 'accept="image/*" multiple' in shown and 'enctype="multipart/form-data"' in shown
    assert "js/photos.js" in shown
    photo = battle.photos.get()
    thumb = reverse(
        "battles:photo_image", args=[battle.campaign.code, battle.code, photo.code, "thumb"]
    )
    assert f'src="{thumb}"' in shown
    assert page(client_for(ally), "battle", battle).status_code == 403
