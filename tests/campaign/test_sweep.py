"""The deadline sweep fans out (issue 36): it claims each due window once for one
``resolve_phase`` task; a window whose task is in flight is not queued again, one whose claim
is stale is, and the task releases its claim however it ends."""

from datetime import timedelta

import pytest

from campaign import tasks
from campaign.models import Campaign, PhaseWindow, WindowStatus
from campaign.services import gameplay, queue, sweep
from dgk.celery import app

pytestmark = pytest.mark.django_db


def passed(campaign, now):
    window = campaign.open_window()
    PhaseWindow.objects.filter(id=window.id).update(deadline=now - timedelta(seconds=1))
    return window


def test_two_sweeps_claim_a_due_window_once(campaign, now):
    window = passed(campaign, now)
    assert sweep.claim_due(now) == [window.id]
    assert sweep.claim_due(now) == []  # its task is in flight
    assert sweep.claim_due(now + timedelta(minutes=14)) == []
    window.refresh_from_db()
    assert window.queued_at == now


def test_a_stale_claim_is_queued_again(campaign, now, settings):
    window = passed(campaign, now)
    assert sweep.claim_due(now) == [window.id]
    later = now + timedelta(seconds=settings.SWEEP_CLAIM_SECONDS + 1)
    assert sweep.claim_due(later) == [window.id]
    window.refresh_from_db()
    assert window.queued_at == later


def test_a_window_not_due_is_not_claimed(campaign, now):
    window = campaign.open_window()
    assert sweep.claim_due(now) == []
    window.refresh_from_db()
    assert window.queued_at is None


def test_a_paused_campaign_is_not_claimed(campaign, now):
    passed(campaign, now)
    Campaign.objects.filter(id=campaign.id).update(paused=True)
    assert sweep.claim_due(now) == []


def test_the_sweep_queues_and_the_task_resolves_and_releases(campaign, now):
    window = passed(campaign, now)
    # No broker in the tests: the queued task runs here, eagerly, as on a site without one.
    assert tasks.sweep_deadlines.delay().get() == 1
    window.refresh_from_db()
    assert window.status == WindowStatus.RESOLVED
    assert window.queued_at is None
    assert campaign.versions.filter(number=1).exists()
    assert tasks.sweep_deadlines.delay().get() == 0  # the next window is not due


def test_a_failed_resolution_is_released_for_the_next_sweep(campaign, now, monkeypatch):
    window = passed(campaign, now)

    def crash(*args, **kwargs):
        raise RuntimeError("the worker died")

    real = gameplay.run_phase
    monkeypatch.setattr(gameplay, "run_phase", crash)
    assert sweep.sweep(now) == 1  # logged, not raised: the others of the sweep go on
    window.refresh_from_db()
    assert window.status == WindowStatus.OPEN
    assert window.queued_at is None  # released: the next sweep tries again at once
    monkeypatch.setattr(gameplay, "run_phase", real)
    assert sweep.sweep(now) == 1
    window.refresh_from_db()
    assert window.status == WindowStatus.RESOLVED


def test_the_router_gives_the_pictures_and_warmed_pages_their_priorities():
    """Redis reads its priority lists in order (``queue_order_strategy``): a resolution or an
    email (no priority, 0) goes before the warmed pages (6), which go before the pictures, the
    tiles and the book (9). Set by name in ``CELERY_TASK_ROUTES``."""

    def priority(name: str) -> int:
        return app.amqp.router.route({}, name).get("priority", 0)

    assert priority(queue.RESOLVE_PHASE) == priority(queue.SEND_EMAIL) == 0
    assert priority(queue.WARM_SEAT_PAGES) == 6
    assert priority(queue.DRAW_MAP_PICTURE) == priority(queue.PRINT_SEASON_BOOK) == 9
    assert priority("maps.tasks.render_map_tiles") == 9
    # beat's periodic looks for pictures and books wanted are drawing work too
    assert priority("maps.tasks.draw_wanted_map_pictures") == 9
    assert priority("seasons.tasks.print_wanted_season_books") == 9
    # each name routed is a task the app knows (a misspelt name would route nothing)
    app.loader.import_default_modules()
    routed = set(app.conf.task_routes)
    assert routed <= set(app.tasks), routed - set(app.tasks)
