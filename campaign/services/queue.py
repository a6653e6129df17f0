"""Work a service queues for the worker, sent when the current transaction commits.

Services never import ``campaign.tasks`` (the tasks import the services they call, one each);
they name the task here and the Celery app finds it in its registry. With no broker the task
runs eagerly, in this process, after the commit (``CELERY_TASK_ALWAYS_EAGER``).
"""

from __future__ import annotations

from django.db import transaction

from dgk.celery import app

RESOLVE_PHASE = "campaign.tasks.resolve_phase"
SEND_EMAIL = "campaign.tasks.send_email"


def on_commit(task: str, *args, **kwargs) -> None:
    """Queue ``task`` (its dotted name) with these arguments once the transaction commits."""
    transaction.on_commit(lambda: app.tasks[task].delay(*args, **kwargs))
