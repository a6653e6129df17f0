"""The site's front door: the home page, ``/healthz`` (is the database, the broker, the worker,
the cache and the disk well), and the site's own page for a refused form (CSRF).

These gather facts from several apps (the worker's heartbeat from the campaign, the backups
from the seasons), so they sit in the top app.
"""

from __future__ import annotations

import secrets
import shutil
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from campaign.models import Heartbeat
from campaign.tasks import WORKER
from dgk import files
from dgk.cache import DegradingRedisCache
from dgk.celery import app
from seasons.services import backups


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "front/home.html")


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


def _check_cache() -> dict:
    backend = caches["default"]
    if not isinstance(backend, DegradingRedisCache):
        return {"ok": True, "backend": "local memory"}
    error = backend.ping()
    if error:
        return {"ok": False, "backend": "redis", "error": error[:200]}
    return {"ok": True, "backend": "redis"}


def _check_disk() -> dict:
    """Each storage the site writes to (map pictures and tiles, the books of the season, the
    backups, the photos): a folder of this machine, its free space; a bucket, that it answers
    a HEAD (once per bucket)."""
    least = settings.DISK_MIN_FREE_MB
    report: dict = {"ok": True, "min_free_mb": least}
    buckets: dict[str, str | None] = {}
    for kind in settings.FILE_KINDS:
        store = files.storage(kind)
        if not files.is_local(store):
            if store.bucket_name not in buckets:
                buckets[store.bucket_name] = files.bucket_error(store)
            error = buckets[store.bucket_name]
            report[kind] = {
                "bucket": "down" if error else "ok",
                **({"error": error} if error else {}),
            }
            report["ok"] = report["ok"] and error is None
            continue
        path = folder = Path(store.location)
        while not path.exists() and path != path.parent:
            path = path.parent  # not made yet: the disk it will be made on
        free = shutil.disk_usage(path).free // 2**20
        report[kind] = {"free_mb": free}
        if free < least:
            report["ok"] = False
            report[kind]["error"] = f"{free} MB free in {folder}, below {least} MB"
    return report


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for by themselves (for ``/healthz`` and a feed,
    say): the site's icon, not the 404 page. The 404 page draws the header's forms and so sets
    a CSRF cookie, which, arriving late, replaced the one of the page the browser had opened
    meanwhile: its next form was refused (seen in a browser test under load)."""
    return HttpResponsePermanentRedirect(static("icons/icon-192.png"))


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Database, broker and background worker status; 200 when all are OK, 503 otherwise.

    The heartbeat comes from the Celery worker (through beat) with a broker, and from
    ``manage.py runperiodic`` in the embedded default, so a stale one means periodic work
    (deadline sweeps) has stopped. A cache down or a disk nearly full does not stop play: the
    answer stays 200, its status is "degraded" and the details say which (docs/operations.md).
    """
    database = _check_database()
    broker = _check_broker()
    heartbeat = _check_heartbeat(database["ok"])
    cache = _check_cache()
    disk = _check_disk()
    ok = database["ok"] and broker["ok"] and heartbeat["ok"]
    status = "fail" if not ok else "ok" if cache["ok"] and disk["ok"] else "degraded"
    body: dict = {"status": status}
    if _may_read_health_details(request):
        body.update(database=database, broker=broker, heartbeat=heartbeat, cache=cache, disk=disk)
        if database["ok"]:
            # A failed backup (a full disk) is told here; the site still serves (no 503).
            body["backups"] = backups.health()
    return JsonResponse(body, status=200 if ok else 503)


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Whether this web server can serve pages: its own link to the database, and nothing
    shared by every server (the worker's heartbeat, the broker, the cache, the disk). The load
    balancer in front of several web servers asks this (deploy/Caddyfile.several): /healthz
    fails on every server at once when the worker stops, and a balancer that dropped them all
    would refuse the pages that still work (docs/several-servers.md)."""
    database = _check_database()
    body = {"status": "ready" if database["ok"] else "not ready"}
    return JsonResponse(body, status=200 if database["ok"] else 503)


def _may_read_health_details(request: HttpRequest) -> bool:
    """Host names and error texts are for staff, or a monitor holding HEALTHZ_TOKEN; the
    public (a load balancer) reads only ok or fail."""
    if request.user.is_authenticated and request.user.is_staff:
        return True
    token = settings.HEALTHZ_TOKEN
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return bool(token) and secrets.compare_digest(given.encode(), token.encode())


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return render(request, "403_csrf.html", status=403)
