"""``campaign.signals.told``: every notice the campaign queues for email is told to the other
channels too (push, the club's channel), with its kind and ids, in the same transaction."""

from campaign import signals
from campaign.services import outgoing


def test_a_reminder_is_told_with_its_ids(campaign, prussia, django_capture_on_commit_callbacks):
    heard = []

    def listen(sender, *, notices, campaign_id, **kwargs):
        heard.append((list(notices), campaign_id))

    signals.told.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=False):
            outgoing.queue_reminder(prussia.id, 7, 12)
    finally:
        signals.told.disconnect(listen)
    assert heard == [([("reminder", {"seat_id": prussia.id, "window_id": 7, "hours": 12})], None)]


def test_nothing_is_told_for_an_empty_batch(campaign):
    heard = []
    signals.told.connect(lambda sender, **kw: heard.append(kw), weak=False, dispatch_uid="t")
    try:
        outgoing._queue_batch([], campaign.id)
    finally:
        signals.told.disconnect(dispatch_uid="t")
    assert heard == []
