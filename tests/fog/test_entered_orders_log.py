"""Orders the organiser enters on a player's behalf (sent by email or on paper) are Ready like
orders sent from the page, and pressing Ready on the page tells no other seat (B ready or not:
no difference on any channel of A's). The log every member reads said "Entered the march orders
of the Austrian player (sent by email)." while the phase was open (found by a secrecy review):
now a player reads another seat's lines of that kind once its phase has resolved, when the
organiser's acts are every player's to check; his own at once; the umpire who plays no seat all.
Control: the observer's own orders entered by the organiser: his own line is his to read."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.services import organiser as tools
from orders.models import OrderSheet
from tests.fog import scenarios
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(organiser, django_capture_on_commit_callbacks) -> scenarios.Scene:
    return scenarios.march_phase(organiser, django_capture_on_commit_callbacks)


def _entered(scene, seat) -> None:
    tools.enter_orders(scene.campaign, scene.campaign.organiser, seat, {}, now=timezone.now(),
                       phase="march")  # fmt: skip


def test_orders_entered_for_another_seat_look_like_ready_pressed_on_its_page(scene):
    observe = SeatObserver(scene.campaign, scene.a.power)
    observe.pictures = False  # (orders are on no map before the resolution)

    def world(which: str) -> None:
        if which == "one":  # B presses Ready on its page
            OrderSheet.objects.update_or_create(
                campaign=scene.campaign, window=scene.window, seat=scene.b,
                defaults={"draft": {}, "ready": True, "submitted_at": timezone.now()},
            )  # fmt: skip
        else:  # B's player sends them by email, the organiser enters them
            _entered(scene, scene.b)

    at = timezone.now()
    one, two = two_worlds(world, observe, at=at)
    assert any(name.endswith("/log/") for name in one), "the crawl reads the log"
    assert_same(one, two, label="B's orders from its page or entered by the organiser × march")

    def own(which: str) -> None:  # control: A's own orders, pressed Ready or entered
        if which == "one":
            OrderSheet.objects.update_or_create(
                campaign=scene.campaign, window=scene.window, seat=scene.a,
                defaults={"draft": {}, "ready": True, "submitted_at": timezone.now()},
            )  # fmt: skip
        else:
            _entered(scene, scene.a)

    one, two = two_worlds(own, observe, at=at)
    assert_differs(one, two, label="control: A's own orders entered by the organiser × march")


def test_the_line_is_every_players_to_read_once_the_phase_has_resolved(
    scene, django_capture_on_commit_callbacks
):
    log_page = reverse("action_log", args=[scene.campaign.code])
    line = f"Entered the march orders of the {scene.b.label}"
    _entered(scene, scene.b)
    assert line not in client_for(scene.a.user).get(log_page).content.decode()
    assert line in client_for(scene.b.user).get(log_page).content.decode()
    assert line in client_for(scene.campaign.organiser).get(log_page).content.decode()
    for seat in (scene.a, scene.c):
        OrderSheet.objects.update_or_create(
            campaign=scene.campaign, window=scene.window, seat=seat,
            defaults={"draft": {}, "ready": True, "submitted_at": timezone.now()},
        )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        tools.queue_resolution(scene.window.id)
    scene.window.refresh_from_db()
    assert scene.window.status == "resolved"
    assert line in client_for(scene.a.user).get(log_page).content.decode()
