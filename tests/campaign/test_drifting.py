"""Drifting players: escalating reminders, missed deadlines flagged, absences."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import PhaseWindow, Reminder
from campaign.services import deadlines
from campaign.services.drifting import AbsenceError, declare_absence, send_reminders
from campaign.services.resolution import resolve_due_phase
from orders.models import OrderSheet

pytestmark = pytest.mark.django_db


def test_reminders_go_at_each_step_once(
    campaign, prussia, mailoutbox, django_capture_on_commit_callbacks
):
    window = campaign.open_window()
    for seat in campaign.seats.exclude(id=prussia.id):
        OrderSheet.objects.create(campaign=campaign, seat=seat, window=window, ready=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert send_reminders(now=window.deadline - timedelta(hours=30)) == 0
        assert send_reminders(now=window.deadline - timedelta(hours=20)) == 1
        assert send_reminders(now=window.deadline - timedelta(hours=19)) == 0  # sent already
    assert [m.to for m in mailoutbox] == [["fritz@example.org"]]
    assert "due in 24 hours" in mailoutbox[0].subject
    assert not mailoutbox[0].subject.startswith("Last call")
    assert Reminder.objects.get().hours_before == 24


def test_the_last_reminder_escalates_to_the_organiser(
    campaign, prussia, mailoutbox, django_capture_on_commit_callbacks
):
    window = campaign.open_window()
    with django_capture_on_commit_callbacks(execute=True):
        send_reminders(now=window.deadline - timedelta(hours=1))
    to_fritz = next(m for m in mailoutbox if m.to == ["fritz@example.org"])
    assert to_fritz.subject.startswith("Last call") and "organiser has been told" in to_fritz.body
    to_organiser = [m for m in mailoutbox if m.to == ["olga@example.org"]]
    assert len(to_organiser) == 1
    # the lead the players' last call says too, never "None hours"
    lead = to_fritz.subject.rsplit(" due ", 1)[1]
    assert lead in ("in 1 hour", "in 2 hours")
    assert to_organiser[0].subject.endswith(f"orders still missing, deadline {lead}")
    assert f"closes {lead} and these seats" in to_organiser[0].body
    assert "Prussian player" in to_organiser[0].body
    assert len(mailoutbox) == 6


def test_absent_and_ready_seats_get_no_reminder(campaign, prussia, austria, now):
    window = campaign.open_window()
    declare_absence(prussia, now + timedelta(days=5), now=now)
    OrderSheet.objects.create(campaign=campaign, seat=austria, window=window, ready=True)
    assert send_reminders(now=window.deadline - timedelta(hours=1)) == 3


def test_extending_the_deadline_starts_the_reminders_over(campaign, now):
    from campaign.services.organiser import extend_deadline

    window = campaign.open_window()
    send_reminders(now=window.deadline - timedelta(hours=1))
    extend_deadline(campaign, None, 48, now=now)
    assert not Reminder.objects.exists()


def test_missed_deadlines_are_counted_and_flagged(
    campaign, prussia, austria, mailoutbox, django_capture_on_commit_callbacks
):
    for _turn in range(2):
        window = campaign.open_window()
        OrderSheet.objects.create(campaign=campaign, seat=austria, window=window, ready=True)
        with django_capture_on_commit_callbacks(execute=True):
            resolve_due_phase(window.id, now=window.deadline)
    prussia.refresh_from_db()
    austria.refresh_from_db()
    assert prussia.missed_in_a_row == 2 and prussia.flagged()
    assert austria.missed_in_a_row == 0 and not austria.flagged()
    flags = [m for m in mailoutbox if "missed 2 deadlines in a row" in m.subject]
    assert len(flags) == 5 - 1  # every seat but Austria, once each, to the organiser
    assert all(m.to == ["olga@example.org"] for m in flags)


def test_the_board_flags_a_drifting_seat(client, campaign, prussia, organiser):
    prussia.missed_in_a_row = 2
    prussia.save()
    client.force_login(organiser)
    page = client.get(reverse("organiser_board", args=[campaign.code])).content.decode()
    assert "missed 2 in a row" in page


def test_sending_orders_again_clears_the_count(campaign, prussia):
    prussia.missed_in_a_row = 3
    prussia.save()
    window = campaign.open_window()
    OrderSheet.objects.create(campaign=campaign, seat=prussia, window=window, ready=True)
    resolve_due_phase(window.id, now=window.deadline)
    prussia.refresh_from_db()
    assert prussia.missed_in_a_row == 0


def test_an_absence_is_not_a_missed_deadline(campaign, prussia, now):
    declare_absence(prussia, now + timedelta(days=10), now=now)
    window = campaign.open_window()
    resolve_due_phase(window.id, now=window.deadline)
    prussia.refresh_from_db()
    assert prussia.missed_in_a_row == 0


@pytest.mark.parametrize(
    ("days", "message"),
    [(-1, "must be in the future"), (61, "at most 60 days")],
)
def test_absences_are_checked(prussia, now, days, message):
    with pytest.raises(AbsenceError, match=message):
        declare_absence(prussia, now + timedelta(days=days), now=now)


def test_a_player_declares_an_absence_and_chooses_emails(client, prussia, player):
    client.force_login(player)
    page = reverse("seat_settings", args=[prussia.code])
    assert client.get(page).status_code == 200
    back = (timezone.now() + timedelta(days=10)).strftime("%Y-%m-%dT%H:%M")
    r = client.post(page, {"email_kinds": ["reminder"], "absent_until": back})
    assert r.status_code == 302
    prussia.refresh_from_db()
    assert prussia.email_kinds == ["reminder"]
    assert prussia.absent_until > timezone.now() + timedelta(days=9)
    r = client.post(page, {"email_kinds": ["reminder"], "absent_until": "2000-01-05T10:00"})
    assert "must be in the future" in r.content.decode()


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("own", 200),
        ("other", 403),
        ("ally", 403),
        ("organiser", 403),
        ("outsider", 403),
        ("anonymous", 302),
    ],
)
def test_seat_settings_are_the_players_own(
    client, prussia, player, other, ally, organiser, outsider, who, expected
):
    people = {
        "own": player,
        "other": other,
        "ally": ally,
        "organiser": organiser,
        "outsider": outsider,
    }
    if who in people:
        client.force_login(people[who])
    assert client.get(reverse("seat_settings", args=[prussia.code])).status_code == expected


def test_reminder_steps_escalate():
    steps = deadlines.reminder_steps({"hours_before": [2, 24, 6]})
    assert steps == [24, 6, 2]
    assert deadlines.is_last_step({"hours_before": [2, 24, 6]}, 2)
    assert not deadlines.is_last_step({"hours_before": [2, 24, 6]}, 6)


def test_no_reminder_comes_within_an_hour_of_the_opening(campaign, now):
    """A 24-hour window: the "due in 24 hours" reminder would arrive with the opening email."""
    window = campaign.open_window()
    PhaseWindow.objects.filter(id=window.id).update(
        opened_at=now, deadline=now + timedelta(hours=24)
    )
    assert send_reminders(now=now + timedelta(minutes=5)) == 0
    assert not Reminder.objects.filter(window=window).exists()
    assert send_reminders(now=now + timedelta(hours=22, minutes=30)) > 0
    assert set(Reminder.objects.filter(window=window).values_list("hours_before", flat=True)) == {2}


def test_in_a_short_phase_the_first_reminder_comes_halfway(
    campaign, prussia, now, mailoutbox, django_capture_on_commit_callbacks
):
    """The lead time scales to the phase's length (issue 37): the campaign's "24 hours
    before" of a 24-hour phase comes 12 hours before, says so, and is not the last call."""
    window = campaign.open_window()
    PhaseWindow.objects.filter(id=window.id).update(
        opened_at=now, deadline=now + timedelta(hours=24)
    )
    for seat in campaign.seats.exclude(id=prussia.id):
        OrderSheet.objects.create(campaign=campaign, seat=seat, window=window, ready=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert send_reminders(now=now + timedelta(hours=11, minutes=59)) == 0
        assert send_reminders(now=now + timedelta(hours=12, minutes=1)) == 1
    assert [m.to for m in mailoutbox] == [["fritz@example.org"]]
    assert "due in 12 hours" in mailoutbox[0].subject
    assert not mailoutbox[0].subject.startswith("Last call")
    assert Reminder.objects.get(window=window).hours_before == 24
