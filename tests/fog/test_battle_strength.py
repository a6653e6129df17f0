"""Noninterference of a battle's strengths (rule 3, 8, 9, 12.1) on the 3-player campaign made
from the form (``tests.fog.scenarios``): Charles's Austrians (B) march into the hex of
Frederick's Prussians (A), 6933, and both choose to fight; C (France, B's ally, allies not
sharing) has no force there.

The secret: the strength of B's force in the battle, Charles's 3353 points (size class C) or 900
(size class B), the rest of them with Browne, far from every force of A, so that Austria's total
(public, 3) is the same in both worlds. The size of a force is hidden from all but its owner
until reconnaissance reveals it (3, 8); a size class is a band of it (12.1), and the VPs at stake
follow from the size classes. C must see no difference on any channel (the chronicle among
them), before the battle is fought and after it, when the Prussians were defeated (the VPs
awarded, public by 12, follow from the defeated side's size class: the Prussians' is the same in
both worlds). A, who fought B, reads both strengths (9): the control, seen by A, differs.
"""

import copy

import pytest
from django.utils import timezone

from battles.models import BattleStatus
from battles.services import results as battle_results
from campaign.models import StateVersion
from campaign.services import viewcache
from tests.fog import scenarios
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.fog.scenarios import decide, ready, two

pytestmark = pytest.mark.django_db

CAMPAIGN = "3p form"
STRENGTH = {"one": 3353, "two": 900}  # Charles's points: size class C, size class B (12.1)


@pytest.fixture
def scene(organiser, django_capture_on_commit_callbacks):
    return scenarios.battle(organiser, django_capture_on_commit_callbacks)


def _fight(scene, which: str, capture) -> None:
    """B's force at the battle has ``STRENGTH[which]`` points (Browne holds the rest of
    Charles's); both sides choose to fight and the battle is set up by the engine."""
    version = scene.window.version
    state = copy.deepcopy(StateVersion.objects.get(id=version.id).state)
    leaders = state["leaders"]
    assert leaders["charles"]["points"] == STRENGTH["one"]
    moved = leaders["charles"]["points"] - STRENGTH[which]
    leaders["charles"]["points"] -= moved
    leaders["browne"]["points"] += moved
    StateVersion.objects.filter(id=version.id).update(state=state)
    viewcache.forget()
    where = leaders["frederick"]["hex"]
    decide(scene, "A", hex=where, army="prussia", choice="fight")
    ready(scene, "A", capture)
    decide(scene, "B", hex=where, army="austria", choice="fight")
    ready(scene, "B", capture)
    battle = scene.campaign.battles.get()
    assert battle.status == BattleStatus.PENDING
    assert battle.setup["sides"]["austrian"]["points"] == STRENGTH[which]
    assert battle.setup["sides"]["austrian"]["size_class"] == two(which, "C", "B")


def test_the_strength_of_a_battles_force_does_not_show_to_a_seat_not_in_it(
    scene, django_capture_on_commit_callbacks
):
    def secret(which):
        _fight(scene, which, django_capture_on_commit_callbacks)

    label = f"B's strength in a battle × {CAMPAIGN} × battle, result pending"
    one, two_ = two_worlds(secret, SeatObserver(scene.campaign, scene.c.power))
    assert_same(one, two_, label=f"{label} → seen by C")
    observe = SeatObserver(scene.campaign, scene.a.power)
    observe.pictures = False  # the control needs one difference, not seconds of drawing
    one, two_ = two_worlds(secret, observe)
    assert_differs(one, two_, label=f"control: {label} → seen by A (the other side)")
    chronicle = f"GET /campaigns/{scene.campaign.code}/battles/"
    assert b"2970 points against 3353 points" in one[chronicle]
    assert b"2970 points against 900 points" in two_[chronicle]


def test_the_strength_of_a_battles_force_does_not_show_after_it_is_fought(
    scene, organiser, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks

    def secret(which):
        _fight(scene, which, capture)
        battle = scene.campaign.battles.get()
        result = {"loser": "prussian", "outcome": "defeated",
                  "losses": {"prussia": 300, "austria": 200}}  # fmt: skip
        with capture(execute=True):
            battle_results.settle_result(battle, organiser, result, now=timezone.now())
        battle.refresh_from_db()
        assert battle.status == BattleStatus.APPLIED

    label = f"B's strength in a battle × {CAMPAIGN} × battle, result applied"
    one, two_ = two_worlds(secret, SeatObserver(scene.campaign, scene.c.power))
    assert_same(one, two_, label=f"{label} → seen by C")
