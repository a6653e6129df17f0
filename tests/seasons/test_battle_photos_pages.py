"""The battles' photos and accounts beyond the battle page (issue 45): the chronicle, the public
gazette and its photo addresses, *The war*, the book of the season, and the season file (export,
import re-checked by Pillow, the format's version).

People (tests.standing): ``player`` (Prussia) and ``other`` (Austria) fought; ``ally``
(Hanover) did not; ``organiser`` is the umpire; ``outsider`` has no seat.
"""

from __future__ import annotations

import base64
import io
import re
from datetime import timedelta

import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from battles.models import BattleAccount, BattlePhoto
from battles.services import photo_pages
from battles.services import photos as photo_service
from campaign.models import Campaign
from dgk import files as stored
from seasons.services import bookfiles, seasonfile, seasonimport
from tests.battles import photo_files as files
from tests.battles.test_photos import battle, photo_folder, settle  # noqa: F401 (fixtures)
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db


def add(fight, user, name="table.jpg", data=None, caption="") -> BattlePhoto:
    done = photo_service.add_photos(
        fight, user, [(name, SimpleUploadedFile(name, data or files.phone_jpeg()))]
    )
    assert done.added, done.refused
    photo = done.added[0]
    if caption:
        photo_service.set_caption(photo, user, caption)
    return photo


def account(fight, user, side, text):
    photo_service.save_account(fight, user, side, text, now=timezone.now())


@pytest.fixture
def fought(battle, player, other):  # noqa: F811
    add(battle, player, caption="The Prussian left at dusk")
    add(battle, other, caption="The grenadiers of Daun")
    account(battle, player, "prussian", "We held the hill.\n\nAt dusk they left.")
    account(battle, other, "austrian", "A retreat in good order.")
    return battle


def chronicle(user, fight) -> str:
    return client_for(user).get(reverse("battles:chronicle", args=[fight.campaign.code])).text


def test_the_chronicle_shows_a_battles_photos_to_its_sides_and_none_to_a_third_before(
    fought, player, other, ally
):
    for user in (player, other):
        page = chronicle(user, fought)
        assert "The Prussian left at dusk" in page and "A retreat in good order." in page
    page = chronicle(ally, fought)
    assert "The Prussian left at dusk" not in page
    assert "held the hill" not in page and "/photos/" not in page


def test_after_the_result_every_member_reads_them_in_the_chronicle(fought, ally, outsider):
    settle(fought)
    page = chronicle(ally, fought)
    assert "The Prussian left at dusk" in page
    assert "<p>We held the hill.</p>\n\n<p>At dusk they left.</p>" in page  # paragraphs
    thumb = photo_pages.for_member(fought, ally)["photos"][0]["thumb"]
    assert client_for(ally).get(thumb).status_code == 200
    assert client_for(outsider).get(thumb).status_code == 404


def test_an_account_is_shown_escaped(battle, player, ally):  # noqa: F811
    account(battle, player, "prussian", "<script>alert(1)</script>")
    settle(battle)
    page = chronicle(ally, battle)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def gazette(fight) -> str:
    return Client().get(reverse("battles:gazette", args=[fight.campaign.code])).text


def test_the_gazette_shows_photos_only_when_both_sides_agreed_and_never_the_accounts(
    fought, player, other
):
    settle(fought)
    photo = fought.photos.first()
    public = reverse("battles:gazette_photo", args=[fought.campaign.code, photo.code, "thumb"])
    photo_service.set_consent(fought, player, "prussian", True)
    assert "The grenadiers of Daun" not in gazette(fought)  # one side only
    assert Client().get(public).status_code == 404
    photo_service.set_consent(fought, other, "austrian", True)
    page = gazette(fought)
    assert "The grenadiers of Daun" in page and public in page
    assert "held the hill" not in page and "good order" not in page
    answer = Client().get(public)
    assert answer.status_code == 200 and answer["Content-Type"] == "image/jpeg"
    assert "private" in answer["Cache-Control"]
    data = b"".join(answer.streaming_content)
    assert data[:3] == b"\xff\xd8\xff" and b"Exif" not in data
    # the member's address still asks for a member
    member = reverse("battles:photo_image", args=[fought.campaign.code, fought.code,
                                                  photo.code, "thumb"])  # fmt: skip
    assert Client().get(member).status_code == 302
    photo_service.set_consent(fought, other, "austrian", False)  # withdrawn
    assert Client().get(public).status_code == 404


def test_the_gazette_waits_its_delay_for_the_photos(fought, player, other):
    settle(fought, ago=timedelta(minutes=5))  # the campaign's delay is longer
    for user, side in ((player, "prussian"), (other, "austrian")):
        photo_service.set_consent(fought, user, side, True)
    photo = fought.photos.first()
    public = reverse("battles:gazette_photo", args=[fought.campaign.code, photo.code, "display"])
    assert Client().get(public).status_code == 404
    assert "The grenadiers of Daun" not in gazette(fought)


def test_a_gazette_address_of_another_campaign_or_size_is_not_found(fought, player, other):
    settle(fought)
    for user, side in ((player, "prussian"), (other, "austrian")):
        photo_service.set_consent(fought, user, side, True)
    photo = fought.photos.first()
    wrong = "00000000-0000-4000-8000-000000000000"
    assert Client().get(f"/gazette/{wrong}/photos/{photo.code}/thumb.jpg").status_code == 404
    good = reverse("battles:gazette_photo", args=[fought.campaign.code, photo.code, "thumb"])
    assert Client().get(good.replace("thumb.jpg", "original.jpg")).status_code == 404
    assert Client().post(good).status_code == 405


def test_the_book_prints_the_best_photo_with_its_caption_and_the_accounts(fought, player):
    first, second = list(fought.photos.all())
    photo_service.move(second, player, -1)  # the sides put The grenadiers of Daun first
    assert photo_pages.for_book(fought)["best_photo"] is None  # not settled: nothing
    settle(fought)
    book = photo_pages.for_book(fought)
    with storages["photos"].open(BattlePhoto.objects.get(id=second.id).display) as f:
        assert book["best_photo"]["src"] == (
            "data:image/jpeg;base64," + base64.b64encode(f.read()).decode()
        )
    assert book["best_photo"]["caption"] == "The grenadiers of Daun"
    assert [a["name"] for a in book["accounts"]] == ["Prussian army", "Austrian army"]


def test_the_public_book_holds_nothing_the_sides_kept_to_the_club(fought, player, other):
    settle(fought)
    now = timezone.now()
    assert not photo_pages.public_book_allowed(fought.campaign, now=now)  # accounts
    BattleAccount.objects.filter(battle=fought).delete()
    assert not photo_pages.public_book_allowed(fought.campaign, now=now)  # no consent
    for user, side in ((player, "prussian"), (other, "austrian")):
        photo_service.set_consent(fought, user, side, True)
    assert photo_pages.public_book_allowed(fought.campaign, now=now)


def test_a_book_printed_with_what_the_sides_took_away_is_never_served_again(fought, player, other):
    """The book is printed once; an account emptied or a photo removed after the end gives
    the book a new name, so the public link (which judges today's accounts and photos) never
    serves the copy printed with them: the download asks for a new print."""
    settle(fought)
    for user, side in ((player, "prussian"), (other, "austrian")):
        photo_service.set_consent(fought, user, side, True)
    campaign = fought.campaign
    printed = bookfiles.book_stamp(campaign)
    assert "-p" in printed  # it prints the battle's best photo and the two accounts
    for paper in bookfiles.PAPERS:
        stored.save_whole(bookfiles.KIND, bookfiles.book_key(campaign, paper, printed), b"%PDF")
    assert bookfiles.book_ready(campaign)
    assert not photo_pages.public_book_allowed(campaign, now=timezone.now())  # the accounts

    account(fought, player, "prussian", "")
    account(fought, other, "austrian", "")
    assert photo_pages.public_book_allowed(campaign, now=timezone.now())
    emptied = bookfiles.book_stamp(campaign)
    assert emptied != printed and not bookfiles.book_ready(campaign)

    photo_service.remove(photo_service.best_photo(fought), player)
    assert bookfiles.book_stamp(campaign) not in (printed, emptied)
    photo_service.remove(photo_service.best_photo(fought), other)
    # Nothing of the battles printed: the name a book had before photos were kept.
    assert re.fullmatch(r"v\d+-e\d+", bookfiles.book_stamp(campaign))


# ---- the season file -------------------------------------------------------------------------


def _round_trip(campaign, **options):
    data = seasonfile.export_campaign(campaign, with_secrets=True)
    body = seasonfile.loads(data)
    body["campaign"]["map_name"] = ""  # the standing campaign names no map of the site
    return data, body


def test_the_season_file_carries_the_photos_accounts_and_consent(fought, player, other):
    settle(fought)
    photo_service.set_consent(fought, player, "prussian", True)
    data, body = _round_trip(fought.campaign)
    row = next(b for b in body["battles"] if b["code"] == str(fought.code))
    assert [p["caption"] for p in row["photos"]] == ["The Prussian left at dusk",
                                                     "The grenadiers of Daun"]  # fmt: skip
    assert not set(row["photos"][0]) & {"display", "thumbnail", "width", "display_bytes"}
    assert row["gazette_consent"] == {"prussian": True}
    assert {a["side"] for a in row["accounts"]} == {"prussian", "austrian"}
    codes = [p.code for p in fought.photos.all()]
    old = fought.campaign
    imported = seasonimport.import_season(
        body, organiser=old.organiser, now=timezone.now(), new_code=True
    ).campaign
    copy = imported.battles.get()
    assert copy.gazette_consent == {"prussian": True}
    assert [p.caption for p in copy.photos.all()] == ["The Prussian left at dusk",
                                                      "The grenadiers of Daun"]  # fmt: skip
    assert not {p.code for p in copy.photos.all()} & set(codes)  # new codes with --new-code
    for p in copy.photos.all():
        assert p.display.startswith(f"{imported.code}/{copy.code}/")
        with storages["photos"].open(p.display) as f:
            image = Image.open(io.BytesIO(f.read()))
            assert image.format == "JPEG" and not image.getexif()
        assert storages["photos"].exists(p.thumbnail) and p.thumb_width <= 400
    assert copy.accounts.get(side="prussian").text.startswith("We held the hill.")


def _forged(body, change) -> dict:
    change(next(b for b in body["battles"] if b.get("photos")))
    return body


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b["photos"][0].update(image=base64.b64encode(files.png_bomb()).decode()),
         "megapixel|pixels"),
        (lambda b: b["photos"][0].update(image=base64.b64encode(
            files.jpeg() + b"<script>alert(1)</script>").decode()), "joined after the end"),
        (lambda b: b["photos"][0].update(image=base64.b64encode(
            b'<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>').decode()),
         "SVG"),
        (lambda b: b["photos"][0].update(image="not base64!"), "not base64"),
        (lambda b: b["photos"][0].update(display="../../etc/passwd"), "never taken from a file"),
        (lambda b: b["photos"][0].pop("image"), "without its picture"),
        (lambda b: b["photos"][0].update(side="french"), "no side here"),
        (lambda b: b["photos"].extend([b["photos"][0]] * 20), "at most 20"),
    ],
)  # fmt: skip
def test_a_forged_photo_in_a_season_file_is_refused_and_nothing_kept(
    fought,
    photo_folder,  # noqa: F811
    change,
    message,
):
    settle(fought)
    _, body = _round_trip(fought.campaign)
    body = _forged(body, change)
    stored = sorted(p for p in photo_folder.rglob("*") if p.is_file())
    campaigns = Campaign.objects.count()
    with pytest.raises(seasonfile.SeasonFileError, match=message):
        seasonimport.import_season(
            body, organiser=fought.campaign.organiser, now=timezone.now(), new_code=True
        )
    assert Campaign.objects.count() == campaigns
    assert sorted(p for p in photo_folder.rglob("*") if p.is_file()) == stored


def test_a_file_of_format_version_1_is_still_imported(fought):
    settle(fought)
    body = seasonfile.season_body(fought.campaign, with_secrets=True)
    body["campaign"]["map_name"] = ""
    for row in body["battles"]:  # as a site before issue 45 wrote it
        for key in ("photos", "accounts", "gazette_consent"):
            row.pop(key)
    envelope = {"format": "dgk-season", "format_version": 1,
                "sha256": seasonfile.checksum(body), "body": body}  # fmt: skip
    text = seasonfile.json.dumps(envelope).encode()
    read = seasonfile.loads(seasonfile.gzip.compress(text))
    imported = seasonimport.import_season(
        read, organiser=fought.campaign.organiser, now=timezone.now(), new_code=True
    ).campaign
    copy = imported.battles.get()
    assert copy.gazette_consent == {} and not copy.photos.exists()
