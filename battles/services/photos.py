"""The players' photos of the table and their accounts of the battle (issue 45,
docs/tabletop.md "Photos and accounts of the battle").

Who sees them is decided here alone: ``may_see_photos`` (the battle page, the chronicle, the
serving views, the book, the season file) and ``gazette_photos`` (the public gazette). A photo
shows a side's forces: before the battle's result is settled only the two sides and a
non-playing organiser (the umpire) see them; an organiser who plays, and is not in the battle,
waits for the result like any other player.

The files go only through ``storages["photos"]``: a display size and a thumbnail, made by
``imaging.process`` from the pixels alone; the upload itself is never kept.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages
from django.db import transaction
from django.db.models import F, Max, Sum
from django.http import FileResponse, Http404
from django.utils import timezone
from redis.exceptions import RedisError

from battles.models import Battle, BattleAccount, BattlePhoto, BattleStatus
from battles.services import imaging
from battles.services.records import UMPIRE, audience_for, tabletop_settings
from battles.services.sheet import side_names
from dgk.files import file_response

ACCOUNT_MAX_CHARS = 5000
CAPTION_MAX_CHARS = 200


class PhotoError(ValueError):
    """An act on a photo or an account the viewer may not do, or the battle's state forbids,
    explained."""


# ---- who sees, who acts --------------------------------------------------------------------


def is_settled(battle: Battle) -> bool:
    """The result is settled: confirmed by both sides, settled by the organiser, or applied."""
    return battle.status in (*BattleStatus.final(), BattleStatus.APPLIED)


def _is_member(battle: Battle, user) -> bool:
    campaign = battle.campaign
    return campaign.organiser_id == user.id or campaign.seats.filter(user=user).exists()


def may_see_photos(battle: Battle, user) -> bool:
    """The photos and accounts of the battle, for ``user``: before the result is settled the
    sides' players and the umpire (a non-playing organiser); after it every member of the
    campaign. The same rule covers the accounts."""
    if user is None or not user.is_authenticated:
        return False
    if audience_for(battle, user) is not None:
        return True
    return is_settled(battle) and _is_member(battle, user)


def acting_side(battle: Battle, user) -> str | None:
    """The side ``user`` adds photos for: his side's key, "" for the umpire, None for anyone
    who may not add (a player not in the battle, an organiser who plays elsewhere)."""
    if user is None or not user.is_authenticated:
        return None
    audience = audience_for(battle, user)
    if audience is None:
        return None
    return "" if audience[0] == UMPIRE else audience[0]


def is_organiser(battle: Battle, user) -> bool:
    return user.is_authenticated and battle.campaign.organiser_id == user.id


def may_remove(photo: BattlePhoto, user) -> bool:
    """The one who added the photo, or the organiser (while he may see it)."""
    if not may_see_photos(photo.battle, user):
        return False
    return photo.added_by_id == user.id or is_organiser(photo.battle, user)


def gazette_photos(battle: Battle, *, now: datetime | None = None) -> list[BattlePhoto]:
    """The photos the public gazette may show: only when every side of the battle agreed
    (``Battle.gazette_consent``), and only once the battle's news is published (applied, and
    the campaign's gazette delay passed, as ``battle_news.gazette``)."""
    now = now or timezone.now()
    sides = battle.setup.get("sides") or {}
    consent = battle.gazette_consent or {}
    if not sides or not all(consent.get(side) is True for side in sides):
        return []
    if battle.status != BattleStatus.APPLIED or battle.applied_at is None:
        return []
    if battle.applied_at > now - tabletop_settings(battle.campaign).gazette_delay:
        return []
    return list(battle.photos.all())


def best_photo(battle: Battle) -> BattlePhoto | None:
    """The photo the sides put first (the book of the season prints it)."""
    return battle.photos.first()


# ---- the files -----------------------------------------------------------------------------


def photo_storage() -> Storage:
    return storages["photos"]


def stored_names(battle: Battle, code: uuid.UUID) -> tuple[str, str]:
    """Where a photo's display size and thumbnail are stored in the ``photos`` storage (the
    upload and the season file's import alike)."""
    folder = f"{battle.campaign.code}/{battle.code}"
    return f"{folder}/{code}-display.jpg", f"{folder}/{code}-thumb.jpg"


def open_rendition(photo: BattlePhoto, kind: str):
    """The stored JPEG of ``kind`` ("display" or "thumb") opened for reading; the caller has
    checked ``may_see_photos``. FileNotFoundError when it is gone."""
    name = photo.display if kind == "display" else photo.thumbnail
    return photo_storage().open(name, "rb")


def photo_response(photo: BattlePhoto, kind: str, *, cache: str) -> FileResponse:
    """The stored JPEG of ``kind`` streamed to the browser (``dgk.files.file_response``), with
    ``cache`` as its Cache-Control; Http404 when its file is gone. The caller has checked who
    may see it (``may_see_photos``, or the gazette's ``is_gazette_photo``)."""
    name = photo.display if kind == "display" else photo.thumbnail
    response = file_response(
        "photos",
        name,
        content_type="image/jpeg",
        headers={
            "Cache-Control": cache,
            "Content-Disposition": f'inline; filename="{photo.code}-{kind}.jpg"',
            "X-Content-Type-Options": "nosniff",
        },
    )
    if response is None:
        raise Http404("The photo's file is gone.")
    return response


def _delete_files(names: list[str]) -> None:
    store = photo_storage()
    for name in names:
        with contextlib.suppress(OSError):  # already gone: nothing to keep
            store.delete(name)


# ---- adding --------------------------------------------------------------------------------


@dataclass
class Upload:
    """What came of one upload: the photos added and a message for each file refused."""

    added: list[BattlePhoto] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def limits() -> imaging.Limits:
    return imaging.Limits(max_bytes=settings.PHOTO_MAX_BYTES, max_pixels=settings.PHOTO_MAX_PIXELS)


def upload_wait(user, *, now: datetime) -> int:
    """Count one upload of photos by ``user`` in the minute of ``now``; 0 if it is within
    ``PHOTO_UPLOADS_PER_MINUTE``, else the seconds to the next minute, when he may send again.

    Counted in the cache (Redis in production, shared by every web process) before a byte of
    the upload is read. A cache that cannot count (Redis down, the count evicted) lets the
    upload through: the photo's own limits still hold, and a dead cache must not stop a club.
    """
    minute, into = divmod(int(now.timestamp()), 60)
    key = f"photos:uploads:{user.id}:{minute}"
    cache.add(key, 0, timeout=120)
    try:
        count = cache.incr(key)
    except (ValueError, RedisError):
        return 0
    return 60 - into if count > settings.PHOTO_UPLOADS_PER_MINUTE else 0


def stored_bytes(battle: Battle) -> int:
    return battle.photos.aggregate(total=Sum("display_bytes"))["total"] or 0


def add_photos(battle: Battle, user, files: list[tuple[str, Any]]) -> Upload:
    """Read each ``(name, file)`` of one upload (an UploadedFile, or anything with ``size`` and
    ``read``), keep what ``imaging.process`` accepts, and refuse the rest, each with its own
    message: a file too large, too many bytes for the battle, the photo after the battle's last
    allowed one. The files are read one at a time; PhotoError if ``user`` may not add."""
    side = acting_side(battle, user)
    if side is None:
        raise PhotoError("Only the players of the battle and the umpire add its photos.")
    most = settings.PHOTOS_PER_BATTLE
    count = battle.photos.count()
    budget = settings.PHOTOS_MAX_BYTES_PER_BATTLE - stored_bytes(battle)
    result = Upload()
    for name, upload in files:
        size = getattr(upload, "size", None) or 0
        if count >= most:
            result.refused.append(
                f"“{name}” would be photo {count + 1} of this battle; a battle keeps at most"
                f" {most}. Remove one first."
            )
            continue
        if size > budget:
            most_bytes = imaging.megabytes(settings.PHOTOS_MAX_BYTES_PER_BATTLE)
            result.refused.append(
                f"“{name}” ({imaging.megabytes(size)}) is more than this battle's photos may"
                f" still take: at most {most_bytes} for one upload and the photos kept together."
                " Add it in an upload of its own."
            )
            continue
        if size > settings.PHOTO_MAX_BYTES:
            result.refused.append(imaging.too_large(name, size, limits()))  # unread
            continue
        budget -= size
        try:
            processed = imaging.process(upload.read(), name, limits())
        except imaging.PhotoRefused as exc:
            result.refused.append(str(exc))
            continue
        photo = _store(battle, user, side, processed)
        if photo is None:
            result.refused.append(
                f"“{name}” would be photo {most + 1} of this battle (another upload came first);"
                f" a battle keeps at most {most}. Remove one first."
            )
            count = most
            continue
        result.added.append(photo)
        count += 1
    return result


def _store(battle: Battle, user, side: str, processed: imaging.Processed) -> BattlePhoto | None:
    """Write the two renditions, then the row, counting again under the battle's lock (two
    uploads at once cannot pass the limit); None, and nothing left behind, if it is full."""
    code = uuid.uuid4()
    display, thumb = stored_names(battle, code)
    store = photo_storage()
    store.save(display, ContentFile(processed.display.data))
    store.save(thumb, ContentFile(processed.thumbnail.data))
    try:
        with transaction.atomic():
            Battle.objects.select_for_update().filter(id=battle.id).first()
            if battle.photos.count() >= settings.PHOTOS_PER_BATTLE:
                raise _Full
            last = battle.photos.aggregate(last=Max("position"))["last"]
            return BattlePhoto.objects.create(
                battle=battle,
                code=code,
                added_by=user,
                side=side,
                position=0 if last is None else last + 1,
                display=display,
                thumbnail=thumb,
                width=processed.display.width,
                height=processed.display.height,
                thumb_width=processed.thumbnail.width,
                thumb_height=processed.thumbnail.height,
                display_bytes=len(processed.display.data) + len(processed.thumbnail.data),
            )
    except _Full:
        _delete_files([display, thumb])
        return None
    except BaseException:
        _delete_files([display, thumb])
        raise


class _Full(Exception):
    pass


# ---- captions, order, removal --------------------------------------------------------------


def set_caption(photo: BattlePhoto, user, caption: str) -> None:
    """The caption, by the one who added the photo or the organiser: one line, its spaces and
    line breaks (a phone's caption box wraps, and Enter adds one) made single spaces."""
    if not may_remove(photo, user):
        raise PhotoError("Only the one who added a photo, or the organiser, writes its caption.")
    caption = " ".join(caption.split())
    if len(caption) > CAPTION_MAX_CHARS:
        raise PhotoError(f"A caption is at most {CAPTION_MAX_CHARS} characters.")
    BattlePhoto.objects.filter(id=photo.id).update(caption=caption)
    photo.caption = caption


def move(photo: BattlePhoto, user, step: int) -> None:
    """Move the photo one place up (``step=-1``) or down (``+1``) in the battle's order; any
    of the sides' players or the umpire may (the first is the battle's best photo). At either
    end it stays."""
    battle = photo.battle
    if acting_side(battle, user) is None:
        raise PhotoError("Only the players of the battle and the umpire order its photos.")
    with transaction.atomic():
        Battle.objects.select_for_update().filter(id=battle.id).first()
        order = list(battle.photos.values_list("id", flat=True))
        here = order.index(photo.id)
        there = here + step
        if not 0 <= there < len(order):
            return
        order[here], order[there] = order[there], order[here]
        for position, photo_id in enumerate(order):
            BattlePhoto.objects.filter(id=photo_id).update(position=position)


def remove(photo: BattlePhoto, user) -> None:
    """Remove the photo and its files: its adder's or the organiser's act."""
    if not may_remove(photo, user):
        raise PhotoError("Only the one who added a photo, or the organiser, removes it.")
    names = [photo.display, photo.thumbnail]
    BattlePhoto.objects.filter(id=photo.id).delete()
    BattlePhoto.objects.filter(battle=photo.battle, position__gt=photo.position).update(
        position=F("position") - 1
    )
    transaction.on_commit(lambda: _delete_files(names))


# ---- accounts and consent ------------------------------------------------------------------


def player_side(battle: Battle, user) -> str | None:
    """The side whose account and consent ``user`` speaks for: a side's player only."""
    side = acting_side(battle, user)
    return side or None


def save_account(battle: Battle, user, side: str, text: str, *, now: datetime) -> BattleAccount:
    """The side's account of the battle, written by one of its players: plain text, shown
    escaped, at most ACCOUNT_MAX_CHARS characters. An empty text removes it."""
    if side not in (battle.setup.get("sides") or {}) or player_side(battle, user) != side:
        raise PhotoError("Only a player of that side writes its account of the battle.")
    text = text.replace("\r\n", "\n").strip()
    if len(text) > ACCOUNT_MAX_CHARS:
        raise PhotoError(
            f"An account is at most {ACCOUNT_MAX_CHARS} characters; this one has {len(text)}."
        )
    account, _ = BattleAccount.objects.update_or_create(
        battle=battle, side=side, defaults={"text": text, "author": user, "updated": now}
    )
    if not text:
        account.delete()
    return account


def accounts(battle: Battle) -> list[dict[str, Any]]:
    """The sides' accounts in the order of the battle's sides, each with the side's name; the
    caller has checked ``may_see_photos``."""
    names = side_names(battle)
    written = {a.side: a for a in battle.accounts.all()}
    return [
        {"side": side, "name": names.get(side, side), "account": written.get(side)}
        for side in battle.setup.get("sides") or {}
    ]


def set_consent(battle: Battle, user, side: str, agree: bool) -> None:
    """The side agrees (or no longer agrees) that its battle's photos may appear in the public
    gazette; a player of that side decides."""
    if side not in (battle.setup.get("sides") or {}) or player_side(battle, user) != side:
        raise PhotoError("Only a player of that side decides for it.")
    with transaction.atomic():
        locked = Battle.objects.select_for_update().get(id=battle.id)
        consent = dict(locked.gazette_consent or {})
        if agree:
            consent[side] = True
        else:
            consent.pop(side, None)
        Battle.objects.filter(id=battle.id).update(gazette_consent=consent)
    battle.gazette_consent = consent
