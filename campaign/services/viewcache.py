"""What a seat sees of a state version, computed once per (version, seat) and kept in Django's
cache (Redis in production, local memory otherwise; see ``CACHES`` in the settings).

A state version never changes once written, and neither do the events and dice rolls up to it,
so a projection needs no invalidation: its key names the version's own row id (a roll back
deletes version N and a later resolution writes a new N with a new id) and everything that
chooses the audience (the seat, its armies, whether allies share, the last two turns or one
earlier turn). Two seats never share a key, so no seat can be served another's secrets.

Each process keeps the views and derived values it has used (``_kept``) in front of Django's
cache, so a page shown again does not unpickle them again; ``forget_views`` drops them.

The decoded engine state of a version is kept the same way, in this process only
(``version_state``): the orders and deployment pages check a draft against it.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache

from campaign.models import Seat, StateVersion
from campaign.projection import View
from campaign.services import knowledge
from rules.armies import Alliance, Army
from rules.state import State, state_from_dict

# A week: a version is looked at while it is the latest, then rarely (history pages).
TIMEOUT = 7 * 24 * 3600
PREFIX = "dgk:view:1"  # the last number changes when View's shape does
T = TypeVar("T")


def _stamp(version: StateVersion) -> str:
    """The version's row id and the moment it was written: a row id alone can come back after
    a transaction is rolled back (SQLite's sequence is part of the transaction)."""
    return f"{version.id}.{version.created.timestamp():.6f}"


def view_key(seat: Seat, version: StateVersion, *, turn: int | None = None) -> str:
    """The cache key of ``seat``'s view of ``version``: every input that chooses what it
    shows. The umpire's pages pass an unsaved seat holding every army ("umpire")."""
    share = bool((seat.campaign.options or {}).get("allies_share", False))
    armies = ",".join(sorted(seat.armies))
    scope = "recent" if turn is None else f"turn{turn}"
    return (
        f"{PREFIX}:c{version.campaign_id}:v{_stamp(version)}:s{seat.id or seat.label}:{armies}"
        f":share{int(share)}:{scope}"
    )


def umpire_key(version: StateVersion) -> str:
    return f"{PREFIX}:c{version.campaign_id}:v{_stamp(version)}:umpire"


def seat_view(
    seat: Seat,
    version: StateVersion,
    *,
    turn: int | None = None,
    news: knowledge.VersionNews | None = None,
) -> View:
    """``knowledge.seat_view``, computed once per (version, seat, scope) for every process;
    ``news``: the version's rows read once for every seat whose view is made (the worker)."""
    return _kept(
        view_key(seat, version, turn=turn),
        lambda: knowledge.seat_view(
            seat, version, turn=turn, state=version_state(version), news=news
        ),
    )


def derived(
    seat: Seat, version: StateVersion, what: str, make: Callable[[], T], *, timeout: int = TIMEOUT
) -> T:
    """Something a page draws from ``seat``'s view of ``version`` (the map layer's counters,
    its encoded block, the tap map, a rendered part of a page), made once per (version, seat)
    and kept beside the view. ``what`` names it and every other input it depends on (the
    phase, the map's stamp, the draft's time...): the key is the view's key plus ``what``, so
    it is never served to another seat, another version or another audience than the view
    itself; and the stamp of the code that draws it (``code_stamp``), so a new release never
    serves what the old one drew. The value is shared between requests: treat it as
    read-only. ``timeout``: shorter for what a draft's time names (it is of use only until the
    draft changes), so the shared cache does not fill with them."""
    return _kept(f"{view_key(seat, version)}:{code_stamp()}:{what}", make, timeout)


@functools.cache
def code_stamp() -> str:
    """A short digest of the code and templates that draw the pages (read once per process)."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".py", ".html") and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


CODE_FOLDERS = ("campaign", "orders", "maps", "rules", "templates")


# The views and derived values this process has read or made, by key (oldest first): a key
# always names the same value, so they need no invalidation here either, and a page that reads
# one again does not unpickle it again (a seat's View took a tenth of its orders page).
_local: dict[str, object] = {}
_local_lock = threading.Lock()


def _kept(key: str, make: Callable[[], T], timeout: int = TIMEOUT) -> T:
    value = _local.get(key)
    if value is not None:
        return value  # type: ignore[return-value]
    passing = _passing.get()
    if passing is not None:
        value = passing.get(key)
        if value is not None:
            return value  # type: ignore[return-value]
    value = cache.get(key)
    if value is None:
        value = make()
        cache.set(key, value, timeout)
    if passing is not None:
        passing[key] = value
        return value
    with _local_lock:
        _local[key] = value
        while len(_local) > settings.VIEW_CACHE_ENTRIES:
            _local.pop(next(iter(_local)))
    return value


# Set by ``made_for_others``: what ``_kept`` reads or makes meanwhile, kept only until the end of
# the block, by key.
_passing: ContextVar[dict[str, object] | None] = ContextVar("viewcache_passing", default=None)


@contextmanager
def made_for_others() -> Iterator[None]:
    """Within the block, the views and derived values made are left in Django's cache for the
    other processes and kept in this one only until the block ends, not among the views it
    keeps for its own pages (``_local``). The worker that prepares every seat's pages after a
    resolution (``orders.warmup``) serves none of them: kept, its hundreds of values a season
    only pushed out the ones its process used, and the garbage collector went through them
    again and again (a full collection took a tenth of a second of a season's worker)."""
    token = _passing.set({})
    try:
        yield
    finally:
        _passing.reset(token)


def forget_views() -> None:
    """Drop the views and derived values this process keeps (Django's cache keeps its own)."""
    with _local_lock:
        _local.clear()


def pending_battle_ids(version: StateVersion) -> tuple[str, ...]:
    """The battles ``version``'s state waits for, by id, kept for every process: the pages
    that make sure each has its record (``battles.services.records.sync``) decode the state
    only when one is new. The worker that resolved the phase leaves it in the cache
    (``orders.warmup``)."""
    return _kept(
        f"{PREFIX}:c{version.campaign_id}:v{_stamp(version)}:battles",
        lambda: tuple(p.id for p in version_state(version).pending_battles),
    )


def alliances(version: StateVersion) -> dict[Army, Alliance]:
    """Each army's side in ``version``'s state (13.8 may change them), kept for every process:
    what a seat's news needs of the state (``projection.bound_news_lines``) without decoding
    it. The worker that resolved the phase leaves it in the cache (``orders.warmup``)."""
    return _kept(
        f"{PREFIX}:c{version.campaign_id}:v{_stamp(version)}:alliances",
        lambda: {a: version_state(version).alliance_of(a) for a in Army},
    )


def umpire_view(version: StateVersion) -> View:
    """``knowledge.umpire_view``, computed once per version."""
    return _kept(
        umpire_key(version), lambda: knowledge.umpire_view(version, state=version_state(version))
    )


# States handed over by the resolution that made them, by stamp (oldest first).
_remembered: dict[str, State] = {}


@functools.lru_cache(maxsize=64)
def _state(stamp: str, version_id: int) -> State:
    return state_from_dict(StateVersion.objects.values_list("state", flat=True).get(id=version_id))


def version_state(version: StateVersion) -> State:
    """The engine's state of ``version``, decoded once per process (States are immutable).
    The JSON is read only when this process has not decoded it yet, so pages load versions
    with ``state`` deferred."""
    stamp = _stamp(version)
    remembered = _remembered.get(stamp)
    return remembered if remembered is not None else _state(stamp, version.id)


def remember_state(version: StateVersion, state: State) -> None:
    """Keep ``state``, just made by the engine for ``version``, as its decoded state in this
    process (the resolution's emails and map pictures then need not decode the JSON)."""
    _remembered[_stamp(version)] = state
    while len(_remembered) > 64:
        _remembered.pop(next(iter(_remembered)))


def forget() -> None:
    """Drop this process's decoded states and views (the tests start each from nothing)."""
    forget_views()
    _remembered.clear()
    _state.cache_clear()
