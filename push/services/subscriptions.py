"""What a browser's subscription must be before the site keeps it (docs/push.md): an endpoint of a
browser's push service, read as the sender reads it, and keys that encrypt (RFC 8291).

The worker posts to the endpoint, so a made-up one would make it call anywhere: the endpoint is
parsed by urllib3's ``parse_url`` (``dgk.outbound``, the parser that sends), and refused with a
backslash, a user or password, a scheme other than https, an explicit port or a host that is not
one of ``PUSH_SERVICE_HOSTS``. It is sent through the guard too (``push.services.delivery``).
"""

from __future__ import annotations

import base64
import binascii

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

from dgk import outbound


def is_push_service(host: str) -> bool:
    """Whether ``host`` is one of ``PUSH_SERVICE_HOSTS`` or under one of them.

    >>> is_push_service("fcm.googleapis.com"), is_push_service("db2.notify.windows.com")
    (True, True)
    >>> is_push_service("evilfcm.googleapis.com.example.org"), is_push_service("10.0.0.1")
    (False, False)
    """
    host = host.lower().rstrip(".")
    return any(host == h or host.endswith("." + h) for h in settings.PUSH_SERVICE_HOSTS)


def endpoint_problem(endpoint: str) -> str | None:
    """Why ``endpoint`` is not a browser push service's address, or None.

    >>> endpoint_problem("https://fcm.googleapis.com/fcm/send/abc") is None
    True
    >>> print(endpoint_problem("https://fcm.googleapis.com:8443/fcm/send/abc"))
    A push service's address names no port.
    """
    try:
        url = outbound.parse(endpoint)
    except outbound.Refused as exc:
        return exc.reason
    if url.scheme != "https":
        return "A push service's address begins with https://."
    if url.port is not None:
        return "A push service's address names no port."
    if not is_push_service(url.host or ""):
        return "This is not the address of a browser's push service."
    return None


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key_problem(p256dh: str) -> str | None:
    """Why ``p256dh`` is not a browser's public key (an uncompressed point of P-256 in
    base64url, 65 bytes), or None."""
    try:
        raw = _unb64url(p256dh)
    except (binascii.Error, ValueError):
        return "The key is not base64url."
    if len(raw) != 65 or raw[0] != 4:
        return "The key is not an uncompressed point of P-256 (65 bytes)."
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return "The key is not a point of P-256."
    return None


def auth_problem(auth: str) -> str | None:
    """Why ``auth`` is not a subscription's authentication secret (16 bytes), or None."""
    try:
        raw = _unb64url(auth)
    except (binascii.Error, ValueError):
        return "The authentication secret is not base64url."
    return None if len(raw) == 16 else "The authentication secret is not 16 bytes."
