"""A season as one file (docs/export-format.md): a campaign written whole, checked when read.

The file is gzip'd JSON: ``{"format": "dgk-season", "format_version": 2, "sha256": ...,
"body": {...}}``, where ``sha256`` is taken over the body's canonical form (keys sorted, no
spaces, UTF-8), so a truncated file fails to decompress and an altered one fails its checksum.

The body holds every row of the campaign, each model's own columns written by their field
names (``_plain``), and its links by the keys that survive a move to another site: a seat by
its code, a state version by its number, a window by its version's number, a battle by its
engine id, a person by email. ``RELATIONS`` lists, per model, the links the file carries and
how; a link it does not know stops the export, so a new model or link is written here before
a season can leave without it (``tests/seasons/test_season_file.py`` checks every model that
belongs to a campaign is in ``EXPORTED``).

The dice seed is a server secret until the season ends (docs/dice.md): it travels only with
``with_secrets`` (the nightly backups, ``manage.py exportcampaign --with-secrets``), or once the
campaign has ended and its seeds are revealed anyway. The public link of *The war*
(``war_token``) is a key of this site only and never travels (``SITE_ONLY``), nor does
``news_at``, a moment of this site's dashboards, nor the club's webhook in the campaign's
options (``SITE_ONLY_OPTIONS``), whose address is a password.

A file is read in bounded memory and time, whoever made it (docs/security.md, "Season files"):
at most ``settings.SEASON_FILE_MAX_BYTES`` compressed and as many decompressed, decompressed in
chunks that stop past the limit (a gzip bomb), and JSON nested at most ``MAX_DEPTH`` deep,
counted by a linear scan before it is parsed. What the body holds is checked whole by
``seasonschema.check`` before an import writes a row.
"""

from __future__ import annotations

import array
import functools
import gzip
import hashlib
import itertools
import json
import os
import re
import uuid
import zlib
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from battles.models import Battle, BattleAccount, BattlePhoto, ResultEntry
from campaign.models import (
    Campaign,
    CampaignStatus,
    Event,
    Invitation,
    OrganiserAction,
    PhaseWindow,
    Reminder,
    Seat,
    StateVersion,
)
from feeds.models import CalendarFeed
from letters.models import Letter
from orders.models import OrderSheet, SeatVisit
from seasons.services import seasonphotos

FORMAT = "dgk-season"
# 2: the battles' photos and accounts (issue 45). A file of version 1 (none of them) is read as
# it was: nothing of it changed meaning.
FORMAT_VERSION = 2
READS = (1, 2)
# The campaign's secrets: written only with secrets, or once they are revealed (the end).
SECRET_FIELDS = ("seed", "past_seeds")
# Columns that are keys of this site only: never written, ignored in an older file that has them.
SITE_ONLY = ("war_token", "news_at")
# Keys of ``Campaign.options`` of this site only, never written, dropped from a file that has
# them: the club's webhook (``club.services.channel.HOOK``), whose address is its password; a
# file given to another club would hand it the secret and its copy would post into this club's
# chat. The organiser sets it again on the site that imports (docs/club.md).
SITE_ONLY_OPTIONS = ("club_hook",)
# The deepest nesting of arrays and objects a file may have (a whole season's is 13 deep).
MAX_DEPTH = 64
CHUNK = 1 << 20

# Per exported model: each link to another row, and the key the file writes for it.
# "parent" links are implied by where the row sits in the file (a seat under its campaign).
RELATIONS: dict[type[models.Model], dict[str, str]] = {
    Campaign: {"organiser": "person", "previous": "campaign"},
    Seat: {"campaign": "parent", "user": "person"},
    StateVersion: {"campaign": "parent"},
    Event: {"campaign": "parent", "version": "parent"},
    PhaseWindow: {"campaign": "parent", "version": "version"},
    OrderSheet: {"campaign": "parent", "window": "parent", "seat": "seat", "entered_by": "person"},
    Reminder: {"window": "parent", "seat": "seat"},
    Battle: {
        "campaign": "parent",
        "entered_by": "seat",
        "answered_by": "seat",
        "settled_by": "person",
    },
    ResultEntry: {"battle": "parent", "seat": "seat", "user": "person", "answered_by": "seat"},
    BattlePhoto: {"battle": "parent", "added_by": "person"},
    BattleAccount: {"battle": "parent", "author": "person"},
    Letter: {"campaign": "parent", "sender": "seat", "recipients": "seats"},
    OrganiserAction: {"campaign": "parent", "actor": "person"},
}
EXPORTED = tuple(RELATIONS)
# Rows of a campaign the file leaves out, and why (docs/export-format.md).
NOT_EXPORTED = {
    # A token is a key to a seat on this site only: the import invites the players it does
    # not find by email with new invitations.
    Invitation: "invitation tokens are secrets of the site that made them",
    # The same for a calendar's address: each player takes a new one from the dashboard.
    CalendarFeed: "calendar addresses are secrets of the site that made them",
    # When a player last opened the dashboard ("Since you last looked", docs/catch-up.md): of
    # this site's visits, and version ids of this site's rows; an imported seat starts afresh.
    SeatVisit: "a player's last visit of this site's dashboard",
}


def not_exported() -> dict[type[models.Model], str]:
    """Every model of a campaign the file leaves out, with why: ``NOT_EXPORTED``, and the
    models of the apps above this one (push, the club's channel), which say so themselves
    (``season_file_leaves_out``) since this app does not import them."""
    return NOT_EXPORTED | {
        model: model.season_file_leaves_out
        for model in apps.get_models()
        if isinstance(getattr(model, "season_file_leaves_out", None), str)
    }


class SeasonFileError(ValueError):
    """A season file that cannot be read or written; the message says why."""


# --- the envelope -------------------------------------------------------------------------


def canonical(body: dict) -> bytes:
    """The bytes the checksum is taken over: keys sorted, no spaces, UTF-8."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def checksum(body: dict) -> str:
    return hashlib.sha256(canonical(body)).hexdigest()


def dumps(body: dict) -> bytes:
    """The file's bytes. The body keeps its keys' order (a state reads back as it was written);
    ``mtime=0`` makes the same season the same bytes."""
    envelope = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "sha256": checksum(body),
        "body": body,
    }
    text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode(), mtime=0)


def limit() -> int:
    """The most bytes a season file may have, compressed and decompressed alike."""
    return settings.SEASON_FILE_MAX_BYTES


def _too_large(what: str, size_limit: int) -> SeasonFileError:
    return SeasonFileError(
        f"The file is too large: {what} more than {size_limit:,} bytes "
        "(SEASON_FILE_MAX_BYTES, docs/operations.md). Nothing was read past the limit."
    )


def decompress(chunks: Iterable[bytes], size_limit: int) -> bytes:
    """The gzip member of ``chunks`` decompressed, never holding more than ``size_limit`` bytes
    of either side: a larger file, or one that inflates past the limit (a gzip bomb), stops
    at the first chunk over it. One member only, whole, with nothing after it."""
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # gzip's header and trailer
    out = bytearray()
    read = 0
    try:
        for chunk in chunks:
            read += len(chunk)
            if read > size_limit:
                raise _too_large("compressed,", size_limit)
            data = chunk
            while data:
                if inflater.eof:
                    raise SeasonFileError(
                        "The file is not a season file: it has bytes after its gzip stream."
                    )
                out += inflater.decompress(data, size_limit + 1 - len(out))
                if len(out) > size_limit:
                    raise _too_large("decompressed,", size_limit)
                data = inflater.unconsumed_tail or inflater.unused_data
    except zlib.error as e:
        raise SeasonFileError(
            f"The file is not a whole season file: it does not decompress ({e}). "
            "Was it cut short while copied?"
        ) from e
    if not inflater.eof:
        raise SeasonFileError(
            "The file is not a whole season file: its gzip stream ends early. "
            "Was it cut short while copied?"
        )
    return bytes(out)


# A string, its closing quote optional: a string that never closes is taken to the end at once
# (with the quote required, each of its escaped quotes began a new try: quadratic, a 634-byte
# gzip file of them held the import for minutes).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)
_NOT_BRACKET = bytes(sorted(set(range(256)) - set(b"[]{}")))
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1, +1, -1, -1 as signed bytes


def nesting_depth(text: bytes) -> int:
    """How deep the arrays and objects of the JSON ``text`` nest, in one pass without
    recursion (strings taken out first: a bracket inside one is no bracket).

    >>> nesting_depth(b'{"a": [1, {"b": "[[["}], "c": []}')
    3
    """
    brackets = _STRING.sub(b"", text).translate(None, _NOT_BRACKET).translate(_STEPS)
    return max(itertools.accumulate(array.array("b", brackets)), default=0)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def loads(data: bytes, *, size_limit: int | None = None) -> dict:
    """The body of a season file, checked: SeasonFileError when it is too large, truncated,
    altered, not a season file, or of a format version this site does not read."""
    size_limit = limit() if size_limit is None else size_limit
    view = memoryview(data)
    return _envelope(
        decompress((view[i : i + CHUNK] for i in range(0, len(view), CHUNK)), size_limit)
    )


def _envelope(text: bytes) -> dict:
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise SeasonFileError(
            f"The file is not a season file: its JSON nests {depth} deep, more than {MAX_DEPTH}."
        )
    try:
        envelope = json.loads(text, parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise SeasonFileError(
            f"The file is not a season file: its content is not JSON ({e})."
        ) from e
    if not isinstance(envelope, dict) or envelope.get("format") != FORMAT:
        raise SeasonFileError(f'The file is not a season file (no "format": "{FORMAT}").')
    version = envelope.get("format_version")
    if type(version) is not int or version not in READS:
        raise SeasonFileError(
            f"The file is in format version {version!r}; this site reads versions "
            f"{', '.join(map(str, READS))} (docs/export-format.md). Import it into a site of the "
            "version that made it, or a newer one."
        )
    body = envelope.get("body")
    if not isinstance(body, dict) or checksum(body) != envelope.get("sha256"):
        raise SeasonFileError(
            "The file has been altered or damaged: its SHA-256 checksum does not match its "
            "content. Nothing was imported."
        )
    return body


def write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file renamed): a full disk
    or a crash never leaves half a season where a whole one is expected. OSError says why."""
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    try:
        with open(partial, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def read(path: Path, *, size_limit: int | None = None) -> dict:
    """The checked body of the season file at ``path``, read in chunks (``loads``)."""
    size_limit = limit() if size_limit is None else size_limit
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size > size_limit:
                raise _too_large("compressed,", size_limit)
            text = decompress(iter(functools.partial(f.read, CHUNK), b""), size_limit)
    except OSError as e:
        raise SeasonFileError(f"Cannot read {path}: {e.strerror or e}.") from e
    return _envelope(text)


# --- rows as plain JSON values ------------------------------------------------------------


def _plain(field: models.Field, value):
    if value is None:
        return None
    if isinstance(field, models.DateTimeField):
        return value.isoformat()
    if isinstance(field, models.DurationField):
        return value.total_seconds()
    if isinstance(field, models.UUIDField):
        return str(value)
    return value


def from_plain(field: models.Field, value):
    """A value of the file back as the field holds it."""
    if value is None:
        return None
    if isinstance(field, models.DateTimeField):
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None:
            raise SeasonFileError(f"{field.model.__name__}.{field.name}: {value!r} is no time.")
        return parsed
    if isinstance(field, models.DurationField):
        return timedelta(seconds=float(value))
    if isinstance(field, models.UUIDField):
        return uuid.UUID(str(value))
    return value


@functools.cache
def own_columns(model: type[models.Model]) -> tuple[models.Field, ...]:
    """The model's columns the file writes by name: all but the id and the links (read once
    per model: every row of it asks)."""
    links = RELATIONS[model]
    fields = []
    for f in model._meta.get_fields():
        if f.auto_created and not f.concrete:
            continue  # a reverse link: the other model writes it
        if getattr(f, "primary_key", False):
            continue
        if f.is_relation:
            if f.name not in links:
                raise SeasonFileError(
                    f"{model.__name__}.{f.name} links to another row and the season file does "
                    "not know how to write it: add it to seasonfile.RELATIONS."
                )
            continue
        fields.append(f)
    return tuple(fields)


def _columns(obj: models.Model, skip: tuple[str, ...] = ()) -> dict:
    return {
        f.name: _plain(f, getattr(obj, f.attname))
        for f in own_columns(type(obj))
        if f.name not in skip and f.name not in SITE_ONLY
    }


columns_of = _columns  # for seasonphotos, which writes the photos' rows


def travelling_options(options):
    """A campaign's ``options`` as a season file carries them: without ``SITE_ONLY_OPTIONS``
    (anything but an object is left for the import's check to refuse)."""
    if not isinstance(options, dict):
        return options
    return {k: v for k, v in options.items() if k not in SITE_ONLY_OPTIONS}


# --- the export ---------------------------------------------------------------------------


def _person(user) -> dict | None:
    if user is None:
        return None
    return {"email": user.email, "username": user.get_username()}


def season_body(campaign: Campaign, *, with_secrets: bool, now: datetime | None = None) -> dict:
    """Every row of ``campaign`` as the file's body (docs/export-format.md)."""
    campaign = Campaign.objects.select_related("organiser", "previous").get(id=campaign.id)
    secrets = with_secrets or campaign.status == CampaignStatus.ENDED
    seats = list(campaign.seats.select_related("user").order_by("id"))
    code_of = {s.id: str(s.code) for s in seats}

    def seat(seat_id):
        return code_of.get(seat_id) if seat_id is not None else None

    users = {}

    def person(user_id):
        if user_id is None:
            return None
        if user_id not in users:
            users[user_id] = _person(type(campaign.organiser).objects.get(id=user_id))
        return users[user_id]

    head = _columns(campaign, skip=() if secrets else SECRET_FIELDS)
    head["options"] = travelling_options(head.get("options"))
    head["organiser"] = _person(campaign.organiser)
    head["previous"] = str(campaign.previous.code) if campaign.previous else None
    head["seed_commitment"] = campaign.seed_commitment

    versions = []
    number_of = {}
    events = {}
    for e in Event.objects.filter(campaign=campaign).order_by("version_id", "seq"):
        events.setdefault(e.version_id, []).append(_columns(e))
    for v in campaign.versions.order_by("number"):
        number_of[v.id] = v.number
        versions.append({**_columns(v), "events": events.get(v.id, [])})

    sheets, reminders = {}, {}
    for s in OrderSheet.objects.filter(campaign=campaign).order_by("id"):
        sheets.setdefault(s.window_id, []).append(
            {**_columns(s), "seat": seat(s.seat_id), "entered_by": person(s.entered_by_id)}
        )
    for r in Reminder.objects.filter(window__campaign=campaign).order_by("id"):
        reminders.setdefault(r.window_id, []).append({**_columns(r), "seat": seat(r.seat_id)})
    windows = [
        {
            **_columns(w),
            "version": number_of[w.version_id],
            "sheets": sheets.get(w.id, []),
            "reminders": reminders.get(w.id, []),
        }
        for w in campaign.windows.order_by("id")
    ]

    entries = {}
    for e in ResultEntry.objects.filter(battle__campaign=campaign).order_by("battle_id", "number"):
        entries.setdefault(e.battle_id, []).append(
            {
                **_columns(e),
                "seat": seat(e.seat_id),
                "user": person(e.user_id),
                "answered_by": seat(e.answered_by_id),
            }
        )
    battles = [
        {
            **_columns(b),
            "entered_by": seat(b.entered_by_id),
            "answered_by": seat(b.answered_by_id),
            "settled_by": person(b.settled_by_id),
            "entries": entries.get(b.id, []),
            "photos": seasonphotos.export_photos(b, person=person, columns_of=_columns),
            "accounts": seasonphotos.export_accounts(b, person=person, columns_of=_columns),
        }
        for b in campaign.battles.order_by("id").prefetch_related("photos", "accounts")
    ]

    letters = [
        {
            **_columns(letter),
            "sender": seat(letter.sender_id),
            "recipients": sorted(seat(r.id) for r in letter.recipients.all()),
        }
        for letter in campaign.letters.prefetch_related("recipients").order_by("id")
    ]
    log = [
        {**_columns(a), "actor": person(a.actor_id)}
        for a in campaign.actions.order_by("created", "id")
    ]
    return {
        "exported_at": (now or timezone.now()).isoformat(),
        "with_secrets": secrets,
        "campaign": head,
        "seats": [{**_columns(s), "user": _person(s.user)} for s in seats],
        "versions": versions,
        "windows": windows,
        "battles": battles,
        "letters": letters,
        "log": log,
    }


def export_campaign(
    campaign: Campaign, *, with_secrets: bool, now: datetime | None = None
) -> bytes:
    """The season file of ``campaign`` (its bytes)."""
    return dumps(season_body(campaign, with_secrets=with_secrets, now=now))


def file_name(campaign: Campaign, now: datetime) -> str:
    """``<name>-<code>-<UTC time>.dgk.json.gz``: sorts by time within one campaign."""
    slug = "".join(c if c.isalnum() else "-" for c in campaign.name.lower()).strip("-")[:40]
    return f"{slug or 'campaign'}-{campaign.code}-{now:%Y%m%dT%H%M%SZ}.dgk.json.gz"
