# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""A Ready asks the worker to resolve the phase only when the phase is then due (issue 44, the
deadline hour): every awaited seat ready, an absent seat not awaited, or the deadline passed.
The others' Readys send it nothing. The task still runs, eagerly here (no broker), so each test
also sees the phase resolve, or not."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import PhaseWindow
from campaign.services import queue
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_everyone,
    in_phase,
    marching,
    play_map,
    rules_campaign,
    url,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def asked(monkeypatch):
    """The resolve tasks queued, each run as it would be (the queue itself, not a stand-in)."""
    calls: list[int] = []
    real = queue.now

    def now(task, *args, **kwargs):
        if task == queue.RESOLVE_PHASE:
            calls.append(args[0])
        return real(task, *args, **kwargs)

    monkeypatch.setattr(queue, "now", now)
    return calls


def press_ready(s) -> None:
    r = client_for(s.user).post(url("ready", s), in_phase(s))
    assert r.status_code == 302


def test_only_the_last_ready_asks_and_the_phase_resolves(marching, asked):
    seats = list(marching.seats.filter(reserve=False).order_by("id"))
    window = marching.open_window()
    *first, last = seats
    for s in first:
        press_ready(s)
    assert asked == []
    assert PhaseWindow.objects.get(id=window.id).status == "open"
    press_ready(last)
    assert asked == [window.id]
    assert PhaseWindow.objects.get(id=window.id).status == "resolved"
    assert marching.open_window().phase != "march"


def test_an_absent_player_is_not_waited_for(marching, asked):
    *present, away = list(marching.seats.filter(reserve=False).order_by("id"))
    away.absent_until = timezone.now() + timedelta(days=3)
    away.save(update_fields=["absent_until"])
    window = marching.open_window()
    for s in present[:-1]:
        press_ready(s)
    assert asked == []
    press_ready(present[-1])
    assert asked == [window.id]
    assert PhaseWindow.objects.get(id=window.id).status == "resolved"


def test_past_its_deadline_one_ready_asks(marching, asked):
    window = marching.open_window()
    PhaseWindow.objects.filter(id=window.id).update(deadline=timezone.now() - timedelta(minutes=1))
    first = marching.seats.filter(reserve=False).order_by("id").first()
    press_ready(first)
    assert asked == [window.id]
    assert PhaseWindow.objects.get(id=window.id).status == "resolved"
