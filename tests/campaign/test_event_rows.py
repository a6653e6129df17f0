# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Rows as a resolution writes them read back as they were given, whatever their text: event
rows (``resolution.insert_event_rows``: ``COPY`` on PostgreSQL, ``bulk_create`` elsewhere) and
state versions (``resolution.Writes``, a resolution's versions with their events: two or more
by ``COPY`` with ids from the sequence on PostgreSQL), whose unique numbers refuse a second
resolution."""

import pytest
from django.db import IntegrityError, transaction

from campaign.models import Event, StateVersion
from campaign.services.resolution import Writes, _event_rows, insert_event_rows
from tests.orders.test_play_fixtures import play_map, rules_campaign  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

AWKWARD = "Tab\there, a newline\nthen a backslash \\N and \\ and quotes ' \" and König's ⚔ \x7f"


def test_event_rows_read_back_as_written(rules_campaign):
    version = rules_campaign.versions.order_by("-number").first()
    events = [
        {"rule": "8", "kind": "reconnaissance", "text": AWKWARD, "audience": ["austria"],
         "data": {"hex": "0502", "nested": {"list": [1, 2.5, None, True, "\\N"]}, "ä": AWKWARD}},
        {"rule": "", "kind": "turn", "text": "", "audience": "public", "data": {}},
    ]  # fmt: skip
    before = Event.objects.count()
    insert_event_rows(_event_rows(version, events))
    rows = list(Event.objects.filter(version=version, seq__in=(0, 1)).order_by("id"))[-2:]
    assert Event.objects.count() == before + 2
    first, second = rows
    assert (first.rule, first.kind, first.text, first.public) == (
        "8",
        "reconnaissance",
        AWKWARD,
        False,
    )
    assert first.armies == ["austria"] and first.data == events[0]["data"]
    assert (second.text, second.public, second.armies, second.data) == ("", True, [], {})


def _version_like(version, number, **changes):
    """A new version of ``version``'s campaign numbered ``number``, its values but ``changes``."""
    names = ("turn", "resolved_phase", "phase", "state", "rolls", "seed_epoch", "reports", "orders")
    values = {name: getattr(version, name) for name in names}
    return StateVersion(
        campaign=version.campaign, number=number, created=version.created,
        **{**values, **changes},
    )  # fmt: skip


COLUMNS = ("number", "turn", "resolved_phase", "phase", "state", "rolls", "seed_epoch", "reports")


def test_versions_written_together_read_back_as_written(rules_campaign):
    latest = rules_campaign.versions.order_by("-number").first()
    odd = {"text": AWKWARD, "nested": [1, 2.5, None, True, {"\\N": AWKWARD}], "ä": "König"}
    made = [
        _version_like(latest, latest.number + 1, reports=[odd], orders={"prussia": odd}),
        _version_like(latest, latest.number + 2, rolls=[{"name": "march", "rolls": [6, 1]}]),
    ]
    writes = Writes()
    for version in made:
        writes.add(version, [{"kind": "turn", "text": AWKWARD, "audience": "public"}])
    writes.flush()
    assert all(v.pk and not v._state.adding for v in made)
    for version in made:
        back = StateVersion.objects.get(id=version.pk)  # the id given is the row's
        assert [getattr(back, c) for c in COLUMNS] == [getattr(version, c) for c in COLUMNS]
        assert (back.orders, back.created, back.campaign_id) == (
            version.orders, version.created, version.campaign_id,
        )  # fmt: skip
        assert list(Event.objects.filter(version=back).values_list("text", flat=True)) == [AWKWARD]
    assert [v.number for v in made] == [latest.number + 1, latest.number + 2]
    assert made[0].pk < made[1].pk  # ids in the order written, as one INSERT each gives them
    # and the table's own ids go on after them (the sequence was advanced, not bypassed)
    after = _version_like(latest, latest.number + 3)
    after.save(force_insert=True)
    assert after.pk > made[1].pk


def test_a_version_number_written_twice_is_refused(rules_campaign):
    """Exactly once (docs/architecture.md): a second resolution's version of the same number
    fails to insert with Django's IntegrityError, and none of its batch is kept."""
    latest = rules_campaign.versions.order_by("-number").first()
    before = rules_campaign.versions.count()
    writes = Writes()
    writes.add(_version_like(latest, latest.number + 1), [])
    writes.add(_version_like(latest, latest.number), [])  # taken
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.flush()
    assert rules_campaign.versions.count() == before
