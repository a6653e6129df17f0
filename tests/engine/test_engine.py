"""The engine on the bundled map of Central Europe: a deployment of all seven armies, supply
against an independent search, a whole turn of phases 1-6, replays and purity of inputs."""

import dataclasses

import pytest

from maps.core.loader import load_map
from maps.core.paths import least_cost_path, path_cost, reachable
from rules.armies import CONTROLLED_AREAS, Alliance, Army
from rules.board import Board
from rules.deployment import (
    army_points_from,
    check_deployment,
    sample_deployments,
    west_of_rhine,
)
from rules.dice import Dice
from rules.orders import MarchOrder, Orders
from rules.phases import PhaseError, resolve_phase
from rules.rulesettings import DEFAULT_SETTINGS
from rules.state import Phase, State, state_from_dict, state_to_dict
from rules.supply import blocking_hexes, supply_map, supply_sources

pytestmark = pytest.mark.pure

TURN = [
    Phase.SUPPLY,
    Phase.MARCH_ALLOCATION,
    Phase.MARCH,
    Phase.FORCED_MARCH,
    Phase.ATTRITION,
    Phase.RECONNAISSANCE,
]


@pytest.fixture(scope="module")
def hexmap():
    return load_map()


@pytest.fixture(scope="module")
def deployed(hexmap):
    points = army_points_from(Army.SWEDEN, 200, DEFAULT_SETTINGS)
    orders = Orders(deployment=tuple(sample_deployments(hexmap, DEFAULT_SETTINGS, points).values()))
    result = resolve_phase(State(army_points=points), Phase.DEPLOYMENT, orders, Dice("t"), hexmap)
    assert result.state.phase is Phase.SUPPLY, [e.text for e in result.events]
    return result.state


def test_a_deployment_of_the_book_example_is_legal_on_the_real_map(hexmap, deployed):
    assert set(deployed.deployed) == set(Army)
    assert len(deployed.leaders) == sum(DEFAULT_SETTINGS.leaders.values())
    garrisoned = {g.city for g in deployed.garrisons}
    for city in hexmap.fortresses:
        owner = [a for a, areas in CONTROLLED_AREAS.items() if city.area in areas]
        if owner:
            assert city.name in garrisoned, city.name
    assert deployed.control["Berlin"] == "prussia"
    assert deployed.initial_control == deployed.control


def test_the_validator_names_each_broken_restriction_on_the_real_map(hexmap):
    points = army_points_from(Army.SWEDEN, 200, DEFAULT_SETTINGS)
    deps = sample_deployments(hexmap, DEFAULT_SETTINGS, points)
    prussia = deps[Army.PRUSSIA]
    vienna = hexmap.city("Vienna").hex_id
    moved = ((prussia.leaders[0][0], vienna, *prussia.leaders[0][2:]),) + prussia.leaders[1:]
    broken = dataclasses.replace(prussia, leaders=moved, garrisons=prussia.garrisons[1:])
    others = {a: d for a, d in deps.items() if a is not Army.PRUSSIA}
    problems = check_deployment(broken, hexmap, DEFAULT_SETTINGS, points["prussia"], others)
    rules = sorted(p.rule for p in problems)
    assert rules == ["3", "3.2.1", "3.2.3"], problems
    assert any("Vienna" in p.text or "Austria" in p.text for p in problems)


def test_the_left_bank_of_the_rhine(hexmap):
    west = west_of_rhine(hexmap)
    assert hexmap.city("Koblenz").hex in west
    assert hexmap.city("Cologne").hex in west
    assert hexmap.city("Frankfurt").hex not in west
    assert hexmap.city("Dusseldorf").hex not in west


def test_every_force_starts_supplied(hexmap, deployed):
    result = resolve_phase(deployed, Phase.SUPPLY, Orders(), Dice("t"), hexmap)
    assert all(x.supplied for x in result.state.leaders)


def test_land_supply_agrees_with_one_search_per_source(hexmap, deployed):
    board = Board(deployed, hexmap)
    for alliance in Alliance:
        smap = supply_map(board, alliance, DEFAULT_SETTINGS)
        blocking = blocking_hexes(board, alliance)
        closed = board.closed_hexes
        forts = frozenset(board.enemy_fortresses(alliance))
        union: set = set()
        for source in supply_sources(board, alliance):
            union |= set(
                reachable(
                    hexmap,
                    source,
                    DEFAULT_SETTINGS.supply_land_mp,
                    cost=lambda frm, d, to, forts=forts, closed=closed: (
                        None if to in closed else hexmap.enter_cost(frm, d, enemy_fortresses=forts)
                    ),
                    can_leave=lambda h, blocking=blocking: h not in blocking,
                )
            )
        assert set(smap.land) == union


def play_turn(state, hexmap, seed):
    orders = Orders(
        march=tuple(
            MarchOrder(force.commander.key, (4, 4, 5) if i % 2 else (1, 1, 2))
            for i, force in enumerate(state.forces())
        )
    )
    dice = Dice(seed)
    events = []
    for phase in TURN:
        result = resolve_phase(state, phase, orders, dice, hexmap)
        state = result.state
        events.extend(result.events)
    return state, events, dice.log


def test_a_whole_turn_runs_and_never_changes_its_input(hexmap, deployed):
    before = state_to_dict(deployed)
    state, events, rolls = play_turn(deployed, hexmap, "seed-1")
    assert state_to_dict(deployed) == before
    assert state.phase is Phase.BATTLE
    assert any(e.kind.value == "marched" or e.kind.value == "stopped" for e in events)
    assert {r.name for r in rolls} >= {"march-allocation:austria:t1", "march-allocation:prussia:t1"}
    assert state_from_dict(state_to_dict(state)) == state


def test_a_turn_replays_exactly_from_its_seed(hexmap, deployed):
    first = play_turn(deployed, hexmap, "seed-2")
    again = play_turn(deployed, hexmap, "seed-2")
    other = play_turn(deployed, hexmap, "seed-3")
    assert state_to_dict(first[0]) == state_to_dict(again[0])
    assert first[1] == again[1]
    assert [r.total for r in first[2]] != [r.total for r in other[2]] or first[1] != other[1]


def test_a_phase_out_of_turn_is_refused(hexmap, deployed):
    with pytest.raises(PhaseError, match="in the supply phase"):
        resolve_phase(deployed, Phase.MARCH, Orders(), Dice("t"), hexmap)


def test_supply_runs_down_the_elbe_but_not_overland(hexmap):
    """5, 5.2.2: Magdeburg supplies a force at Hamburg by river, far beyond 10 MPs by land; a
    force at Leipzig, off the rivers, is supplied only if Magdeburg is 10 MPs away overland."""
    magdeburg, hamburg = hexmap.city("Magdeburg"), hexmap.city("Hamburg")
    leipzig = hexmap.city("Leipzig")
    state = state_from_dict(
        {
            "phase": "supply",
            "leaders": {
                "lehwaldt": {"hex": hamburg.hex_id, "points": 500},
                "dohna": {"hex": leipzig.hex_id, "points": 300},
            },
            "garrisons": [{"city": "Magdeburg", "army": "prussia", "points": 500}],
        }
    )
    smap = supply_map(Board(state, hexmap), Alliance.PRUSSIAN, DEFAULT_SETTINGS)
    assert hamburg.hex not in smap.land and hamburg.hex in smap.water
    assert magdeburg.hex in smap.sources
    result = resolve_phase(state, Phase.SUPPLY, Orders(), Dice("t"), hexmap)
    assert result.state.leader("lehwaldt").supplied
    assert leipzig.hex not in smap.water
    overland = path_cost(hexmap, least_cost_path(hexmap, magdeburg.hex, leipzig.hex))
    assert result.state.leader("dohna").supplied is (overland <= DEFAULT_SETTINGS.supply_land_mp)
