"""The book of the season is printed by the worker (docs/season-end.md): a short season played
by the automatic players and ended by the organiser; the task sent through Redis to a real
Celery worker prints both papers with Debian's chromium where the site serves them from, and a
member then downloads the A4 book.
"""

import time

import pytest
from celery import Celery
from django.urls import reverse
from django.utils import timezone

from battles.services.printing import chromium
from campaign.services import organiser as organiser_service
from dgk import files
from seasons.services import bookfiles
from tests.conftest import TEST_BROKER_URL
from tests.integration.test_celery_worker import worker_queue  # noqa: F401
from tests.orders.test_play_fixtures import client_for
from tests.seasons.real_season import play_real_season

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PRINT_SECONDS = 240  # two papers, a page per turn, on a busy CI machine


def test_the_worker_prints_the_book_when_the_season_ends(
    worker_queue,  # noqa: F811
    organiser,
    django_capture_on_commit_callbacks,
):
    if chromium() is None:
        pytest.fail("chromium is needed to print the book (apt-get install chromium)")
    queue, worker, log = worker_queue
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=1, name="Worker book", prefix="wb"
    )
    with django_capture_on_commit_callbacks(execute=True):
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    campaign.refresh_from_db()
    keys = [bookfiles.book_key(campaign, paper) for paper in bookfiles.PAPERS]
    assert not any(bookfiles.book_stored(k) for k in keys)
    sender = Celery("dgk-test-sender", broker=TEST_BROKER_URL, set_as_current=False)

    sender.send_task("seasons.tasks.print_season_book", args=[campaign.id], queue=queue)

    started = time.monotonic()
    while not all(bookfiles.book_stored(k) for k in keys) and worker.poll() is None:
        if time.monotonic() - started > PRINT_SECONDS:
            pytest.fail(f"no book in {PRINT_SECONDS}s; the worker's log:\n{log.read_text()}")
        time.sleep(0.5)
    sender.close()
    print(f"\nthe worker printed the book in {time.monotonic() - started:.1f}s (A4 and Letter)")
    assert all(files.read_bytes(bookfiles.KIND, k).startswith(b"%PDF-") for k in keys), (
        log.read_text()
    )
    r = client_for(campaign.seats.get(power="prussia").user).get(
        reverse("war_book", args=[campaign.code, "a4"])
    )
    book = files.read_bytes(bookfiles.KIND, keys[0])
    assert r.status_code == 200 and b"".join(r.streaming_content) == book
