"""The session and its user read in one statement (issue 44, ``accounts.sessions`` and
``accounts.middleware.get_user``): the same user, the same checks, the same sign-outs as
Django's two statements, on every case."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from accounts import middleware, sessions
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def test_the_engine_is_on():
    assert settings.SESSION_ENGINE == "accounts.sessions"
    assert "accounts.middleware.AuthenticationMiddleware" in settings.MIDDLEWARE


def test_a_signed_in_request_reads_the_session_and_its_user_once(player):
    c = client_for(player)
    c.get(reverse("orders:index"))  # this process learns whose session it is
    with CaptureQueriesContext(connection) as ctx:
        assert c.get(reverse("orders:index")).status_code == 200
    sql = [q["sql"] for q in ctx.captured_queries]
    session_reads = [s for s in sql if "django_session" in s]
    assert len(session_reads) == 1 and "auth_user" in session_reads[0]
    assert not [s for s in sql if "auth_user" in s and "django_session" not in s]


def test_signing_out_ends_the_session_at_once(player):
    c = client_for(player)
    assert c.get(reverse("orders:index")).status_code == 200
    stolen = Client()
    stolen.cookies = c.cookies.__class__(c.cookies)  # a copy of the cookie, kept
    assert stolen.get(reverse("orders:index")).status_code == 200
    c.post(reverse("logout"))
    gone = stolen.get(reverse("orders:index"))
    assert gone.status_code == 302 and reverse("login") in gone["Location"]


def test_a_password_changed_elsewhere_signs_out_a_known_session(player):
    phone, laptop = client_for(player), client_for(player)
    assert phone.get(reverse("orders:index")).status_code == 200  # its pairing learnt
    laptop.post(
        reverse("password_change"),
        {
            "old_password": "pw-fritz",
            "new_password1": "a-new-Secret-9",
            "new_password2": "a-new-Secret-9",
        },
    )
    assert laptop.get(reverse("orders:index")).status_code == 200
    gone = phone.get(reverse("orders:index"))
    assert gone.status_code == 302 and reverse("login") in gone["Location"]


def test_a_wrong_pairing_is_dropped(player, other):
    """A pairing naming another user than the session does (none is ever made, but were one):
    the session's own user is read, as Django reads it."""
    c = client_for(player)
    key = c.cookies[settings.SESSION_COOKIE_NAME].value
    sessions._USER_OF_KEY[key] = other.pk
    response = c.get(reverse("orders:index"))
    assert response.status_code == 200
    assert response.wsgi_request.user == player
    assert sessions._USER_OF_KEY[key] == player.pk


# --- the same outcome as Django's get_user, case by case -------------------------------------


def _session(user: User, **changes) -> str:
    """A signed-in session of ``user`` in the table, as ``login`` leaves it; ``changes`` to
    its data (None removes a key)."""
    store = DjangoStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = MODEL_BACKEND
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    for name, value in changes.items():
        if value is None:
            store.pop(name, None)
        else:
            store[name] = value
    store.save()
    return store.session_key


def _outcome(store, get_user, user_pk) -> tuple:
    """(signed in as the session's user, its row still there, the session's password hash the
    user's own after, the key changed)."""
    request = RequestFactory().get("/")
    request.session = store
    key = store.session_key
    user = get_user(request)
    if store.modified:
        store.save()
    row = Session.objects.filter(session_key=store.session_key).first()
    data = row.get_decoded() if row is not None else {}
    now = User.objects.filter(pk=user_pk).first()
    return (
        user.is_authenticated and user.pk == user_pk,
        row is not None,
        now is not None and data.get(HASH_SESSION_KEY) == now.get_session_auth_hash(),
        store.session_key != key,
    )


def _both(make) -> tuple[tuple, tuple]:
    """Django's outcome and ours, each on its own session made alike by ``make``."""
    user_pk, key = make()
    theirs = _outcome(DjangoStore(key), auth.get_user, user_pk)
    user_pk, key = make()
    sessions._USER_OF_KEY[key] = user_pk  # as a request before it would have left it
    return theirs, _outcome(sessions.SessionStore(key), middleware.get_user, user_pk)


CASES = ("signed-in", "password-changed", "no-hash", "inactive", "deleted", "unknown-backend",
         "expired", "rotated-secret")  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_it_decides_as_django_does(case, player):
    def make():
        user = User.objects.create_user(f"{case}-{User.objects.count()}", password="pw-1")
        changes: dict = {}
        if case == "no-hash":
            changes[HASH_SESSION_KEY] = None
        if case == "unknown-backend":
            changes[BACKEND_SESSION_KEY] = "somewhere.Else"
        if case == "rotated-secret":
            with override_settings(SECRET_KEY="the-old-secret-" + "x" * 40):
                changes[HASH_SESSION_KEY] = user.get_session_auth_hash()
        key = _session(user, **changes)
        if case == "password-changed":
            user.set_password("pw-2")
            user.save()
        if case == "inactive":
            User.objects.filter(pk=user.pk).update(is_active=False)
        if case == "deleted":
            User.objects.filter(pk=user.pk).delete()
        if case == "expired":
            Session.objects.filter(session_key=key).update(expire_date="2000-01-01T00:00Z")
        return user.pk, key

    with override_settings(SECRET_KEY_FALLBACKS=["the-old-secret-" + "x" * 40]):
        theirs, ours = _both(make)
    assert ours == theirs
    assert ours[0] == (case in {"signed-in", "rotated-secret"}), ours


def test_one_statement_reads_what_two_did(player):
    """The user read with the session is the row Django reads: every field alike."""
    c = client_for(player)
    key = c.cookies[settings.SESSION_COOKIE_NAME].value
    sessions._USER_OF_KEY[key] = player.pk
    store = sessions.SessionStore(key)
    store.load()
    _, user = store.user_row
    fresh = User.objects.get(pk=player.pk)
    for field in User._meta.concrete_fields:
        assert getattr(user, field.attname) == getattr(fresh, field.attname), field.name
    assert user._state.adding is False and user._state.db == "default"
