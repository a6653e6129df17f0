"""Noninterference of the words that say an enemy is in a force's hex (secrecy audit of 30
November 2026, second): the dashboard's force card ("The enemy is in this hex: ...") and the
forced march page's "In contact with the enemy" (6.3.1), both read from the seat's own view.

The scene (``tests.fog.scenarios.forced_march_in_contact``): turn 1's forced march phase of
the 3-player campaign of the form, Charles's Austrians (B) halted in the hex of Frederick's
Prussians (A). The secret: how many points Charles has there (3353, or 2353 with Browne
holding the other 1000: the army's total the same), and B's forced march order for Laudon,
saved and sent. Reconnaissance (8) comes after the forced march (4): until it is made, A knows
who is in his hex (3.1.1) and not how strong. Observed by A, in contact, and by C, B's ally who
does not share; the control, A's own forced march order out of the hex, differs.
"""

import copy

import pytest

from campaign.models import StateVersion
from campaign.services import viewcache
from tests.fog import scenarios
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.fog.scenarios import march, ready, two

pytestmark = pytest.mark.django_db

STRENGTH = {"one": 3353, "two": 2353}
LABEL = "B's strength and order in A's hex × 3p form × forced march, open"


def _strength(scene, which: str) -> None:
    """Charles has ``STRENGTH[which]`` points; Browne, far from any Prussian, the rest."""
    version = scene.window.version
    state = copy.deepcopy(StateVersion.objects.get(id=version.id).state)
    leaders = state["leaders"]
    assert leaders["charles"]["points"] == STRENGTH["one"]
    moved = leaders["charles"]["points"] - STRENGTH[which]
    leaders["charles"]["points"] -= moved
    leaders["browne"]["points"] += moved
    StateVersion.objects.filter(id=version.id).update(state=state)
    viewcache.forget()


def test_the_enemy_in_a_hex_is_told_without_its_secrets(
    organiser, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    scene = scenarios.forced_march_in_contact(organiser, capture)
    a_page = f"GET /play/{scene.a.code}/orders/"

    def secret(which):
        _strength(scene, which)
        march(scene, "B", "laudon", two(which, "1", "2"))
        ready(scene, "B", capture)

    for role, seat in (("A", scene.a), ("C", scene.c)):
        one, two_ = two_worlds(secret, SeatObserver(scene.campaign, seat.power))
        if role == "A":  # the words under test are there
            dashboard = one[f"GET /play/{scene.a.code}/"]
            assert b"The enemy is in this hex: Austria: Charles" in dashboard
            assert b"In contact with the enemy" in one[a_page], one[a_page][:300]
        assert_same(one, two_, label=f"{LABEL} → seen by {role}")

    def control(which):
        march(scene, "A", "frederick", two(which, "1", "2"))

    observe = SeatObserver(scene.campaign, scene.a.power)
    observe.pictures = False
    one, two_ = two_worlds(control, observe)
    assert_differs(one, two_, label=f"control: A's own forced march out, {LABEL} → seen by A")
