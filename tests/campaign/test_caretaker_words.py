# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Every word the absent player reads is true (issue 43): the call for orders says what a
silence does under the campaign's policy, the reports name only what the caretaker gave, a
deadline the caretaker covered is no miss, and the flag offers the caretaker beside a
reserve."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import Event as EventRow
from campaign.models import Seat
from campaign.services import caretaker, silence
from campaign.services.resolution import resolve_due_phase
from mail.services.email import build
from orders.models import OrderSheet
from rules.state import Phase
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    marching,
    play_map,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db


def _policy(campaign, organiser, **chosen) -> None:
    caretaker.set_policy(campaign, organiser, chosen, now=timezone.now())


def _others_ready(campaign, skip: Seat) -> None:
    window = campaign.open_window()
    for s in campaign.seats.filter(reserve=False).exclude(id=skip.id):
        if window.owes(s):
            OrderSheet.objects.update_or_create(
                window=window, seat=s, defaults={"campaign": campaign, "draft": {}, "ready": True}
            )


def _resolve_at_deadline(campaign, skip: Seat):
    _others_ready(campaign, skip)
    window = campaign.open_window()
    resolve_due_phase(window.id, now=window.deadline + timedelta(minutes=1))
    return window


@pytest.mark.parametrize(
    ("chosen", "missed", "phase", "said"),
    [
        ({"policy": "stand-still"}, 0, "march", "Without them your forces stand still."),
        (
            {"policy": "caretaker", "style": "plays-on", "excused": 1},
            1,
            "march",
            "If you give none, the caretaker will give your orders (plays on).",
        ),
        (
            {"policy": "caretaker", "style": "plays-on", "excused": 1},
            0,
            "march",
            "If you give none, your forces stand still this time (one excused miss a season); "
            "after that the caretaker will give your orders (plays on).",
        ),
        (
            {"policy": "caretaker", "style": "defensive", "excused": 0},
            0,
            "forced-march",
            "If you give none, the caretaker will give your orders (defensive: it holds its "
            "ground; it never forces a march).",
        ),
        (
            {"policy": "grace", "grace_hours": 12, "excused": 0},
            0,
            "march",
            "If you give none, the deadline moves once by 12 hours of grace; then your forces "
            "stand still.",
        ),
    ],
)
def test_it_says_what_a_silence_does_under_each_policy(
    marching, organiser, chosen, missed, phase, said
):
    _policy(marching, organiser, **chosen)
    austria = seat(marching, "austria")
    austria.missed_this_season = missed
    assert silence.if_silent(austria, marching, phase, now=timezone.now()) == said


def test_after_the_grace_the_reminder_no_longer_promises_it(marching, organiser):
    """The deadline has moved by its grace once (window.graced_from): a reminder then must not
    say it will move again."""
    _policy(marching, organiser, policy="grace", grace_hours=12, excused=0)
    austria = seat(marching, "austria")
    now = timezone.now()
    assert silence.if_silent(austria, marching, "march", now=now, graced=True) == (
        "The deadline has already moved once by 12 hours of grace; without your orders your "
        "forces stand still."
    )
    assert "moves once" in silence.if_silent(austria, marching, "march", now=now)


def test_a_seat_handed_over_is_told_the_caretaker_plays_it(marching, organiser):
    austria = seat(marching, "austria")
    caretaker.hand_over(austria, organiser, style="plays-on", until=None, now=timezone.now())
    words = silence.if_silent(austria, marching, "march", now=timezone.now())
    assert words.startswith("The caretaker gives your orders (plays on) until you take")


def test_the_call_for_orders_says_the_caretaker_plays_on(marching, organiser):
    _policy(marching, organiser, policy="caretaker", style="plays-on", excused=0)
    austria = seat(marching, "austria")
    window = marching.open_window()
    for kind, ids in (
        ("phase-opened", {"seat_id": austria.id}),
        ("reminder", {"seat_id": austria.id, "window_id": window.id, "hours": 12}),
    ):
        built = build(kind, **ids)
        assert built is not None, kind
        text = built[2]
        assert "If you give none, the caretaker will give your orders (plays on)." in text
        assert "stand still" not in text


@pytest.mark.parametrize(
    ("phase", "style", "said"),
    [
        ("march", "plays-on", "The Austrian player's march orders were given by the caretaker "
         "(plays-on)."),
        ("battle", "defensive", "The Austrian player's battle orders were given by the caretaker "
         "(defensive)."),
        ("forced-march", "plays-on", "The Austrian player's forces made no forced march: the "
         "caretaker never forces one."),
        ("march", "defensive", "The Austrian player's forces held their ground: the caretaker "
         "(defensive) gives no march."),
    ],
)  # fmt: skip
def test_the_report_names_only_what_the_caretaker_gave(marching, phase, style, said):
    event = caretaker.played_event(seat(marching, "austria"), Phase(phase), style)
    assert event["text"] == said
    assert event["data"]["gave"] is caretaker.gives_orders(Phase(phase), style)


def test_a_deadline_the_caretaker_covered_is_no_miss(marching, organiser):
    _policy(marching, organiser, policy="caretaker", style="plays-on", excused=0)
    austria = seat(marching, "austria")
    _resolve_at_deadline(marching, austria)
    texts = [e.text for e in EventRow.objects.filter(campaign=marching, kind="caretaker")]
    assert texts == ["The Austrian player's march orders were given by the caretaker (plays-on)."]
    assert not any("forced-march orders were given" in t for t in texts)
    austria.refresh_from_db()
    assert (austria.missed_this_season, austria.missed_in_a_row) == (0, 0)


def test_an_uncovered_deadline_still_counts(marching, organiser):
    _policy(marching, organiser, policy="caretaker", style="plays-on", excused=1)
    austria = seat(marching, "austria")
    _resolve_at_deadline(marching, austria)  # the excused miss: it stood still
    austria.refresh_from_db()
    assert (austria.missed_this_season, austria.missed_in_a_row) == (1, 1)


def test_the_flag_offers_the_caretaker_beside_a_reserve(marching, organiser):
    austria = seat(marching, "austria")
    Seat.objects.filter(id=austria.id).update(missed_in_a_row=2)
    _to, subject, text, *_ = build("organiser-flag", seat_id=austria.id)
    assert "missed 2 deadlines in a row" in subject
    assert "hand the seat to the caretaker (defensive" in text
    assert "or replace the player with a reserve" in text
