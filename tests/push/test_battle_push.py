# ruff: noqa: F811 (pytest fixtures imported from the battles' tests)
"""A battle's date set by the organiser is pushed to the seats whose armies fight it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from battles.services import dates as battle_dates
from battles.services.records import seats_in
from push.services import listening
from tests.battles.test_battles import battle, battle_map, campaign  # noqa: F401 (fixtures)
from tests.push.conftest import device_for

pytestmark = pytest.mark.django_db


def test_a_battles_date_is_pushed_to_the_seats_that_fight_it(
    battle, organiser, player, ally, subscriber, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    original = listening.queue.on_commit
    monkeypatch.setattr(
        listening.queue,
        "on_commit",
        lambda task, *a, **k: (
            queued.append(a[0]) if task == listening.SEND_PUSHES else original(task, *a, **k)
        ),
    )
    device_for(player, subscriber, "https://push.example.org/fritz")
    device_for(ally, subscriber, "https://push.example.org/hans")  # not in this battle
    now = timezone.now()
    with django_capture_on_commit_callbacks():
        battle_dates.set_date(battle, organiser, now + timedelta(days=3), now=now)
    fighting = {seat.power: seat.id for seats in seats_in(battle).values() for seat in seats}
    assert set(fighting) == {"prussia", "austria"}  # the Hanoverian is not in it
    (pushes,) = queued  # Austria's player has no device
    assert pushes == [
        {"seat": fighting["prussia"], "event": "battle-dated", "battle": str(battle.code)}
    ]
