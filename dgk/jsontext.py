"""JSON for the map widget's documents, written by orjson (issue 44, "the season through the
services").

The seat's map layer is 40 KB of JSON a seat, written by the worker for every seat after every
resolution (the block its pages embed, ``orders.layers``) and by the web for every
``overlay.json``: Python's ``json`` took 0.7 ms a layer, 0.2 s of a season's worker; orjson
(a well-kept library in Rust, wheels for every platform we run on) takes 0.07 ms.

What it writes is what Django's would, read back, for what the map's documents hold: the same
values for every type Django's ``DjangoJSONEncoder`` writes (datetimes, dates, times, durations,
decimals, UUIDs, lazy strings: orjson hands them to Django's own encoder, so a datetime is
written to the millisecond as Django writes it), a tuple of any kind (a named tuple too) as an
array, non-string keys as ``json.dumps`` turns them into strings, and a ``TypeError`` for what
Django's encoder refuses (a set, a dataclass, an object). Where it differs from ``json.dumps``:
the bytes (no spaces after the separators, letters beyond ASCII written as themselves in UTF-8
rather than escaped); NaN and the infinities written as ``null`` (``json`` writes ``NaN``, which
``JSON.parse`` refuses); an enumeration member, or a date or enumeration member as a key,
written where ``json`` refuses it; and a ``TypeError`` for a whole number beyond 64 bits, a
string with a lone surrogate, or nesting deeper than 254 levels. None of these is in the map's
documents: their numbers are coordinates, counts and points, their strings come from the
database and the map. ``tests/test_jsontext.py`` holds it to Django's.
"""

from __future__ import annotations

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)
_DJANGO = DjangoJSONEncoder()
# As Django's ``json_script``: nothing in the text can end the script element or start a tag.
_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


def dumps(value) -> bytes:
    """``value`` as JSON, UTF-8; a ``TypeError`` (``orjson.JSONEncodeError``) for what Django's
    encoder cannot write."""
    return orjson.dumps(value, default=_default, option=_OPTIONS)


def _default(value):
    """What orjson does not write itself: a tuple's subclass (orjson writes only tuples
    themselves) as a list, anything else as Django's encoder writes it, or its ``TypeError``."""
    if isinstance(value, tuple):
        return list(value)
    return _DJANGO.default(value)


def script(value, element_id: str) -> SafeString:
    """Django's ``json_script(value, element_id)``, written by ``dumps``: a ``<script
    type="application/json">`` element a page reads with ``JSON.parse``."""
    text = dumps(value).decode().translate(_SCRIPT_ESCAPES)
    return format_html(
        '<script id="{}" type="application/json">{}</script>', element_id, mark_safe(text)
    )
