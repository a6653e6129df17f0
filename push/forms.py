"""What a seat wants pushed, and a browser's subscription as its script posts it."""

from __future__ import annotations

from django import forms

from push.models import PushKind
from push.services.subscriptions import auth_problem, endpoint_problem, key_problem


class PushChoiceForm(forms.Form):
    kinds = forms.MultipleChoiceField(
        choices=PushKind.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Notify my devices when",
    )


class SubscriptionForm(forms.Form):
    """``PushSubscription.toJSON()``, flattened: the endpoint and the two keys (base64url),
    each checked by ``push.services.subscriptions``."""

    endpoint = forms.CharField(max_length=2000)
    p256dh = forms.RegexField(regex=r"^[A-Za-z0-9_\-]{80,100}=*$", max_length=200)
    auth = forms.RegexField(regex=r"^[A-Za-z0-9_\-]{16,40}=*$", max_length=100)
    name = forms.CharField(max_length=100, required=False)

    def clean_endpoint(self) -> str:
        endpoint = self.cleaned_data["endpoint"].strip()
        problem = endpoint_problem(endpoint)
        if problem:
            raise forms.ValidationError(problem)
        return endpoint

    def clean_p256dh(self) -> str:
        problem = key_problem(self.cleaned_data["p256dh"])
        if problem:
            raise forms.ValidationError(problem)
        return self.cleaned_data["p256dh"]

    def clean_auth(self) -> str:
        problem = auth_problem(self.cleaned_data["auth"])
        if problem:
            raise forms.ValidationError(problem)
        return self.cleaned_data["auth"]
