"""Links in emails point at the site's real address (issue 13): SITE_URL, which ./bin/run
derives from HOST and PORT when it is not given."""

from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse

from campaign.services import setup
from campaign.services.resolution import resolve_due_phase
from tests.standing import make_user

pytestmark = pytest.mark.django_db

SITE = "https://dgk.example.org"


def test_no_email_points_at_localhost_when_the_site_runs_elsewhere(
    settings, new_campaign, organiser, now, client, django_capture_on_commit_callbacks
):
    settings.SITE_URL = SITE
    with django_capture_on_commit_callbacks(execute=True):
        for s in new_campaign.seats.all():
            setup.invite(s, f"{s.power}@example.org", now=now)
    for s in new_campaign.seats.all():
        s.user = make_user(f"u-{s.power}")
        s.save()
    with django_capture_on_commit_callbacks(execute=True):
        setup.start_campaign(new_campaign, organiser, now=now)
    while (window := new_campaign.open_window()) is not None and window.turn <= 2:
        with django_capture_on_commit_callbacks(execute=True):
            resolve_due_phase(window.id, now=window.deadline)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("password_reset"), {"email": "u-prussia@example.org"})
    assert len(mail.outbox) >= 10
    kinds = {m.subject.split(":")[-1].strip()[:20] for m in mail.outbox}
    for message in mail.outbox:
        assert "localhost:8000" not in message.body, (message.subject, message.body)
        assert SITE in message.body, message.subject
    assert len(kinds) >= 3


def test_deadlines_in_emails_are_in_the_campaigns_time_zone(
    new_campaign, organiser, now, django_capture_on_commit_callbacks
):
    new_campaign.time_zone = "Asia/Tokyo"
    new_campaign.save()
    for s in new_campaign.seats.all():
        s.user = make_user(f"t-{s.power}")
        s.save()
    with django_capture_on_commit_callbacks(execute=True):
        setup.start_campaign(new_campaign, organiser, now=now)
    window = new_campaign.open_window()
    local = window.deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    message = next(m for m in mail.outbox if "orders are due" in m.subject)
    assert f"{local:%H:%M} JST" in message.body
