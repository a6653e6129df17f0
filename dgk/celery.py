"""The Celery app.

With a broker configured, ``celery -A dgk worker -B`` does the work; with none, tasks run eagerly
in the calling process (see ``CELERY_TASK_ALWAYS_EAGER`` in settings and docs/operations.md).
The beat schedule lives in settings (``PERIODIC_TASKS``): Celery beat and ``runperiodic`` share it.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")

app = Celery("dgk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
