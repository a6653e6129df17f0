"""A march's secret beyond where it stops (6.4.4, 6.4.5, 3.3; issue 42): two marches on the real
map that differ only in the steps the force never took read the same to every other seat, and
differently to the marching seat, who may read where his order meant to go.

The engine plays the march phase twice from one state and one seed: once with an order that
runs past what the MPs allow (or into a closed country), once with the same order cut where the
force stopped. The projection's news and the whole view, as JSON, are compared.
"""

from __future__ import annotations

import doctest
import json

import pytest

from campaign import eventfog
from campaign.projection import Viewer, news_lines, project, view_to_dict
from maps.core.loader import load_map
from rules.armies import Army
from rules.deployment import army_points_from, sample_deployments
from rules.dice import Dice
from rules.events import Event, EventKind
from rules.orders import MarchOrder, Orders
from rules.phases import resolve_phase
from rules.rulesettings import DEFAULT_SETTINGS
from rules.state import Phase, State

pytestmark = pytest.mark.pure

SEED = "stopped-march"


@pytest.fixture(scope="module")
def hexmap():
    return load_map()


@pytest.fixture(scope="module")
def at_march(hexmap):
    """Every army deployed as the book's sample, supplied and allocated its marches."""
    points = army_points_from(Army.SWEDEN, 200, DEFAULT_SETTINGS)
    orders = Orders(deployment=tuple(sample_deployments(hexmap, DEFAULT_SETTINGS, points).values()))
    state = resolve_phase(
        State(army_points=points), Phase.DEPLOYMENT, orders, Dice(SEED), hexmap
    ).state
    for phase in (Phase.SUPPLY, Phase.MARCH_ALLOCATION):
        state = resolve_phase(state, phase, Orders(), Dice(SEED), hexmap).state
    assert state.phase is Phase.MARCH
    return state


def march(state, hexmap, unit, path):
    result = resolve_phase(
        state, Phase.MARCH, Orders(march=(MarchOrder(unit, tuple(path)),)),
        Dice(SEED + ":march"), hexmap,
    )  # fmt: skip
    return result.state, list(result.events)


def seen(state, events, armies) -> tuple[list[str], str]:
    viewer = Viewer.for_armies(armies)
    view = view_to_dict(project(state, viewer, events=[(state.turn, e) for e in events]))
    return news_lines(state, viewer, events=events), json.dumps(view, sort_keys=True)


def stopped_pair(state, hexmap, army, direction, steps=40):
    """(events of the long order, events of the order cut where it stopped, the stop's text)
    for the first force of ``army`` whose long march in ``direction`` stops short."""
    for force in state.forces():
        if force.commander.army is not army:
            continue
        unit = force.commander.key
        after, long = march(state, hexmap, unit, [direction] * steps)
        stop = next((e for e in long if e.kind is EventKind.STOPPED), None)
        if stop is None or not stop.data.get("hexes"):
            continue
        cut_after, cut = march(state, hexmap, unit, [direction] * stop.data["hexes"])
        return (after, long), (cut_after, cut), stop
    pytest.fail(f"no force of {army.value} stops short marching in direction {direction}")


@pytest.mark.parametrize(
    ("army", "direction"),
    [(Army.FRANCE, 4), (Army.FRANCE, 1), (Army.AUSTRIA, 1), (Army.RUSSIA, 1)],
)
def test_where_a_stopped_march_meant_to_go_is_the_marching_seats_alone(
    hexmap, at_march, army, direction
):
    (state_long, long), (state_cut, cut), stop = stopped_pair(at_march, hexmap, army, direction)
    assert state_long == state_cut  # the same march on the map
    enemy = Army.PRUSSIA if army is not Army.PRUSSIA else Army.AUSTRIA
    assert seen(state_long, long, [enemy.value]) == seen(state_cut, cut, [enemy.value]), stop.text
    # The control: the marching seat reads why its force stopped, and the cut order did not.
    own_long, _ = seen(state_long, long, [army.value])
    own_cut, _ = seen(state_cut, cut, [army.value])
    assert own_long != own_cut
    assert any("; it " in line for line in own_long)


def test_a_march_stopped_at_its_first_step_is_not_news_to_the_enemy(hexmap, at_march):
    """A force that never left its hex reads to the enemy as a force with no order. Every
    force's first step in each direction is tried; those stopped at once are compared."""
    compared = 0
    for force in at_march.forces():
        unit, army = force.commander.key, force.commander.army
        enemy = "austria" if army is Army.PRUSSIA else "prussia"
        for direction in range(1, 7):
            after, events = march(at_march, hexmap, unit, [direction] * 3)
            stop = next((e for e in events if e.kind is EventKind.STOPPED), None)
            if stop is None or stop.data.get("hexes"):
                continue
            still, none = march(at_march, hexmap, unit, [])
            assert seen(after, events, [enemy]) == seen(still, none, [enemy]), stop.text
            assert seen(after, events, [army.value]) != seen(still, none, [army.value])
            compared += 1
    assert compared > 0  # the sample deployment has forces by a border or an impassable hex


def test_no_stop_of_any_force_in_any_direction_tells_the_enemy_where_it_meant_to_go(
    hexmap, at_march
):
    """Every force of the sample deployment marched 40 steps in each of the six directions:
    every stop short (terrain, MPs, an enemy-occupied hex beyond the MPs, a closed country)
    reads to the enemy as the order cut where the force stopped."""
    reasons = set()
    for force in at_march.forces():
        unit, army = force.commander.key, force.commander.army
        enemy = "austria" if army is Army.PRUSSIA else "prussia"
        for direction in range(1, 7):
            after, long = march(at_march, hexmap, unit, [direction] * 40)
            stop = next((e for e in long if e.kind is EventKind.STOPPED), None)
            if stop is None:
                continue
            cut_after, cut = march(at_march, hexmap, unit, [direction] * stop.data["hexes"])
            assert seen(after, long, [enemy]) == seen(cut_after, cut, [enemy]), stop.text
            reasons.add(stop.rule)
    assert reasons >= {"3.3", "6.4.4", "6.4.5"}


@pytest.mark.parametrize(
    ("text", "seen_as"),
    [
        ("French force under D'Estrees stays at 1331; it may not enter United Provinces (3.3).",
         None),
        ("French force under D'Estrees stays at 1331 and enters Lille; it may not enter United "
         "Provinces (3.3).", "French force under D'Estrees stays at 1331 and enters Lille."),
        ("French force under D'Estrees stays at 1331, leaving the fortress; it may not enter "
         "United Provinces (3.3).",
         "French force under D'Estrees stays at 1331, leaving the fortress."),
    ],
)  # fmt: skip
def test_a_force_stopped_in_its_hex_is_seen_only_entering_or_leaving_its_fortress(text, seen_as):
    """What the enemy sees of a force that never left its hex: a fortress entered or left (the
    counter moves in or out), never the step it meant to take."""
    data = {"leader": "d-estrees", "from": "1331", "to": "1331", "hexes": 0, "phase": "march"}
    event = Event("3.3", EventKind.STOPPED, text, {**data, "stopped": True})
    seen = eventfog.stopped_march_as_seen(event, frozenset({Army.PRUSSIA}))
    assert (seen.text if seen else None) == seen_as


def test_the_event_fog_doctests():
    assert doctest.testmod(eventfog).failed == 0
