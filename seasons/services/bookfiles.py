"""The book of the season in the ``books`` storage, and asking the worker to print it
(docs/season-end.md).

Where: ``<campaign code>/<stamp>-<paper>.pdf`` in the ``books`` storage (``dgk.files``: the
folder ``SEASON_BOOKS_DIR``, or the bucket's ``books/`` prefix); the stamp is the campaign's
last state version, the moment it ended and a digest of the battles' photos and accounts it
prints, so a campaign reopened and ended again gets a new book, as does one whose sides took
an account or a photo away after the end; a book once printed is never printed again. Files
are written whole.

The web never prints one: the campaign's end asks for it (``ask_for_book``: a task for the
worker when the transaction commits); a download of a book not yet stored asks again and
answers "being printed". Without a broker tasks run eagerly in the process that queues them,
so a note is left instead for ``draw_wanted_books``, which ``manage.py runperiodic`` runs in
its own process (as ``maps.picture_queue`` does for the map pictures). The drawing itself is
``seasons.services.seasonbook``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from battles.services import photo_pages
from campaign.models import Campaign
from campaign.services import queue
from dgk import files

PAPERS = {"a4": "A4", "letter": "Letter"}
QUEUED_FOR = 600  # seconds a queued book is not queued again
PRINTING_FOR = 600  # seconds one worker holds a book it prints (printing takes 5-60 s)
KIND = "books"  # the storage (settings.FILE_KINDS)
WANTED = "wanted"


def book_stamp(campaign: Campaign) -> str:
    """What the book's name says of its content: the last version, the end, and what it prints
    of the battles' photos and accounts (``photo_pages.book_digest``; nothing when none)."""
    latest = campaign.versions.order_by("-number").values_list("id", flat=True).first()
    ended = int(campaign.ended.timestamp()) if campaign.ended else 0
    printed = photo_pages.book_digest(campaign)
    return f"v{latest or 0}-e{ended}" + (f"-p{printed}" if printed else "")


def book_key(campaign: Campaign, paper: str, stamp: str | None = None) -> str:
    """The book's name in the ``books`` storage."""
    if paper not in PAPERS:
        raise ValueError(f"no paper {paper!r}")
    return f"{campaign.code}/{stamp or book_stamp(campaign)}-{paper}.pdf"


def book_stored(key: str) -> bool:
    return files.storage(KIND).exists(key)


def book_ready(campaign: Campaign) -> bool:
    stamp = book_stamp(campaign)
    return all(book_stored(book_key(campaign, paper, stamp)) for paper in PAPERS)


def ask_for_book(campaign: Campaign) -> None:
    """Have the worker print the book of ``campaign`` (both papers) unless it is stored."""
    if book_ready(campaign):
        return
    campaign_id = campaign.id
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: mark_wanted(campaign_id), robust=True)
        return
    if cache.add(_lock_key("queued", book_key(campaign, "a4")), 1, timeout=QUEUED_FOR):
        queue.on_commit(queue.PRINT_SEASON_BOOK, campaign_id, robust=True)


@contextmanager
def printing(key: str) -> Iterator[bool]:
    """Whether this process is the one to print the book ``key`` now: True for the first to ask
    (until it is done, or ``PRINTING_FOR`` seconds), False for any other meanwhile, in any
    process that shares the cache (Redis: every worker of the site). Two workers can be asked
    for one book (a queued task and a download's note, or two downloads): printed twice, the
    second would replace the first with other bytes (its moment of printing) while it is being
    served."""
    lock = _lock_key("printing", key)
    mine = cache.add(lock, 1, timeout=PRINTING_FOR)
    try:
        yield mine
    finally:
        if mine:
            cache.delete(lock)


def _lock_key(what: str, key: str) -> str:
    """The shared cache's key of a note on the book ``key`` (``what``: queued, printing)."""
    return f"dgk:book-{what}:{hashlib.sha256(key.encode()).hexdigest()}"[:80]


def on_campaign_ended(sender, *, campaign: Campaign, **kwargs) -> None:
    """``campaign.signals.campaign_ended``: the book, printed by the worker."""
    ask_for_book(campaign)


# --- notes for the embedded mode (no broker) ------------------------------------------------------


def mark_wanted(campaign_id: int) -> None:
    """Leave a note that the book is wanted (an empty file: cheap, and safe to do twice)."""
    files.save_whole(KIND, f"{WANTED}/{campaign_id}", b"")


def wanted_ids() -> list[int]:
    try:
        notes = files.storage(KIND).listdir(WANTED)[1]
    except FileNotFoundError:
        return []
    return sorted(int(n) for n in notes if n.isdigit())


def forget_wanted(campaign_id: int) -> None:
    files.storage(KIND).delete(f"{WANTED}/{campaign_id}")
