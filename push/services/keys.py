"""The VAPID key pair that signs every push (RFC 8292), and where it is kept.

``VAPID_PRIVATE_KEY`` from the environment wins; else the key lives in ``VAPID_KEY_FILE`` (a
PEM file, beside the database in development, in the secrets volume in the container), made
there once, the first time it is needed, by whichever process gets there first. The container
makes it at its first start (``deploy/entrypoint.sh init`` runs this module):

    python -m push.services.keys /var/lib/dgk/secrets/vapid-key.pem
"""

from __future__ import annotations

import base64
import functools
import os
import sys
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid02


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def make_key_file(path: Path) -> bool:
    """A new P-256 private key in ``path`` (mode 0600), unless a key is there already: True if
    this call made it. Written beside, in a temporary file of its own (``mkstemp``: one per
    call, so neither two processes nor two threads of one process share it), and linked into
    place: callers at once end with one key, never half a file."""
    path = Path(path)
    if path.exists() and path.stat().st_size > 0:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    temporary = Path(name)  # (made with mode 0600, which the link keeps)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(pem)
        os.link(temporary, path)
    except FileExistsError:
        return False
    finally:
        temporary.unlink()
    return True


def _from_text(text: str) -> Vapid02:
    if "-----BEGIN" in text:
        return Vapid02.from_pem(text.encode("ascii"))
    return Vapid02.from_string(text)


@functools.cache
def vapid() -> Vapid02:
    """The site's VAPID key (read once per process; made in the key file if there is none)."""
    if settings.VAPID_PRIVATE_KEY:
        try:
            key = _from_text(settings.VAPID_PRIVATE_KEY)
        except Exception as exc:  # py_vapid raises several kinds for a bad key
            raise ImproperlyConfigured(f"VAPID_PRIVATE_KEY is not a usable key: {exc}") from None
    else:
        make_key_file(settings.VAPID_KEY_FILE)
        key = Vapid02.from_file(str(settings.VAPID_KEY_FILE))
    if settings.VAPID_PUBLIC_KEY and _public(key) != settings.VAPID_PUBLIC_KEY:
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY.")
    return key


@functools.lru_cache(maxsize=4)  # (per key object: a new key after ``vapid.cache_clear``)
def _public(key: Vapid02) -> str:
    return b64url(
        key.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )


def public_key() -> str:
    """The public key as the browser's ``applicationServerKey`` wants it (base64url, the
    uncompressed point)."""
    return _public(vapid())


def subject() -> str:
    """Who runs the site, for the push services: VAPID_SUBJECT, else the site's https address,
    else the sender's mail address."""
    if settings.VAPID_SUBJECT:
        return settings.VAPID_SUBJECT
    if settings.SITE_URL.startswith("https://"):
        return settings.SITE_URL
    address = settings.DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">").strip()
    return f"mailto:{address}"


if __name__ == "__main__":  # the container's first start (deploy/entrypoint.sh)
    made = make_key_file(Path(sys.argv[1]))
    print(f"init: {'generated' if made else 'kept'} {sys.argv[1]}")
