"""Bench: phases 1-6 of a full turn (supply to reconnaissance) of a seven-army campaign on the
bundled map of Central Europe, every leader, garrison and siege train deployed.

    .venv/bin/python bench/engine_bench.py [--runs 15]

Prints the median time of the six phases, each phase's median, and the supply phase against a
naive tracer that runs one search per force (the engine runs one search per alliance and
method, whatever the number of forces and fortresses).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maps.core.hexgrid import parse_hex_id  # noqa: E402
from maps.core.loader import load_map  # noqa: E402
from maps.core.paths import reachable  # noqa: E402
from rules.armies import Army  # noqa: E402
from rules.board import Board  # noqa: E402
from rules.deployment import army_points_from, sample_deployments  # noqa: E402
from rules.dice import Dice  # noqa: E402
from rules.orders import ForcedMarchOrder, MarchOrder, Orders  # noqa: E402
from rules.phases import resolve_phase  # noqa: E402
from rules.rulesettings import DEFAULT_SETTINGS  # noqa: E402
from rules.state import Phase, State, state_from_dict, state_to_dict  # noqa: E402
from rules.supply import blocking_hexes, supply_maps, supply_sources  # noqa: E402

PHASES = [
    Phase.SUPPLY,
    Phase.MARCH_ALLOCATION,
    Phase.MARCH,
    Phase.FORCED_MARCH,
    Phase.ATTRITION,
    Phase.RECONNAISSANCE,
]


def deployed_campaign(hexmap):
    settings = DEFAULT_SETTINGS
    points = army_points_from(Army.SWEDEN, 300, settings)
    state = State(army_points=points)
    orders = Orders(deployment=tuple(sample_deployments(hexmap, settings, points).values()))
    result = resolve_phase(state, Phase.DEPLOYMENT, orders, Dice("bench"), hexmap, settings)
    assert result.state.phase is Phase.SUPPLY, [e.text for e in result.events]
    return result.state


def turn_orders(state: State) -> Orders:
    """Every force marches (as far as the marches go), a few force march."""
    march, forced = [], []
    for i, force in enumerate(state.forces()):
        path = ["4-4-4", "1-1-1", "2-3-2", "5-6-5", "3-3", "6-6"][i % 6]
        marches = 2 if force.commander.table.two_marches else 1
        march.append(
            MarchOrder(force.commander.key, tuple(int(c) for c in path.split("-")), marches=marches)
        )
        if i % 4 == 0:
            forced.append(ForcedMarchOrder(force.commander.key, (4, 4)))
    for t in state.siege_trains:
        march.append(MarchOrder(t.id, (4,)))
    return Orders(march=tuple(march), forced_march=tuple(forced))


def one_turn(state, orders, hexmap, timings):
    dice = Dice("bench-turn")
    for phase in PHASES:
        t0 = time.perf_counter()
        state = resolve_phase(state, phase, orders, dice, hexmap, DEFAULT_SETTINGS).state
        timings.setdefault(phase, []).append(time.perf_counter() - t0)
    return state


def naive_supply(state, hexmap):
    """One search per force, from the force outwards (what the engine avoids)."""
    board = Board(state, hexmap)
    supplied = 0
    for force in state.forces():
        alliance = force.army.alliance
        sources = supply_sources(board, alliance)
        blocking = blocking_hexes(board, alliance)
        reach = reachable(
            hexmap,
            parse_hex_id(force.hex),
            DEFAULT_SETTINGS.supply_land_mp,
            can_leave=lambda h, b=blocking: h not in b,
        )
        supplied += bool(sources & set(reach))
    return supplied


def median_ms(values):
    return statistics.median(values) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    t0 = time.perf_counter()
    hexmap = load_map()
    load_ms = (time.perf_counter() - t0) * 1000
    state = deployed_campaign(hexmap)
    orders = turn_orders(state)
    forces = len(state.forces())
    print(
        f"map {hexmap.name}: {len(hexmap.hexes)} hexes, {len(hexmap.fortresses)} fortresses "
        f"(loaded in {load_ms:.0f} ms)"
    )
    print(
        f"campaign: {len(state.leaders)} leaders in {forces} forces, {len(state.garrisons)} "
        f"garrisons, {len(state.siege_trains)} siege trains, {len(orders.march)} march orders, "
        f"{len(orders.forced_march)} forced march orders"
    )
    one_turn(state, orders, hexmap, {})  # warm caches
    timings: dict[Phase, list[float]] = {}
    totals = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        one_turn(state, orders, hexmap, timings)
        totals.append(time.perf_counter() - t0)
    print(
        f"phases 1-6 of one turn: median {median_ms(totals):.1f} ms "
        f"(min {min(totals) * 1000:.1f}, max {max(totals) * 1000:.1f}, {args.runs} runs)"
    )
    for phase in PHASES:
        print(f"  {phase.value:<16} {median_ms(timings[phase]):7.2f} ms")
    board_state = resolve_phase(state, Phase.SUPPLY, Orders(), Dice("b"), hexmap).state
    engine_t, naive_t = [], []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        supply_maps(Board(board_state, hexmap), DEFAULT_SETTINGS)
        engine_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        naive_supply(board_state, hexmap)
        naive_t.append(time.perf_counter() - t0)
    land = sum(1 for h in hexmap.hexes if hexmap.terrain(h).passable)
    per_force = median_ms(naive_t) / forces
    print(
        f"supply tracing, {forces} forces, {len(hexmap.fortresses)} fortresses: engine (one "
        f"search per alliance and method, answers every hex) {median_ms(engine_t):.1f} ms; "
        f"naive land-only search per force {median_ms(naive_t):.1f} ms "
        f"({per_force:.2f} ms a force, so {per_force * land / 1000:.1f} s for a supply overlay "
        f"of all {land} land hexes)"
    )
    scaling(board_state, hexmap, max(3, args.runs // 3))
    serialisation(board_state, args.runs)


def scaling(state, hexmap, runs):
    """Supply tracing against the number of forces: the engine's cost stays flat, one search per
    force grows with them."""
    print("supply tracing by number of forces (engine / one search per force), ms:")
    leaders = list(state.leaders)
    for share in (0.25, 0.5, 1.0):
        kept = dataclasses.replace(
            state, leaders=tuple(leaders[: max(1, int(len(leaders) * share))])
        )
        forces = len(kept.forces())
        engine_t, naive_t = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            supply_maps(Board(kept, hexmap), DEFAULT_SETTINGS)
            engine_t.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            naive_supply(kept, hexmap)
            naive_t.append(time.perf_counter() - t0)
        print(f"  {forces:3d} forces: {median_ms(engine_t):6.1f} / {median_ms(naive_t):6.1f}")


def serialisation(state, runs):
    t_out, t_in = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        data = json.dumps(state_to_dict(state))
        t_out.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        state_from_dict(json.loads(data))
        t_in.append(time.perf_counter() - t0)
    print(
        f"state JSON ({len(data) // 1024} KiB): write {median_ms(t_out):.2f} ms, "
        f"read {median_ms(t_in):.2f} ms"
    )


if __name__ == "__main__":
    main()
