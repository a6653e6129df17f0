"""Noninterference on the demo campaign at its march phase (issue 42): two worlds that differ in
one secret of France's player (seat B) look the same to the Prussian player (seat A) on every
channel; each test's control, where A's own order differs, shows a difference."""

import pytest
from django.urls import reverse

from tests.fog.channels import SeatObserver, client
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.orders.test_play_fixtures import in_phase

pytestmark = pytest.mark.django_db

A, B = "prussia", "france"
MAIL_ORDER = "Schwerin 4\n"


def save_march(campaign, power: str, unit: str, path: str) -> None:
    seat = campaign.seats.get(power=power)
    r = client(campaign, power).post(
        reverse("orders:save_march", args=[seat.code]),
        in_phase(seat, {"unit": unit, "path": path, "marches": 1}),
    )
    assert r.status_code in (200, 302), r.content.decode()[:500]


def test_the_same_world_twice_is_the_same(demo):
    """The harness itself: two worlds with no difference at all compare equal."""
    observe = SeatObserver(demo, A, mail_order=MAIL_ORDER)
    one, two = two_worlds(lambda which: None, observe)
    assert observe.crawled >= 50
    assert_same(one, two, label="nothing × demo × march")


def test_b_draft_before_the_deadline(demo):
    observe = SeatObserver(demo, A, mail_order=MAIL_ORDER)

    def secret(which):
        save_march(demo, B, "d-estrees", "4" if which == "one" else "1-1")

    one, two = two_worlds(secret, observe)
    assert_same(one, two, label="B's draft × demo × march")

    def control(which):
        save_march(demo, A, "frederick", "4" if which == "one" else "1-1")

    one, two = two_worlds(control, observe)
    assert_differs(one, two, label="control: A's draft × demo × march")
