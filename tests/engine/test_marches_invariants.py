"""Invariants of simultaneous movement, checked over many random orders on the real map: points
are never lost or made by marching, nobody without an order moves, nobody spends more MPs than
his marches give, and every force ends on a hex a force may stand on."""

import dataclasses
import random

import pytest

from maps.core.hexgrid import parse_hex_id
from maps.core.loader import load_map
from rules.armies import CLOSED_NEUTRALS, Army
from rules.deployment import army_points_from, sample_deployments
from rules.dice import Dice
from rules.movers import march_mp
from rules.orders import ForcedMarchOrder, MarchOrder, Orders
from rules.phases import resolve_phase
from rules.rulesettings import DEFAULT_SETTINGS
from rules.state import Phase, State

pytestmark = pytest.mark.pure


@pytest.fixture(scope="module")
def start():
    hexmap = load_map()
    points = army_points_from(Army.SWEDEN, 300, DEFAULT_SETTINGS)
    orders = Orders(deployment=tuple(sample_deployments(hexmap, DEFAULT_SETTINGS, points).values()))
    state = State(army_points=points)
    state = resolve_phase(state, Phase.DEPLOYMENT, orders, Dice("i"), hexmap).state
    dice = Dice("invariants")
    state = resolve_phase(state, Phase.SUPPLY, Orders(), dice, hexmap).state
    state = resolve_phase(state, Phase.MARCH_ALLOCATION, Orders(), dice, hexmap).state
    marches = {a.value: 20 for a in Army if a.value in DEFAULT_SETTINGS.march_dice}
    return hexmap, dataclasses.replace(state, marches=marches)


def random_orders(state, rng):
    march = []
    for force in state.forces():
        if rng.random() < 0.2:
            continue
        x = force.commander
        path = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 9)))
        marches = rng.choice([1, 2]) if x.table.two_marches else 1
        march.append(MarchOrder(x.key, path, marches=marches))
    for t in state.siege_trains:
        if rng.random() < 0.5:
            march.append(MarchOrder(t.id, tuple(rng.randint(1, 6) for _ in range(3))))
    return Orders(march=tuple(march))


def total_points(state):
    return sum(x.points for x in state.leaders) + sum(g.points for g in state.garrisons)


@pytest.mark.parametrize("seed", range(12))
def test_random_marches_keep_the_invariants(start, seed):
    hexmap, state = start
    rng = random.Random(seed)
    orders = random_orders(state, rng)
    result = resolve_phase(state, Phase.MARCH, orders, Dice(f"s{seed}"), hexmap)
    after = result.state
    assert total_points(after) == total_points(state)
    assert sum(x.moved for x in after.leaders) >= len(after.leaders) // 3
    ordered = {o.unit for o in orders.march}
    moved_with = set()
    for o in orders.march:
        if state.has_leader(o.unit):
            moved_with |= {y.key for y in state.force_of(o.unit).leaders}
    for x in after.leaders:
        before = state.leader(x.key)
        h = parse_hex_id(x.hex)
        assert hexmap.terrain(h).passable
        assert hexmap.area(h) not in CLOSED_NEUTRALS
        if x.key not in moved_with:
            assert x.hex == before.hex, f"{x.key} moved without an order"
        budget = march_mp(before.supplied, state.turn, DEFAULT_SETTINGS, DEFAULT_SETTINGS.march_mp)
        assert x.second_march_mp <= budget
    for t in after.siege_trains:
        if t.id not in ordered:
            assert t.hex == state.siege_train(t.id).hex
    for e in result.events:
        if e.kind.value in ("marched", "stopped") and "mp" in e.data:
            assert e.data["mp"] <= 2 * DEFAULT_SETTINGS.march_mp


@pytest.mark.parametrize("seed", range(6))
def test_random_forced_marches_keep_the_invariants(start, seed):
    hexmap, state = start
    rng = random.Random(100 + seed)
    state = resolve_phase(state, Phase.MARCH, random_orders(state, rng), Dice("m"), hexmap).state
    forced = tuple(
        ForcedMarchOrder(f.commander.key, tuple(rng.randint(1, 6) for _ in range(4)))
        for f in state.forces()
        if rng.random() < 0.5 and not f.commander.dropped_off
    )
    orders = Orders(forced_march=forced)
    result = resolve_phase(state, Phase.FORCED_MARCH, orders, Dice("f"), hexmap)
    assert total_points(result.state) == total_points(state)
    for x in result.state.leaders:
        assert x.forced_march_mp <= DEFAULT_SETTINGS.forced_march_mp
        if x.hex != state.leader(x.key).hex:
            assert x.forced_marched
    for hex_id, army in result.state.forced_march_arrivals:
        here = {y.army for y in result.state.leaders_at(hex_id)}
        assert Army(army) in here
