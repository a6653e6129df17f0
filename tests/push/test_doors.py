"""The doors a player could turn against the server through a push subscription (issue 42): an
endpoint read as the sender reads it, a key that must encrypt, no redirect followed, one bad
device never stopping the batch, and the device cap under posts at once."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from push.models import PushDevice
from push.services import delivery
from tests.localserver import redirect, serving, status
from tests.push.conftest import b64url, device_for
from tests.push.test_delivery import decrypted

pytestmark = pytest.mark.django_db

GOOD = "https://fcm.googleapis.com/fcm/send/abc:def"
# 65 bytes, uncompressed, but (1, 1) is not on P-256.
NOT_A_POINT = b64url(b"\x04" + (1).to_bytes(32, "big") + (1).to_bytes(32, "big"))


def subscribe(user, seat, subscriber, **changes):
    client = Client()
    client.force_login(user)
    data = {
        "endpoint": GOOD,
        "p256dh": subscriber.p256dh,
        "auth": subscriber.auth,
        "name": "Chrome",
        **changes,
    }
    return client.post(reverse("push:subscribe", args=[seat.code]), data)


@pytest.mark.parametrize(
    "field, value, reason",
    [
        ("endpoint", "https://127.0.0.1\\@fcm.googleapis.com/fcm/send/x", "backslash"),
        ("endpoint", "https://me:pw@fcm.googleapis.com/fcm/send/x", "user or a password"),
        ("endpoint", "https://attacker@fcm.googleapis.com/fcm/send/x", "user or a password"),
        ("endpoint", "https://fcm.googleapis.com:6379/fcm/send/x", "names no port"),
        ("endpoint", "https://fcm.googleapis.com:443/fcm/send/x", "names no port"),
        ("endpoint", "https://example.org/fcm/send/x", "not the address of a browser's push"),
        ("endpoint", "https://localhost/fcm/send/x", "not the address of a browser's push"),
        ("endpoint", "http://fcm.googleapis.com/fcm/send/x", "begins with https://"),
        ("p256dh", NOT_A_POINT, "not a point of P-256"),
        ("p256dh", b64url(b"\x02" + bytes(32)) + "A" * 40, "not an uncompressed point"),
        ("auth", b64url(bytes(15)) + "AAAA", "not 16 bytes"),
    ],
)
def test_it_refuses_a_subscription_that_would_open_a_door(
    player, prussia, subscriber, field, value, reason
):
    response = subscribe(player, prussia, subscriber, **{field: value})
    assert response.status_code == 400
    assert reason in response.json()["errors"][field][0]
    assert not PushDevice.objects.exists()


def test_a_real_subscription_is_still_taken(player, prussia, subscriber):
    assert subscribe(player, prussia, subscriber).status_code == 201
    assert PushDevice.objects.get().endpoint == GOOD


# --- sending ---------------------------------------------------------------------------------


def test_a_push_service_that_redirects_is_not_followed(
    player, prussia, subscriber, now, loopback_allowed
):
    with serving(status(201)) as inside, serving(redirect(inside.url + "/internal")) as hop:
        device_for(player, subscriber, hop.url + "/push/x")
        counts = delivery.send_pushes([{"seat": prussia.id, "event": "orders-due"}], now=now)
    assert counts == {"sent": 0, "forgotten": 0, "failed": 1}
    assert hop.hits == ["/push/x"]
    assert inside.hits == []  # the redirect's target is never reached


def test_without_the_setting_a_push_to_the_loopback_is_refused_and_an_address_refused_forgotten(
    player, prussia, subscriber, now, settings
):
    """What a host resolves to is refused at every send, and the device kept (the server's
    network may be why: a DNS64 prefix); an address refused by itself is forgotten."""
    settings.OUTBOUND_ALLOW_PRIVATE = False
    with serving(status(201)) as inside:
        kept = device_for(player, subscriber, inside.url + "/push/x")
        device_for(player, subscriber, "https://127.0.0.1\\@fcm.googleapis.com/x", "Old row")
        counts = delivery.send_pushes([{"seat": prussia.id, "event": "orders-due"}], now=now)
    assert counts == {"sent": 0, "forgotten": 1, "failed": 1}
    assert inside.hits == []
    assert list(PushDevice.objects.values_list("id", flat=True)) == [kept.id]


def test_one_bad_device_never_stops_the_others_nor_the_later_seats(
    player, other, prussia, austria, subscriber, push_service, now, loopback_allowed, caplog
):
    dead = "http://127.0.0.1:9/push/dead"  # the discard port: nobody listens
    device_for(player, subscriber, push_service.endpoint("first"), "First")
    bad_key = device_for(player, subscriber, push_service.endpoint("bad-key"), "Bad key")
    PushDevice.objects.filter(id=bad_key.id).update(p256dh=NOT_A_POINT)
    bad_auth = device_for(player, subscriber, push_service.endpoint("bad-auth"), "Bad auth")
    PushDevice.objects.filter(id=bad_auth.id).update(auth="!!")  # webpush raises on it
    device_for(player, subscriber, dead, "Unreachable")
    device_for(player, subscriber, push_service.endpoint("last"), "Last")
    device_for(other, subscriber, push_service.endpoint("maria"), "Maria's")
    counts = delivery.send_pushes(
        [
            {"seat": prussia.id, "event": "orders-due"},
            {"seat": prussia.id, "event": "no-such-event"},  # cannot be worded
            {"seat": austria.id, "event": "orders-due"},
        ],
        now=now,
    )
    # Fritz's good devices, then Maria's, the batch's later seat: each got its push.
    paths = [r["path"] for r in push_service.received]
    assert paths == ["/push/first", "/push/last", "/push/maria"]
    maria = push_service.received[-1]
    assert decrypted(maria, subscriber)["title"] == "Orders are due"
    # The bad key, the bad secret, the unreachable one and the push that cannot be worded.
    assert counts == {"sent": 3, "forgotten": 0, "failed": 4}
    failed = [r.getMessage() for r in caplog.records if r.getMessage().startswith("push: device")]
    assert any(str(bad_key.code) in m and "failed" in m for m in failed), failed
    # What a try met, never the endpoint: anyone who has it can push to the device.
    assert "/push/dead" not in caplog.text and "127.0.0.1:9" not in caplog.text
    assert PushDevice.objects.count() == 6  # a failure keeps the device for the next push


# --- the cap under posts at once -------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_device_cap_holds_under_parallel_posts(player, prussia, subscriber, settings):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every write: the race needs PostgreSQL")
    settings.PUSH_DEVICES_PER_USER = 3
    tries = 12
    barrier = threading.Barrier(tries)
    answers: list[int] = []

    def post(n: int) -> None:
        try:
            client = Client()
            client.force_login(player)
            data = {
                "endpoint": f"{GOOD}-{n}",
                "p256dh": subscriber.p256dh,
                "auth": subscriber.auth,
            }
            barrier.wait()
            answers.append(client.post(reverse("push:subscribe", args=[prussia.code]), data))
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(n,)) for n in range(tries)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = sorted(a.status_code for a in answers)
    assert codes == [201] * 3 + [400] * (tries - 3)
    assert PushDevice.objects.filter(user=player).count() == 3
