"""Form fields that every app's forms share."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from campaign.services.plaintext import control_in, without_bidi


class PlainTextField(forms.CharField):
    """A ``CharField`` for text others read, with no bidirectional controls
    (``services.plaintext``); stripped after they are removed, so none leaves a blank."""

    def to_python(self, value):
        value = super().to_python(value)
        if isinstance(value, str):
            value = without_bidi(value)
            if self.strip:
                value = value.strip()
        return value


# What the refusal calls a character people type without seeing it.
_SEEN_AS = {"\t": "a tab", "\n": "a line break", "\r": "a line break"}


class NameField(PlainTextField):
    """A name written on one line into a calendar, an email's subject or a club's post: its
    bidirectional controls removed (``PlainTextField``), and refused, naming the field, if it
    holds a control character, a tab or a line break among them (``plaintext.control_in``,
    the check the season import makes too)."""

    def __init__(self, *, what: str, **kwargs) -> None:
        self.what = what  # "The campaign's name": the refusal names the field
        super().__init__(**kwargs)

    def validate(self, value) -> None:
        super().validate(value)
        bad = control_in(value or "")
        if bad is not None:
            seen = _SEEN_AS.get(bad, "a control character")
            raise ValidationError(
                f"{self.what} cannot hold {seen} (U+{ord(bad):04X}): write it on one line.",
                code="control_character",
            )
