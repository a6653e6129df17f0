"""Errors and logs where operators look (issue 27): JSON log lines with LOG_FORMAT=json, and
Sentry reports (SENTRY_DSN) that carry no player data."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dgk.observability import HIDDEN, scrub
from tests.test_settings import refused

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parent.parent

_LOGS = """
import logging, django
django.setup()
log = logging.getLogger("campaign.services.resolution")
log.warning("phase %s of turn %d resolved late", "march", 3)
try:
    1 / 0
except ZeroDivisionError:
    log.exception("the email could not be sent")
"""

_SENTRY = """
import json, django
from django.conf import settings
django.setup()
import sentry_sdk
from sentry_sdk.transport import Transport

events = []


class Capture(Transport):
    def capture_envelope(self, envelope):
        events.extend(item.payload.json for item in envelope.items if item.type == "event")


sentry_sdk.get_client().transport = Capture()

import io
from urllib.parse import urlencode

from django.core.wsgi import get_wsgi_application
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt
def boom(request, token):
    orders = request.POST.get("orders")
    raise RuntimeError("the resolution failed")


urlpatterns = [path("boom/<str:token>/", boom), path("", include("dgk.urls"))]
settings.ROOT_URLCONF = "__main__"
# Through the WSGI application, as gunicorn calls it (and Sentry's WSGI middleware sees it).
body = urlencode({"orders": "march-secret-4711", "password": "password-secret-9999"}).encode()
environ = {
    "REQUEST_METHOD": "POST",
    "PATH_INFO": "/boom/Inv1tation-secret-token-2718/",
    "QUERY_STRING": "next=query-secret-3141",
    "SERVER_NAME": "testserver",
    "SERVER_PORT": "80",
    "HTTP_HOST": "testserver",
    "REMOTE_ADDR": "203.0.113.77",
    "HTTP_COOKIE": "dgk_theme=cookie-secret-5150",
    "HTTP_AUTHORIZATION": "Bearer header-secret-1618",
    "HTTP_USER_AGENT": "Firefox",
    "CONTENT_TYPE": "application/x-www-form-urlencoded",
    "CONTENT_LENGTH": str(len(body)),
    "wsgi.input": io.BytesIO(body),
    "wsgi.url_scheme": "http",
    "wsgi.errors": io.StringIO(),
    "wsgi.version": (1, 0),
    "wsgi.multithread": False,
    "wsgi.multiprocess": False,
    "wsgi.run_once": False,
}
statuses = []
b"".join(get_wsgi_application()(environ, lambda status, headers, *a: statuses.append(status)))
sentry_sdk.flush()
print(json.dumps({"status": int(statuses[0].split()[0]), "events": events}))
"""
SECRETS = ("5150", "3141", "4711", "9999", "1618", "2718", "Inv1tation", "203.0.113.77")


def run(script: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SENTRY_", "LOG_"))}
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "dgk.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_log_format_json_writes_one_json_object_a_line():
    done = run(_LOGS, LOG_FORMAT="json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stderr.splitlines()]  # each line valid JSON
    first, second = lines
    assert first["level"] == "WARNING"
    assert first["logger"] == "campaign.services.resolution"
    assert first["message"] == "phase march of turn 3 resolved late"
    assert first["time"]
    assert second["level"] == "ERROR" and second["message"] == "the email could not be sent"
    assert "ZeroDivisionError" in second["exc_info"]


def test_plain_log_lines_by_default():
    done = run(_LOGS)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == "phase march of turn 3 resolved late"


def test_an_unknown_log_format_is_refused():
    assert "LOG_FORMAT='xml' is not one of text, json" in refused(LOG_FORMAT="xml")


def test_a_server_error_reaches_sentry_without_player_data():
    done = run(
        _SENTRY,
        SENTRY_DSN="https://publickey@sentry.example.invalid/1",
        ALLOWED_HOSTS="testserver",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["status"] == 500
    (event,) = report["events"]
    (exception,) = event["exception"]["values"]
    assert exception["type"] == "RuntimeError" and exception["value"] == "the resolution failed"
    assert event["request"]["url"] == f"http://testserver/boom/{HIDDEN}/"
    assert event["request"]["method"] == "POST"
    assert set(event["request"]["headers"]) == {"Host", "User-Agent", "Content-Type"}
    assert "user" not in event
    assert all("vars" not in f for f in exception["stacktrace"]["frames"])
    text = json.dumps(event)
    for secret in SECRETS:
        assert secret not in text, f"{secret} reached Sentry"


def test_without_a_dsn_nothing_is_set_up():
    done = run("import dgk.settings, sentry_sdk; print(sentry_sdk.get_client().is_active())")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_scrub_drops_what_could_be_a_players():
    event = {
        "request": {
            "url": "https://dgk.example.org/emails/abc:1tXyZ:q9-8_signedtoken/?seat=3",
            "data": {"orders": "x"},
            "cookies": {"sessionid": "s"},
            "query_string": "seat=3",
            "headers": {"Cookie": "sessionid=s", "User-Agent": "Firefox", "X-Forwarded-For": "1"},
        },
        "user": {"username": "fritz", "email": "fritz@example.org"},
        "breadcrumbs": {
            "values": [
                {"category": "query", "message": "SELECT ... 'fritz'", "data": {"p": 1}},
                {"category": "campaign", "type": "log", "message": "fritz saved orders"},
            ]
        },
    }
    scrubbed = scrub(event)
    request = scrubbed["request"]
    assert request == {
        "url": f"https://dgk.example.org/emails/{HIDDEN}/",
        "headers": {"User-Agent": "Firefox"},
    }
    assert "user" not in scrubbed and "fritz" not in json.dumps(scrubbed)
