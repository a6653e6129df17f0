"""The noninterference harness (issue 42): the fog of war as a property.

Two worlds are made from one database state: the same rows, the same dice seed (the campaign's,
in the database), the same frozen clock (``time_machine.travel(at, tick=False)``), the same
empty caches. They differ in ONE secret of seat B, applied by the test's ``world(which)``.
Then ``observe()`` collects every channel through which seat A learns anything, and the two
collections must be equal byte for byte: whatever B's secret is, A cannot tell.

How a world is made: inside the test's own transaction (pytest-django's ``django_db``), each
world runs in ``transaction.atomic()`` and is rolled back (``transaction.set_rollback(True)``)
after it was observed; the on-commit callbacks it queues (resolutions, emails, pushes, map
pictures) run where the world asks for them (``django_capture_on_commit_callbacks(execute=True)``
in ``world``). Before and after each world every cache is cleared (Django's caches, the view
cache of ``campaign.services.viewcache``), ``mail.outbox`` is emptied and the map pictures and
season books go to a fresh folder of their own.

What is normalised, and nothing else:
- the CSRF tokens (a new random mask on every page), and django-csp's nonce (``nonce="..."``,
  random bytes drawn for every response, as the CSRF mask is);
- the timestamp and signature of Django's signed tokens (``TimestampSigner``: the signed links
  in emails), although the frozen clock makes them equal anyway;
- the rows made after the copy (``new_rows``): on PostgreSQL a sequence does not roll back, so
  world two's new rows get other ids than world one's. Per model, the largest id at the copy is
  recorded; a number greater than it that is the id of a row of that model made in the world is
  rewritten to ``[new app.Model n]`` (n: its order of creation among that model's new rows),
  but only where it stands as an id: in a path (``/<id>/``, where the URLconf names the
  argument ``id``, ``pk`` or ``*_id``: none does today, the site's paths carry codes, and a
  version number in ``/report/4/`` is not an id), an anchor (``#<id>``), an HTML id
  (``id="...-<id>"``) or a JSON key named ``*id``. Never digits in general: hexes (``1631``),
  points and MPs are digits. The new rows' public codes and tokens (UUID fields, fields named
  ``code`` or ``token``), which are random, are rewritten the same way wherever they stand.
  Besides, on PostgreSQL the id sequences are set back to where they stood at the copy after
  each world (``restore_sequences``), so both worlds number their new rows alike there too.
"""

from __future__ import annotations

import functools
import hashlib
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import time_machine
from django.apps import apps
from django.core import mail
from django.core.cache import caches
from django.db import connection, models, transaction
from django.test import override_settings
from django.urls import Resolver404, resolve
from django.utils import timezone

from campaign.services import viewcache
from push.services import delivery
from tests.storage.folders import with_folders

# Every comparison made in this session: (label, channels, "no difference" / "differs"),
# printed by tests/fog/conftest.py at the end of the session.
RESULTS: list[tuple[str, int, str]] = []

World = Callable[[str], None]
Observe = Callable[[], dict[str, bytes]]


def two_worlds(
    world: World, observe: Observe, *, at: datetime | None = None
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """world(which) applies the secret for "one" or "two" (and resolves what must be resolved);
    observe() -> {channel name: bytes}; each world rolled back after observing.

    Both worlds run at the same frozen moment ``at`` (default: now, read once). The returned
    channels are normalised (see the module's docstring): names and contents.
    """
    at = at or timezone.now()
    ceilings = id_ceilings()
    counters = sequences()
    seen = []
    for which in ("one", "two"):
        with fresh_world(), time_machine.travel(at, tick=False), transaction.atomic():
            world(which)
            observed = observe()
            rows = new_rows(ceilings)
            transaction.set_rollback(True)
        restore_sequences(counters)
        seen.append(normalised(observed, rows))
    return seen[0], seen[1]


def assert_same(one: dict[str, bytes], two: dict[str, bytes], *, label: str) -> None:
    """Fails naming the first channels that differ (at most five), with a short diff each."""
    differing = differences(one, two)
    RESULTS.append(
        (label, len(one.keys() | two.keys()), "differs" if differing else "no difference")
    )
    if differing:
        shown = "\n\n".join(
            short_diff(name, one.get(name), two.get(name)) for name in differing[:5]
        )
        raise AssertionError(
            f"{label}: {len(differing)} of {len(one.keys() | two.keys())} channels differ "
            f"between the worlds: {differing}\nThe first:\n{shown}"
        )


def assert_differs(one: dict[str, bytes], two: dict[str, bytes], *, label: str) -> None:
    """The control: at least one channel differs (the harness can see a difference)."""
    differing = differences(one, two)
    RESULTS.append(
        (label, len(one.keys() | two.keys()), "differs" if differing else "no difference")
    )
    assert differing, f"{label}: the control shows no difference in {len(one)} channels"


def differences(one: dict[str, bytes], two: dict[str, bytes]) -> list[str]:
    return [name for name in sorted(one.keys() | two.keys()) if one.get(name) != two.get(name)]


def short_diff(name: str, a: bytes | None, b: bytes | None, width: int = 160) -> str:
    """Where two channels first differ: the text around it in each world."""
    if a is None or b is None:
        return f"{name}: only in world {'two' if a is None else 'one'}"
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    start = max(0, at - width)
    one = a[start : at + width].decode("utf-8", "replace")
    two = b[start : at + width].decode("utf-8", "replace")
    return f"{name} (from byte {at}):\n  world one: ...{one!r}...\n  world two: ...{two!r}..."


# ---- the worlds' surroundings ------------------------------------------------------------------


def clear_caches() -> None:
    """Every cache that could carry one world's state into the other."""
    for cache in caches.all():
        cache.clear()
    viewcache.forget()
    mail.outbox.clear()


# The pushes the world sent, (user id, payload), in order: ``push.services.delivery`` hands
# each device's payload to ``send_to_device``, replaced in a world by this recorder (no push
# service is called).
PUSHED: list[tuple[int, dict]] = []


def _record_push(device, payload: dict, *, now) -> str:
    PUSHED.append((device.user_id, payload))
    return "sent"


class fresh_world:  # noqa: N801 (a context manager, used like a function)
    """Empty caches and an empty outbox before and after; the map pictures and season books
    written in a folder of this world alone; the pushes recorded in ``PUSHED``, not sent."""

    KINDS = ("pictures", "books")  # their storages (settings.FILE_KINDS)

    def __enter__(self):
        clear_caches()
        PUSHED.clear()
        self.sender = delivery.send_to_device
        delivery.send_to_device = _record_push
        self.tmp = Path(tempfile.mkdtemp(prefix="dgk-fog-"))
        self.folders = override_settings(
            STORAGES=with_folders(**{kind: self.tmp / kind for kind in self.KINDS})
        )
        self.folders.enable()
        return self

    def __exit__(self, *exc):
        delivery.send_to_device = self.sender
        self.folders.disable()
        shutil.rmtree(self.tmp, ignore_errors=True)
        clear_caches()
        return False


# ---- rows made after the copy ------------------------------------------------------------------


def _models() -> list[type[models.Model]]:
    return [
        m
        for m in apps.get_models()
        if isinstance(m._meta.pk, models.AutoField | models.BigAutoField | models.SmallAutoField)
        and m._meta.managed
        and not m._meta.proxy
    ]


def id_ceilings() -> dict[type[models.Model], int]:
    """Per model, the largest id at the copy."""
    return {m: m._default_manager.aggregate(top=models.Max("pk"))["top"] or 0 for m in _models()}


def _secret_fields(model: type[models.Model]) -> list[str]:
    return [
        f.attname
        for f in model._meta.concrete_fields
        if isinstance(f, models.UUIDField)
        or (isinstance(f, models.CharField) and (f.name == "code" or f.name.endswith("token")))
    ]


def sequences() -> dict[str, tuple[int, bool]]:
    """PostgreSQL's id sequences as they stand (``last_value``, ``is_called``); none on SQLite,
    whose counters (``sqlite_sequence``) roll back with the world."""
    if connection.vendor != "postgresql":
        return {}
    found = {}
    with connection.cursor() as cursor:
        for model in _models():
            table, column = model._meta.db_table, model._meta.pk.column
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, column])
            (name,) = cursor.fetchone()
            if name:
                cursor.execute(f"SELECT last_value, is_called FROM {name}")
                found[name] = cursor.fetchone()
    return found


def restore_sequences(counters: dict[str, tuple[int, bool]]) -> None:
    """Set PostgreSQL's sequences back to where they stood at the copy (``setval`` is not
    rolled back with the world): world two's new rows then get world one's ids, as on SQLite.
    The ids are normalised all the same (``new_rows``)."""
    if not counters:
        return
    with connection.cursor() as cursor:
        for name, (value, called) in counters.items():
            cursor.execute("SELECT setval(%s, %s, %s)", [name, value, called])


@dataclass
class NewRows:
    ids: dict[int, str]  # id -> "[new app.Model n]" ("|" between several models')
    codes: dict[str, str]  # a new row's code or token, as text -> "[new app.Model.field n]"


def new_rows(ceilings: dict[type[models.Model], int]) -> NewRows:
    """The rows made since the copy, in their order of creation (by id) per model."""
    ids: dict[int, list[str]] = {}
    codes: dict[str, str] = {}
    for model, ceiling in ceilings.items():
        fields = _secret_fields(model)
        rows = model._default_manager.filter(pk__gt=ceiling).order_by("pk")
        for n, row in enumerate(rows.values_list("pk", *fields), start=1):
            name = model._meta.label
            ids.setdefault(row[0], []).append(f"[new {name} {n}]")
            for field, value in zip(fields, row[1:], strict=True):
                if value:
                    placeholder = f"[new {name}.{field} {n}]"
                    codes[str(value)] = placeholder
                    if hasattr(value, "hex"):
                        codes[value.hex] = placeholder
    return NewRows({k: "|".join(v) for k, v in ids.items()}, codes)


# ---- normalising -------------------------------------------------------------------------------

# django-csp's per-response nonce: random bytes, like the CSRF token's mask.
_NONCE = re.compile(rb"(?<=nonce=\")[A-Za-z0-9+/]{22}==(?=\")")
_CSRF = re.compile(
    rb"(csrfmiddlewaretoken\" value=\"|X-CSRFToken\"\s*:\s*\"|X-CSRFToken&quot;:\s*&quot;"
    rb"|name=\"csrf-token\" content=\"|csrftoken=)[A-Za-z0-9]{32,64}"
)
# Django's signing: value:timestamp:signature (base62 timestamp, urlsafe base64 SHA-256).
_SIGNED = re.compile(rb"(?<=:)[0-9A-Za-z]{6,8}:[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
# Where a number stands as a row's id: an anchor, an HTML id, a JSON key *id; and in a path,
# an argument of the URL pattern named id, pk or *_id (``_PATH``, read by the URLconf).
_ID_PLACES = (
    re.compile(rb"(?<=#)()(\d+)(?![\w-])"),
    re.compile(rb"(?<=id=\")([\w-]*-)(\d+)(?=\")"),
    re.compile(rb"(\"\w*id\"\s*:\s*)(\d+)\b"),
)
_PATH = re.compile(rb"(?<=[\"'\s(=])/[\w.%~/-]*")


def normalise(body: bytes, rows: NewRows | None = None) -> bytes:
    """``body`` with its CSRF tokens, signed tokens' timestamps and (given ``rows``) the new
    rows' ids and codes replaced by placeholders."""
    body = _CSRF.sub(rb"\1<csrf>", body)
    body = _NONCE.sub(b"<nonce>", body)
    body = _SIGNED.sub(b"<signed>", body)
    if rows is None:
        return body
    for code, placeholder in rows.codes.items():
        body = body.replace(code.encode(), placeholder.encode())

    def swap(match: re.Match) -> bytes:
        head, number = match.groups()
        new = rows.ids.get(int(number))
        return head + (new.encode() if new else number)

    def swap_path(match: re.Match) -> bytes:
        path = match.group(0).decode("utf-8", "replace")
        for name, value in _arguments(path):
            new = rows.ids.get(value) if isinstance(value, int) else None
            if new and (name in ("id", "pk") or name.endswith("_id")):
                path = re.sub(rf"(?<=/){value}(?=/|$|\.)", new, path)
        return path.encode()

    body = _PATH.sub(swap_path, body)
    for place in _ID_PLACES:
        body = place.sub(swap, body)
    return body


@functools.lru_cache(maxsize=4096)
def _arguments(path: str) -> tuple[tuple[str, object], ...]:
    """The URL pattern's arguments in ``path`` (none when it is no page of the site)."""
    try:
        return tuple(resolve(path).kwargs.items())
    except Resolver404:
        return ()


def normalised(observed: dict[str, bytes], rows: NewRows) -> dict[str, bytes]:
    out = {}
    for name, body in observed.items():
        key = normalise(name.encode(), rows).decode()
        assert key not in out, f"two channels are named {key!r} once normalised"
        out[key] = normalise(body, rows)
    return out


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
