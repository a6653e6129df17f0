"""Text a person types that others read (letters, campaign names, the organiser's reasons, a
disputed result's reason), without the Unicode bidirectional controls.

An override or an isolate (U+202A-U+202E, U+2066-U+2069) or a direction mark (U+200E, U+200F,
U+061C) reorders what the reader sees: a letter could show "retreat to Glatz" while it holds
something else, or make a name read as another's. The site writes no right-to-left text that
needs them, so they are removed where the text comes in (``without_bidi``, and the forms'
``PlainTextField``); letters in Arabic or Hebrew still read right to left by the Unicode
algorithm itself.
Player names are usernames, whose validator already refuses these characters.
"""

from __future__ import annotations

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
