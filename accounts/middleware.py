"""Who is signed in, read with the session in one statement; and a session that lasts the season.

``AuthenticationMiddleware``: Django's, whose ``request.user`` takes the user the session store
read with the session (``accounts.sessions``) instead of reading it again, and checks it
exactly as ``django.contrib.auth.get_user`` does (``get_user``).

``SlidingSessionMiddleware``: a session that lasts the season on a player's own phone (issue 44,
"the deadline hour"): signing in costs the server a PBKDF2 check (a quarter to half a second of
a core), so sign-ins are made rarer, not the hash weaker.

``SESSION_COOKIE_AGE`` is long (``SESSION_DAYS``, default 180: a season), and it slides: a
signed-in session used on a new day is saved once that day, which moves its end (in the
database and in the cookie) a whole ``SESSION_COOKIE_AGE`` on. One write a session a day, not
one a request (``SESSION_SAVE_EVERY_REQUEST`` would write on every page).

Signing out everywhere still works: changing or resetting the password ends every other
session at its next request (Django checks each session's password hash), and "Sign out"
ends this one.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthentication
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from accounts.sessions import NOT_READ

# The backend whose ``get_user`` is a read of the user row by its key (and an is_active check):
# the only one whose read the session store may make for it.
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"

RENEWED_KEY = "renewed_on"  # the day (ISO) the session's end was last moved on


class SlidingSessionMiddleware:
    """After ``SessionMiddleware`` (which saves what this marks changed): a signed-in session
    not yet renewed today is, once."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is not None and SESSION_KEY in session:
            today = timezone.now().date().isoformat()
            if session.get(RENEWED_KEY) != today:
                session[RENEWED_KEY] = today
        return response


def get_user(request: HttpRequest):
    """``django.contrib.auth.get_user``, with the user row the session store read with the
    session (``accounts.sessions``) when it read it; else Django's own. The same checks, in the
    same order: the backend is one of ``AUTHENTICATION_BACKENDS``, the user may sign in
    (``user_can_authenticate``), the session's password hash is the user's (or, under a
    rotated ``SECRET_KEY``, a fallback's: the session is then moved to the new hash), else the
    session is flushed and the request is anonymous. ``tests/accounts/test_one_read.py`` holds
    it to Django's on every case."""
    session = request.session
    try:
        user_id = auth._get_user_session_key(request)
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return AnonymousUser()
    row = getattr(session, "user_row", NOT_READ)
    if (
        row is NOT_READ
        or row[0] != user_id
        or backend_path != MODEL_BACKEND
        or backend_path not in settings.AUTHENTICATION_BACKENDS
    ):
        return auth.get_user(request)
    backend = auth.load_backend(backend_path)
    user = row[1]
    if user is not None and not backend.user_can_authenticate(user):
        user = None
    if user is not None:  # verify the session, as Django does
        session_hash = session.get(HASH_SESSION_KEY)
        verified = bool(session_hash) and constant_time_compare(
            session_hash, session_auth_hash := user.get_session_auth_hash()
        )
        if not verified:
            if session_hash and any(
                constant_time_compare(session_hash, fallback)
                for fallback in user.get_session_auth_fallback_hash()
            ):
                session.cycle_key()
                session[HASH_SESSION_KEY] = session_auth_hash
            else:
                session.flush()
                user = None
    return user or AnonymousUser()


class AuthenticationMiddleware(DjangoAuthentication):
    """Django's, the user from ``get_user`` (read with the session when it was)."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))
