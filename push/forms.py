"""What a seat wants pushed, and a browser's subscription as its script posts it."""

from __future__ import annotations

from urllib.parse import urlparse

from django import forms
from django.conf import settings

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
        if url.scheme != "https" or not url.hostname:
            raise forms.ValidationError("A push service's address begins with https://.")
        if not is_push_service(url.hostname):
            raise forms.ValidationError("This is not the address of a browser's push service.")
        return endpoint


def is_push_service(host: str) -> bool:
    """Whether ``host`` is one of ``PUSH_SERVICE_HOSTS`` or under one of them.

    >>> is_push_service("fcm.googleapis.com"), is_push_service("db2.notify.windows.com")
    (True, True)
    >>> is_push_service("evilfcm.googleapis.com.example.org"), is_push_service("10.0.0.1")
    (False, False)
    """
    host = host.lower().rstrip(".")
    return any(host == h or host.endswith("." + h) for h in settings.PUSH_SERVICE_HOSTS)
