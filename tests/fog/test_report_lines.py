"""Noninterference of the report lines that count marches and MPs (secrecy audit of 30
November 2026, second: ``rules.events.mps`` and the march pool's line citing 6.1 and 6.2).

The march allocation (6.1, 6.2) is each army's own: its dice, its modifier and its total are
told to the armies that share the pool (6.2.1), never to another seat. The scene: the first
turn's march phase of the 3-player campaign of the form. The secret: the Austrian pool's
marches this turn (B's: Austria, the Empire, Russia and Sweden's seat), 1 march or 5, as the
version, its allocation line and its dice would hold them had the dice fallen so. Observed by
A, B's enemy, and C, B's ally who does not share; the control, A's own pool, differs.
"""

import copy

import pytest

from campaign.models import Event, StateVersion
from campaign.services import viewcache
from tests.fog import scenarios
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds

pytestmark = pytest.mark.django_db

LABEL = "B's march allocation × 3p form × march"
DICE = {"one": [1, 2], "two": [3, 4]}  # Austria rolls 2 dice, -2 (6.1): 1 march or 5


def allotted(scene, army: str, which: str) -> None:
    """``army``'s pool has the marches ``DICE[which]`` give it, in the version the march phase
    reads, its allocation line and its roll (as the engine writes them, 6.1, 6.2)."""
    allocation = scene.campaign.versions.get(turn=1, resolved_phase="march-allocation")
    line = Event.objects.get(version=allocation, kind="marches-allocated", data__army=army)
    dice = DICE[which]
    total = max(0, sum(dice) + line.data["modifier"])
    sign = f" {line.data['modifier']:+d}" if line.data["modifier"] else ""
    head = line.text.split(" has ")[0].split(" share ")[0]
    verb = "share" if " share " in line.text else "has"
    line.text = (
        f"{head} {verb} {total} march{'es' if total != 1 else ''} this turn: {len(dice)} "
        f"{'dice' if len(dice) > 1 else 'die'} rolled {'+'.join(map(str, dice))}{sign} (6.1, 6.2)."
    )
    line.data = {**line.data, "dice": dice, "marches": total}
    line.save(update_fields=["text", "data"])
    for version in scene.campaign.versions.filter(number__gte=allocation.number):
        state = copy.deepcopy(version.state)
        if army in (state.get("marches") or {}):
            state["marches"][army] = total
        rolls = [
            {**r, "dice": dice, "total": sum(dice)} if r["name"] == line.data["roll"] else r
            for r in version.rolls
        ]
        StateVersion.objects.filter(id=version.id).update(state=state, rolls=rolls)
    viewcache.forget()


def test_b_march_allocation_does_not_show(organiser, django_capture_on_commit_callbacks):
    scene = scenarios.march_phase(organiser, django_capture_on_commit_callbacks)

    for role, seat in (("A", scene.a), ("C", scene.c)):
        one, two = two_worlds(
            lambda which: allotted(scene, "austria", which),
            SeatObserver(scene.campaign, seat.power),
        )
        assert_same(one, two, label=f"{LABEL} → seen by {role}")

    observe = SeatObserver(scene.campaign, scene.a.power)
    observe.pictures = False
    one, two = two_worlds(lambda which: allotted(scene, "prussia", which), observe)
    assert_differs(one, two, label=f"control: A's own march allocation, {LABEL} → seen by A")
