# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""The catch-up of a player the caretaker played for (issue 43): "The caretaker gave your
orders in turns 1 and 2", each turn a link to the report of the phase it played; nothing of it
in another seat's list."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Event as EventRow
from campaign.services import caretaker
from campaign.services.resolution import resolve_due_phase
from orders.models import OrderSheet
from orders.services import catchup
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


def _silent_for_two_turns(campaign, silent) -> None:
    """Every window up to turn 3 resolved at its deadline, every seat but ``silent`` ready."""
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
    raise AssertionError("turn 3 never came")


def test_the_caretakers_turns_are_one_line_with_a_link_to_each_report(marching, organiser, other):
    caretaker.set_policy(
        marching, organiser, {"policy": "caretaker", "style": "plays-on", "excused": 0},
        now=timezone.now(),
    )  # fmt: skip
    austria = seat(marching, "austria")
    _silent_for_two_turns(marching, austria)
    played = {
        e.version.turn: e.version.number
        for e in EventRow.objects.filter(campaign=marching, kind="caretaker").order_by("-id")
        if e.data.get("gave")
    }
    assert sorted(played) == [1, 2]
    told = catchup.catch_up(austria, catchup.Since(), latest=marching.latest_version())
    (line,) = [x for x in told.lines if x.text.startswith("The caretaker gave")]
    assert line.text == "The caretaker gave your orders in turns 1 and 2"
    reports = [reverse("orders:report_version", args=[austria.code, played[t]]) for t in (1, 2)]
    assert line.more == (("turn 1", reports[0]), ("turn 2", reports[1]))
    # no line per caretaker event besides it
    assert not any("orders were given by the caretaker" in x.text for x in told.lines)
    page = client_for(other).get(url("dashboard", austria)).content.decode()
    block = page[page.index('class="catch-up"') :]
    assert "The caretaker gave your orders in turns 1 and 2" in block
    assert all(f'href="{r}"' in block for r in reports)
    # the Prussian reads nothing of it in his own list
    prussia = seat(marching, "prussia")
    theirs = catchup.catch_up(prussia, catchup.Since(), latest=marching.latest_version())
    assert not any("caretaker gave your orders" in x.text for x in theirs.lines)
