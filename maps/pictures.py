"""The seat map pictures: one PNG per (state version, seat), drawn once, by the worker.

Where: ``<campaign code>/<version id>/<name>.png`` in the ``pictures`` storage (``dgk.files``:
the folder ``MAP_PICTURES_DIR``, or the bucket's ``pictures/`` prefix), the name
being the seat's code and a stamp of what decides its view (its armies, the campaign's
``allies_share``, the drawing's ``PICTURE_VERSION``), or ``umpire`` for the non-playing umpire's
picture. Versions never change (a roll back deletes a version, and a later one gets a new id),
so a picture, once written, is never drawn again. Files are written whole, so a reader never
sees half a picture.

The web never draws one (``orders.picture_views`` serves the file, or asks for it through
``maps.picture_queue`` and answers 202); ``draw_picture`` runs in the worker
(``maps.tasks.draw_map_picture``). Without a broker, tasks run eagerly in the process that
queues them, so the web process only leaves a note in ``wanted/`` (of the same storage) and the
periodic task
``draw_wanted_map_pictures`` (``manage.py runperiodic``, another process) draws what the notes
ask for.
"""

from __future__ import annotations

import hashlib
import logging

from campaign.models import Seat, StateVersion
from campaign.services import knowledge
from campaign.services.gameplay import load_campaign_map
from dgk import files
from maps.seat_picture import picture_title, seat_picture_png

logger = logging.getLogger(__name__)

# Bump when the drawing changes: new names, pictures drawn anew (2: the fast octree palette).
PICTURE_VERSION = "2"
UMPIRE = "umpire"
KIND = "pictures"  # the storage (settings.FILE_KINDS)
WANTED = "wanted"


def picture_name(seat: Seat | None) -> str:
    """The file name of a seat's picture (``umpire`` with no seat)."""
    if seat is None:
        return UMPIRE
    sharing = bool((seat.campaign.options or {}).get("allies_share", False))
    stamp = f"{sorted(seat.armies)}:{sharing}:{PICTURE_VERSION}"
    return f"{seat.code}-{hashlib.sha256(stamp.encode()).hexdigest()[:12]}"


def picture_key(version: StateVersion, seat: Seat | None) -> str:
    """The picture's name in the ``pictures`` storage."""
    code = seat.campaign.code if seat is not None else version.campaign.code
    return f"{code}/{version.id}/{picture_name(seat)}.png"


def picture_stored(version: StateVersion, seat: Seat | None) -> bool:
    return files.storage(KIND).exists(picture_key(version, seat))


def draw_picture(version_id: int, seat_id: int | None) -> str | None:
    """Draw and store the picture of one version for one seat (``None``: the umpire) unless it
    is there already; its name in the storage, or None when the version, the seat or the map
    is gone."""
    version = StateVersion.objects.select_related("campaign").filter(id=version_id).first()
    seat = None
    if seat_id is not None:
        seat = Seat.objects.select_related("campaign").filter(id=seat_id).first()
        if seat is None or version is None or seat.campaign_id != version.campaign_id:
            return None
    if version is None:
        return None
    key = picture_key(version, seat)
    if files.storage(KIND).exists(key):
        return key
    hexmap = load_campaign_map(version.campaign.map_name)
    if hexmap is None:
        logger.warning("no map picture: the map of %s cannot be loaded", version.campaign)
        return None
    view = knowledge.seat_view(seat, version) if seat else knowledge.umpire_view(version)
    png = seat_picture_png(
        view, hexmap, title=picture_title(view, version.campaign.name, version.number)
    )
    return files.save_whole(KIND, key, png)


# --- notes for the embedded mode (no broker) ------------------------------------------------------


def wanted_notes() -> list[str]:
    """The names of the notes left, in name order (not a file being written: ``.write-*``)."""
    store = files.storage(KIND)
    try:
        return sorted(n for n in store.listdir(WANTED)[1] if not n.startswith("."))
    except FileNotFoundError:
        return []


def mark_wanted(version_id: int, seat_id: int | None) -> None:
    """Leave a note that the picture is wanted (an empty file: cheap, and safe to do twice)."""
    files.save_whole(KIND, f"{WANTED}/{version_id}-{UMPIRE if seat_id is None else seat_id}", b"")


def draw_wanted() -> int:
    """Draw every picture a note asks for, then remove the note; how many notes ended with a
    picture stored. Safe to run twice, and by two processes at once (each picture is written
    whole, and only once). A picture that fails is logged and its note removed: the next page
    that shows it asks again."""
    done = 0
    store = files.storage(KIND)
    for note in wanted_notes():
        version_id, _, seat = note.partition("-")
        if version_id.isdigit() and (seat.isdigit() or seat == UMPIRE):
            seat_id = None if seat == UMPIRE else int(seat)
            try:
                done += draw_picture(int(version_id), seat_id) is not None
            except Exception:  # one broken picture must not stop the others
                logger.exception("drawing the map picture %s failed", note)
        store.delete(f"{WANTED}/{note}")
    return done
