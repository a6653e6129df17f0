"""Site-wide views: the home page and /healthz."""

from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from campaign.models import Heartbeat
from campaign.tasks import WORKER


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def _check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means the database is not usable
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)[:200]}
    return {"ok": True, "vendor": connection.vendor}


def _check_broker() -> dict:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    from dgk.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # kombu raises the transport's own errors
        return {"ok": False, "mode": "broker", "error": str(exc)[:200]}
    return {"ok": True, "mode": "broker", "transport": app.conf.broker_url.split(":", 1)[0]}


def _check_heartbeat(database_ok: bool) -> dict:
    if not database_ok:
        return {"ok": False, "error": "database unavailable"}
    beat = Heartbeat.objects.filter(source=WORKER).first()
    if beat is None:
        return {"ok": False, "last": None, "error": "no heartbeat recorded yet"}
    age = timezone.now() - beat.beat_at
    fresh = age <= timedelta(seconds=settings.HEARTBEAT_MAX_AGE_SECONDS)
    return {
        "ok": fresh,
        "last": beat.beat_at.isoformat(),
        "age_seconds": round(age.total_seconds(), 1),
        "hostname": beat.hostname,
        "eager": beat.eager,
    }


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Database, broker and background worker status; 200 when all are OK, 503 otherwise.

    The heartbeat comes from the Celery worker (through beat) with a broker, and from
    ``manage.py runperiodic`` in the embedded default, so a stale one means periodic work
    (deadline sweeps) has stopped.
    """
    database = _check_database()
    broker = _check_broker()
    heartbeat = _check_heartbeat(database["ok"])
    ok = database["ok"] and broker["ok"] and heartbeat["ok"]
    body = {
        "status": "ok" if ok else "fail",
        "database": database,
        "broker": broker,
        "heartbeat": heartbeat,
    }
    return JsonResponse(body, status=200 if ok else 503)
