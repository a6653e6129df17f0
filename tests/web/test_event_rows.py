# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Event rows as a resolution writes them (``resolution.insert_event_rows``: ``COPY`` on
PostgreSQL, ``bulk_create`` elsewhere) read back as they were given, whatever their text."""

import pytest

from campaign.models import Event
from campaign.services.resolution import _event_rows, insert_event_rows
from tests.web.test_play_fixtures import play_map, rules_campaign  # noqa: F401 (fixtures)

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
