"""Fog of war in the projection (3, 3.1.1, 3.1.2, 8): what each audience may know of one state.

Secret numbers are odd markers (4817, 2693, 1571...) so a leak shows up as a plain substring of
anything the viewer is given.
"""

import json

import pytest

from campaign.projection import (
    Relation,
    Viewer,
    map_counters,
    project,
    report_lines,
    roll_concerns,
    view_to_dict,
)
from maps.core.compact import compact_map
from rules.armies import Army, Seat
from rules.events import Event, EventKind, Report, event_to_dict, private, report_to_dict
from rules.state import Garrison, LeaderState, Phase, SiegeTrain, State

pytestmark = pytest.mark.pure

PRUSSIAN_SECRETS = ("4817", "2693", "1571", "3089")
AUSTRIAN_SECRETS = ("6143", "1877")


def marked_state(phase: Phase = Phase.MARCH) -> State:
    return State(
        turn=3,
        phase=phase,
        players=5,
        army_points={"prussia": 16000, "austria": 16000, "hanover": 7500},
        leaders=(
            LeaderState("frederick", Army.PRUSSIA, "0505", points=4817, supplied=False),
            LeaderState("seydlitz", Army.PRUSSIA, "0505", points=2693, demoralized=True),
            LeaderState("daun", Army.AUSTRIA, "0808", points=6143),
            LeaderState("ferdinand", Army.HANOVER, "0202", points=1877 + 1),
        ),
        garrisons=(Garrison("Berlin", Army.PRUSSIA, 1571), Garrison("Prag", Army.AUSTRIA, 1877)),
        siege_trains=(SiegeTrain("prussia-1", Army.PRUSSIA, "0505"),),
        control={"Berlin": "prussia", "Prag": "austria"},
        marches={"prussia": 3089 % 7, "austria": 2},
    )


EVENTS = [
    Event(
        "7",
        EventKind.ATTRITION,
        "Frederick's force loses 4817 points (7.1)",
        {},
        private(Army.PRUSSIA),
    ),
    Event("8", EventKind.RECONNAISSANCE, "Daun sees 6143 of his own", {}, private(Army.AUSTRIA)),
    Event("2.3", EventKind.CITY_CONTROL, "Prag is controlled by Austria.", {}, None),
]
REPORTS = [
    (
        3,
        Report(
            Army.AUSTRIA,
            "0505",
            Army.PRUSSIA,
            "frederick",
            7510,
            False,
            False,
            "Frederick's force at 0505 has 7510 points.",
        ),
    ),
    (
        2,
        Report(
            Army.PRUSSIA,
            "0808",
            Army.AUSTRIA,
            "daun",
            5999,
            False,
            False,
            "Daun's force at 0808 has 5999 points.",
        ),
    ),
]
ROLLS = [
    {"name": "forced-march:frederick:t3", "dice": [3], "total": 3, "fixed": False},
    {"name": "march-allocation:austria:t3", "dice": [2, 5], "total": 7, "fixed": False},
]


def seen(viewer: Viewer, state: State | None = None) -> str:
    view = project(state or marked_state(), viewer, events=EVENTS, reports=REPORTS, rolls=ROLLS)
    return json.dumps(view_to_dict(view)) + "\n".join(report_lines(view))


def test_the_owner_sees_his_forces_with_points_supply_and_demoralization():
    view = project(marked_state(), Viewer.seat(Seat.PRUSSIA, 5))
    fred = view.leader("frederick")
    assert (fred.points, fred.supplied, fred.relation) == (4817, False, Relation.OWNER)
    force = next(f for f in view.own_forces() if f.hex == "0505")
    assert force.points == 4817 + 2693
    assert force.demoralized is True and force.supplied is False
    assert [g.points for g in view.garrisons if g.city == "Berlin"] == [1571]
    assert [t.id for t in view.siege_trains] == ["prussia-1"]


@pytest.mark.parametrize(
    ("seat", "secrets"),
    [
        (Seat.AUSTRIA, PRUSSIAN_SECRETS),
        (Seat.RUSSIA, PRUSSIAN_SECRETS),
        (Seat.PRUSSIA, AUSTRIAN_SECRETS),
        (Seat.FRANCE, PRUSSIAN_SECRETS),
    ],
)
def test_an_enemy_sees_none_of_the_secrets(seat, secrets):
    text = seen(Viewer.seat(seat, 5))
    for marker in secrets:
        assert marker not in text


def test_an_enemy_still_sees_every_leader_position_the_markers_and_garrison_country():
    view = project(marked_state(), Viewer.seat(Seat.AUSTRIA, 5))
    fred = view.leader("frederick")
    assert (fred.hex, fred.points, fred.supplied, fred.field_works) == ("0505", None, False, None)
    berlin = next(g for g in view.garrisons if g.city == "Berlin")
    assert (berlin.army, berlin.points) == (Army.PRUSSIA, None)
    assert view.siege_trains == ()
    assert view.control["Berlin"] == "prussia"
    assert "prussia" not in view.marches and view.marches == {"austria": 2}


def test_every_army_total_is_public():
    view = project(marked_state(), Viewer.seat(Seat.AUSTRIA, 5))
    totals = {t.army: (t.agreed, t.current) for t in view.army_totals}
    assert totals[Army.PRUSSIA] == (16000, 4817 + 2693 + 1571)


def test_an_ally_without_sharing_is_told_only_what_is_public():
    text = seen(Viewer.seat(Seat.HANOVER, 5, allies_share=False))
    for marker in PRUSSIAN_SECRETS:
        assert marker not in text
    view = project(marked_state(), Viewer.seat(Seat.HANOVER, 5))
    assert view.leader("frederick").relation is Relation.ALLY


def test_an_ally_with_sharing_knows_what_the_owner_knows_and_his_reports():
    viewer = Viewer.seat(Seat.HANOVER, 5, allies_share=True)
    view = project(marked_state(), viewer, events=EVENTS, reports=REPORTS, rolls=ROLLS)
    assert view.leader("frederick").points == 4817
    assert [r.points for r in view.reports] == [5999]
    assert "6143" not in seen(viewer)


def test_reports_go_to_the_army_they_are_addressed_to_with_their_turn():
    view = project(marked_state(), Viewer.seat(Seat.AUSTRIA, 5), reports=REPORTS)
    assert [(r.turn, r.points, r.army) for r in view.reports] == [(3, 7510, Army.PRUSSIA)]
    as_dicts = [{**report_to_dict(r), "turn": t} for t, r in REPORTS]
    again = project(marked_state(), Viewer.seat(Seat.AUSTRIA, 5), reports=as_dicts)
    assert again.reports == view.reports


def test_events_go_to_their_audience_and_public_events_to_all():
    stored = [{**event_to_dict(e), "turn": 3} for e in EVENTS]
    view = project(marked_state(), Viewer.seat(Seat.PRUSSIA, 5), events=stored)
    assert [e.kind for e in view.events] == ["attrition", "city-control"]
    assert all(e.turn == 3 for e in view.events)
    public = project(marked_state(), Viewer.public(), events=stored)
    assert [e.kind for e in public.events] == ["city-control"]


@pytest.mark.parametrize(
    ("name", "army", "concerns"),
    [
        ("forced-march:frederick:t3", Army.PRUSSIA, True),
        ("forced-march:frederick:t3", Army.AUSTRIA, False),
        ("march-allocation:austria:t3", Army.AUSTRIA, True),
        ("march-allocation:austria:t3", Army.HANOVER, False),
        ("siege:prussia-1:t4", Army.PRUSSIA, True),
        ("mystery", Army.PRUSSIA, False),
    ],
)
def test_dice_concern_the_armies_they_name(name, army, concerns):
    assert roll_concerns(name, frozenset({army})) is concerns


def test_the_umpire_sees_everything():
    viewer = Viewer.umpire_view()
    text = seen(viewer)
    for marker in PRUSSIAN_SECRETS[:3] + AUSTRIAN_SECRETS:
        assert marker in text
    view = project(marked_state(), viewer, rolls=ROLLS)
    assert len(view.dice) == 2


def test_during_deployment_other_armies_are_not_on_the_map():
    state = marked_state(Phase.DEPLOYMENT)
    state = State(**{**state.__dict__, "turn": 1})
    view = project(state, Viewer.seat(Seat.AUSTRIA, 5))
    assert {f.army for f in view.forces} == {Army.AUSTRIA}
    assert {g.army for g in view.garrisons} == {Army.AUSTRIA}


def test_the_map_overlay_is_made_from_the_view_only():
    hexmap = compact_map(
        {
            "terrain": ["c" * 10] * 10,
            "cities": [
                {"name": "Berlin", "hex": "0606", "size": "star", "fortress": True},
                {"name": "Prag", "hex": "0909", "size": "star", "fortress": True},
            ],
        }
    )
    enemy = map_counters(project(marked_state(), Viewer.seat(Seat.AUSTRIA, 5)), hexmap)
    owner = map_counters(project(marked_state(), Viewer.seat(Seat.PRUSSIA, 5)), hexmap)
    enemy_text = repr(enemy)
    for marker in (str(4817 + 2693), "1571"):
        assert marker not in enemy_text
        assert marker in repr(owner)
    fred = next(c for c in owner if c.kind == "force" and c.hex == "0505")
    assert set(fred.flags) == {"D", "U"}
    assert {c.hex for c in enemy if c.kind == "garrison"} == {"0606", "0909"}


def test_reports_are_read_from_reconnaissance_events_of_their_audience():
    event = Event(
        "8.1",
        EventKind.RECONNAISSANCE,
        "Reconnaissance by Daun: Frederick's force at 0505 has 7510 points.",
        {"hex": "0505", "army": "prussia", "commander": "frederick", "points": 7510},
        private(Army.AUSTRIA),
    )
    austria = project(marked_state(), Viewer.seat(Seat.AUSTRIA, 5), events=[(3, event)])
    assert [(r.turn, r.hex, r.points) for r in austria.reports] == [(3, "0505", 7510)]
    prussia = project(marked_state(), Viewer.seat(Seat.PRUSSIA, 5), events=[(3, event)])
    assert prussia.reports == () and prussia.events == ()


def test_an_earlier_turns_report_goes_with_its_commander_and_is_drawn_once():
    """The tester's map: "271 (turn 1)" stayed in the hex where Nadasy had been seen, beside
    his own Wedel, after Nadasy had marched on. A report of an earlier turn is drawn where its
    force's commander stands now (public, 3.1.1); this turn's stays where it was made; a
    garrison's stays at its city; each force's latest report once."""

    def seen(turn: int, where: str, points: int) -> tuple[int, Event]:
        return turn, Event(
            "8.1", EventKind.RECONNAISSANCE,
            f"Reconnaissance by Daun: Frederick's force at {where} has {points} points.",
            {"hex": where, "army": "prussia", "commander": "frederick", "points": points},
            private(Army.AUSTRIA),
        )  # fmt: skip

    state = marked_state()  # turn 3: Frederick stands at 0505
    austria = Viewer.seat(Seat.AUSTRIA, 5)
    old = map_counters(project(state, austria, events=[seen(1, "0808", 5000)]))
    assert [(c.hex, c.label) for c in old if c.kind == "report"] == [("0505", "5000 (turn 1)")]
    both = map_counters(
        project(state, austria, events=[seen(1, "0808", 5000), seen(2, "0707", 6000)])
    )
    assert [(c.hex, c.label) for c in both if c.kind == "report"] == [("0505", "6000 (turn 2)")]
    now = map_counters(project(state, austria, events=[seen(3, "0606", 7510)]))
    assert [(c.hex, c.label) for c in now if c.kind == "report"] == [("0606", "7510 (turn 3)")]


def test_where_an_army_deployed_stays_secret_until_every_army_has_deployed():
    deployed = Event(
        "3.1.1",
        EventKind.DEPLOYED,
        "Prussia has deployed: Frederick at 0505.",
        {"army": "prussia", "leaders": {"frederick": "0505"}},
    )
    state = State(turn=1, phase=Phase.DEPLOYMENT)
    assert project(state, Viewer.seat(Seat.AUSTRIA, 5), events=[deployed]).events == ()
    assert len(project(state, Viewer.seat(Seat.PRUSSIA, 5), events=[deployed]).events) == 1
    after = State(turn=1, phase=Phase.SUPPLY)
    assert len(project(after, Viewer.seat(Seat.AUSTRIA, 5), events=[deployed]).events) == 1


def test_the_projection_is_pure_python():
    import subprocess
    import sys

    probe = (
        "import campaign.projection, sys; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
