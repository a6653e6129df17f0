"""gunicorn's settings for the site (issue 44, "the deadline hour"): one file read by
``bin/run``, the image's entrypoint (``deploy/entrypoint.sh web``) and ``bench/deadline_hour.py``
alike (``gunicorn dgk.wsgi -c deploy/gunicorn.conf.py``); the address is given on the command
line. docs/performance.md, "The deadline hour", has the figures behind these numbers.

- ``gthread`` workers, one process per core (``WEB_CONCURRENCY``, default the machine's cores,
  at least 2), each with ``WEB_THREADS`` threads (default 4). A request spends much of its time
  waiting on PostgreSQL and Redis, and a sign-in in PBKDF2 (which lets go of the GIL): with
  threads, the page views of the players already in are not queued behind them, as they were
  behind two sync workers.
- Each thread holds its own database connection (``CONN_MAX_AGE``): workers x threads of them
  (8 on two cores), well under PostgreSQL's 100.
- A long timeout: printing a briefing to PDF with chromium may take a minute.
- Connections kept alive 75 s (nginx's default), longer than a phone's pause between two
  pages: a connection closed by the server just as the phone sends on it is a request lost
  (the deadline hour's bench saw resets with 5 s against its reloads every 5 to 15 s). An idle
  kept connection holds no thread (gthread's poller keeps it).
"""

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.getenv(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise SystemExit(f"{name}={value!r}: a whole number is wanted.") from None
    if number < 1:
        raise SystemExit(f"{name}={value!r}: at least 1.")
    return number


workers = _int("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count()))
threads = _int("WEB_THREADS", 4)
worker_class = "gthread"
timeout = 120
graceful_timeout = 30
keepalive = 75
accesslog = "-"
control_socket_disable = True
