"""Django's Redis cache, made to degrade to no cache while Redis cannot be reached (issue 27).

The cache only ever holds what can be computed again (each seat's view of a state version,
``campaign/services/viewcache.py``; a note that a map picture was queued). So a dead or
restarting Redis must cost time, never a page: a read finds nothing, a write is dropped, and
the page is computed as if the cache were empty. After a failure this process leaves Redis alone
for ``RETRY_SECONDS`` (an OPTION, 5 by default), so a page does not wait on a dead server for
every key; then the next call tries again, and the cache works again as soon as Redis answers.

Settings: ``"BACKEND": "dgk.cache.DegradingRedisCache"`` (``dgk/settings.py`` does it for a
Redis ``CACHE_URL``, and for the broker's Redis when there is no ``CACHE_URL``).
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0


class _Breaker:
    """Whether Redis failed lately, shared by the threads of one process."""

    def __init__(self, retry_seconds: float) -> None:
        self.retry_seconds = retry_seconds
        self.down_until = 0.0
        self.down = False
        self.lock = threading.Lock()

    def closed(self) -> bool:
        """True when Redis may be asked now (it answered last time, or the pause is over)."""
        return not self.down or time.monotonic() >= self.down_until

    def failed(self, error: Exception, server: str) -> None:
        with self.lock:
            if not self.down:
                logger.warning(
                    "cache: Redis at %s cannot be reached (%s); pages are computed without the "
                    "cache until it is back",
                    server,
                    error,
                )
            self.down = True
            self.down_until = time.monotonic() + self.retry_seconds

    def answered(self, server: str) -> None:
        if self.down:
            with self.lock:
                if self.down:
                    logger.warning("cache: Redis at %s answers again; the cache is used", server)
                self.down = False


def _degrading(name: str, fallback):
    """The client method ``name``, answering ``fallback(*args)`` instead of raising while Redis
    is down."""
    method = getattr(RedisCacheClient, name)

    def call(self, *args):
        if not self.breaker.closed():
            return fallback(*args)
        try:
            result = method(self, *args)
        except RedisError as error:
            self.breaker.failed(error, self.server_names)
            return fallback(*args)
        self.breaker.answered(self.server_names)
        return result

    call.__name__ = name
    call.__doc__ = f"{method.__qualname__}, or {fallback.__doc__} while Redis is down."
    return call


def _nothing(*args):
    """nothing"""
    return None


def _false(*args):
    """False"""
    return False


def _no_entries(*args):
    """no entries"""
    return {}


def _the_default(key, default):
    """the default"""
    return default


def _none_failed(*args):
    """nothing reported as failed"""
    return []


class DegradingRedisClient(RedisCacheClient):
    def __init__(self, servers, *, retry_seconds: float = RETRY_SECONDS, **options) -> None:
        super().__init__(servers, **options)
        self.breaker = _Breaker(retry_seconds)
        self.server_names = ",".join(_without_password(s) for s in servers)

    get = _degrading("get", _the_default)
    set = _degrading("set", _nothing)
    add = _degrading("add", _false)  # not added: whoever asks does not take the key's work
    touch = _degrading("touch", _false)
    delete = _degrading("delete", _false)
    get_many = _degrading("get_many", _no_entries)
    has_key = _degrading("has_key", _false)
    set_many = _degrading("set_many", _none_failed)
    delete_many = _degrading("delete_many", _nothing)
    clear = _degrading("clear", _false)
    # incr is left as it is: no number can stand in for the one Redis holds.


def _without_password(url: str) -> str:
    """A server's URL for the log: ``redis://:secret@host`` loses the secret."""
    scheme, sep, rest = url.partition("://")
    return f"{scheme}{sep}{rest.rpartition('@')[2]}" if sep else url


class DegradingRedisCache(RedisCache):
    """``RedisCache`` whose reads miss and writes are dropped while Redis is down."""

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS", {}))
        retry_seconds = float(options.pop("RETRY_SECONDS", RETRY_SECONDS))
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = DegradingRedisClient
        self._options = {**options, "retry_seconds": retry_seconds}

    def ping(self) -> str:
        """An empty string when Redis answers now, else what is wrong (for /healthz)."""
        try:
            self._cache.get_client(None, write=True).ping()
        except RedisError as error:
            return str(error)
        return ""
