"""The letters page's form."""

from __future__ import annotations

from django import forms

from campaign.forms import PlainTextField


class LetterForm(forms.Form):
    """A letter to one or more seats (press); the seats are the writer's possible addressees."""

    to = forms.TypedMultipleChoiceField(
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        label="To",
        error_messages={"required": "Choose at least one seat to write to."},
    )
    body = PlainTextField(
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=4000,
        label="Letter",
        error_messages={"required": "The letter is empty: write something before sending it."},
    )

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = [(s.id, s.label) for s in seats]
