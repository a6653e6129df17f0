"""What the campaign tells becomes pushes: a resolution's calls for orders, the campaign's
reminders, letters, battles' dates; only for seats whose player has a device and wants that
kind, queued when the change commits."""

import doctest
import json
from datetime import timedelta

import pytest
from django.db import transaction

from campaign.services.drifting import send_reminders
from campaign.services.resolution import resolve_due_phase
from letters.services import press
from push.models import PushSetting
from push.services import listening, messages, subscriptions
from tests.push.conftest import device_for
from tests.push.test_delivery import decrypted

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("loopback_allowed")]

SECRET = "Daun has 4321 points at SECRET-HEX"


@pytest.fixture
def queued(monkeypatch):
    """The pushes queued (by name, on commit) instead of sent; other tasks queue as ever."""
    calls = []
    original = listening.queue.on_commit

    def on_commit(task, *args, **kwargs):
        if task == listening.SEND_PUSHES:
            calls.append((task, *args, kwargs))
        else:
            original(task, *args, **kwargs)

    monkeypatch.setattr(listening.queue, "on_commit", on_commit)
    return calls


def resolve(campaign, capture):
    window = campaign.open_window()
    with capture(execute=True):
        return resolve_due_phase(window.id, now=window.deadline)


def test_the_docstrings_examples_hold():
    for module in (listening, messages, subscriptions):
        assert doctest.testmod(module).failed == 0


def test_a_resolution_queues_pushes_only_for_seats_with_a_device_and_the_kind_on(
    campaign, player, other, prussia, austria, hanover, subscriber, queued,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    device_for(player, subscriber, "https://push.example.org/fritz")
    device_for(other, subscriber, "https://push.example.org/maria")
    PushSetting.objects.create(seat=austria, kinds=["resolved", "letter"])  # orders off
    resolve(campaign, django_capture_on_commit_callbacks)
    (task, pushes, options) = queued[0]
    assert task == "push.tasks.send_pushes" and options == {"robust": True}
    # Five seats were called for orders; Hanover has no device, Austria turned them off.
    assert pushes == [{"seat": prussia.id, "event": "orders-due"}]
    assert len(queued) == 1


def test_no_device_anywhere_queues_nothing(campaign, queued, django_capture_on_commit_callbacks):
    resolve(campaign, django_capture_on_commit_callbacks)
    assert queued == []


def test_a_resolution_pushes_the_call_for_orders_to_the_device(
    campaign, player, prussia, push_service, subscriber, django_capture_on_commit_callbacks
):
    """The whole way: the resolution commits, the task runs (eagerly), the push arrives."""
    device_for(player, subscriber, push_service.endpoint("fritz"))
    resolve(campaign, django_capture_on_commit_callbacks)
    (received,) = push_service.received
    payload = decrypted(received, subscriber)
    assert payload["title"] == "Orders are due"
    assert payload["body"] == "Orders are due in Bohemia 1757."
    assert set(payload) == {"title", "body", "url", "tag"}


def test_nothing_is_pushed_when_the_resolution_rolls_back(
    campaign, player, push_service, subscriber, django_capture_on_commit_callbacks
):
    device_for(player, subscriber, push_service.endpoint("fritz"))
    window = campaign.open_window()
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        resolve_due_phase(window.id, now=window.deadline)
        raise RuntimeError("rolled back")
    assert push_service.received == []


def test_the_campaigns_reminders_are_pushed_with_their_hours(
    campaign, player, prussia, subscriber, queued, django_capture_on_commit_callbacks
):
    """The reminder steps are the campaign's own (``deadlines.due_reminder``): a push goes
    with each reminder email, never on a schedule of its own."""
    device_for(player, subscriber, "https://push.example.org/fritz")
    window = campaign.open_window()
    with django_capture_on_commit_callbacks():
        send_reminders(now=window.deadline - timedelta(hours=30))
    assert queued == []  # no step due yet
    with django_capture_on_commit_callbacks():
        send_reminders(now=window.deadline - timedelta(hours=20))
    (_, pushes, _) = queued[0]
    assert pushes == [{"seat": prussia.id, "event": "reminder", "hours": 24}]


def test_a_letter_is_pushed_to_its_addressee_without_its_words(
    campaign, player, other, prussia, austria, push_service, subscriber, now,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    device_for(other, subscriber, push_service.endpoint("maria"))
    device_for(player, subscriber, push_service.endpoint("fritz"))
    with django_capture_on_commit_callbacks(execute=True):
        press.send(prussia, [austria.id], SECRET, now=now)
    (received,) = push_service.received  # the addressee's, not the sender's
    assert received["path"] == "/push/maria"
    payload = decrypted(received, subscriber)
    assert payload["title"] == "A letter for you"
    assert payload["url"] == f"/play/{austria.code}/letters/"
    text = json.dumps(payload)
    assert "Daun" not in text and "4321" not in text and "SECRET" not in text
    assert "Prussia" not in text  # not even who wrote


def test_a_letter_by_courier_is_pushed_when_it_arrives(
    campaign, other, prussia, austria, subscriber, queued, now,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    campaign.options = {**(campaign.options or {}), "press": "courier"}
    campaign.save(update_fields=["options"])
    device_for(other, subscriber, "https://push.example.org/maria")
    with django_capture_on_commit_callbacks():
        letter = press.send(prussia, [austria.id], SECRET, now=now).letter
    assert queued == []  # on its way
    listening.on_version_stored(
        None, campaign=campaign, latest=type("V", (), {"number": letter.arrives_version})()
    )
    (_, pushes, _) = queued[0]
    assert pushes == [{"seat": austria.id, "event": "letter"}]
