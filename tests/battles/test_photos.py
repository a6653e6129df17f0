"""The photos of the table and the sides' accounts (issue 45): who adds, captions, orders and
removes; who sees, before the result and after; every refused upload with its answer; what is
stored holds no metadata.

People (tests.standing): ``player`` (Prussia) and ``other`` (Austria) fought; ``ally``
(Hanover) is a third player who did not; ``organiser`` is the umpire; ``outsider`` has no
seat. The battle is made by hand: these tests are about the photos, not the rules.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from battles.models import Battle, BattleAccount, BattlePhoto, BattleStatus
from battles.services import photos as photo_service
from tests.battles import photo_files as files
from tests.orders.test_play_fixtures import client_for
from tests.storage.folders import with_folders

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def photo_folder(settings, tmp_path):
    """The photos' storage in a folder of the test's own."""
    settings.STORAGES = with_folders(photos=tmp_path / "photos")
    return tmp_path / "photos"


@pytest.fixture
def battle(campaign):
    sides = {
        "prussian": {"points_by_country": {"prussia": {"points": 1200}}, "commander_name": "F."},
        "austrian": {"points_by_country": {"austria": {"points": 1100}}, "commander_name": "D."},
    }
    return Battle.objects.create(
        campaign=campaign,
        battle_id="t3-0502",
        hex="0502",
        turn=3,
        setup={"battle": "t3-0502", "sides": sides},
    )


def address(name: str, battle: Battle, *args) -> str:
    return reverse(f"battles:{name}", args=[battle.campaign.code, battle.code, *args])


def upload(client, battle: Battle, *named: tuple[str, bytes], **headers):
    files_ = [SimpleUploadedFile(name, data, content_type="image/jpeg") for name, data in named]
    return client.post(address("photo_upload", battle), {"photos": files_}, headers=headers)


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def add(client, battle: Battle, name: str = "table.jpg", data: bytes | None = None) -> BattlePhoto:
    upload(client, battle, (name, data or files.jpeg()))
    return BattlePhoto.objects.filter(battle=battle).order_by("-id").first()


def settle(battle: Battle, status=BattleStatus.APPLIED, ago=timedelta(days=3)) -> None:
    battle.status = status
    battle.applied_at = timezone.now() - ago
    battle.save()


def section(battle: Battle, user) -> str:
    """The battle page's photos and accounts, as ``user`` would be shown them."""
    request = RequestFactory().get("/")
    request.user = user
    request.csp_nonce = "n"
    template = Template("{% load battle_photos %}{% battle_photos battle %}")
    return template.render(Context({"request": request, "battle": battle, "csrf_token": "t"}))


# ---- adding ---------------------------------------------------------------------------------


def test_a_side_adds_several_photos_at_once(battle, player):
    r = upload(client_for(player), battle, ("a.jpg", files.jpeg()), ("b.png", files.png()))
    assert r.status_code == 302 and r.url.endswith("#photos")
    assert said(r) == ["2 photos added."]
    photos = list(battle.photos.all())
    assert [(p.side, p.position, p.added_by_id) for p in photos] == [
        ("prussian", 0, player.id),
        ("prussian", 1, player.id),
    ]
    store = storages["photos"]
    for p in photos:
        assert p.display == f"{battle.campaign.code}/{battle.code}/{p.code}-display.jpg"
        assert p.thumbnail.endswith(f"{p.code}-thumb.jpg")
        assert store.exists(p.display) and store.exists(p.thumbnail)


def test_the_umpire_adds_photos_for_no_side(battle, organiser):
    photo = add(client_for(organiser), battle)
    assert photo is not None and photo.side == ""


def test_the_script_is_answered_in_json_with_the_page_to_show(battle, player):
    r = upload(client_for(player), battle, ("a.jpg", files.jpeg()), X_Photo_Upload="1")
    assert r.status_code == 200
    assert r.json() == {"next": address("battle", battle) + "#photos"}
    assert said(r) == ["1 photo added."]


@pytest.mark.parametrize("who", ["ally", "outsider"])
def test_no_one_else_adds_photos(battle, who, request):
    r = upload(client_for(request.getfixturevalue(who)), battle, ("a.jpg", files.jpeg()))
    assert r.status_code == 404
    assert not battle.photos.exists()


def test_a_member_cannot_add_photos_to_a_battle_he_did_not_fight_even_after(battle, ally):
    settle(battle)
    r = upload(client_for(ally), battle, ("a.jpg", files.jpeg()))
    assert said(r) == ["Only the players of the battle and the umpire add its photos."]
    assert not battle.photos.exists()


def test_the_upload_needs_post(battle, player):
    assert client_for(player).get(address("photo_upload", battle)).status_code == 405


def test_the_upload_needs_the_csrf_token(battle, player):
    client = client_for(player)
    client.handler.enforce_csrf_checks = True
    r = upload(client, battle, ("a.jpg", files.jpeg()))
    assert r.status_code == 403 and not battle.photos.exists()


# ---- every refusal, each with its answer -----------------------------------------------------


def test_each_bad_file_is_refused_with_its_own_answer_and_the_good_one_kept(battle, player):
    r = upload(
        client_for(player),
        battle,
        ("bomb.png", files.png_bomb()),
        ("zipped.jpg", files.jpeg() + files.zip_bytes()),
        ("scripted.jpg", files.jpeg() + b"<script>alert(1)</script>"),
        ("drawing.svg", files.SVG),
        ("photo.jpg", files.HTML),
        ("huge.jpg", files.sixty_megapixels()),
        ("good.jpg", files.jpeg()),
    )
    assert said(r) == [
        "1 photo added.",
        "“bomb.png” declares far more pixels than any photo (a decompression bomb?); a photo"
        " may be at most 40 megapixels.",
        f"“zipped.jpg” has {len(files.zip_bytes())} bytes of something else joined after the"
        " end of its picture (another file hidden in it), so it is not kept. Add the photo as"
        " the camera made it.",
        "“scripted.jpg” has 25 bytes of something else joined after the end of its picture"
        " (another file hidden in it), so it is not kept. Add the photo as the camera made it.",
        "“drawing.svg” is an SVG drawing, not a photo: only JPEG, PNG and WebP photos are kept.",
        "“photo.jpg” is a web page (HTML), not a photo, whatever its name says: only JPEG, PNG"
        " and WebP photos are kept.",
        "“huge.jpg” is 61 megapixels (7800×7800); a photo may be at most 40 megapixels. Share"
        " it at a smaller size.",
    ]
    assert battle.photos.count() == 1


def test_the_21st_photo_is_refused(battle, player, other):
    for n in range(20):
        BattlePhoto.objects.create(battle=battle, side="austrian", position=n, display="x",
                                   thumbnail="y", added_by=other)  # fmt: skip
    r = upload(client_for(player), battle, ("twenty-first.jpg", files.jpeg()))
    assert said(r) == [
        "“twenty-first.jpg” would be photo 21 of this battle; a battle keeps at most 20. Remove"
        " one first."
    ]
    assert battle.photos.count() == 20
    assert "Add the photos" not in section(battle, player)


def test_the_20th_of_one_upload_is_kept_and_the_21st_refused(battle, player, other):
    for n in range(19):
        BattlePhoto.objects.create(battle=battle, side="austrian", position=n, display="x",
                                   thumbnail="y", added_by=other)  # fmt: skip
    r = upload(client_for(player), battle, ("20.jpg", files.jpeg()), ("21.jpg", files.jpeg()))
    assert said(r)[0] == "1 photo added."
    assert said(r)[1].startswith("“21.jpg” would be photo 21 of this battle")


def test_a_file_above_the_size_limit_is_refused_unread(battle, player, settings):
    settings.PHOTO_MAX_BYTES = 1000
    data = files.phone_jpeg()
    r = upload(client_for(player), battle, ("big.jpg", data))
    assert said(r) == [
        f"“big.jpg” is {len(data) / 1024:.0f} kB; a photo may be at most 1000 bytes. Share it"
        " at a smaller size (phones offer it)."
    ]


def test_the_battles_bytes_are_bounded(battle, player, settings):
    data = files.phone_jpeg()
    settings.PHOTOS_MAX_BYTES_PER_BATTLE = len(data) + 10
    r = upload(client_for(player), battle, ("one.jpg", data), ("two.jpg", data))
    assert said(r)[0] == "1 photo added."
    assert said(r)[1].startswith(f"“two.jpg” ({len(data) / 1024:.0f} kB) is more than this")
    assert battle.photos.count() == 1


def test_an_upload_larger_than_the_limit_is_refused_before_it_is_read(battle, player, settings):
    settings.PHOTOS_MAX_BYTES_PER_BATTLE = 1024
    big = files.jpeg((1200, 1200), quality=100) + b"\0" * (1024 * 1024)
    r = upload(client_for(player), battle, ("a.jpg", big), X_Photo_Upload="1")
    assert r.status_code == 413
    assert said(r)[0].startswith("This upload is 1.")
    assert said(r)[0].endswith("one upload brings at most 1 kB. Add the photos a few at a time.")


def test_an_unreadable_length_is_no_error(battle, player):
    """A Content-Length that is no number is read as Django reads it (none), not a 500."""
    files_ = [SimpleUploadedFile("a.jpg", files.jpeg(), content_type="image/jpeg")]
    r = client_for(player).post(
        address("photo_upload", battle), {"photos": files_}, CONTENT_LENGTH="lots"
    )
    assert r.status_code == 302
    assert said(r) == ["Choose one photo or more to add."]
    assert not BattlePhoto.objects.filter(battle=battle).exists()


# ---- what is stored --------------------------------------------------------------------------


def test_the_stored_bytes_hold_no_gps_nor_any_metadata(battle, player):
    photo = add(client_for(player), battle, "IMG_2041.jpg", files.phone_jpeg(orientation=6))
    store = storages["photos"]
    for name in (photo.display, photo.thumbnail):
        with store.open(name, "rb") as handle:
            kept = handle.read()
        image = Image.open(io.BytesIO(kept))
        assert not image.getexif() and not image.getexif().get_ifd(0x8825)
        assert b"Exif\0\0" not in kept and b"GPS" not in kept and b"<x:xmpmeta" not in kept
        assert files.SERIAL.encode() not in kept and kept.count(b"\xff\xd8") == 1
    assert (photo.width, photo.height) == (320, 640)  # orientation 6: stood upright
    assert photo.display_bytes > 0


# ---- who sees ------------------------------------------------------------------------------


def test_before_the_result_only_the_sides_and_the_umpire_see_the_photos(
    battle, player, other, ally, organiser, outsider
):
    photo = add(client_for(player), battle)
    for kind in ("display", "thumb"):
        target = address("photo_image", battle, photo.code, kind)
        for user in (player, other, organiser):
            r = client_for(user).get(target)
            assert r.status_code == 200, (user, kind)
            assert r["Content-Type"] == "image/jpeg"
            assert r["Cache-Control"].startswith("private")
            assert b"".join(r.streaming_content)[:3] == b"\xff\xd8\xff"
        for user in (ally, outsider):
            assert client_for(user).get(target).status_code == 404, (user, kind)
    assert "Photos of the table" in section(battle, other)
    assert section(battle, ally).strip() == ""


def test_after_the_result_every_member_sees_them_and_no_outsider(battle, player, ally, outsider):
    photo = add(client_for(player), battle)
    BattleAccount.objects.create(battle=battle, side="prussian", text="We held the hill.")
    settle(battle, status=BattleStatus.CONFIRMED)
    target = address("photo_image", battle, photo.code, "display")
    assert client_for(ally).get(target).status_code == 200
    assert client_for(outsider).get(target).status_code == 404
    shown = section(battle, ally)
    assert "Photos of the table" in shown and "We held the hill." in shown
    assert "Add the photos" not in shown and "Remove" not in shown
    assert "Save the account" not in shown


def test_an_unknown_size_or_photo_is_not_found(battle, player):
    photo = add(client_for(player), battle)
    client = client_for(player)
    assert client.get(address("photo_image", battle, photo.code, "original")).status_code == 404
    gone = address("photo_image", battle, "00000000-0000-0000-0000-000000000000", "thumb")
    assert client.get(gone).status_code == 404


# ---- captions, order, removal --------------------------------------------------------------


def test_the_adder_and_the_organiser_caption_and_the_other_side_does_not(
    battle, player, other, organiser
):
    photo = add(client_for(player), battle)
    target = address("photo_caption", battle, photo.code)
    r = client_for(player).post(target, {"caption": "The Prussian left at dawn"})
    assert r.status_code == 302
    r = client_for(other).post(target, {"caption": "Austria wins"})
    assert r.status_code == 400
    assert "Only the one who added a photo, or the organiser" in r.content.decode()
    photo.refresh_from_db()
    assert photo.caption == "The Prussian left at dawn"
    client_for(organiser).post(target, {"caption": "Turn 3, at Kolin"})
    photo.refresh_from_db()
    assert photo.caption == "Turn 3, at Kolin"


def test_a_caption_is_one_line_whatever_the_phone_typed(battle, player):
    """The caption's box wraps on a phone, and Enter there adds a line break: the caption keeps
    one line (under the thumbnail, in the book's figure) with single spaces."""
    photo = add(client_for(player), battle)
    typed = "  The Prussian left\r\nat dusk,\n\n  seen from   the hill  "
    client_for(player).post(address("photo_caption", battle, photo.code), {"caption": typed})
    photo.refresh_from_db()
    assert photo.caption == "The Prussian left at dusk, seen from the hill"


def test_a_caption_too_long_is_shown_again_as_typed(battle, player):
    photo = add(client_for(player), battle)
    typed = "The grenadiers " * 20
    r = client_for(player).post(address("photo_caption", battle, photo.code), {"caption": typed})
    assert r.status_code == 400
    assert typed.strip() in r.content.decode()
    photo.refresh_from_db()
    assert photo.caption == ""


def test_either_side_orders_the_photos_and_the_first_is_the_best(battle, player, other, ally):
    first = add(client_for(player), battle, "first.jpg")
    second = add(client_for(other), battle, "second.jpg")
    assert photo_service.best_photo(battle) == first
    r = client_for(other).post(address("photo_move", battle, second.code), {"direction": "up"})
    assert r.status_code == 302
    assert list(battle.photos.all()) == [second, first]
    assert photo_service.best_photo(battle) == second
    client_for(player).post(address("photo_move", battle, second.code), {"direction": "up"})
    assert list(battle.photos.all()) == [second, first]  # at the top it stays
    settle(battle)
    r = client_for(ally).post(address("photo_move", battle, first.code), {"direction": "up"})
    assert said(r) == ["Only the players of the battle and the umpire order its photos."]
    assert list(battle.photos.all()) == [second, first]


def test_only_the_adder_or_the_organiser_removes_a_photo(
    battle, player, other, organiser, django_capture_on_commit_callbacks
):
    mine = add(client_for(player), battle, "mine.jpg")
    theirs = add(client_for(other), battle, "theirs.jpg")
    r = client_for(other).post(address("photo_remove", battle, mine.code))
    assert said(r) == ["Only the one who added a photo, or the organiser, removes it."]
    assert battle.photos.count() == 2
    store = storages["photos"]
    with django_capture_on_commit_callbacks(execute=True):
        client_for(player).post(address("photo_remove", battle, mine.code))
    assert list(battle.photos.all()) == [theirs]
    assert not store.exists(mine.display) and not store.exists(mine.thumbnail)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(organiser).post(address("photo_remove", battle, theirs.code))
    assert not battle.photos.exists() and not store.exists(theirs.display)


def test_the_controls_shown_are_the_viewers_own(battle, player, other):
    add(client_for(player), battle)
    mine, theirs = section(battle, player), section(battle, other)
    assert "Remove this photo" in mine and "Save caption" in mine
    assert "Remove this photo" not in theirs and "Save caption" not in theirs
    assert "Add the photos" in theirs  # the other side adds its own


# ---- accounts ------------------------------------------------------------------------------


def test_a_side_writes_its_account_shown_escaped_in_paragraphs(battle, player, other):
    text = "We held the hill.\n\n<script>alert('x')</script> & <b>more</b>"
    r = client_for(player).post(address("account", battle, "prussian"), {"text": text})
    assert r.status_code == 302 and r.url.endswith("#accounts")
    assert BattleAccount.objects.get(battle=battle, side="prussian").text == text
    shown = section(battle, other)
    assert "<p>We held the hill.</p>" in shown
    assert (
        "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &lt;b&gt;more&lt;/b&gt;" in shown
    )
    assert "<script>alert" not in shown and "<b>more" not in shown


def test_a_side_writes_only_its_own_account(battle, player, ally, organiser):
    r = client_for(player).post(address("account", battle, "austrian"), {"text": "They fled."})
    assert r.status_code == 400
    assert "Only a player of that side writes its account of the battle." in r.content.decode()
    assert "They fled." in r.content.decode()  # shown again as typed
    r = client_for(organiser).post(address("account", battle, "prussian"), {"text": "Umpire."})
    assert r.status_code == 400
    assert (
        client_for(ally).post(address("account", battle, "prussian"), {"text": "x"}).status_code
        == 404
    )
    assert not BattleAccount.objects.exists()


def test_an_account_too_long_is_shown_again_as_typed(battle, player):
    typed = "The cavalry charged. " * 300
    r = client_for(player).post(address("account", battle, "prussian"), {"text": typed})
    assert r.status_code == 400
    body = r.content.decode()
    assert "at most 5000 characters" in body and typed.strip()[:200] in body
    assert not BattleAccount.objects.exists()


# ---- the gazette ---------------------------------------------------------------------------


def test_the_gazette_shows_photos_only_when_both_sides_agree_and_after_its_delay(
    battle, player, other
):
    add(client_for(player), battle)
    settle(battle)
    assert photo_service.gazette_photos(battle) == []
    client_for(player).post(address("gazette_consent", battle, "prussian"), {"agree": "1"})
    battle.refresh_from_db()
    assert battle.gazette_consent == {"prussian": True}
    assert photo_service.gazette_photos(battle) == []
    client_for(other).post(address("gazette_consent", battle, "austrian"), {"agree": "1"})
    battle.refresh_from_db()
    assert len(photo_service.gazette_photos(battle)) == 1
    recently = timezone.now() - timedelta(hours=1)
    battle.applied_at = recently
    assert photo_service.gazette_photos(battle) == []  # the gazette's 48 hours
    assert len(photo_service.gazette_photos(battle, now=recently + timedelta(hours=49))) == 1
    client_for(other).post(address("gazette_consent", battle, "austrian"), {"agree": "0"})
    battle.refresh_from_db()
    assert photo_service.gazette_photos(battle, now=recently + timedelta(hours=49)) == []


def test_a_side_decides_only_for_itself(battle, player):
    r = client_for(player).post(address("gazette_consent", battle, "austrian"), {"agree": "1"})
    assert said(r) == ["Only a player of that side decides for it."]
    battle.refresh_from_db()
    assert battle.gazette_consent == {}
