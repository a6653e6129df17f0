"""The standing people and campaigns of the web tests (``tests.standing``), and a push service
of our own on the loopback with a subscriber's keys (``push_service``, ``subscriber``)."""

import base64
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from push.models import PushDevice
from push.services import keys
from tests.standing import *  # noqa: F403


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


@dataclass
class Subscriber:
    """A browser's side of a subscription (RFC 8291): its ECDH key pair and auth secret."""

    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)


@pytest.fixture
def subscriber() -> Subscriber:
    return Subscriber(ec.generate_private_key(ec.SECP256R1()), os.urandom(16))


@dataclass
class PushService:
    """A push service on 127.0.0.1: it keeps every request and answers ``status``."""

    url: str
    status: int = 201
    received: list[dict] = field(default_factory=list)

    def endpoint(self, name: str) -> str:
        return f"{self.url}/push/{name}"


@pytest.fixture
def push_service():
    service = PushService(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            service.received.append(
                {
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body,
                }
            )
            self.send_response(service.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield service
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def fresh_vapid_key(settings, tmp_path):
    """Each test its own VAPID key file (made at the first push)."""
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_KEY_FILE = tmp_path / "vapid-key.pem"
    keys.vapid.cache_clear()
    yield
    keys.vapid.cache_clear()


def device_for(user, subscriber: Subscriber, endpoint: str, name: str = "Phone") -> PushDevice:
    return PushDevice.objects.create(
        user=user, endpoint=endpoint, p256dh=subscriber.p256dh, auth=subscriber.auth, name=name
    )


@pytest.fixture
def loopback_allowed(settings):
    """The test's own server listens on 127.0.0.1, which the site's guard for the addresses
    users give it (dgk.outbound) refuses: allowed here as a club on its own network would."""
    settings.OUTBOUND_ALLOW_PRIVATE = True
