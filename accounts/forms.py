"""The sign-in and password-reset forms: sign-in slowed for a name guessed from many
addresses (``accounts.services.signin``), the reset email sent by the worker."""

from __future__ import annotations

import threading

from axes.helpers import get_client_ip_address
from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.utils import timezone

from accounts.services import signin
from campaign.services import outgoing

# The password checks one web process runs at once (``SIGNIN_CONCURRENCY``, default 1; issue
# 44). A check is a PBKDF2 of a quarter to half a second of a core and lets go of the GIL: with
# every thread of a process checking a password (a burst of sign-ins at the deadline), the
# page views of the players already in would get a sliver of the cores. A few sign-ins wait
# their turn (``SIGNIN_QUEUE`` a process), using no CPU; one more is answered at once "press
# Sign in again in a few seconds": waiting, it would hold a thread the players' pages need
# (gunicorn hands the requests to the threads in the order they came).
PASSWORD_CHECKS = threading.BoundedSemaphore(settings.SIGNIN_CONCURRENCY)
_waiting = threading.BoundedSemaphore(settings.SIGNIN_CONCURRENCY + settings.SIGNIN_QUEUE)
BUSY = (
    "Many players are signing in at this moment (nothing is wrong with your name or password): "
    "press Sign in again in a few seconds."
)


class SlowedSignIn:
    """A sign-in form slowed for a name guessed from many addresses
    (``accounts.services.signin``): a try that comes too soon is refused before the password
    is checked, so it counts as no wrong password. After a wrong password, the player may be
    told by email (slowed, or locked from this address)."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        now = timezone.now()
        address = get_client_ip_address(self.request) if self.request is not None else None
        wait = signin.wait_seconds(username, address, now=now)
        if wait:
            unit = "seconds" if wait > 1 else "second"
            raise forms.ValidationError(
                "Wrong passwords have been tried for this name from several places, so sign-in "
                f"for it is slowed down. Try again in {wait} {unit}. (Where you have signed in "
                "before, there is no wait.)",
                code="slowed",
            )
        if not _waiting.acquire(blocking=False):
            raise forms.ValidationError(BUSY, code="busy")
        try:
            with PASSWORD_CHECKS:
                return super().clean()
        except forms.ValidationError:
            if username:
                signin.after_wrong_password(username, address, now=now)
            raise
        finally:
            _waiting.release()


class GuardedAuthenticationForm(SlowedSignIn, AuthenticationForm):
    """The site's sign-in form (``/accounts/login/``)."""


class GuardedAdminAuthenticationForm(SlowedSignIn, AdminAuthenticationForm):
    """The admin's sign-in form: the same guard, or guessing would go there instead."""


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's password reset, with the email built and sent by the worker (``send_email``),
    never inside the web request: the page answers at once whether the address exists or not."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        outgoing.queue_password_reset(context["user"].pk)
