"""A book of the season is printed and stored once, however many workers are asked for it
(``seasonbook.draw_book``, ``bookfiles.printing``): a queued task and a download's note can
reach two workers at once, and the second print would replace the first with other bytes (its
moment of printing) while a player downloads it (the several-machines test saw it)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from campaign.services import organiser as organiser_service
from dgk import files
from seasons.services import bookfiles, seasonbook
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(organiser, django_capture_on_commit_callbacks, monkeypatch):
    """A campaign played one turn and ended; its book's printer counts what it prints (the
    printer is Chromium's, its own tests are tests/browser/test_season_book.py)."""
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=1, name="Once", prefix="once"
    )
    with django_capture_on_commit_callbacks(execute=True):
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    campaign.refresh_from_db()
    printed = []

    def book_pdf(campaign, paper="a4"):
        printed.append(paper)
        return f"%PDF-1.4 {paper} {len(printed)}".encode()

    monkeypatch.setattr(seasonbook, "book_pdf", book_pdf)
    return campaign, printed


def stored(campaign, paper):
    key = bookfiles.book_key(campaign, paper)
    return files.storage(bookfiles.KIND).open(key).read() if bookfiles.book_stored(key) else None


def test_a_book_another_worker_is_printing_is_left_to_it(ended):
    campaign, printed = ended
    a4 = bookfiles.book_key(campaign, "a4")
    with bookfiles.printing(a4) as mine:  # another worker, printing the A4 book
        assert mine
        with bookfiles.printing(a4) as also:
            assert not also  # (and a third would be refused too)
        names = seasonbook.draw_book(campaign.id)
    assert names == [a4, bookfiles.book_key(campaign, "letter")]
    assert printed == ["letter"] and stored(campaign, "a4") is None
    assert stored(campaign, "letter") == b"%PDF-1.4 letter 1"
    # Done (the lock let go): asked again, it prints the A4 book, and never again.
    seasonbook.draw_book(campaign.id)
    seasonbook.draw_book(campaign.id)
    assert printed == ["letter", "a4"]
    assert stored(campaign, "a4") == b"%PDF-1.4 a4 2"


def test_a_print_that_fails_lets_the_next_ask_print_it(ended, monkeypatch):
    campaign, printed = ended

    def broken(campaign, paper="a4"):
        raise RuntimeError("chromium died")

    monkeypatch.setattr(seasonbook, "book_pdf", broken)
    with pytest.raises(RuntimeError):
        seasonbook.draw_book(campaign.id)
    monkeypatch.undo()
    monkeypatch.setattr(seasonbook, "book_pdf", lambda campaign, paper="a4": b"%PDF-1.4 again")
    seasonbook.draw_book(campaign.id)
    assert stored(campaign, "a4") == b"%PDF-1.4 again"
