"""What a seat wants pushed, and a browser's subscription as its script posts it."""

from __future__ import annotations

from urllib.parse import urlparse

from django import forms

from push.models import PushKind


class PushChoiceForm(forms.Form):
    kinds = forms.MultipleChoiceField(
        choices=PushKind.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Notify my devices when",
    )


class SubscriptionForm(forms.Form):
    """``PushSubscription.toJSON()``, flattened: the endpoint and the two keys (base64url)."""

    endpoint = forms.CharField(max_length=2000)
    p256dh = forms.RegexField(regex=r"^[A-Za-z0-9_\-]{80,100}=*$", max_length=200)
    auth = forms.RegexField(regex=r"^[A-Za-z0-9_\-]{16,40}=*$", max_length=100)
    name = forms.CharField(max_length=100, required=False)

    def clean_endpoint(self) -> str:
        endpoint = self.cleaned_data["endpoint"].strip()
        url = urlparse(endpoint)
        if url.scheme != "https" or not url.netloc:
            raise forms.ValidationError("A push service's address begins with https://.")
        return endpoint
