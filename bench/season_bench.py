"""Bench: a whole season (18 turns, nine phases each) of a seven-army campaign on the bundled map
of Central Europe, played by the automatic players with the tabletop stand-in
(rules/autoplay.py). The aim is under 10 s a season.

    .venv/bin/python bench/season_bench.py [--runs 3] [--seed season]

Prints the median wall time of a season, the time per phase (the automatic players' time to
write the orders included), and what happened.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maps.core.loader import load_map  # noqa: E402
from rules.autoplay import play_season  # noqa: E402
from rules.events import EventKind  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", default="season")
    args = parser.parse_args()
    t0 = time.perf_counter()
    hexmap = load_map()
    print(
        f"map {hexmap.name}: {len(hexmap.hexes)} hexes, {len(hexmap.fortresses)} fortresses "
        f"(loaded in {(time.perf_counter() - t0) * 1000:.0f} ms)"
    )
    totals = []
    per_phase: dict[str, float] = collections.defaultdict(float)
    season = None
    for run in range(args.runs):
        last = [time.perf_counter()]

        def tick(state, phase, last=last, run=run):
            now = time.perf_counter()
            if run == 0:
                per_phase[phase.value] += now - last[0]
            last[0] = now

        t0 = time.perf_counter()
        season = play_season(hexmap, seed=args.seed, on_phase=tick)
        totals.append(time.perf_counter() - t0)
    assert season is not None and season.table is not None
    print(
        f"a season of {season.state.turn} turns, {season.resolutions} phase resolutions: "
        f"median {statistics.median(totals):.2f} s (min {min(totals):.2f}, "
        f"max {max(totals):.2f}, {args.runs} runs; aim: under 10 s)"
    )
    print("time per phase over the season (first run):")
    for phase, seconds in sorted(per_phase.items(), key=lambda kv: -kv[1]):
        print(f"  {phase:<16} {seconds * 1000:8.1f} ms")
    kinds = collections.Counter(e.kind for e in season.events)
    shown = [
        EventKind.BATTLE,
        EventKind.NO_BATTLE,
        EventKind.RETIRED,
        EventKind.ROUTED,
        EventKind.RETREAT,
        EventKind.BLOCKADE,
        EventKind.SIEGE,
        EventKind.BREACH,
        EventKind.HONORS_OF_WAR,
        EventKind.SURRENDER,
        EventKind.FORTRESS_CAPTURED,
        EventKind.RALLIED,
        EventKind.RALLY_FAILED,
    ]
    print("events: " + ", ".join(f"{k.value} {kinds[k]}" for k in shown))
    table = season.table.to_dict()
    print(
        "final table: "
        + ", ".join(f"{r['seat']} {r['total']}" for r in table["rows"])
        + f"; winners {', '.join(table['winners'])}"
    )


if __name__ == "__main__":
    main()
