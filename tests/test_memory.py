"""``dgk.memory.settle``: each worker process, as it starts, and each web process, once its
application is loaded, sets what it has loaded aside from the garbage collector's rounds and
raises the young generation's threshold (docs/performance.md, "The fifth pass"). Cycles made
later are still collected."""

import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from dgk import memory

ROOT = Path(__file__).resolve().parent.parent


def fresh_process(code: str, **env: str) -> dict:
    """What ``code`` (run after Django is set up, in a new process) prints as JSON."""
    run = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "dgk.settings", **env},
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


REPORT = (
    "import gc, json, sys\n"
    "print(json.dumps({'frozen': gc.get_freeze_count(), 'threshold': gc.get_threshold(),"
    " 'views': 'orders.views' in sys.modules}))\n"
)


@pytest.mark.parametrize("signal", ["worker_init", "worker_process_init"])
def test_a_worker_settles_before_it_forks_and_in_each_process(signal):
    """``worker_init``: the worker's main process, before it forks its pool;
    ``worker_process_init``: each process of the pool as it starts."""
    before = fresh_process(REPORT)
    assert before["frozen"] == 0 and before["threshold"] == [700, 10, 10]  # (CPython's own)
    after = fresh_process(
        f"from celery.signals import {signal}\n"
        "from mail import tasks\n"
        f"{signal}.send(sender=None)\n" + REPORT
    )
    assert after["threshold"] == list(memory.THRESHOLD)
    assert after["frozen"] > 100_000  # Django, the URLconf, every view, the templates
    assert after["views"]


def test_a_web_process_loads_its_views_and_settles():
    after = fresh_process("import dgk.wsgi\n" + REPORT, DEBUG="1")
    assert after["threshold"] == list(memory.THRESHOLD)
    assert after["frozen"] > 100_000 and after["views"]


@pytest.fixture
def settled():
    threshold = gc.get_threshold()
    yield memory.settle()
    gc.unfreeze()
    gc.set_threshold(*threshold)


class Node:
    pass


def test_a_cycle_made_after_settling_is_still_collected(settled):
    assert settled > 0 and gc.get_freeze_count() > 0
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    assert gone() is not None  # a cycle: reference counting alone never frees it
    gc.collect()
    assert gone() is None
