"""The emails a player chooses."""

from __future__ import annotations

from django import forms

from campaign.models import EMAIL_KINDS, EmailMode

EMAIL_LABELS = {
    "phase-opened": "A phase opens for my orders (with my report)",
    "reminder": "Reminders before a deadline",
    "phase-resolved": "A phase is resolved",
    "battle-pending": "A battle is pending",
    "campaign-over": "The campaign is over",
}


class EmailChoiceForm(forms.Form):
    """The emails a player chooses, from the link in every email (no sign-in needed) and on
    the seat's settings page."""

    email_mode = forms.ChoiceField(
        choices=EmailMode.choices,
        initial=EmailMode.EVERY,
        widget=forms.RadioSelect,
        label="How often",
        required=False,  # left out: the mode stays as it was
    )
    email_kinds = forms.MultipleChoiceField(
        choices=[(k, EMAIL_LABELS[k]) for k in EMAIL_KINDS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Email me when",
    )
