"""Settings come from the environment, and a bad value stops the start with a clear message."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parent.parent
SHOWN = (
    "DEBUG",
    "ALLOWED_HOSTS",
    "DATABASES",
    "CELERY_BROKER_URL",
    "CELERY_TASK_ALWAYS_EAGER",
    "CACHES",
    "EMAIL_BACKEND",
    "SITE_URL",
    "TIME_ZONE",
    "HEARTBEAT_SECONDS",
    "HEARTBEAT_MAX_AGE_SECONDS",
    "PERIODIC_TASKS",
)
_PROBE = f"""
import json, dgk.settings as s
print(json.dumps({{n: getattr(s, n) for n in {SHOWN!r}}}, default=str))
print("SECRET_KEY", s.SECRET_KEY)
for n in ("EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_USE_TLS", "EMAIL_USE_SSL"):
    print(n, getattr(s, n, None))
"""
_CLEARED = {
    "DEBUG",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "REDIS_URL",
    "CACHE_URL",
    "EMAIL_URL",
    "EMAIL_HOST",
    "SITE_URL",
    "SITE_URL_FILE",
    "TIME_ZONE",
    "DJANGO_SETTINGS_MODULE",
    "HEARTBEAT_SECONDS",
    "HEARTBEAT_MAX_AGE_SECONDS",
    "BACKUP_CHECK_SECONDS",
}


def load_settings(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    return subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def loaded(**env: str) -> tuple[dict, str]:
    result = load_settings(**env)
    assert result.returncode == 0, result.stderr
    first, _, rest = result.stdout.partition("\n")
    return json.loads(first), rest


def refused(**env: str) -> str:
    result = load_settings(**env)
    assert result.returncode != 0, "settings loaded but should have been refused"
    assert "ImproperlyConfigured" in result.stderr
    return result.stderr.strip().splitlines()[-1]


def test_the_defaults_work_out_of_the_box():
    values, _ = loaded()

    assert values["DEBUG"] is True
    assert values["DATABASES"]["default"]["NAME"] == str(ROOT / "db.sqlite3")
    assert values["CELERY_TASK_ALWAYS_EAGER"] is True
    # no mail server: the local outbox (issue 26), files the organiser reads on the site
    assert values["EMAIL_BACKEND"].endswith("filebased.EmailBackend")
    assert values["TIME_ZONE"] == "UTC"
    # A dead worker is told by /healthz within two minutes, and a live one never between two
    # heartbeats; a new campaign's first backup comes minutes after its start, not an hour.
    assert values["HEARTBEAT_SECONDS"] < values["HEARTBEAT_MAX_AGE_SECONDS"] <= 120
    assert (
        values["PERIODIC_TASKS"]["campaign.tasks.record_heartbeat"] == values["HEARTBEAT_SECONDS"]
    )
    assert values["PERIODIC_TASKS"]["seasons.tasks.backup_campaigns"] <= 300


def test_a_command_in_another_shell_links_to_the_address_bin_run_recorded(tmp_path):
    """./bin/run records its SITE_URL (bin/_site.sh, record_site_url); a process it did not
    start (a command, a worker in another shell) reads it there."""
    recorded = tmp_path / "site-url"
    values, _ = loaded(SITE_URL_FILE=str(recorded))
    assert values["SITE_URL"] == "http://localhost:8000"  # nothing recorded: the default
    recorded.write_text("http://127.0.0.1:8123\n")
    values, _ = loaded(SITE_URL_FILE=str(recorded))
    assert values["SITE_URL"] == "http://127.0.0.1:8123"
    values, _ = loaded(SITE_URL_FILE=str(recorded), SITE_URL="https://dgk.example.org")
    assert values["SITE_URL"] == "https://dgk.example.org"  # the environment wins


def test_console_email_is_still_there_to_choose():
    values, _ = loaded(EMAIL_URL="console://")
    assert values["EMAIL_BACKEND"].endswith("console.EmailBackend")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a yes/no value"),
        ({"DEBUG": "0", "ALLOWED_HOSTS": "dgk.example.org"}, "SECRET_KEY must be set"),
        ({"DEBUG": "0", "SECRET_KEY": "s3cret"}, "ALLOWED_HOSTS must name"),
        ({"DATABASE_URL": "nosuchdb://x/y"}, "DATABASE_URL='nosuchdb://x/y' is not usable"),
        (
            {"CELERY_BROKER_URL": "localhost:6379"},
            "CELERY_BROKER_URL='localhost:6379' is not a URL",
        ),
        ({"TIME_ZONE": "Europe/Rossbach"}, "TIME_ZONE='Europe/Rossbach' is not an IANA"),
        ({"SITE_URL": "dgk.example.org"}, "SITE_URL='dgk.example.org' is not a URL"),
        ({"EMAIL_URL": "smtp://"}, "names no host"),
        ({"EMAIL_HOST": "mail", "EMAIL_PORT": "smtp"}, "EMAIL_PORT='smtp' is not an integer"),
        ({"SWEEP_SECONDS": "0"}, "SWEEP_SECONDS=0 is below the smallest allowed, 1"),
        ({"HEARTBEAT_SECONDS": "600"}, "HEARTBEAT_MAX_AGE_SECONDS must be longer"),
        (
            {"DEBUG": "0", "ALLOWED_HOSTS": "a.org", "SECRET_KEY_FILE": "/nonexistent/key"},
            "SECRET_KEY_FILE='/nonexistent/key' cannot be read: No such file or directory.",
        ),
    ],
)
def test_it_refuses_a_bad_value(env, message):
    assert message in refused(**env)


def test_a_broker_url_turns_off_eager_tasks():
    values, _ = loaded(REDIS_URL="redis://127.0.0.1:6379/0")

    assert values["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/0"
    assert values["CELERY_TASK_ALWAYS_EAGER"] is False
    # The cache shares the broker's Redis, and degrades to no cache while it is down.
    assert values["CACHES"]["default"]["BACKEND"] == "dgk.cache.DegradingRedisCache"
    assert values["CACHES"]["default"]["LOCATION"] == "redis://127.0.0.1:6379/0"


def test_it_reads_production_values():
    values, _ = loaded(
        DEBUG="off",
        SECRET_KEY="s3cret",
        ALLOWED_HOSTS="dgk.example.org, www.dgk.example.org",
        DATABASE_URL="postgres://dgk:pw@db.internal:5432/dgk",
        SITE_URL="https://dgk.example.org/",
        TIME_ZONE="Europe/Berlin",
    )

    assert values["DEBUG"] is False
    assert values["ALLOWED_HOSTS"] == ["dgk.example.org", "www.dgk.example.org"]
    assert values["DATABASES"]["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert values["DATABASES"]["default"]["HOST"] == "db.internal"
    assert values["SITE_URL"] == "https://dgk.example.org"
    assert values["TIME_ZONE"] == "Europe/Berlin"


def test_it_configures_smtp_from_an_email_url():
    values, rest = loaded(EMAIL_URL="smtp://king%40example.org:pw@mail.example.org:587?starttls=1")

    assert values["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
    assert "EMAIL_HOST mail.example.org" in rest
    assert "EMAIL_PORT 587" in rest
    assert "EMAIL_HOST_USER king@example.org" in rest
    assert "EMAIL_USE_TLS True" in rest
    assert "EMAIL_USE_SSL False" in rest


def test_it_reads_the_secret_key_from_a_file(tmp_path):
    """As the container image keeps the key it generated (compose.yaml, the secrets volume)."""
    key = tmp_path / "secret_key"
    key.write_text("generated-at-first-start\n")

    values, rest = loaded(DEBUG="0", ALLOWED_HOSTS="dgk.example.org", SECRET_KEY_FILE=str(key))

    assert values["DEBUG"] is False
    assert "SECRET_KEY generated-at-first-start\n" in rest


def test_a_secret_key_given_beats_the_file(tmp_path):
    key = tmp_path / "secret_key"
    key.write_text("from-the-file")

    _, rest = loaded(SECRET_KEY="from-dot-env", SECRET_KEY_FILE=str(key))

    assert "SECRET_KEY from-dot-env\n" in rest
