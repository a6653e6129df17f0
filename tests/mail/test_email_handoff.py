"""A resolution hands its emails what it made (``email.deliver_many``'s ``handoff``): the seats
with their users, the new version and window, the events it wrote. Emails built from that are
the emails built from the database, to the letter, over a whole season, and they read less."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.services import outgoing
from mail.services import email
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db


def test_a_seasons_emails_from_the_handoff_are_those_from_the_database(
    settings, organiser, django_capture_on_commit_callbacks, monkeypatch
):
    settings.SITE_URL = "https://dgk.example.org"
    compared: Counter = Counter()
    batches = Counter()
    real = email.deliver_many

    def checked(batch, handoff=None, outbox=None):
        batches["with a handoff" if handoff else "without"] += 1
        handed = outgoing._HANDOFFS.get(handoff)
        if handoff:
            assert handed is not None, "the resolution ran in this process: its handoff is here"
            campaign = handed.latest.campaign
            # The events it wrote are those its rows give back.
            read = email._events_since(campaign, handed.since_version)
            assert handed.events() == read
            assert {turn for turn, _ in read} <= {handed.latest.turn, handed.latest.turn - 1}
            seat_ids = [ids["seat_id"] for _, ids in batch if "seat_id" in ids]
            from_hand, from_db = email.Shared(seat_ids, handed), email.Shared(seat_ids)
            for kind, ids in batch:
                built = email.build(kind, from_hand, **ids)
                assert built == email.build(kind, from_db, **ids), (kind, ids)
                compared[kind if built else f"{kind} (none)"] += 1
        return real(batch, handoff, outbox)

    monkeypatch.setattr(email, "deliver_many", checked)
    campaign, _battles = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=18, name="Handed", prefix="hand"
    )
    assert campaign.latest_version().turn == 18
    # Every resolution's batch came with its handoff; only the start (set-up) did not.
    assert batches["without"] == 1 and batches["with a handoff"] > 40, batches
    for kind in ("phase-opened", "phase-resolved", "battle-pending", "campaign-over"):
        assert compared[kind] > 0, compared
    assert outgoing._HANDOFFS == {}, "each handoff is taken by its emails"


def test_a_handoff_spares_the_batch_its_reads(
    organiser, django_capture_on_commit_callbacks, monkeypatch
):
    """With the handoff a resolution's emails read only the letters (one query when none was
    written); without it they read the seats, the window with its version and the events too."""
    counts = {}
    real = email.deliver_many

    def counted(batch, handoff=None, outbox=None):
        handed = outgoing._HANDOFFS.get(handoff)
        if handed is not None and "bare" not in counts:
            seat_ids = [ids["seat_id"] for _, ids in batch if "seat_id" in ids]
            for label, shared in (("bare", None), ("handed", handed)):
                with CaptureQueriesContext(connection) as ctx:
                    shared = email.Shared(seat_ids, shared)
                    for kind, ids in batch:
                        email.build(kind, shared, **ids)
                counts[label] = len(ctx.captured_queries)
        return real(batch, handoff, outbox)

    monkeypatch.setattr(email, "deliver_many", counted)
    play_real_season(organiser, django_capture_on_commit_callbacks, turns=1, prefix="count")
    assert counts["handed"] == 1, counts
    assert counts["bare"] == counts["handed"] + 3, counts
