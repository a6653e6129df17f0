"""The garbage collector of a long-lived process, set once it has loaded what it keeps for life
(issue 44, "the season through the services").

A worker process, once started, holds Django, the URLconf (every view) and the compiled email
templates: 140,000-150,000 objects that live as long as it does. CPython's collector goes through
all of them at every full collection, and with its default thresholds (a young collection every
700 new objects, a full one every hundred of those at most) a season's worker spent 0.15-0.2 s
of its 4 s of CPU in the collector (``gc.callbacks``, the season bench).

``settle()`` collects once, then freezes what is left (``gc.freeze``: the collector never looks
at those objects again; they are not garbage, the process keeps them until it ends), and raises
the young generation's threshold so that a task's many short-lived objects are gone by reference
counting before a collection looks for cycles among them. Cycles are still collected, later: a
cycle that outlives one young collection now waits for about 100,000 new objects (a middle
collection) or a million (a full one) rather than 7,000 or 70,000, so a busy process may hold
some megabytes more between collections (an estimate, not a bound: a cycle may hold a large
query result). A frozen object that later becomes part of a cycle is never collected; what is
frozen is what the process loaded to run, which it keeps anyway.

Called by the Celery worker in its main process before it forks its pool (the pool's
processes then share the frozen objects' pages with it, and no collection writes to them) and
again in each pool process as it starts (``mail.tasks.warm_worker``, after the email templates
and the URLconf are loaded), and by each web process when it imports the application
(``dgk/wsgi.py``, after the URLconf).
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
