# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Redis dead or restarting, with the cache on the broker's Redis as by default (issue 27): no
page answers 500, the cache degrades to no cache (dgk/cache.py), orders are saved and Ready says
the worker will take them.

Two deaths: a Redis URL on a port where nothing listens, and a real ``redis-server`` on a spare
port of its own, used by the pages and then killed (and started again: the cache is used again).
"""

import pytest
from django.core.cache import cache
from django.urls import reverse

from campaign.services import viewcache
from dgk.celery import app
from orders.access import _version
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_everyone,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)
from tests.servers import redis_server_or_skip, spare_port

# The on-commit queueing runs inside the request only outside a test transaction.
pytestmark = pytest.mark.django_db(transaction=True)

BROKER_DOWN = "background worker cannot be reached"


def _new_connections() -> None:
    """Celery keeps producer pools made from the first broker URL it saw: drop them."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def on_redis(settings):
    """Point the broker and the cache (no CACHE_URL: the broker's Redis) at a Redis URL, tasks
    not eager, as a production site runs."""
    old_broker = app.conf.broker_url

    def use(redis_url: str) -> None:
        app.set_current()
        settings.CELERY_TASK_ALWAYS_EAGER = False
        app.conf.task_always_eager = False
        app.conf.broker_url = redis_url
        _new_connections()
        settings.CACHES = {
            "default": {
                "BACKEND": "dgk.cache.DegradingRedisCache",
                "LOCATION": redis_url,
                "KEY_PREFIX": "dgk-test",
                # Ask the server again at every call: the tests restart it.
                "OPTIONS": {"RETRY_SECONDS": 0, "socket_connect_timeout": 2},
            }
        }

    yield use
    app.conf.broker_url = old_broker
    app.conf.task_always_eager = True
    _new_connections()


def _every_page_answers(campaign, player, organiser) -> None:
    """The player's orders page, a march saved, the dashboard, history, report, the organiser's
    board, then Ready: each answers, and what was posted is in the database."""
    prussia = seat(campaign, "prussia")
    window = campaign.open_window()
    c = client_for(player)
    for name in ("orders", "dashboard", "history", "report"):
        r = c.get(url(name, prussia))
        assert r.status_code == 200, (name, r.status_code)
    board = client_for(organiser).get(reverse("organiser_board", args=[campaign.code]))
    assert board.status_code == 200
    r = c.post(
        url("save_march", prussia),
        {"unit": "frederick", "path": "4", "marches": "1", "meeting": "hold", "phase": "march"},
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    sheet = OrderSheet.objects.get(window=window, seat=prussia)
    assert sheet.draft["march"] == [{"unit": "frederick", "path": "4", "marches": 1}]
    assert "Frederick" in c.get(r.url).content.decode()
    # Everyone else is ready: Prussia's Ready would queue the resolution.
    OrderSheet.objects.filter(window=window).exclude(seat=prussia).update(ready=True)
    for s in campaign.seats.filter(reserve=False).exclude(id=prussia.id):
        OrderSheet.objects.get_or_create(
            window=window, seat=s, defaults={"campaign": campaign, "ready": True}
        )
    dashboard = url("dashboard", prussia)
    back = "http://testserver" + dashboard
    r = c.post(url("ready", prussia), {"phase": "march"}, HTTP_REFERER=back)
    assert r.status_code == 302 and r.url.endswith(dashboard)
    assert BROKER_DOWN in c.get(r.url).content.decode()
    sheet.refresh_from_db()
    assert sheet.ready
    assert sheet.draft["march"] == [{"unit": "frederick", "path": "4", "marches": 1}]
    assert campaign.open_window().id == window.id  # waits for the worker, nothing lost


def test_nothing_listens_on_the_redis_port(marching, player, organiser, on_redis):
    on_redis(f"redis://127.0.0.1:{spare_port()}/0")
    _every_page_answers(marching, player, organiser)
    assert cache._cache.breaker.down  # the pages did ask Redis, and went on without it


def test_a_redis_killed_under_the_site(marching, player, organiser, on_redis, tmp_path):
    redis = redis_server_or_skip(tmp_path / "redis", persistent=False)
    try:
        on_redis(redis.url())
        prussia = seat(marching, "prussia")
        version = _version(marching)
        key = viewcache.view_key(prussia, version)
        c = client_for(player)
        viewcache.forget_views()  # this process's own copies: the page must ask the shared cache
        assert c.get(url("orders", prussia)).status_code == 200
        assert cache.get(key) is not None  # the cache on Redis is used
        redis.kill()
        assert cache.get(key) is None and cache._cache.breaker.down
        _every_page_answers(marching, player, organiser)
        redis.start()  # restarted empty: the next page fills the cache again
        viewcache.forget_views()
        assert c.get(url("orders", prussia)).status_code == 200
        assert cache.get(key) is not None and not cache._cache.breaker.down
    finally:
        redis.kill()
