"""The book of the season on disk, and asking the worker to print it (docs/season-end.md).

Where: ``settings.SEASON_BOOKS_DIR / <campaign code> / <stamp>-<paper>.pdf``; the stamp is the
campaign's last state version and the moment it ended, so a campaign reopened and ended again
gets a new book, and a book once printed is never printed again. Files are written whole (a
temporary file renamed into place).

The web never prints one: the campaign's end asks for it (``ask_for_book``: a task for the
worker when the transaction commits); a download of a book not yet on disk asks again and
answers "being printed". Without a broker tasks run eagerly in the process that queues them,
so a note is left instead for ``draw_wanted_books``, which ``manage.py runperiodic`` runs in
its own process (as ``maps.picture_queue`` does for the map pictures). The drawing itself is
``seasons.services.seasonbook``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from campaign.models import Campaign
from campaign.services import queue

PAPERS = {"a4": "A4", "letter": "Letter"}
QUEUED_FOR = 600  # seconds a queued book is not queued again


def books_root() -> Path:
    return Path(settings.SEASON_BOOKS_DIR)


def book_stamp(campaign: Campaign) -> str:
    latest = campaign.versions.order_by("-number").values_list("id", flat=True).first()
    ended = int(campaign.ended.timestamp()) if campaign.ended else 0
    return f"v{latest or 0}-e{ended}"


def book_path(campaign: Campaign, paper: str, stamp: str | None = None) -> Path:
    if paper not in PAPERS:
        raise ValueError(f"no paper {paper!r}")
    return books_root() / str(campaign.code) / f"{stamp or book_stamp(campaign)}-{paper}.pdf"


def book_ready(campaign: Campaign) -> bool:
    stamp = book_stamp(campaign)
    return all(book_path(campaign, paper, stamp).is_file() for paper in PAPERS)


def ask_for_book(campaign: Campaign) -> None:
    """Have the worker print the book of ``campaign`` (both papers) unless it is on disk."""
    if book_ready(campaign):
        return
    campaign_id = campaign.id
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: mark_wanted(campaign_id), robust=True)
        return
    key = "dgk:book-queued:" + hashlib.sha256(str(book_path(campaign, "a4")).encode()).hexdigest()
    if cache.add(key[:80], 1, timeout=QUEUED_FOR):
        queue.on_commit(queue.PRINT_SEASON_BOOK, campaign_id, robust=True)


def on_campaign_ended(sender, *, campaign: Campaign, **kwargs) -> None:
    """``campaign.signals.campaign_ended``: the book, printed by the worker."""
    ask_for_book(campaign)


# --- notes for the embedded mode (no broker) ------------------------------------------------------


def wanted_dir() -> Path:
    return books_root() / "wanted"


def mark_wanted(campaign_id: int) -> None:
    folder = wanted_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / str(campaign_id)).touch()


def wanted_ids() -> list[int]:
    folder = wanted_dir()
    notes = sorted(folder.iterdir()) if folder.is_dir() else []
    return [int(n.name) for n in notes if n.name.isdigit()]


def forget_wanted(campaign_id: int) -> None:
    (wanted_dir() / str(campaign_id)).unlink(missing_ok=True)
