"""/healthz: database, broker and worker heartbeat, as JSON for a load balancer or a monitor."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.models import Heartbeat
from campaign.tasks import WORKER, record_heartbeat
from tests.servers import spare_port
from tests.storage.folders import with_folders

pytestmark = pytest.mark.django_db


def test_it_reports_ok_with_a_fresh_heartbeat(admin_client):
    record_heartbeat.delay()

    response = admin_client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"] == {"ok": True, "mode": "eager"}
    assert body["heartbeat"]["ok"] is True
    assert body["heartbeat"]["eager"] is True


def test_it_fails_before_any_heartbeat(admin_client):
    response = admin_client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "fail"
    assert body["heartbeat"]["ok"] is False
    assert body["database"]["ok"] is True


def test_it_fails_when_the_heartbeat_is_stale(admin_client, settings):
    settings.HEARTBEAT_MAX_AGE_SECONDS = 60
    Heartbeat.objects.create(source=WORKER, beat_at=timezone.now() - timedelta(minutes=5))

    response = admin_client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["heartbeat"]["age_seconds"] >= 300


def test_by_default_a_worker_dead_for_two_minutes_is_told_and_a_late_beat_is_not(admin_client):
    """The defaults (HEARTBEAT_SECONDS, HEARTBEAT_MAX_AGE_SECONDS): a heartbeat two minutes old
    fails; one missed beat, and the next one half a minute late, does not."""
    now = timezone.now()
    beat = Heartbeat.objects.create(source=WORKER, beat_at=now - timedelta(seconds=121))
    assert admin_client.get("/healthz").status_code == 503

    late = 2 * django_settings.HEARTBEAT_SECONDS + 30
    beat.beat_at = now - timedelta(seconds=late)
    beat.save()
    response = admin_client.get("/healthz")
    assert response.status_code == 200, response.json()


def test_it_fails_when_the_broker_is_unreachable(admin_client, settings):
    from dgk.celery import app

    record_heartbeat.delay()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    old = app.conf.broker_url
    # Nothing listens on port 9 of the loopback address.
    app.conf.broker_url = "redis://127.0.0.1:9/0"
    try:
        response = admin_client.get("/healthz")
    finally:
        app.conf.broker_url = old

    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False
    assert response.json()["broker"]["mode"] == "broker"


def test_it_rejects_post(client):
    assert client.post("/healthz").status_code == 405


def test_it_is_never_cached(client):
    record_heartbeat.delay()
    assert "no-cache" in client.get("/healthz")["Cache-Control"]


def test_a_second_heartbeat_updates_the_same_row():
    record_heartbeat.delay()
    first = Heartbeat.objects.get(source=WORKER).beat_at
    record_heartbeat.delay()

    assert Heartbeat.objects.filter(source=WORKER).count() == 1
    assert Heartbeat.objects.get(source=WORKER).beat_at >= first


def test_the_public_reads_only_ok_or_fail(client, settings):
    record_heartbeat.delay()
    assert client.get("/healthz").json() == {"status": "ok"}
    Heartbeat.objects.all().delete()
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json() == {"status": "fail"}


def test_a_monitor_with_the_token_reads_the_details(client, settings):
    settings.HEALTHZ_TOKEN = "s3cret-monitor"
    record_heartbeat.delay()
    assert "heartbeat" in client.get("/healthz", HTTP_AUTHORIZATION="Bearer s3cret-monitor").json()
    assert client.get("/healthz", HTTP_AUTHORIZATION="Bearer wrong").json() == {"status": "ok"}


def test_a_cache_down_is_degraded_not_failed(admin_client, settings):
    record_heartbeat.delay()
    settings.CACHES = {
        "default": {
            "BACKEND": "dgk.cache.DegradingRedisCache",
            "LOCATION": f"redis://127.0.0.1:{spare_port()}/0",
        }
    }
    response = admin_client.get("/healthz")

    assert response.status_code == 200  # play goes on, slower
    body = response.json()
    assert body["status"] == "degraded"
    assert body["cache"]["ok"] is False and "Connection refused" in body["cache"]["error"]


def test_a_disk_nearly_full_is_degraded_and_named(admin_client, client, settings, tmp_path):
    record_heartbeat.delay()
    settings.STORAGES = with_folders(pictures=tmp_path / "pictures")
    settings.DISK_MIN_FREE_MB = 2**40  # more than any disk has
    response = admin_client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and body["disk"]["ok"] is False
    assert str(tmp_path / "pictures") in body["disk"]["pictures"]["error"]
    assert client.get("/healthz").json() == {"status": "degraded"}  # no paths for the public


def test_the_disk_and_cache_are_ok_by_default(admin_client):
    record_heartbeat.delay()
    body = admin_client.get("/healthz").json()

    assert body["status"] == "ok"
    assert body["cache"] == {"ok": True, "backend": "local memory"}
    assert body["disk"]["ok"] is True and body["disk"]["pictures"]["free_mb"] > 0


def test_readyz_answers_ready_while_the_worker_is_silent(client):
    """The load balancer's probe (deploy/Caddyfile.several): this server's own database link
    only. /healthz fails with no heartbeat; /readyz still says the server can serve."""
    assert client.get("/healthz").status_code == 503
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ready"}
    assert "no-cache" in response["Cache-Control"]


def test_a_heartbeat_is_one_upsert_statement():
    """Two workers on two machines start together (compose.several.yaml) and both write the
    first heartbeat: one INSERT ... ON CONFLICT DO UPDATE each, where update_or_create's
    select-then-insert had the second fail on the unique source (PostgreSQL logged a duplicate
    key at every such start) before it read the row again."""
    with CaptureQueriesContext(connection) as first:
        record_heartbeat()
    with CaptureQueriesContext(connection) as second:
        record_heartbeat()
    for queries in (first, second):
        statements = [q["sql"].upper() for q in queries.captured_queries]
        assert len(statements) == 1, statements
        assert "ON CONFLICT" in statements[0]
    assert Heartbeat.objects.filter(source=WORKER).count() == 1
