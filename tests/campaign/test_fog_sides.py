"""Fog of war follows the state's alliances (13.8) and shows leaderless points (9.5) as chits."""

import dataclasses

import pytest

from campaign.projection import Relation, Viewer, map_counters, project, view_to_dict
from rules.armies import Army
from rules.state import LeaderlessPoints, LeaderState, Phase, State

pytestmark = pytest.mark.pure


def state(**changes) -> State:
    base = State(
        turn=5,
        phase=Phase.MARCH,
        players=5,
        army_points={"prussia": 16000, "hanover": 7500, "austria": 16000},
        leaders=(
            LeaderState("frederick", Army.PRUSSIA, "0505", points=4817),
            LeaderState("ferdinand", Army.HANOVER, "0202", points=2693),
            LeaderState("daun", Army.AUSTRIA, "0808", points=6143),
        ),
        leaderless=(LeaderlessPoints(Army.HANOVER, "0303", 1571),),
    )
    return dataclasses.replace(base, **changes)


def ferdinand(view):
    return next(f for f in view.forces if f.commander.key == "ferdinand")


def test_an_ally_is_an_ally_until_he_changes_sides():
    prussia = Viewer.for_armies(["prussia"], allies_share=True)
    before = project(state(), prussia)
    assert ferdinand(before).relation is Relation.ALLY
    assert ferdinand(before).points == 2693  # allies share what they know
    after = project(state(changed_sides=(Army.HANOVER,)), prussia)
    assert ferdinand(after).relation is Relation.ENEMY
    assert ferdinand(after).points is None
    # the army's total is public (3) and counts its leaderless points too
    totals = {t.army: t.current for t in after.army_totals}
    assert totals[Army.HANOVER] == 2693 + 1571


def test_a_former_enemy_becomes_an_ally():
    austria = Viewer.for_armies(["austria"], allies_share=True)
    view = project(state(changed_sides=(Army.HANOVER,)), austria)
    assert ferdinand(view).relation is Relation.ALLY
    assert ferdinand(view).points == 2693


def test_leaderless_points_are_a_chit_whose_strength_only_the_owner_knows():
    own = project(state(), Viewer.for_armies(["hanover"]))
    assert [(x.hex, x.points) for x in own.leaderless] == [("0303", 1571)]
    enemy = project(state(), Viewer.for_armies(["austria"]))
    assert [(x.hex, x.points, x.relation) for x in enemy.leaderless] == [
        ("0303", None, Relation.ENEMY)
    ]
    assert "1571" not in str(view_to_dict(enemy))
    assert "1571" not in str(map_counters(enemy))
    assert any(c.kind == "leaderless" and "1571" in c.label for c in map_counters(own))
