"""One-click unsubscribe (issue 13): every email to a seat carries List-Unsubscribe with a
signed link; the page needs no sign-in, a mail client's one-click POST works (RFC 8058)."""

import pytest
from django.core import mail

from campaign.models import Seat
from campaign.services import setup
from mail.services import email
from tests.standing import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(new_campaign, organiser, now, django_capture_on_commit_callbacks):
    for s in new_campaign.seats.all():
        s.user = make_user(f"m-{s.power}")
        s.save()
    with django_capture_on_commit_callbacks(execute=True):
        setup.start_campaign(new_campaign, organiser, now=now)
    return new_campaign


def link_of(message) -> str:
    return message.extra_headers["List-Unsubscribe"].strip("<>").split("testserver")[-1]


def test_every_seat_email_carries_a_one_click_unsubscribe(started, client):
    message = next(m for m in mail.outbox if "orders are due" in m.subject)
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = link_of(message).replace("http://localhost:8000", "")
    seat = Seat.objects.get(user__email=message.to[0])
    page = client.get(path)
    assert page.status_code == 200 and seat.label in page.content.decode()
    r = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200
    seat.refresh_from_db()
    assert seat.email_kinds == []


def test_the_page_saves_a_choice_and_refuses_a_forged_link(started, client):
    seat = started.seats.get(power="prussia")
    path = f"/emails/{email.preferences_token(seat.id)}/"
    client.post(path, {"email_kinds": ["reminder"]})
    seat.refresh_from_db()
    assert seat.email_kinds == ["reminder"]
    forged = email.preferences_token(seat.id)[:-3] + "xyz"
    assert client.get(f"/emails/{forged}/").status_code == 404
