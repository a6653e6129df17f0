"""Noninterference of a battle's photos and accounts (issue 45) on the 3-player campaign made from
the form (``tests.fog.scenarios``): A (Prussia) and B (Austria) have fought at 6933; C (France)
was not there.

The secret: B's side's photos and account of the battle. Before the result is settled C must see
no difference on any channel (a photo shows a side's forces); A, B's enemy in that battle, sees
them (the sides read each other's photos: the control, compared by the photos' bytes). Once the
result is settled every member reads them: C then sees the difference (a "rules: seen" row).
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from battles.models import BattleStatus
from battles.services import photos as photo_service
from tests.battles import photo_files
from tests.fog import scenarios
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.fog.scenarios import decide, ready, two
from tests.storage.folders import with_folders

pytestmark = pytest.mark.django_db

CAMPAIGN = "3p form"


@pytest.fixture(autouse=True)
def photo_folder(settings, tmp_path):
    settings.STORAGES = with_folders(photos=tmp_path / "photos")


@pytest.fixture
def fought(organiser, django_capture_on_commit_callbacks):
    """Both sides chose to fight: the battle phase resolved and the battle's record waits for
    its result on the table."""
    scene = scenarios.battle(organiser, django_capture_on_commit_callbacks)
    where = scene.state["leaders"]["frederick"]["hex"]
    decide(scene, "A", hex=where, army="prussia", choice="fight")
    ready(scene, "A", django_capture_on_commit_callbacks)
    decide(scene, "B", hex=where, army="austria", choice="fight")
    ready(scene, "B", django_capture_on_commit_callbacks)
    battle = scene.campaign.battles.get()
    assert battle.status == BattleStatus.PENDING
    return scene, battle


def _b_shares(scene, battle, which: str) -> None:
    """B's player adds a photo of the table (red or blue forces, its GPS in its EXIF) and writes
    his side's account."""
    user = scene.b.user
    side = photo_service.acting_side(battle, user)
    assert side, "B fought in the battle"
    data = photo_files.jpeg(size=(320, 240), colour=two(which, (200, 30, 30), (30, 30, 200)))
    done = photo_service.add_photos(
        battle, user, [("table.jpg", SimpleUploadedFile("t.jpg", data))]
    )
    assert done.added, done.refused
    text = two(which, "We held the hill until dusk.", "We were routed at noon.")
    photo_service.save_account(battle, user, side, text, now=timezone.now())


def test_b_photos_and_account_do_not_show_to_c_before_the_result(fought):
    scene, battle = fought

    def secret(which):
        _b_shares(scene, battle, which)

    label = f"B's photos and account × {CAMPAIGN} × battle, result pending"
    one, two_ = two_worlds(secret, SeatObserver(scene.campaign, scene.c.power))
    assert_same(one, two_, label=f"{label} → seen by C")
    one, two_ = two_worlds(secret, SeatObserver(scene.campaign, scene.a.power))
    assert_differs(one, two_, label=f"control: {label} → seen by A (a side)")
    photos = [name for name, body in one.items() if body[4:].startswith(b"image/jpeg")]
    assert photos, "A reached B's photo"
    assert any(one[name] != two_.get(name) for name in photos)  # by the photo's bytes


def test_b_photos_and_account_show_to_every_member_after_the_result(fought):
    scene, battle = fought
    battle.status = BattleStatus.SETTLED
    battle.save(update_fields=["status"])

    def secret(which):
        _b_shares(scene, battle, which)

    one, two_ = two_worlds(secret, SeatObserver(scene.campaign, scene.c.power))
    assert_differs(
        one,
        two_,
        label=f"B's photos and account × {CAMPAIGN} × battle, result settled (rules: seen) → C",
    )
