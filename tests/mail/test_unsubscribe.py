"""One-click unsubscribe (issue 13): every email to a seat carries List-Unsubscribe with a
signed link; the page needs no sign-in, a mail client's one-click POST works (RFC 8058)."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from battles.services import mail as battle_mail
from campaign.models import EmailMode, Seat
from campaign.services import setup
from mail.services import digest, email
from tests.feeds.test_feed import make_battle
from tests.standing import make_user

pytestmark = pytest.mark.django_db

SIDES = {"prussian": ["prussia"], "austrian": ["austria"]}


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
    assert "Stopping them stops the daily digest too" in page.content.decode()
    assert "a battle's emails (its date, its result to confirm)" in page.content.decode()
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


def test_one_click_from_the_digest_stops_the_digest_too(
    started, client, now, django_capture_on_commit_callbacks
):
    seat = started.seats.get(power="prussia")
    Seat.objects.filter(id=seat.id).update(email_mode=EmailMode.DIGEST)
    with django_capture_on_commit_callbacks(execute=True):
        assert digest.send_digests(now=now) == 1  # (every digest seat with news: this one)
    digest_mail = next(m for m in mail.outbox if m.extra_headers["X-DGK-Kind"] == "digest")
    assert digest_mail.to == [seat.user.email]
    client.post(link_of(digest_mail), {"List-Unsubscribe": "One-Click"})
    seat.refresh_from_db()
    assert (seat.email_kinds, seat.email_mode) == ([], EmailMode.EVERY)
    mail.outbox.clear()
    assert digest.send_digests(now=now + timedelta(days=2)) == 0
    assert not email.deliver("phase-opened", seat_id=seat.id, since=0)
    assert mail.outbox == []


def test_only_the_emails_one_click_stops_offer_it(started):
    """A hand-over and a battle's news go whatever the player chose: no List-Unsubscribe on
    them (a mail client's button that does nothing), the link to the choices in their text."""
    seat = started.seats.get(power="prussia")
    battle = make_battle(started, "t1-1010", SIDES, "Kolin")
    mail.outbox.clear()
    assert email.deliver("handover", seat_id=seat.id)
    assert email.deliver("battle", battle_id=battle.id, battle_kind="date-set", seat_id=seat.id)
    assert email.deliver("phase-opened", seat_id=seat.id, since=0)
    handover, battle_news, call = mail.outbox
    assert "List-Unsubscribe" not in handover.extra_headers
    assert "List-Unsubscribe" not in battle_news.extra_headers
    assert reverse("seat_settings", args=[seat.code]) in battle_news.body
    assert call.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    Seat.objects.filter(id=seat.id).update(email_kinds=[])  # stopped: the others still go
    mail.outbox.clear()
    assert email.deliver("handover", seat_id=seat.id)
    assert email.deliver("battle", battle_id=battle.id, battle_kind="date-set", seat_id=seat.id)
    assert not email.deliver("phase-opened", seat_id=seat.id, since=0)


def test_a_battles_news_goes_as_one_email_to_each_of_its_players(started):
    """Queued once (``notify``), sent as one task per seat by the mail app; the builder queues
    nothing (it returns None for the news of every player)."""
    battle = make_battle(started, "t1-1010", SIDES, "Kolin")
    assert battle_mail.build_mail(battle.id, "date-set") is None
    mail.outbox.clear()
    assert not email.deliver("battle", battle_id=battle.id, battle_kind="date-set")
    to = sorted(m.to[0] for m in mail.outbox)
    seats = started.seats.filter(power__in=["prussia", "austria"]).select_related("user")
    assert to == sorted(s.user.email for s in seats)
    mail.outbox.clear()
    email.deliver("battle", battle_id=battle.id, battle_kind="date-set", exclude_side="prussian")
    assert [m.to for m in mail.outbox] == [[started.seats.get(power="austria").user.email]]
