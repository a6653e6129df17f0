"""Work a service queues for the worker, sent when the current transaction commits.

Services never import the tasks (``campaign.tasks``, ``maps.tasks``: they import the services
they call, one each);
they name the task here and the Celery app finds it in its registry. With no broker the task
runs eagerly, in this process, after the commit (``CELERY_TASK_ALWAYS_EAGER``).
"""

from __future__ import annotations

from django.db import transaction

from dgk.celery import app

RESOLVE_PHASE = "campaign.tasks.resolve_phase"
SEND_EMAIL = "mail.tasks.send_email"
SEND_EMAILS = "mail.tasks.send_emails"
DRAW_MAP_PICTURE = "maps.tasks.draw_map_picture"
PRINT_SEASON_BOOK = "seasons.tasks.print_season_book"
WARM_SEAT_PAGES = "orders.tasks.warm_seat_pages"


def on_commit(task: str, *args, robust: bool = False, **kwargs) -> None:
    """Queue ``task`` (its dotted name) with these arguments once the transaction commits;
    ``robust``: a broker error is logged, not raised (``transaction.on_commit``)."""
    transaction.on_commit(lambda: app.tasks[task].delay(*args, **kwargs), robust=robust)


def now(task: str, *args, **kwargs) -> None:
    """Queue ``task`` at once (from a task already running after its commit)."""
    app.tasks[task].delay(*args, **kwargs)
