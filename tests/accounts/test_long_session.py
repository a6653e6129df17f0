"""A session that lasts the season and slides, one write a day (issue 44,
``accounts.middleware``); signing out everywhere still works."""

from datetime import timedelta

import pytest
import time_machine
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import forms
from accounts.middleware import RENEWED_KEY
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db


def session_of(client: Client) -> Session:
    return Session.objects.get(session_key=client.cookies[settings.SESSION_COOKIE_NAME].value)


def test_it_lasts_the_season():
    assert settings.SESSION_COOKIE_AGE >= 90 * 24 * 3600


def test_it_slides_once_a_day(player):
    c = client_for(player)
    c.get(reverse("orders:index"))
    first = session_of(c)
    assert first.get_decoded()[RENEWED_KEY] == timezone.now().date().isoformat()
    c.get(reverse("orders:index"))
    assert session_of(c).expire_date == first.expire_date  # not saved again the same day
    with time_machine.travel(timezone.now() + timedelta(days=30)):
        response = c.get(reverse("orders:index"))
        assert response.status_code == 200
        later = session_of(c)
        assert later.expire_date - first.expire_date >= timedelta(days=29)
        cookie = response.cookies[settings.SESSION_COOKIE_NAME]
        assert int(cookie["max-age"]) == settings.SESSION_COOKIE_AGE


def test_it_makes_no_session_for_a_visitor():
    Client().get(reverse("login"))
    assert not Session.objects.exists()


def test_changing_the_password_signs_out_the_other_phones(player):
    phone, laptop = client_for(player), client_for(player)
    response = laptop.post(
        reverse("password_change"),
        {
            "old_password": "pw-fritz",
            "new_password1": "a-new-Secret-9",
            "new_password2": "a-new-Secret-9",
        },
    )
    assert response.status_code == 302
    assert laptop.get(reverse("orders:index")).status_code == 200  # this one stays signed in
    gone = phone.get(reverse("orders:index"))
    assert gone.status_code == 302 and reverse("login") in gone["Location"]


def test_a_sign_in_beyond_the_waiting_room_is_told_to_try_again(player):
    """Issue 44: sign-ins waiting for a password check are bounded (they would hold the threads
    the players' pages need); one more is told to try again, and counts as no wrong password."""
    taken = 0
    while forms._waiting.acquire(blocking=False):
        taken += 1
    try:
        page = Client().post(reverse("login"), {"username": "fritz", "password": "pw-fritz"})
    finally:
        for _ in range(taken):
            forms._waiting.release()
    assert page.status_code == 200
    assert "press Sign in again in a few seconds" in page.content.decode()
    assert not AccessAttempt.objects.exists()
    again = Client().post(reverse("login"), {"username": "fritz", "password": "pw-fritz"})
    assert again.status_code == 302
