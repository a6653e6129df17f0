# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""The catch-up kept from one version to the next (``catchup.Told``): each seat's list since its
visit is extended by the versions made since the last one was kept, never read again from the
visit on, and it is the list made from the visit on, to the character, at every version: the
phases by turn, the seat's own forces' lines (the first ten, and how many more), the
caretaker's turns; nothing of another seat's secrets in it."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.models import Event
from campaign.services import caretaker
from campaign.services.resolution import resolve_due_phase
from letters.services import press
from orders.models import OrderSheet
from orders.services import catchup
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    marching,
    play_map,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db

SECRET = "Loudon's baggage is lost in the marsh"


def _told(version, kind: str, text: str, *, armies=(), public=False, data=None) -> None:
    seq = 100 + Event.objects.filter(version=version).count()
    Event.objects.create(
        campaign=version.campaign, version=version, seq=seq, rule="7.1", kind=kind, text=text,
        public=public, armies=list(armies), data=data or {},
    )  # fmt: skip


def _phases(campaign, silent):
    """Each window up to turn 3 resolved at its deadline, every seat but ``silent`` ready (the
    caretaker plays it); after each, the latest version with news of its own: losses of the
    silent seat's army (more than ten lines in all), a public event naming it, and a secret of
    another seat's. Yields the latest version after each resolution."""
    army = silent.armies[0]
    for _ in range(40):
        window = campaign.open_window()
        if window is None or window.turn >= 3:
            return
        for s in campaign.seats.filter(reserve=False).exclude(id=silent.id):
            if window.owes(s):
                OrderSheet.objects.update_or_create(
                    window=window,
                    seat=s,
                    defaults={"campaign": campaign, "draft": {}, "ready": True},
                )
        resolve_due_phase(window.id, now=window.deadline + timedelta(minutes=1))
        latest = campaign.latest_version()
        _told(
            latest, "attrition", f"{army} loses 10 points in version {latest.number}", armies=[army]
        )
        _told(
            latest, "prisoners", f"80 points of {army} taken in version {latest.number}",
            public=True, data={"army": army, "by": "prussia", "points": 80},
        )  # fmt: skip
        _told(latest, "attrition", SECRET, armies=["prussia"])
        yield latest
    raise AssertionError("turn 3 never came")


def test_the_list_extended_version_by_version_is_the_list_made_from_the_visit(
    marching, organiser, monkeypatch
):
    caretaker.set_policy(
        marching, organiser, {"policy": "caretaker", "style": "plays-on", "excused": 0},
        now=timezone.now(),
    )  # fmt: skip
    austria, prussia = seat(marching, "austria"), seat(marching, "prussia")
    first = marching.latest_version()
    visits = [catchup.Since(), catchup.Since(first.number, first.created, first.id)]
    before = None
    steps = 0
    for latest in _phases(marching, austria):
        window = marching.open_window()
        for s in (austria, prussia):
            s.campaign = marching
            for since in visits:
                since_pk = since.version_pk if since.version is not None else None
                key = catchup._told_key(s, since_pk)
                if before is not None:  # extended from the one kept at the last version
                    assert cache.get(key).at[0] == before.id
                extended = catchup.catch_up(s, since, latest=latest, window=window)
                cache.delete(key)
                afresh = catchup.catch_up(s, since, latest=latest, window=window)
                assert extended == afresh, (s.power, since, latest.number)
                if s == austria:  # (Prussia's own loss, secret from Austria)
                    assert not any(SECRET in line.text for line in afresh.lines)
        before = latest
        steps += 1
    assert steps >= 3
    told = catchup.catch_up(austria, catchup.Since(), latest=before)
    assert told.more > 0 and told.lines[-1].text.startswith(f"and {told.more} more")
    assert any(x.text.startswith("The caretaker gave your orders in turn") for x in told.lines)
    # every line, uncut: the nine shown are among them, in their order, and the rest counted
    cache.clear()
    monkeypatch.setattr(catchup, "MAX_LINES", 1000)
    every = catchup.catch_up(austria, catchup.Since(), latest=before).lines
    assert told.more == len(every) - 9
    shown = iter(every)
    assert all(line in shown for line in told.lines[:-1])


def test_a_seat_away_all_season_costs_what_one_back_yesterday_does(marching, organiser):
    """The statements of a catch-up at a new version do not grow with the versions since the
    visit, and read no event of a version the kept list has told already."""
    austria = seat(marching, "austria")
    austria.campaign = marching
    counts, previous = [], None
    for latest in _phases(marching, austria):
        if previous is not None:
            catchup.catch_up(austria, catchup.Since(), latest=previous)  # kept at the last one
            with CaptureQueriesContext(connection) as read:
                catchup.catch_up(austria, catchup.Since(), latest=latest)
            counts.append(len(read.captured_queries))
            sql = " ".join(q["sql"] for q in read.captured_queries)
            assert f"{previous.number}" in sql  # the versions from the kept one's on
        previous = latest
    assert len(counts) >= 2 and max(counts) == min(counts)


def test_the_worker_reads_the_letters_once_and_each_seat_finds_its_own(
    campaign, prussia, austria, hanover
):
    """The warm-up's ``Shared(every_seat=True)`` reads the letters to every seat in one
    statement: each seat's list names the senders of its own letters since its visit, as the
    list read for it alone does, and never a letter between others."""
    earlier = timezone.now() - timedelta(hours=2)
    press.send(hanover, [prussia.id], "Meet me at Minden.", now=earlier)
    latest = campaign.latest_version()
    catchup.record_visit(prussia, latest, now=earlier + timedelta(hours=1))
    press.send(austria, [hanover.id], "A separate peace, Hanover?", now=timezone.now())
    press.send(hanover, [prussia.id, austria.id], "To both of you.", now=timezone.now())
    campaign.refresh_from_db()
    shared = catchup.Shared(campaign.id, every_seat=True)
    told = {}
    for s in (prussia, austria, hanover):
        s.refresh_from_db()
        s.campaign = campaign
        since = catchup.last_visit(s)
        told[s.power] = catchup.catch_up(s, since, latest=latest, shared=shared)
        assert told[s.power] == catchup.catch_up(s, since, latest=latest)
    letters = {
        p: [x.text for x in c.lines if x.text.startswith("A letter")] for p, c in told.items()
    }
    # Prussia's first letter came before its visit; Hanover reads Austria's, never its own
    assert letters["prussia"] == [f"A letter from the {hanover.label}"]
    assert letters["austria"] == [f"A letter from the {hanover.label}"]
    assert letters["hanover"] == [f"A letter from the {austria.label}"]
