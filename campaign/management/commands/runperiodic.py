"""Run the periodic tasks without a broker: the embedded stand-in for Celery beat.

With no CELERY_BROKER_URL, tasks run eagerly; this loop calls the tasks in
settings.PERIODIC_TASKS at their intervals, as beat would. ``./bin/run`` starts it beside the web
server. With a broker, use ``celery -A dgk worker -B`` instead.
"""

import logging
import signal
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from dgk.celery import app

logger = logging.getLogger(__name__)


def _tidy_connections() -> None:
    """Drop broken or expired database connections between runs, as a request cycle would."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


class Command(BaseCommand):
    help = "Run the periodic tasks (the Celery beat schedule) in a loop, for the embedded mode."

    def add_arguments(self, parser):
        parser.add_argument(
            "--once", action="store_true", help="Run every periodic task once, then stop."
        )

    def handle(self, *args, once: bool, **options):
        # Every app's tasks module, as a worker imports them at start (autodiscovery is lazy).
        app.loader.import_default_modules()
        tasks = {}
        for name, seconds in settings.PERIODIC_TASKS.items():
            if name not in app.tasks:
                raise CommandError(f"PERIODIC_TASKS names {name!r}, which is no Celery task.")
            tasks[name] = (app.tasks[name], seconds)
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            self.stderr.write(
                "A broker is configured: tasks go to it. Celery beat (worker -B) usually does "
                "this job; run only one of the two."
            )
        self._stopping = False
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        due = dict.fromkeys(tasks, time.monotonic())
        self.stdout.write(
            f"runperiodic: {', '.join(f'{n} every {s}s' for n, (_, s) in tasks.items())}"
        )
        while not self._stopping:
            now = time.monotonic()
            for name, (task, seconds) in tasks.items():
                if due[name] > now:
                    continue
                _tidy_connections()
                try:
                    task.delay()
                except Exception:  # one failing run must not stop the loop
                    logger.exception("periodic task %s failed", name)
                due[name] = now + seconds
            if once:
                break
            time.sleep(max(0.0, min(min(due.values()) - time.monotonic(), 1.0)))
        _tidy_connections()

    def _stop(self, signum, frame) -> None:
        self._stopping = True
