"""A session that lasts the season on a player's own phone (issue 44, "the deadline hour"):
signing in costs the server a PBKDF2 check (a quarter to half a second of a core), so sign-ins
are made rarer, not the hash weaker.

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

from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

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
