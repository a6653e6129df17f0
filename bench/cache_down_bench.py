"""What a cache read costs when Redis is up, and when it is down (issue 27, dgk/cache.py):
a miss answered by the breaker without asking Redis, and a miss that first tries to connect
(refused at once on a port where nothing listens; a server that drops packets costs up to
the 2 s connect timeout instead, which the breaker spares all but one call in 5 s).

    .venv/bin/python bench/cache_down_bench.py [redis://127.0.0.1:6379/8]
"""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")

import django  # noqa: E402

django.setup()

from dgk.cache import DegradingRedisCache  # noqa: E402

CALLS = 2000


def spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed(cache: DegradingRedisCache) -> float:
    cache.get("dgk-bench")  # the first call opens (or fails to open) the connection
    start = time.perf_counter()
    for _ in range(CALLS):
        cache.get("dgk-bench")
    return (time.perf_counter() - start) / CALLS * 1e6


def make(url: str, retry: float) -> DegradingRedisCache:
    return DegradingRedisCache(
        url, {"OPTIONS": {"RETRY_SECONDS": retry, "socket_connect_timeout": 2}}
    )


def main() -> None:
    live = sys.argv[1] if len(sys.argv) > 1 else "redis://127.0.0.1:6379/8"
    dead = f"redis://127.0.0.1:{spare_port()}/0"
    rows = (
        (f"Redis up ({live})", make(live, 5)),
        ("Redis down, the breaker open (5 s)", make(dead, 5)),
        ("Redis down, each read tries to connect", make(dead, 0)),
    )
    for label, cache in rows:
        print(f"{label:45} {timed(cache):8.1f} µs a read")


if __name__ == "__main__":
    main()
