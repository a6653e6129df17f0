# ruff: noqa: F811 (pytest fixtures imported from other test modules)
""" "Resolve now" does what it says (issue 26): the seats that have not pressed Ready are treated
as at a deadline, for every kind of phase; in deployment a legal draft deploys and an army
without one stays open for its seat with the organiser's deadline kept; every seat is emailed
what really happened."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Event, PhaseWindow
from campaign.services import gameplay
from campaign.services import organiser as tools
from campaign.services.drifting import send_reminders
from campaign.services.resolution import resolve_due_phase
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    ARMY_POINTS,
    BERLIN_POINTS,
    FREDERICK_POINTS,
    POSITIONS,
    play_map,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db


def deployment(s, *, points=None) -> dict:
    """A legal deployment of the seat's armies on the test map (or one with ``points`` for
    every leader, which breaks 3's total)."""
    out = {}
    for army in s.armies:
        key = s.leaders[army][0]
        given = points or (FREDERICK_POINTS if army == "prussia" else ARMY_POINTS[army])
        spec = {"leaders": {key: {"hex": POSITIONS[army], "points": given}}}
        if army == "prussia":
            spec["garrisons"] = {"Berlin": BERLIN_POINTS}
            spec["siege_trains"] = {"prussia-1": {"hex": POSITIONS[army]}}
        out[army] = spec
    return {"deployment": out}


def write(s, window, draft: dict, *, ready: bool) -> None:
    OrderSheet.objects.update_or_create(
        window=window, seat=s, defaults={"campaign": s.campaign, "draft": draft, "ready": ready}
    )


def everyone_but_austria_ready(campaign, window) -> None:
    for s in campaign.seats.filter(reserve=False).exclude(power="austria"):
        write(s, window, deployment(s), ready=True)


def to_march(campaign, capture):
    """Every seat deploys and presses Ready: turn 1's march phase, its window."""
    window = campaign.open_window()
    for s in campaign.seats.filter(reserve=False):
        write(s, window, deployment(s), ready=True)
    with capture(execute=True):
        resolve_due_phase(window.id, now=timezone.now())
    return campaign.open_window()


def resolve_now(campaign, capture):
    with capture(execute=True):
        return tools.resolve_now(campaign, campaign.organiser, now=timezone.now(), reason="")


def test_an_unfinished_deployment_stays_open_with_the_organisers_deadline(
    rules_campaign, mailoutbox, django_capture_on_commit_callbacks
):
    campaign, capture = rules_campaign, django_capture_on_commit_callbacks
    window = campaign.open_window()
    everyone_but_austria_ready(campaign, window)
    austria = seat(campaign, "austria")
    write(austria, window, deployment(austria, points=100), ready=False)  # nearly there
    extended = tools.extend_deadline(campaign, campaign.organiser, 24, now=timezone.now())
    mailoutbox.clear()
    version = resolve_now(campaign, capture)
    reopened = campaign.open_window()
    assert reopened.phase == "deployment" and reopened.id != window.id
    assert reopened.owing == [str(austria.code)]
    assert reopened.deadline == extended.deadline  # the extension kept, not a fresh 72 hours
    told = Event.objects.get(version=version, data__undeployed="austria")
    assert told.text == (
        "Austria is not deployed when the organiser resolved the phase before its deadline "
        "(1 restriction of 3.2 still broken, first (3) Austria deploys 100 points; its army has "
        "32000.): its deployment stays open for the Austrian player."
    )
    assert not told.public and set(told.armies) == {"austria", "empire"}
    austria.refresh_from_db()
    assert austria.missed_in_a_row == 0  # no deadline was missed
    # every seat is emailed: the Austrian that its deployment is still open, the others that
    # theirs is made and whom the campaign waits for
    by_seat = {m.to[0]: m for m in mailoutbox}
    assert len(by_seat) == 5
    to_austria = by_seat[austria.user.email].body
    assert (
        "Your deployment is still open: the organiser resolved the deployment before its "
        "deadline, and not every army of yours is deployed" in to_austria
    )
    assert "(the deadline as it was)" in to_austria
    assert "by the deadline" not in to_austria and "stand still" not in to_austria
    to_prussia = by_seat[seat(campaign, "prussia").user.email].body
    assert "The organiser resolved the deployment phase of turn 1 before its deadline" in to_prussia
    assert "Your deployment is made. The deployment stays open for the Austrian player until" in (
        to_prussia
    )


def test_a_legal_draft_not_marked_ready_deploys_as_drafted(
    rules_campaign, mailoutbox, django_capture_on_commit_callbacks
):
    campaign = rules_campaign
    window = campaign.open_window()
    everyone_but_austria_ready(campaign, window)
    austria = seat(campaign, "austria")
    write(austria, window, deployment(austria), ready=False)
    mailoutbox.clear()
    version = resolve_now(campaign, django_capture_on_commit_callbacks)
    state = gameplay.read_state(version.state)
    assert {a.value for a in state.deployed} >= {"austria", "empire"}
    assert campaign.open_window().phase == "march"
    told = next(e for e in Event.objects.filter(version=version) if e.data.get("from_draft"))
    assert told.text == (
        "The Austrian player had not pressed Ready when the organiser resolved the phase before "
        "its deadline: the deployment of Austria, Empire is taken as drafted, being legal as it "
        "stands."
    )
    # the march opens for everyone, and everyone is told it was the organiser, not a deadline
    assert len(mailoutbox) == 5
    assert all("the organiser resolved the deployment phase before its deadline" in m.body
               for m in mailoutbox)  # fmt: skip


def test_in_a_march_phase_seats_not_ready_stand_still_without_a_missed_deadline(
    rules_campaign, mailoutbox, django_capture_on_commit_callbacks
):
    campaign, capture = rules_campaign, django_capture_on_commit_callbacks
    march = to_march(campaign, capture)
    assert march.phase == "march"
    mailoutbox.clear()
    version = resolve_now(campaign, capture)
    prussia = seat(campaign, "prussia")
    told = Event.objects.get(version=version, data__missing=True, armies=["prussia"])
    assert told.text == (
        "No march orders from the Prussian player when the organiser resolved the phase before "
        "its deadline: its forces stand still. This does not count as a missed deadline."
    )
    prussia.refresh_from_db()
    assert prussia.missed_in_a_row == 0
    assert {m.to[0] for m in mailoutbox} == {
        s.user.email for s in campaign.seats.filter(reserve=False)
    }
    assert all("before its deadline" in m.body for m in mailoutbox)


def test_at_a_real_deadline_the_open_deployment_gets_a_new_one_and_counts_as_missed(
    rules_campaign, mailoutbox, django_capture_on_commit_callbacks
):
    campaign = rules_campaign
    window = campaign.open_window()
    everyone_but_austria_ready(campaign, window)
    with django_capture_on_commit_callbacks(execute=True):
        resolve_due_phase(window.id, now=window.deadline)
    reopened = campaign.open_window()
    assert reopened.deadline == window.deadline + timedelta(hours=72)
    austria = seat(campaign, "austria")
    austria.refresh_from_db()
    assert austria.missed_in_a_row == 1
    told = Event.objects.get(version=reopened.version, data__undeployed="austria")
    assert told.text.startswith("Austria is not deployed by the deadline (nothing is placed)")
    body = next(m.body for m in mailoutbox if m.to == [austria.user.email])
    assert "Your deployment is still open: the deadline passed" in body
    assert PhaseWindow.objects.filter(campaign=campaign).count() == 2


def test_the_question_says_what_happens_to_a_deployment(client, rules_campaign, organiser):
    client.force_login(organiser)
    body = client.get(reverse("resolve_now", args=[rules_campaign.code])).content.decode()
    assert "each army whose deployment is legal as drafted deploys from the draft" in body
    assert "with the deadline as it stands now" in body
    assert "It does not count as a missed deadline for anyone." in body


def test_saved_orders_never_sent_are_named_before_and_owned_up_to_after(
    client, rules_campaign, mailoutbox, django_capture_on_commit_callbacks
):
    """A player who saved a march but did not press Ready (the tester's French player): the
    organiser's question names his seat, and his report says his saved orders were not used,
    not that he gave none. A seat with nothing saved reads as before."""
    campaign, capture = rules_campaign, django_capture_on_commit_callbacks
    march = to_march(campaign, capture)
    prussia, austria = seat(campaign, "prussia"), seat(campaign, "austria")
    frederick = prussia.leaders["prussia"][0]
    write(prussia, march, {"march": [{"unit": frederick, "path": "4"}]}, ready=False)
    write(austria, march, {"march": []}, ready=False)  # an order saved, then taken back

    client.force_login(campaign.organiser)
    question = client.get(reverse("resolve_now", args=[campaign.code])).content.decode()
    assert (
        "The Prussian player saved orders but did not press Ready: resolved now, those orders "
        "are not used." in question
    )
    assert "Austrian player saved" not in question

    mailoutbox.clear()
    version = resolve_now(campaign, capture)
    told = Event.objects.get(version=version, data__missing=True, armies=["prussia"])
    assert told.text == (
        "The Prussian player saved march orders but did not press Ready when the organiser "
        "resolved the phase before its deadline: orders not sent are not used, so its forces "
        "stand still. This does not count as a missed deadline."
    )
    assert told.data["unsent"] is True
    others = Event.objects.get(version=version, data__missing=True, armies=["austria", "empire"])
    assert others.text.startswith("No march orders from the Austrian player")
    body = next(m.body for m in mailoutbox if m.to == [prussia.user.email])
    assert "saved march orders but did not press Ready" in body


def test_the_reminder_tells_a_player_his_saved_orders_are_not_sent(
    rules_campaign, mailoutbox, django_capture_on_commit_callbacks
):
    campaign, capture = rules_campaign, django_capture_on_commit_callbacks
    march = to_march(campaign, capture)
    prussia, austria = seat(campaign, "prussia"), seat(campaign, "austria")
    write(prussia, march, {"march": [{"unit": prussia.leaders["prussia"][0], "path": "4"}]},
          ready=False)  # fmt: skip
    mailoutbox.clear()
    with capture(execute=True):
        assert send_reminders(now=march.deadline - timedelta(hours=1)) == 5
    to_prussia = next(m.body for m in mailoutbox if m.to == [prussia.user.email])
    to_austria = next(m.body for m in mailoutbox if m.to == [austria.user.email])
    said = "You have saved orders but not pressed Ready: orders not sent are not used."
    assert said in to_prussia and said not in to_austria
