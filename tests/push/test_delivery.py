"""A push leaves encrypted for its device (RFC 8291, aes128gcm) and signed with the site's
VAPID key (RFC 8292), reaches a push service (our own, on the loopback), and says nothing but
that something happened; a device the service says is gone is forgotten."""

import base64
import json
from datetime import timedelta

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.urls import reverse

from push.models import PushDevice
from push.services import delivery, keys
from tests.push.conftest import device_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("loopback_allowed")]


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def decrypted(received: dict, subscriber) -> dict:
    """The push as the browser reads it. The sender's ephemeral public key is the key id in
    the body's header (salt 16, record size 4, key id length 1, key id; RFC 8188, 8291 3.4):
    with ``aes128gcm`` http_ece takes it from there (``dh=None``; given as bytes, it fails)."""
    body = received["body"]
    sender_key = body[21 : 21 + body[20]]
    assert len(sender_key) == 65 and sender_key[0] == 4  # an uncompressed P-256 point
    plain = http_ece.decrypt(
        body,
        private_key=subscriber.private_key,
        dh=None,
        auth_secret=subscriber.auth_secret,
        version="aes128gcm",
    )
    return json.loads(plain)


def vapid_claims(headers: dict) -> dict:
    """The claims of the ``Authorization: vapid t=<JWT>, k=<key>`` header, its ES256
    signature checked against the key it names, which must be the site's."""
    scheme, _, rest = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(item.strip().split("=", 1) for item in rest.split(","))
    assert parts["k"] == keys.public_key()
    head, claims, signature = parts["t"].split(".")
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
    public.verify(  # raises InvalidSignature
        encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
        f"{head}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    assert json.loads(unb64(head))["alg"] == "ES256"
    return json.loads(unb64(claims))


def test_a_push_arrives_signed_and_decrypts_to_a_line_and_a_link(
    player, prussia, push_service, subscriber, now
):
    device = device_for(player, subscriber, push_service.endpoint("fritz"))
    counts = delivery.send_pushes([{"seat": prussia.id, "event": "orders-due"}], now=now)
    assert counts == {"sent": 1, "forgotten": 0, "failed": 0}
    (received,) = push_service.received
    assert received["path"] == "/push/fritz"
    assert received["headers"]["content-encoding"] == "aes128gcm"
    assert int(received["headers"]["ttl"]) == delivery.TTL
    claims = vapid_claims(received["headers"])
    assert claims["aud"] == push_service.url and claims["sub"] == keys.subject()
    assert claims["exp"] > now.timestamp()
    payload = decrypted(received, subscriber)
    assert payload == {
        "title": "Orders are due",
        "body": "Orders are due in Bohemia 1757.",
        "url": reverse("orders:dashboard", args=[prussia.code]),
        "tag": f"dgk-{prussia.code}-orders-due",
    }
    device.refresh_from_db()
    assert device.last_sent == now


def test_the_ciphertext_is_not_the_payload_and_another_key_cannot_read_it(
    player, prussia, push_service, subscriber, now
):
    device_for(player, subscriber, push_service.endpoint("fritz"))
    delivery.send_pushes([{"seat": prussia.id, "event": "resolved"}], now=now)
    (received,) = push_service.received
    assert b"resolved" not in received["body"] and b"Bohemia" not in received["body"]
    stranger = type(subscriber)(ec.generate_private_key(ec.SECP256R1()), subscriber.auth_secret)
    with pytest.raises(Exception):  # noqa: B017 (http_ece raises InvalidTag)
        decrypted(received, stranger)


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_service_says_is_gone_is_forgotten(
    status, player, prussia, push_service, subscriber, now
):
    device_for(player, subscriber, push_service.endpoint("gone"))
    push_service.status = status
    counts = delivery.send_pushes([{"seat": prussia.id, "event": "orders-due"}], now=now)
    assert counts == {"sent": 0, "forgotten": 1, "failed": 0}
    assert not PushDevice.objects.filter(user=player).exists()


def test_a_service_that_fails_keeps_the_device_for_the_next_push(
    player, prussia, push_service, subscriber, now
):
    device = device_for(player, subscriber, push_service.endpoint("busy"))
    push_service.status = 503
    counts = delivery.send_pushes([{"seat": prussia.id, "event": "orders-due"}], now=now)
    assert counts == {"sent": 0, "forgotten": 0, "failed": 1}
    device.refresh_from_db()
    assert device.last_sent is None


def test_every_device_of_the_player_gets_it_and_no_one_elses(
    player, other, prussia, push_service, subscriber, now
):
    device_for(player, subscriber, push_service.endpoint("phone"), "Phone")
    device_for(player, subscriber, push_service.endpoint("desktop"), "Desktop")
    device_for(other, subscriber, push_service.endpoint("maria"), "Maria's")
    delivery.send_pushes([{"seat": prussia.id, "event": "orders-due"}], now=now)
    assert sorted(r["path"] for r in push_service.received) == ["/push/desktop", "/push/phone"]


def test_a_reminder_says_the_hours_and_a_battle_links_its_page(
    player, prussia, push_service, subscriber, now
):
    device_for(player, subscriber, push_service.endpoint("fritz"))
    code = "0b3c0e2a-4a57-4d27-9a1d-0f1ab6c4d2e1"
    delivery.send_pushes(
        [
            {"seat": prussia.id, "event": "reminder", "hours": 2},
            {"seat": prussia.id, "event": "battle-dated", "battle": code},
        ],
        now=now + timedelta(hours=1),
    )
    reminder, battle = (decrypted(r, subscriber) for r in push_service.received)
    assert reminder["body"] == "Orders are due in 2 hours in Bohemia 1757."
    assert battle["body"] == "Your battle is dated in Bohemia 1757."
    assert battle["url"] == reverse("battles:battle", args=[prussia.campaign.code, code])
