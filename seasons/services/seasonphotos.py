"""The battles' photos and accounts in a season file (issue 45, docs/export-format.md, "Photos
and accounts").

A photo travels as its display-size JPEG, base64 in the row's ``image``; the columns the site
derives from the picture (where it is stored, its sizes, its bytes) do not travel. A season file
is untrusted input: on import every photo goes through the same Pillow processing as an upload
(``battles.services.imaging.process``: read by its content, re-encoded from its pixels, every
metadata block dropped, the same limits), its thumbnail is made again from it, and both are
stored in ``storages["photos"]`` under names made here from the codes, never taken from the file.

The thumbnail does not travel: it is made again from the display size on import, as from an
upload, so a file carries a third less than with both (docs/export-format.md says the sizes).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import storages

from battles.models import Battle, BattleAccount, BattlePhoto
from battles.services import imaging
from battles.services.photos import stored_names

# The photo's columns the site derives from the picture: never written, never read from a file.
DERIVED = ("display", "thumbnail", "width", "height", "thumb_width", "thumb_height",
           "display_bytes")  # fmt: skip
IMAGE = "image"  # the row's key holding the display size's JPEG, base64


class PhotoRowError(ValueError):
    """A photo or an account of a file that cannot be imported; the message says where and why
    (``seasonimport`` tells it as its own ``SeasonFileError``: this module sits below it)."""


def storage():
    return storages["photos"]


def limits() -> imaging.Limits:
    return imaging.Limits(max_bytes=settings.PHOTO_MAX_BYTES, max_pixels=settings.PHOTO_MAX_PIXELS)


# --- the export -------------------------------------------------------------------------------


def export_photos(battle: Battle, *, person: Callable, columns_of: Callable) -> list[dict]:
    """The battle's photos as rows of the file, in their order (``columns_of(row, skip)``: the
    row's own columns as the file writes them); a photo whose file is missing from the storage
    (deleted by hand) is left out rather than stopping the export."""
    rows = []
    for photo in battle.photos.all():
        try:
            with storage().open(photo.display, "rb") as f:
                data = f.read()
        except (OSError, FileNotFoundError):
            continue
        rows.append(
            {
                **columns_of(photo, skip=DERIVED),
                "added_by": person(photo.added_by_id),
                IMAGE: base64.b64encode(data).decode("ascii"),
            }
        )
    return rows


def export_accounts(battle: Battle, *, person: Callable, columns_of: Callable) -> list[dict]:
    return [
        {**columns_of(a, skip=()), "author": person(a.author_id)} for a in battle.accounts.all()
    ]


# --- the import -------------------------------------------------------------------------------


def decode(value, where: str) -> bytes:
    """The bytes of a row's ``image``: base64 text within the photo's size limit."""
    most = settings.PHOTO_MAX_BYTES
    if not isinstance(value, str) or len(value) > (most + 2) // 3 * 4:
        raise PhotoRowError(
            f"{where}.{IMAGE}: not a photo in base64 of at most {imaging.megabytes(most)}."
        )
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise PhotoRowError(f"{where}.{IMAGE}: not base64.") from None


class Stored:
    """The names stored by one import, removed again when it fails (the storage is no part of
    the database's transaction)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def save(self, name: str, data: bytes) -> None:
        saved = storage().save(name, ContentFile(data))
        self.names.append(saved)
        if saved != name:
            raise PhotoRowError(f"A photo is already stored as {name}.")

    def remove(self) -> None:
        for name in self.names:
            with contextlib.suppress(OSError):  # gone already
                storage().delete(name)
        self.names.clear()


def import_photos(
    battle: Battle, rows: list[dict], *, person: Callable, columns: Callable, stored: Stored,
    where: str, new_code: bool,
) -> None:  # fmt: skip
    """Write the battle's photos of the file, each re-checked and re-made by Pillow as an upload
    is (a refusal names the photo and says why), within the battle's limits."""
    if len(rows) > settings.PHOTOS_PER_BATTLE:
        raise PhotoRowError(
            f"{where}: {len(rows)} photos; a battle has at most {settings.PHOTOS_PER_BATTLE}."
        )
    sides = set((battle.setup or {}).get("sides", {}))
    total = 0
    for i, row in enumerate(rows):
        here = f"{where}.photos[{i}]"
        if row.get("side", "") not in sides | {""}:
            raise PhotoRowError(f"{here}.side: {str(row.get('side'))[:20]!r} is no side here.")
        data = decode(row.get(IMAGE), here)
        try:
            made = imaging.process(data, f"photo {i + 1} of {battle.named}", limits())
        except imaging.PhotoRefused as exc:
            raise PhotoRowError(f"{here}: {exc}") from None
        total += len(made.display.data) + len(made.thumbnail.data)
        if total > settings.PHOTOS_MAX_BYTES_PER_BATTLE:
            raise PhotoRowError(
                f"{where}: its photos are more than "
                f"{imaging.megabytes(settings.PHOTOS_MAX_BYTES_PER_BATTLE)} together."
            )
        photo = BattlePhoto(**columns(BattlePhoto, row, skip=(IMAGE,)), battle=battle)
        photo.added_by = person(row.get("added_by"))
        if new_code:
            photo.code = uuid.uuid4()
        display, thumbnail = stored_names(battle, photo.code)
        stored.save(display, made.display.data)
        stored.save(thumbnail, made.thumbnail.data)
        photo.display, photo.thumbnail = display, thumbnail
        photo.width, photo.height = made.display.width, made.display.height
        photo.thumb_width, photo.thumb_height = made.thumbnail.width, made.thumbnail.height
        photo.display_bytes = len(made.display.data)
        photo.save()


def import_accounts(
    battle: Battle, rows: list[dict], *, person: Callable, columns: Callable, where: str
) -> None:
    sides = set((battle.setup or {}).get("sides", {}))
    for i, row in enumerate(rows):
        if row.get("side") not in sides:
            raise PhotoRowError(
                f"{where}.accounts[{i}].side: {str(row.get('side'))[:20]!r} is no side here."
            )
        BattleAccount.objects.create(
            **columns(BattleAccount, row), battle=battle, author=person(row.get("author"))
        )
