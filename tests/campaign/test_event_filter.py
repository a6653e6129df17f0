"""A seat's view reads the reconnaissance reports of earlier turns filtered in SQL (its own and
the public ones, ``knowledge._reports_for``): the view is the same as the projection of every
event, and no other seat's report row is read (issue 16)."""

from __future__ import annotations

import pytest
from django.db.models import Q

from campaign.models import Campaign, Event, StateVersion
from campaign.projection import project
from campaign.services import knowledge
from rules.armies import Army
from rules.events import EventKind
from rules.state import state_from_dict
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db


def unfiltered_view(seat, version):
    """The view as it was made before the filter: every reconnaissance event of the campaign."""
    events = (
        Event.objects.filter(campaign_id=version.campaign_id, version__number__lte=version.number)
        .filter(Q(version__turn__gte=version.turn - 1) | Q(kind=EventKind.RECONNAISSANCE.value))
        .select_related("version")
        .order_by("version__number", "seq")
    )
    rolls = [
        r
        for v in StateVersion.objects.filter(
            campaign_id=version.campaign_id, turn=version.turn, number__lte=version.number
        ).order_by("number")
        for r in v.rolls or []
    ]
    state = state_from_dict(version.state)
    return project(state, knowledge.seat_viewer(seat), events=events, rolls=rolls)


@pytest.mark.parametrize("allies_share", [False, True])
def test_filtered_reports_give_the_same_views(
    organiser, django_capture_on_commit_callbacks, allies_share
):
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=3, prefix=f"ef{int(allies_share)}"
    )
    Campaign.objects.filter(id=campaign.id).update(options={"allies_share": allies_share})
    campaign.refresh_from_db()
    old_reports = Event.objects.filter(
        campaign=campaign, kind=EventKind.RECONNAISSANCE.value, version__turn=1
    )
    assert old_reports.filter(public=False).exists()  # the season made some to filter
    versions = list(campaign.versions.filter(turn__gte=3).order_by("number"))
    assert versions
    sampled = versions[:: max(1, len(versions) // 4)]
    news = {v.id: knowledge.VersionNews(v) for v in sampled}  # (the worker's: read once)
    for seat in campaign.seats.filter(reserve=False).select_related("campaign"):
        for version in sampled:
            view = knowledge.seat_view(seat, version)
            assert view == unfiltered_view(seat, version), (seat.power, version.number)
            shared = knowledge.seat_view(seat, version, news=news[version.id])
            assert shared == view, (seat.power, version.number)


def test_no_other_seats_report_is_read(organiser, django_capture_on_commit_callbacks, monkeypatch):
    campaign, _ = play_real_season(organiser, django_capture_on_commit_callbacks, turns=3)
    version = campaign.latest_version()
    read: list = []
    real = knowledge.project

    def recording(state, viewer, *, events, **kwargs):  # what the SQL query handed over
        events = list(events)
        read.extend(events)
        return real(state, viewer, events=events, **kwargs)

    monkeypatch.setattr(knowledge, "project", recording)
    old = 0
    for seat in campaign.seats.filter(reserve=False).select_related("campaign"):
        read.clear()
        knowledge.seat_view(seat, version)
        for row in read:
            if row.kind == EventKind.RECONNAISSANCE.value and row.version.turn < version.turn - 1:
                old += 1
                assert row.public or set(seat.armies) & set(row.armies), (seat.power, row.armies)
    assert old  # earlier turns' reports were read, each by its own seat


def test_the_rows_read_once_for_every_seat_hand_each_only_its_own_reports(
    organiser, django_capture_on_commit_callbacks, monkeypatch
):
    """The worker's ``VersionNews`` reads a version's rows once for every seat; each seat's
    projection is handed the rows its own query reads, no other seat's report."""
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=3, prefix="news"
    )
    version = campaign.latest_version()
    news = knowledge.VersionNews(version)
    read: list = []
    real = knowledge.project

    def recording(state, viewer, *, events, **kwargs):
        events = list(events)
        read.extend(events)
        return real(state, viewer, events=events, **kwargs)

    monkeypatch.setattr(knowledge, "project", recording)
    old = 0
    for seat in campaign.seats.filter(reserve=False).select_related("campaign"):
        read.clear()
        knowledge.seat_view(seat, version, news=news)
        own = {Army.parse(a) for a in seat.armies}
        for turn, event in read:
            if event.kind is EventKind.RECONNAISSANCE and turn < version.turn - 1:
                old += 1
                assert event.audience is None or own & event.audience, (seat.power, event)
        mine = read[:]
        read.clear()
        knowledge.seat_view(seat, version)  # the seat's own query: the same rows, in order
        assert [(t, e) for t, e in mine] == [
            (row.version.turn, knowledge._event(
                row.rule, row.kind, row.text, row.data, row.public, row.armies
            ))
            for row in read
        ]  # fmt: skip
    assert old  # earlier turns' reports were handed over, each to its own seat


def test_an_emails_report_is_its_projections_report(organiser, django_capture_on_commit_callbacks):
    """The email's report (``news_lines``, the events and reports without the forces) is the
    report of the seat's whole projection, for every seat, from the start and from mid-season."""
    from campaign.projection import Viewer, report_lines
    from mail.services import email

    campaign, _ = play_real_season(organiser, django_capture_on_commit_callbacks, turns=3)
    latest = email.latest_version(campaign)
    state = state_from_dict(StateVersion.objects.get(id=latest.id).state)
    for since in (None, latest.number // 2):
        events = email._events_since(campaign, since)
        for seat in campaign.seats.filter(reserve=False).select_related("campaign"):
            viewer = Viewer.for_armies(seat.armies, label=seat.label)
            whole = report_lines(project(state, viewer, events=events, reports=latest.reports))
            assert whole  # there is something to compare
            assert email.seat_report(seat, since, latest=latest, events=events) == whole
