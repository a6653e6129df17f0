"""A resolution's emails go through the outbox (issue 27): written in the resolution's own
transaction, each claimed before it is built and marked sent after, so no email is lost to a
broker that is down or a worker that dies, and none is sent twice."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.models import OutboxEmail
from campaign.services.resolution import resolve_due_phase
from dgk.celery import app
from mail.services import email

pytestmark = pytest.mark.django_db


def resolve(campaign, capture):
    window = campaign.open_window()
    with capture(execute=True):
        resolve_due_phase(window.id, now=window.deadline)
    return window


def test_a_resolutions_emails_are_written_and_marked_sent(
    campaign, mailoutbox, django_capture_on_commit_callbacks
):
    resolve(campaign, django_capture_on_commit_callbacks)
    rows = list(OutboxEmail.objects.all())
    assert len(rows) == len(mailoutbox) == 5
    assert all(r.sent_at is not None and r.kind == "phase-opened" for r in rows)
    assert sorted(m.to[0] for m in mailoutbox) == sorted(
        campaign.seats.filter(reserve=False).values_list("user__email", flat=True)
    )


def test_a_batch_delivered_twice_sends_none_twice(
    campaign, mailoutbox, django_capture_on_commit_callbacks
):
    resolve(campaign, django_capture_on_commit_callbacks)
    rows = list(OutboxEmail.objects.order_by("id"))
    # The worker died after sending, before acknowledging: the broker hands the task again.
    again = email.deliver_many([(r.kind, r.ids) for r in rows], rows[0].batch, [r.id for r in rows])
    assert again == 0 and len(mailoutbox) == 5


@pytest.fixture
def broker_down(settings):
    """Tasks not eager, the broker on a port where nothing listens."""
    app.set_current()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    old = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:9/0"
    app._pool = None
    app.amqp._producer_pool = None
    yield
    app.conf.broker_url = old
    app.conf.task_always_eager = True
    app._pool = None
    app.amqp._producer_pool = None


def test_with_the_broker_down_the_emails_wait_for_the_sweep(
    campaign, mailoutbox, django_capture_on_commit_callbacks, broker_down, settings
):
    window = resolve(campaign, django_capture_on_commit_callbacks)  # the queueing fails, robust
    window.refresh_from_db()
    assert window.status == "resolved" and not mailoutbox
    assert OutboxEmail.objects.filter(sent_at__isnull=True).count() == 5
    # (The outbox keeps the real time: what it measures is how long a task has been lost.)
    # Measured from the rows' own time, not from after the (slow, broker-down) resolution.
    written = OutboxEmail.objects.order_by("created").first().created
    soon = written + timedelta(seconds=settings.OUTBOX_RETRY_SECONDS - 1)
    assert email.send_pending(now=soon) == 0  # its task may still come: not yet
    later = timezone.now() + timedelta(seconds=settings.OUTBOX_RETRY_SECONDS + 1)
    assert email.send_pending(now=later) == 5
    assert email.send_pending(now=later) == 0
    assert len(mailoutbox) == 5 and not OutboxEmail.objects.filter(sent_at__isnull=True)


def test_an_email_claimed_by_a_dead_worker_is_sent_once_its_claim_is_old(
    campaign, mailoutbox, django_capture_on_commit_callbacks, broker_down, settings
):
    resolve(campaign, django_capture_on_commit_callbacks)
    claimed = OutboxEmail.objects.order_by("id").first()
    now = timezone.now()
    wait = timedelta(seconds=settings.OUTBOX_RETRY_SECONDS + 1)
    OutboxEmail.objects.filter(id=claimed.id).update(claimed_at=now + wait)
    assert email.send_pending(now=now + wait) == 4  # its claim is still fresh
    assert email.send_pending(now=now + 3 * wait) == 1
    assert len(mailoutbox) == 5
    assert len({m.to[0] for m in mailoutbox}) == 5  # one each


def test_a_batch_is_claimed_in_one_statement_leaving_a_row_another_worker_holds(
    campaign, mailoutbox, django_capture_on_commit_callbacks, broker_down
):
    resolve(campaign, django_capture_on_commit_callbacks)  # the queueing fails: rows wait
    rows = list(OutboxEmail.objects.order_by("id"))
    now = timezone.now()
    OutboxEmail.objects.filter(id=rows[2].id).update(claimed_at=now)  # another worker's, fresh
    with CaptureQueriesContext(connection) as queries:
        sent = email.deliver_many(
            [(r.kind, r.ids) for r in rows], rows[0].batch, [r.id for r in rows], now=now
        )
    claims = [q for q in queries if "claimed_at" in q["sql"] and "RETURNING" in q["sql"]]
    assert sent == 4 and len(mailoutbox) == 4 and len(claims) == 1
    assert [r.id for r in OutboxEmail.objects.filter(sent_at__isnull=True)] == [rows[2].id]
