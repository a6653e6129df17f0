"""Form fields that every app's forms share."""

from __future__ import annotations

from django import forms

from campaign.services.plaintext import without_bidi


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
