# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Each player chooses how often email comes: every phase, only when something is due, or one
digest a day; the last call before a deadline comes whatever the choice (issue 13)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from campaign.models import EmailMode
from campaign.services.drifting import send_reminders
from letters.services import press
from mail.services.digest import send_digests
from mail.services.email import preferences_token
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_everyone,
    play_map,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db


def kinds_to(email: str) -> list[str]:
    return [m.extra_headers["X-DGK-Kind"] for m in mail.outbox if email in m.to]


def set_mode(s, mode) -> None:
    s.email_mode = mode
    s.save(update_fields=["email_mode"])


def test_only_when_due_leaves_out_the_results_but_not_the_calls_for_orders(
    rules_campaign, django_capture_on_commit_callbacks
):
    prussia, hanover = seat(rules_campaign, "prussia"), seat(rules_campaign, "hanover")
    set_mode(prussia, EmailMode.DUE)
    mail.outbox.clear()
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    assert "phase-opened" in kinds_to(prussia.user.email)  # the march orders are due
    assert "phase-resolved" not in kinds_to(prussia.user.email)
    assert kinds_to(hanover.user.email)  # the others as before


def test_the_digest_replaces_the_phase_emails_with_one_a_day(
    rules_campaign, django_capture_on_commit_callbacks
):
    prussia, austria = seat(rules_campaign, "prussia"), seat(rules_campaign, "austria")
    set_mode(prussia, EmailMode.DIGEST)
    press.send(austria, [prussia.id], "A truce for the winter?", now=rules_campaign.created)
    mail.outbox.clear()
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    assert kinds_to(prussia.user.email) == []  # no phase email
    assert kinds_to(austria.user.email)  # Austria gets its own as before

    now = rules_campaign.open_window().opened_at + timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert send_digests(now=now) == 1
    (digest,) = [m for m in mail.outbox if prussia.user.email in m.to]
    assert digest.extra_headers["X-DGK-Kind"] == "digest"
    assert "your daily digest" in digest.subject
    assert "You owe your march orders by" in digest.body
    assert "A truce for the winter?" in digest.body  # the letter rides in the digest
    assert "Your report:" in digest.body

    # not twice a day; the next day only with something new or due
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert send_digests(now=now + timedelta(hours=5)) == 0
        assert send_digests(now=now + timedelta(days=1)) == 1  # march orders still due
    assert "A truce for the winter?" not in mail.outbox[-1].body  # told once


def test_the_last_call_comes_in_every_mode(rules_campaign, django_capture_on_commit_callbacks):
    prussia = seat(rules_campaign, "prussia")
    set_mode(prussia, EmailMode.DIGEST)
    window = rules_campaign.open_window()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        send_reminders(now=window.deadline - timedelta(hours=23))  # the 24-hour step
        send_reminders(now=window.deadline - timedelta(hours=1))  # the last call
    subjects = [m.subject for m in mail.outbox if prussia.user.email in m.to]
    assert len(subjects) == 1 and subjects[0].startswith("Last call"), subjects


def test_the_mode_is_chosen_from_the_link_in_every_email(rules_campaign):
    prussia = seat(rules_campaign, "prussia")
    link = reverse("email_preferences", args=[preferences_token(prussia.id)])
    page = client_for(prussia.user).get(link).content.decode()
    assert "One digest a day" in page
    client_for(prussia.user).post(
        link, {"email_mode": "digest", "email_kinds": ["phase-opened", "reminder"]}
    )
    prussia.refresh_from_db()
    assert prussia.email_mode == "digest"
