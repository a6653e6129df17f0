# ruff: noqa: F811 (pytest fixtures imported from other test modules)
"""The organiser hurries a phase (issue 43): he brings its deadline forward to a time at least
five minutes ahead (the seats it waits for emailed at once), and *Resolve now* applies the
campaign's policy (under the caretaker policy, the caretaker gives the silent seats' orders,
and the confirm page says so). The board's *Caretaker…* form starts from the campaign's style."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import OrganiserAction, Reminder
from campaign.services import caretaker, drifting
from campaign.services import organiser as tools
from campaign.services.actionlog import OrganiserError
from orders.models import OrderSheet
from tests.campaign.test_caretaker_hold import rossbach  # noqa: F401 (fixture)
from tests.orders.test_play_fixtures import client_for, play_map, seat  # noqa: F401

pytestmark = pytest.mark.django_db

YES = {"confirmed": "yes", "reason": "France is on holiday"}


def _local(campaign, when) -> str:
    return when.astimezone(ZoneInfo(campaign.time_zone)).strftime("%Y-%m-%dT%H:%M")


def test_it_brings_the_deadline_forward_and_emails_the_seats_it_waits_for(
    rossbach, mailoutbox, django_capture_on_commit_callbacks
):
    window = rossbach.open_window()
    prussia, france = seat(rossbach, "prussia"), seat(rossbach, "france")
    OrderSheet.objects.create(campaign=rossbach, window=window, seat=prussia, ready=True)
    c = client_for(rossbach.organiser)
    to = (timezone.now() + timedelta(hours=3)).replace(second=0, microsecond=0)
    page = c.post(reverse("extend", args=[rossbach.code]), {"to": _local(rossbach, to)})
    assert page.status_code == 200 and "Bring the deadline forward to" in page.content.decode()
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(reverse("extend", args=[rossbach.code]), {"to": _local(rossbach, to), **YES})
    assert r.status_code == 302
    window.refresh_from_db()
    assert window.deadline == to
    emailed = sorted(m.to[0] for m in mailoutbox)
    owing = [s for s in rossbach.seats.all() if window.owes(s) and s.id != prussia.id]
    assert emailed == sorted(s.user.email for s in owing)  # Austria and France, not Prussia
    assert france.user.email in emailed
    assert all("due in 3 hours" in m.subject for m in mailoutbox)
    action = OrganiserAction.objects.get(campaign=rossbach, kind="extended")
    assert "forward to" in action.text and "France is on holiday" in action.text


def test_a_deadline_brought_to_less_than_an_hour_says_within_the_hour(
    rossbach, mailoutbox, django_capture_on_commit_callbacks
):
    """Not "due in 1 hours" for 30 minutes: within the hour; and every reminder step is
    reached, so it is the last call (a player who takes only the last call gets it)."""
    now = timezone.now()
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tools.bring_forward(rossbach, rossbach.organiser, now + timedelta(minutes=30), now=now)
    assert mailoutbox
    for m in mailoutbox:
        assert m.subject.startswith("Last call") and m.subject.endswith(
            "orders due within the hour"
        )
        assert "are due within the hour (" in m.body
        assert "1 hours" not in m.subject + m.body


def test_a_deadline_brought_close_sends_no_reminder_after_its_email(rossbach):
    now = timezone.now()
    tools.bring_forward(rossbach, rossbach.organiser, now + timedelta(minutes=30), now=now)
    france = seat(rossbach, "france")
    assert Reminder.objects.filter(seat=france).count() == 2  # both steps: that email was them
    assert drifting.send_reminders(now=now + timedelta(minutes=10)) == 0


def test_it_refuses_a_time_too_soon_or_not_before_the_deadline(rossbach):
    window = rossbach.open_window()
    now = timezone.now()
    with pytest.raises(OrganiserError, match="at least 5 minutes"):
        tools.bring_forward(rossbach, rossbach.organiser, now + timedelta(minutes=2), now=now)
    with pytest.raises(OrganiserError, match="extend it instead"):
        tools.bring_forward(rossbach, rossbach.organiser, window.deadline, now=now)
    c = client_for(rossbach.organiser)
    r = c.post(reverse("extend", args=[rossbach.code]), {"to": "soon", **YES}, follow=True)
    assert "or bring it to a time" in r.content.decode()
    r = c.post(
        reverse("extend", args=[rossbach.code]),
        {"to": _local(rossbach, now + timedelta(minutes=1)), **YES},
        follow=True,
    )
    assert "at least 5 minutes" in r.content.decode()
    assert rossbach.open_window().deadline == window.deadline


def test_extending_by_hours_still_works(rossbach):
    window = rossbach.open_window()
    c = client_for(rossbach.organiser)
    c.post(reverse("extend", args=[rossbach.code]), {"hours": "6", **YES})
    assert rossbach.open_window().deadline == window.deadline + timedelta(hours=6)


def test_resolve_now_under_the_caretaker_policy_gives_the_caretakers_orders(
    rossbach, django_capture_on_commit_callbacks
):
    c = client_for(rossbach.organiser)
    page = c.get(reverse("resolve_now", args=[rossbach.code])).content.decode()
    assert "the caretaker gives their orders (plays-on)" in page
    assert "stand still" not in page
    window = rossbach.open_window()
    for power in ("prussia", "austria"):
        OrderSheet.objects.create(
            campaign=rossbach, window=window, seat=seat(rossbach, power), ready=True
        )
    with django_capture_on_commit_callbacks(execute=True):
        c.post(reverse("resolve_now", args=[rossbach.code]), YES)
    window.refresh_from_db()
    assert window.status == "resolved"
    version = rossbach.latest_version()
    made = rossbach.versions.get(number=window.version.number + 1)
    assert made.orders["france"]["caretaker"] == "plays-on"
    assert version.number >= made.number
    france = seat(rossbach, "france")
    assert not france.caretaker_style and france.missed_this_season == 0  # no miss, no hold


def test_resolve_now_under_stand_still_says_they_stand_still(rossbach):
    caretaker.set_policy(rossbach, rossbach.organiser, {"policy": "stand-still"},
                         now=timezone.now())  # fmt: skip
    page = client_for(rossbach.organiser).get(reverse("resolve_now", args=[rossbach.code]))
    assert "stand still, as at a deadline" in page.content.decode()


def test_the_caretaker_form_starts_from_the_campaigns_style(rossbach):
    board = client_for(rossbach.organiser).get(reverse("organiser_board", args=[rossbach.code]))
    text = board.content.decode()
    france = seat(rossbach, "france")
    form = text.split(f'id="caretaker-{france.code}"')[1].split("</form>")[0]
    assert '<option value="plays-on" selected>' in form
    assert '<option value="defensive" selected>' not in form
    assert "Bring the deadline forward to" in text


def test_only_the_organiser_brings_a_deadline_forward(rossbach, player):
    window = rossbach.open_window()
    to = _local(rossbach, timezone.now() + timedelta(hours=2))
    r = client_for(player).post(reverse("extend", args=[rossbach.code]), {"to": to, **YES})
    assert r.status_code in (403, 404)
    assert rossbach.open_window().deadline == window.deadline
