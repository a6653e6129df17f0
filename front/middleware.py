"""What the site does when the broker (Redis) cannot be reached while queueing work; and the
header that keeps search engines out of every page but the home page (``NoIndexMiddleware``).

The work itself is safe: whatever the request saved (orders submitted, a result entered) was
committed before the task was queued (``transaction.on_commit``), and the periodic sweep resolves
every due phase from the database once a worker runs again. So the player is told that, on the
page they came from, instead of a server error.
"""

from __future__ import annotations

import logging

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)

BROKER_DOWN = (
    "Saved. The site's background worker cannot be reached just now, so nothing was sent on; "
    "the phase resolves, and the emails go, when it is back. There is no need to press again."
)


class BrokerDownMiddleware:
    """Turn a broker error raised while queueing a task into a message and a way back."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, OperationalError):
            return None
        logger.warning("broker unreachable while queueing after %s: %s", request.path, exception)
        messages.warning(request, BROKER_DOWN)
        back = request.headers.get("HX-Current-URL") or request.META.get("HTTP_REFERER", "")
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
            back = "/campaigns/"
        if getattr(request, "htmx", False):
            return HttpResponseClientRedirect(back)
        return HttpResponseRedirect(back)


class NoIndexMiddleware:
    """``X-Robots-Tag: noindex, nofollow`` on every response but the home page's
    (docs/security.md, "Pages without signing in"). The pages open without signing in (the
    public link of *The war* and its book, the gazette, an invitation, the email preferences,
    the sign-in pages) are meant for whoever holds their address, not for a search engine's
    index; one rule for every page, so a new public page cannot be forgotten."""

    HEADER = "noindex, nofollow"

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is None or match.view_name != "home":
            response.setdefault("X-Robots-Tag", self.HEADER)
        return response
