"""One resolution's emails go to the mail server in one SMTP session (``email.deliver_many``),
not one session each; one the server refuses is sent again alone and the others only once. A
real SMTP server on 127.0.0.1 (``tests/mail/smtp_server.py``) behind Django's SMTP backend."""

import pytest

from campaign.services.resolution import resolve_due_phase
from tests.mail.smtp_server import SMTPServer

pytestmark = pytest.mark.django_db


@pytest.fixture
def smtp(settings):
    with SMTPServer() as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_TIMEOUT = 5
        yield server


def resolve(campaign, capture):
    window = campaign.open_window()
    with capture(execute=True):
        resolve_due_phase(window.id, now=window.deadline)


def addressed(server):
    """Recipient to the sessions its emails came in."""
    out: dict[str, list[int]] = {}
    for session, recipients, _message in server.messages:
        for address in recipients:
            out.setdefault(address, []).append(session)
    return out


def test_a_resolutions_emails_share_one_session(campaign, smtp, django_capture_on_commit_callbacks):
    emails = list(campaign.seats.filter(reserve=False).values_list("user__email", flat=True))
    resolve(campaign, django_capture_on_commit_callbacks)
    assert len(smtp.messages) == len(emails) == 5
    assert addressed(smtp) == {address: [1] for address in emails}
    assert smtp.sessions == 1
    subjects = {str(m["Subject"]) for _, _, m in smtp.messages}
    assert subjects == {"Bohemia 1757: turn 1, march orders are due"}


def test_a_refused_email_is_sent_again_alone_and_the_others_once(
    campaign, prussia, smtp, django_capture_on_commit_callbacks
):
    emails = list(campaign.seats.filter(reserve=False).values_list("user__email", flat=True))
    fritz = prussia.user.email
    smtp.refused.add(fritz)  # refused once, at its first RCPT
    resolve(campaign, django_capture_on_commit_callbacks)
    sessions = addressed(smtp)
    assert sorted(sessions) == sorted(emails)
    assert all(len(each) == 1 for each in sessions.values()), sessions  # none sent twice
    alone = sessions[fritz][0]
    assert [recipients for s, recipients, _ in smtp.messages if s == alone] == [[fritz]]
    # Those before the refusal went in the batch's first session, those after in one more.
    assert smtp.sessions <= 3
