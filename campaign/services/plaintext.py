"""Text a person types that others read (letters, campaign names, the organiser's reasons, a
disputed result's reason), without the Unicode bidirectional controls.

An override or an isolate (U+202A-U+202E, U+2066-U+2069) or a direction mark (U+200E, U+200F,
U+061C) reorders what the reader sees: a letter could show "retreat to Glatz" while it holds
something else, or make a name read as another's. The site writes no right-to-left text that
needs them, so they are removed where the text comes in (``without_bidi``, and the forms'
``PlainTextField``); letters in Arabic or Hebrew still read right to left by the Unicode
algorithm itself.
Player names are usernames, whose validator already refuses these characters.

A name (the campaign's, a seat's label) is written on one line into places with a grammar of
their own: a calendar's content line, an email's Subject header, a club's post. A line break
there ends the line early (icalendar refuses it, Django raises ``BadHeaderError``) or forges the
next one ("\\r\\nX-Evil: 1"). So the forms and the season import refuse a name with a control
character (``control_in``), and whatever writes a name into such a place cleans it first
(``one_line``), for the rows written before the check existed (docs/security.md, "Names on one
line").
"""

from __future__ import annotations

import re
import unicodedata

BIDI_CONTROLS = (
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # isolates
    "\u200e\u200f\u061c"  # marks: left-to-right, right-to-left, Arabic letter
)
_REMOVE = dict.fromkeys(map(ord, BIDI_CONTROLS))


def without_bidi(text: str) -> str:
    """``text`` with every bidirectional control removed.

    >>> without_bidi("Retreat to \\u202eztalG\\u202c now")
    'Retreat to ztalG now'
    """
    return text.translate(_REMOVE)


# Control characters (Cc: C0, DEL, C1, the tab among them) and the line and paragraph
# separators (U+2028, U+2029), which Python's ``str.splitlines`` and some readers take for a
# line break.
_LINE_BREAKING = {"Cc", "Zl", "Zp"}
_CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"
_CONTROL_RUN = re.compile(rf"(?: *{_CONTROL})+ *")  # with the spaces around it


def control_in(text: str) -> str | None:
    """The first character of ``text`` that a name on one line cannot hold (a control
    character, a line separator or a bidirectional control), or None.

    >>> control_in("Saxony\\r\\n1757")
    '\\r'
    >>> control_in("Fr\\u00e9d\\u00e9ric") is None
    True
    """
    return next(
        (c for c in text if unicodedata.category(c) in _LINE_BREAKING or c in BIDI_CONTROLS),
        None,
    )


def one_line(text: str) -> str:
    """``text`` fit for one line of a calendar, a header or a post: every run of control
    characters and line separators (and the spaces around it) one space, the bidirectional
    controls removed, no space left at either end.

    >>> one_line("Saxony\\r\\nX-Evil: 1\\u202e")
    'Saxony X-Evil: 1'
    """
    return _CONTROL_RUN.sub(" ", without_bidi(text)).strip()
