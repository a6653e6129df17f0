"""The garbage collector of a long-lived process, set once it has loaded what it keeps for life
(issue 44, "the season through the services").

A worker process, once started, holds Django, the URLconf, the compiled templates, the bundled
map and its indexes: hundreds of thousands of objects that live as long as it does. CPython's
collector goes through all of them at every full collection, and with its default thresholds
(700 new objects a young collection, a full one every hundred of those at most) a season's worker
spent 0.15-0.2 s of its 4 s of CPU in the collector (``gc.callbacks``, the season bench).

``settle()`` collects once, then freezes what is left (``gc.freeze``: the collector never looks
at those objects again; they are not garbage, the process keeps them until it ends), and raises
the young generation's threshold so that a task's many short-lived objects are gone by reference
counting before a collection looks for cycles among them. Cycles are still collected: later,
not never. What a process would hold longer is at most ``THRESHOLD[0]`` objects more than with
the default, a few megabytes.

Called by each Celery worker process as it starts (``mail.tasks.warm_worker``, after the email
templates and the URLconf are loaded) and by each web process once the application is loaded
(``deploy/gunicorn.conf.py``, ``post_worker_init``).
"""

from __future__ import annotations

import gc

# Young, middle and old generations' thresholds: about 14x CPython's first (700), its second
# and third as they are. docs/performance.md, "The fifth pass", has the figures it was chosen by.
THRESHOLD = (10_000, 10, 10)


def settle(threshold: tuple[int, int, int] = THRESHOLD) -> int:
    """Collect, freeze what is left, set ``threshold``; how many objects were frozen (all the
    frozen ones, this call's and any earlier one's)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*threshold)
    return gc.get_freeze_count()
