"""Errors and logs where operators look (issue 27, docs/operations.md).

- ``init_sentry``: optional error reports to Sentry (``SENTRY_DSN``), from the web processes
  (Django integration) and the worker and beat (Celery integration). No player data is sent:
  ``send_default_pii=False``, no local variables of the stack frames, no request bodies, and
  ``scrub`` (the ``before_send``) drops what is left of cookies, headers, query strings, the
  user, the tokens in links (invitations, email preferences, password resets), and the
  breadcrumbs' data (log messages and SQL parameters).
- ``JSON_FORMATTER``: one JSON object per log line (``LOG_FORMAT=json``): time, level, logger,
  message, and the exception's traceback when there is one.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration

# The logging formatter of ``LOG_FORMAT=json`` (python-json-logger), for settings.LOGGING.
JSON_FORMATTER = {
    "()": "pythonjsonlogger.json.JsonFormatter",
    "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
    "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
}

# Request headers kept in a report: none of them says who the player is or carries a secret.
KEPT_HEADERS = {"host", "user-agent", "accept", "accept-language", "content-type", "hx-request"}
# A link's path part that is a secret (an invitation's or a reset's token, a signed email
# preferences token): 16 characters or more, and not a public code (a UUID). No path of the
# site's own is that long.
_TOKEN = re.compile(
    r"^(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)[A-Za-z0-9_:.\-]{16,}$"
)
HIDDEN = "[hidden]"


def _scrub_url(url: str) -> str:
    parts = urlsplit(url)
    path = "/".join(HIDDEN if _TOKEN.match(s) else s for s in parts.path.split("/"))
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def scrub(event: dict, hint: dict | None = None) -> dict:
    """Sentry's ``before_send``: the event without anything that could be a player's."""
    request = event.get("request")
    if isinstance(request, dict):
        for key in ("data", "cookies", "query_string", "env"):
            request.pop(key, None)
        headers = request.get("headers") or {}
        request["headers"] = {k: v for k, v in headers.items() if k.lower() in KEPT_HEADERS}
        if request.get("url"):
            request["url"] = _scrub_url(request["url"])
    event.pop("user", None)
    for crumb in (event.get("breadcrumbs") or {}).get("values", []):
        crumb.pop("data", None)
        if crumb.get("category") in ("query", "log") or crumb.get("type") == "log":
            crumb.pop("message", None)
    for exception in (event.get("exception") or {}).get("values", []):
        for frame in (exception.get("stacktrace") or {}).get("frames", []):
            frame.pop("vars", None)
    return event


def init_sentry(dsn: str, *, environment: str, traces_sample_rate: float) -> None:
    """Report errors to Sentry at ``dsn`` (called by the settings only when it is set)."""
    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=environment,
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub,
        before_send_transaction=scrub,
        traces_sample_rate=traces_sample_rate,
    )
