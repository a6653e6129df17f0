"""The body of a season file checked whole before an import writes a row (docs/export-format.md,
"What an import refuses"; docs/security.md, "Season files").

A file's checksum says it was not damaged, not who made it: anyone can write a body and its
SHA-256. So every value is checked against the column it is written to: its type, an integer
within its column's range (and any integer of a JSON column within 64 bits), a text within its
length and choices, a time with its offset, a name printable, the map one this site has, a seat
or a version that the file itself holds. ``check`` raises ``SeasonFileError`` on the first
value that is wrong, naming where it is; it never touches the database.
"""

from __future__ import annotations

import math
import re
import uuid
import zoneinfo

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.dateparse import parse_datetime

from battles.models import Battle, BattleAccount, BattlePhoto, ResultEntry
from campaign.models import (
    Campaign,
    Event,
    OrganiserAction,
    PhaseWindow,
    Reminder,
    Seat,
    StateVersion,
)
from campaign.services.plaintext import control_in
from letters.models import Letter
from maps.core.loader import DATA_DIR
from orders.models import OrderSheet
from seasons.services import seasonphotos
from seasons.services.seasonfile import RELATIONS, SITE_ONLY, SeasonFileError, own_columns

INT64 = (-(2**63), 2**63 - 1)
# The rows each part of the body holds, and the lists of rows each row holds in turn.
PARTS = {
    "seats": Seat,
    "versions": StateVersion,
    "windows": PhaseWindow,
    "battles": Battle,
    "letters": Letter,
    "log": OrganiserAction,
}
CHILDREN = {
    StateVersion: {"events": Event},
    PhaseWindow: {"sheets": OrderSheet, "reminders": Reminder},
    Battle: {"entries": ResultEntry, "photos": BattlePhoto, "accounts": BattleAccount},
}
# Texts shown as names: one printable line.
NAMES = {Campaign: ("name",), Seat: ("label",)}
# Extra keys of the campaign's row (beside its columns and links).
HEAD_EXTRA = ("seed_commitment",)
MAX_DURATION_SECONDS = 10 * 366 * 86400
SEED = re.compile(r"[!-~]{1,64}")  # printable ASCII: the site draws hex
HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
MAP_NAME = re.compile(r"[A-Za-z0-9_-]{1,100}")


def bundled_maps() -> set[str]:
    """The maps this site has: ``maps/data/<name>.json``."""
    return {p.stem for p in DATA_DIR.glob("*.json")}


def int_range(f: models.Field) -> tuple[int, int]:
    """The integers an integer column holds on every database the site runs on."""
    return BaseDatabaseOperations.integer_field_ranges[f.get_internal_type()]


def check(body) -> None:
    """Refuse a body this site would not write itself (SeasonFileError says where and why)."""
    _every_value(body)
    _dict(body, "the body")
    known = {"exported_at", "with_secrets", "campaign", *PARTS}
    for key in body:
        if key not in known:
            raise SeasonFileError(
                f"The file has a part {key!r} this site does not know: it was made by a newer "
                "version. Upgrade this site first."
            )
    if not isinstance(body.get("with_secrets", False), bool):
        raise SeasonFileError("The file's with_secrets is not true or false.")
    _time(body.get("exported_at"), "the file's exported_at", null=True)
    for name in PARTS:
        if not isinstance(body.get(name), list):
            raise SeasonFileError(f"The file has no list of {name}.")
    seats = _codes(body["seats"], "seat")
    versions = set()
    for i, row in enumerate(body["versions"]):
        number = _dict(row, f"versions[{i}]").get("number")
        if number in versions:
            raise SeasonFileError(f"versions[{i}]: the version number {number!r} comes twice.")
        versions.add(number)
    links = {"seats": seats, "versions": versions}
    _codes(body["battles"], "battle", taken=seats)
    _row(Campaign, _dict(body.get("campaign"), "the campaign"), "campaign", links)
    for name, model in PARTS.items():
        for i, row in enumerate(body[name]):
            _row(model, _dict(row, f"{name}[{i}]"), f"{name}[{i}]", links)


def _every_value(body) -> None:
    """Every integer anywhere within 64 bits, and no NUL in any text or key (PostgreSQL
    refuses it). Without recursion: the file's depth is bounded already, this is cheaper."""
    stack = [body]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if "\x00" in key:
                    raise SeasonFileError("The file has a NUL character in a key.")
                stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            if "\x00" in value:
                raise SeasonFileError("The file has a NUL character in a text.")
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not INT64[0] <= value <= INT64[1]:
                raise SeasonFileError(
                    f"The file has the number {_short(value)}, larger than 64 bits hold."
                )
        elif isinstance(value, float) and not math.isfinite(value):
            raise SeasonFileError("The file has a number that is not finite.")


def _short(value) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"{text[:12]}…({len(text)} digits)"


def _dict(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise SeasonFileError(f"{where}: a row of the file is not an object.")
    return value


def _codes(rows: list, what: str, taken: set[str] = frozenset()) -> set[str]:
    """The codes of ``rows``: each a UUID, none twice (nor one of ``taken``)."""
    codes = set()
    for i, row in enumerate(rows):
        code = _dict(row, f"{what}s[{i}]").get("code")
        _uuid(code, f"{what}s[{i}].code")
        if code in codes or code in taken:
            raise SeasonFileError(f"{what}s[{i}]: the code {code} comes twice in the file.")
        codes.add(code)
    return codes


def _row(model: type[models.Model], row: dict, where: str, links: dict) -> None:
    columns = {f.name: f for f in own_columns(model)}
    relations = RELATIONS[model]
    children = CHILDREN.get(model, {})
    for name, value in row.items():
        here = f"{where}.{name}"
        if name in SITE_ONLY:
            continue  # an older file's key of its own site: ignored
        if model is BattlePhoto and name in seasonphotos.DERIVED:
            raise SeasonFileError(
                f"{here}: a photo travels as its picture ({seasonphotos.IMAGE!r}); where it is "
                "stored and its sizes are this site's to make, never taken from a file."
            )
        if model is BattlePhoto and name == seasonphotos.IMAGE:
            try:
                seasonphotos.decode(value, where)  # the picture itself: by the import, as Pillow
            except seasonphotos.PhotoRowError as exc:
                raise SeasonFileError(str(exc)) from None
            continue
        if name in columns:
            _column(columns[name], value, here)
        elif name in relations:
            _link(relations[name], value, here, links)
        elif name in children:
            if not isinstance(value, list):
                raise SeasonFileError(f"{here}: not a list.")
            for i, child in enumerate(value):
                _row(children[name], _dict(child, f"{here}[{i}]"), f"{here}[{i}]", links)
        elif model is Campaign and name in HEAD_EXTRA:
            if not isinstance(value, str) or not HEX_DIGEST.fullmatch(value):
                raise SeasonFileError(f"{here}: not a SHA-256 in hex.")
        else:
            raise SeasonFileError(
                f"The file has a column {model.__name__}.{name} this site does not know: "
                "it was made by a newer version. Upgrade this site first."
            )
    for name, f in columns.items():
        if model is BattlePhoto and name in seasonphotos.DERIVED:
            continue
        required = not (
            f.has_default() or f.null or isinstance(f, models.CharField | models.TextField)
        )
        if required and name not in row:
            raise SeasonFileError(f"{where}: the column {name} is missing.")
    if model is BattlePhoto and seasonphotos.IMAGE not in row:
        raise SeasonFileError(f"{where}: a photo without its picture ({seasonphotos.IMAGE!r}).")
    for name in NAMES.get(model, ()):
        _name(row.get(name, ""), f"{where}.{name}")
    if model is Campaign:
        _campaign(row, where)


def _column(f: models.Field, value, where: str) -> None:
    """``value`` as the file writes it for the column ``f`` (``seasonfile._plain``)."""
    if value is None:
        if not f.null:
            raise SeasonFileError(f"{where}: empty, and the column cannot be.")
        return
    if isinstance(f, models.BooleanField):
        if not isinstance(value, bool):
            raise SeasonFileError(f"{where}: {_short(value)!s} is not true or false.")
    elif isinstance(f, models.IntegerField):
        low, high = int_range(f)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SeasonFileError(
                f"{where}: {_short(value)} is not a whole number from {low} to {high}."
            )
    elif isinstance(f, models.CharField | models.TextField):
        if not isinstance(value, str):
            raise SeasonFileError(f"{where}: not a text.")
        if f.max_length is not None and len(value) > f.max_length:
            raise SeasonFileError(f"{where}: longer than {f.max_length} characters.")
        if f.choices and value not in {str(c) for c, _ in f.flatchoices}:
            raise SeasonFileError(f"{where}: {value[:40]!r} is not one of its choices.")
    elif isinstance(f, models.DateTimeField):
        _time(value, where)
    elif isinstance(f, models.DurationField):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 <= value <= MAX_DURATION_SECONDS
        ):
            raise SeasonFileError(f"{where}: not a duration in seconds (0 to ten years).")
    elif isinstance(f, models.UUIDField):
        _uuid(value, where)
    elif isinstance(f, models.JSONField):
        # Any JSON (its numbers and texts are checked by _every_value), of the kind of its
        # default: a column that starts as {} or [] is read as one by the pages.
        kind = type(f.get_default()) if f.has_default() else None
        if kind in (dict, list) and not isinstance(value, kind):
            raise SeasonFileError(f"{where}: not a JSON {'object' if kind is dict else 'array'}.")
    else:
        raise SeasonFileError(
            f"{where}: the check does not know a {type(f).__name__}: add it to seasonschema."
        )


def _time(value, where: str, *, null: bool = False) -> None:
    if value is None and null:
        return
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise SeasonFileError(f"{where}: {str(value)[:40]!r} is no time with its UTC offset.")


def _uuid(value, where: str) -> None:
    try:
        uuid.UUID(value if isinstance(value, str) else "")
    except ValueError:
        raise SeasonFileError(f"{where}: {str(value)[:40]!r} is no code (a UUID).") from None


def _name(value, where: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise SeasonFileError(f"{where}: a name cannot be empty.")
    bad = control_in(value)  # the set-up form's check (campaign.forms.NameField)
    if bad is not None:
        raise SeasonFileError(
            f"{where}: a name cannot hold the control character U+{ord(bad):04X}."
        )


def _link(kind: str, value, where: str, links: dict) -> None:
    if kind == "parent":
        return  # implied by where the row sits; the import ignores it
    if value is None:
        if kind == "seats":
            raise SeasonFileError(f"{where}: not a list of seats.")
        return
    if kind == "person":
        _person(value, where)
    elif kind == "seat":
        if value not in links["seats"]:
            raise SeasonFileError(f"{where}: {str(value)[:40]!r} is no seat of the file.")
    elif kind == "seats":
        if not isinstance(value, list):
            raise SeasonFileError(f"{where}: not a list of seats.")
        for i, code in enumerate(value):
            _link("seat", code, f"{where}[{i}]", links)
    elif kind == "version":
        if isinstance(value, bool) or value not in links["versions"]:
            raise SeasonFileError(f"{where}: {_short(value)!s} is no version of the file.")
    elif kind == "campaign":
        _uuid(value, where)
    else:
        raise SeasonFileError(f"{where}: the check does not know a link {kind!r}.")


def _person(value, where: str) -> None:
    if not isinstance(value, dict) or set(value) - {"email", "username"}:
        raise SeasonFileError(f"{where}: a person is an email and a username.")
    email, username = value.get("email"), value.get("username", "")
    try:
        validate_email(email if isinstance(email, str) else "")
    except ValidationError:
        raise SeasonFileError(f"{where}: {str(email)[:60]!r} is not an email address.") from None
    if not isinstance(username, str) or len(username) > 150:
        raise SeasonFileError(f"{where}.username: not a name of at most 150 characters.")


def _campaign(head: dict, where: str) -> None:
    if "organiser" not in head or head["organiser"] is None:
        raise SeasonFileError(f"{where}.organiser: the file names no organiser.")
    map_name = head.get("map_name", "")
    if map_name and not (MAP_NAME.fullmatch(map_name) and map_name in bundled_maps()):
        maps = ", ".join(sorted(bundled_maps())) or "none"
        raise SeasonFileError(
            f"{where}.map_name: {map_name[:60]!r} is not a map this site has ({maps}); a map "
            "is named, never given as a path."
        )
    time_zone = head.get("time_zone", "Europe/London")
    if time_zone not in zoneinfo.available_timezones():
        raise SeasonFileError(f"{where}.time_zone: {time_zone[:60]!r} is no time zone.")
    if "seed" in head and not SEED.fullmatch(head["seed"]):
        raise SeasonFileError(f"{where}.seed: not a seed (printable ASCII).")
    past = head.get("past_seeds", [])
    if not isinstance(past, list) or not all(
        isinstance(p, dict)
        and set(p) == {"epoch", "seed"}
        and type(p["epoch"]) is int
        and 0 <= p["epoch"] <= INT64[1]
        and isinstance(p["seed"], str)
        and SEED.fullmatch(p["seed"])
        for p in past
    ):
        raise SeasonFileError(f"{where}.past_seeds: not a list of epochs and their seeds.")
