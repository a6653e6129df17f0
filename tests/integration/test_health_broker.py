"""/healthz against a real Redis broker."""

import pytest

from campaign.tasks import record_heartbeat
from tests.conftest import TEST_BROKER_URL

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_it_reports_a_reachable_redis_broker(admin_client, settings):
    from dgk.celery import app

    record_heartbeat.delay()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    old = app.conf.broker_url
    app.conf.broker_url = TEST_BROKER_URL
    try:
        response = admin_client.get("/healthz")
    finally:
        app.conf.broker_url = old

    assert response.status_code == 200, response.json()
    assert response.json()["broker"] == {"ok": True, "mode": "broker", "transport": "redis"}
