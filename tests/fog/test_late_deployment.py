"""Deployment is plotted secretly (3) on whatever turn it comes. The SPI opening of 1756 starts
on turn 9 with France, Hanover and Russia (with Sweden) still to deploy; France and Russia
deploy, Hanover does not, the deadline passes and the deployment stays open for Hanover alone.
Until Hanover has deployed too, nothing tells him where the French stand: not the pages, not
the call for orders by email (its report once told "France has deployed: D'Estrees at 1431..."
where the pages showed nothing, the emails' fog counting a deployment only on turn 1), not the
warm-up the worker draws after the resolution (it broke on an open deployment).
Control: once Hanover has deployed, the deployment is over and the French positions are told.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import Campaign
from campaign.services import gameplay, setup
from campaign.services.resolution import resolve_due_phase
from maps.core.loader import load_map
from orders import warmup
from orders.models import OrderSheet
from rules.armies import Army
from rules.deployment import sample_deployments
from rules.orders import Orders, orders_to_dict
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.standing import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def opening_1756(organiser, django_capture_on_commit_callbacks) -> Campaign:
    rules = gameplay.rule_settings(Campaign(rule_settings={}))
    campaign = setup.create_campaign(
        organiser, name="Fog of 1756", players=5, now=timezone.now(),
        army_points=gameplay.army_points_from_base("sweden", 200, rules),
        options={"opening": "spi-1756"},
    )  # fmt: skip
    for seat in campaign.seats.filter(reserve=False):
        seat.user = make_user(f"fog1756-{seat.power}")
        seat.save()
    with django_capture_on_commit_callbacks(execute=True):
        setup.start_campaign(campaign, organiser, now=timezone.now())
    campaign.refresh_from_db()
    return campaign


def _deployments(campaign: Campaign) -> dict:
    state = gameplay.read_state(campaign.latest_version().state)
    return sample_deployments(load_map(), gameplay.rule_settings(campaign), state.army_points)


def _swapped(deployment):
    """The same army with its first two leaders' hexes swapped: another legal deployment."""
    (k1, h1, *r1), (k2, h2, *r2), *rest = deployment.leaders
    return dataclasses.replace(deployment, leaders=((k1, h2, *r1), (k2, h1, *r2), *rest))


def _deploy(window, seat, deployments) -> None:
    OrderSheet.objects.update_or_create(
        window=window, seat=seat,
        defaults={
            "campaign": window.campaign, "ready": True, "submitted_at": window.opened_at,
            "draft": orders_to_dict(Orders(deployment=tuple(deployments))),
        },
    )  # fmt: skip


def test_a_deployment_is_not_told_to_a_seat_still_deploying_on_a_later_turn(
    opening_1756, django_capture_on_commit_callbacks
):
    campaign, capture = opening_1756, django_capture_on_commit_callbacks
    window = campaign.open_window()
    assert (window.phase, window.turn) == ("deployment", 9)
    seats = {s.power: s for s in campaign.seats.filter(reserve=False)}
    sample = _deployments(campaign)
    at = window.deadline + timedelta(minutes=1)
    observe = SeatObserver(campaign, "hanover")

    def world(which: str) -> None:
        french = sample[Army.FRANCE] if which == "one" else _swapped(sample[Army.FRANCE])
        _deploy(window, seats["france"], [french])
        _deploy(window, seats["russia"], [sample[Army(a)] for a in seats["russia"].armies])
        with capture(execute=True):
            version = resolve_due_phase(window.id, now=at)
        reopened = campaign.open_window()
        assert (reopened.phase, reopened.owes(seats["hanover"])) == ("deployment", True)
        assert not reopened.owes(seats["france"])
        warmup.warm_pages(version.id)  # (run on commit above, where a failure is only logged)

    one, two = two_worlds(world, observe, at=at)
    assert any(name.startswith("email") for name in one), sorted(one)  # the call for orders
    assert_same(one, two, label="France's deployment × 1756 opening, 5 seats × deployment (turn 9)")

    def hanover_deploys_too(which: str) -> None:
        world(which)
        reopened = campaign.open_window()
        _deploy(reopened, seats["hanover"], [sample[Army.HANOVER]])
        with capture(execute=True):
            resolve_due_phase(reopened.id, now=at)
        assert campaign.open_window().phase == "march"

    observe.pictures = False
    one, two = two_worlds(hanover_deploys_too, observe, at=at)
    assert_differs(one, two, label="control: France's deployment × 1756 opening × its march")
