"""The pages of the pushes: the service worker, a browser's subscription, the seat's choices,
the player's devices; each for its own player only."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from push.models import PushDevice, PushSetting
from push.services import keys
from tests.orders.test_play_fixtures import client_for
from tests.push.conftest import device_for

pytestmark = pytest.mark.django_db

ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc:def"


def subscription(subscriber, endpoint=ENDPOINT) -> dict:
    return {
        "endpoint": endpoint,
        "p256dh": subscriber.p256dh,
        "auth": subscriber.auth,
        "name": "Chrome on Android",
    }


def test_it_serves_the_service_worker_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert 'addEventListener("push"' in body and "showNotification" in body


def test_it_rejects_a_post_to_the_service_worker(client):
    assert client.post("/sw.js").status_code == 405


def test_it_stores_the_subscription_of_this_browser(player, prussia, subscriber):
    client = client_for(player)
    response = client.post(reverse("push:subscribe", args=[prussia.code]), subscription(subscriber))
    assert response.status_code == 201
    device = PushDevice.objects.get()
    assert (device.user, device.endpoint, device.name) == (player, ENDPOINT, "Chrome on Android")
    assert response.json() == {"device": str(device.code)}
    # The same browser again: one device, not two.
    client.post(reverse("push:subscribe", args=[prussia.code]), subscription(subscriber))
    assert PushDevice.objects.count() == 1


def test_it_requires_the_csrf_token(player, prussia, subscriber):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("push:subscribe", args=[prussia.code]), subscription(subscriber))
    assert response.status_code == 403
    assert not PushDevice.objects.exists()


@pytest.mark.parametrize(
    "field, value",
    [
        ("endpoint", "http://fcm.googleapis.com/fcm/send/plain"),
        ("endpoint", "https://10.0.0.1/internal"),  # the worker would post there
        ("endpoint", "https://fcm.googleapis.com.example.org/send/x"),
        ("endpoint", "javascript:alert(1)"),
        ("p256dh", "not a key"),
        ("auth", ""),
    ],
)
def test_it_refuses_a_subscription_that_is_not_one(player, prussia, subscriber, field, value):
    data = {**subscription(subscriber), field: value}
    response = client_for(player).post(reverse("push:subscribe", args=[prussia.code]), data)
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not PushDevice.objects.exists()


def test_it_keeps_at_most_so_many_devices_of_a_player(player, prussia, subscriber, settings):
    settings.PUSH_DEVICES_PER_USER = 2
    device_for(player, subscriber, ENDPOINT + "-1")
    device_for(player, subscriber, ENDPOINT + "-2")
    client, target = client_for(player), reverse("push:subscribe", args=[prussia.code])
    response = client.post(target, subscription(subscriber, ENDPOINT + "-3"))
    assert response.status_code == 400 and "remove one first" in response.content.decode()
    # One of the two again (subscribed anew): still taken.
    assert client.post(target, subscription(subscriber, ENDPOINT + "-2")).status_code == 201
    assert PushDevice.objects.count() == 2


def test_it_rejects_get_on_subscribe(player, prussia):
    assert client_for(player).get(reverse("push:subscribe", args=[prussia.code])).status_code == 405


def test_it_requires_the_seat_to_be_ones_own(other, prussia, subscriber, client):
    target = reverse("push:subscribe", args=[prussia.code])
    assert client_for(other).post(target, subscription(subscriber)).status_code == 404
    assert client.post(target, subscription(subscriber)).status_code == 302  # sign in first
    assert not PushDevice.objects.exists()


def test_it_forgets_this_browser_when_it_unsubscribes(player, other, prussia, subscriber):
    device_for(player, subscriber, ENDPOINT)
    device_for(other, subscriber, ENDPOINT + "-maria")
    target = reverse("push:unsubscribe", args=[prussia.code])
    # Someone else's endpoint is not forgotten through this player's seat.
    response = client_for(player).post(target, {"endpoint": ENDPOINT + "-maria"})
    assert response.json() == {"forgotten": 0}
    assert client_for(player).post(target, {"endpoint": ENDPOINT}).json() == {"forgotten": 1}
    assert list(PushDevice.objects.values_list("user", flat=True)) == [other.id]


def test_the_settings_page_lists_the_players_devices_and_saves_the_kinds(
    player, other, prussia, subscriber
):
    device_for(player, subscriber, ENDPOINT, "Firefox on Linux")
    device_for(other, subscriber, ENDPOINT + "-maria", "Maria's iPhone")
    client = client_for(player)
    page = client.get(reverse("push:settings", args=[prussia.code])).content.decode()
    assert "Firefox on Linux" in page and "Maria's iPhone" not in page
    assert f'data-key="{keys.public_key()}"' in page
    assert re.search(r'value="orders"[^>]*checked', page)  # every kind, before a choice
    response = client.post(
        reverse("push:settings", args=[prussia.code]), {"kinds": ["letter", "battle"]}
    )
    assert response.status_code == 302
    assert PushSetting.objects.get(seat=prussia).kinds == ["letter", "battle"]


def test_the_settings_page_is_the_players_own(other, prussia, client):
    assert client_for(other).get(reverse("push:settings", args=[prussia.code])).status_code == 404
    assert client.get(reverse("push:settings", args=[prussia.code])).status_code == 302


def test_a_device_is_removed_from_the_list(player, other, prussia, subscriber):
    mine = device_for(player, subscriber, ENDPOINT)
    theirs = device_for(other, subscriber, ENDPOINT + "-maria")
    client = client_for(player)
    remove = "push:remove_device"
    assert client.get(reverse(remove, args=[prussia.code, mine.code])).status_code == 405
    assert client.post(reverse(remove, args=[prussia.code, theirs.code])).status_code == 404
    response = client.post(reverse(remove, args=[prussia.code, mine.code]))
    assert response.status_code == 302
    assert list(PushDevice.objects.all()) == [theirs]


def test_the_dashboard_offers_notifications_to_its_own_player_only(player, organiser, prussia):
    target = reverse("orders:dashboard", args=[prussia.code])
    page = client_for(player).get(target).content.decode()
    assert "data-push " in page and reverse("push:settings", args=[prussia.code]) in page
    assert "push/push.js" in page
    umpire = client_for(organiser).get(target)  # the umpire reads the seat: not his device
    assert umpire.status_code == 200 and "data-push " not in umpire.content.decode()


def test_the_email_settings_link_to_the_push_settings(player, prussia):
    page = client_for(player).get(reverse("seat_settings", args=[prussia.code])).content.decode()
    assert reverse("push:settings", args=[prussia.code]) in page
