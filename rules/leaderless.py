"""Points left without a leader of their country after a battle (9.5, 6.2.3, 10.2).

"A force without a leader of the same country after a battle is demoralized (see 10.2) even if it
won." Such points (``State.leaderless``) stay in the hex, demoralized, and cannot move: "Points
without a leader cannot be moved. They can only be moved by a leader of the same country" (6.2.3).
They occupy the hex like a force (``Board.force_hexes``: supply lines 5.2.3, 5.2.6, the +2 MPs and
stop of 6.4.4, retreats 10.1.5), trace supply and suffer attrition, and are seen by reconnaissance
like a garrison without a leader (8.2). A leader of their country who ends a march, forced march
or retreat outside in their hex takes them under command, and his force is demoralized with them
(10.2.3) until it rallies (10.3). An enemy force outside in their hex at the battle phase, with
no force of their alliance there, takes them prisoner (9, 13.2): with no leader they can neither
fight nor retire. docs/rules-interpretations.md (9.5) gives the reasons.
"""

from __future__ import annotations

import dataclasses

from rules.armies import ADJECTIVES, Army
from rules.events import Event, EventKind, private
from rules.sides import retreating_leaders, sides_at
from rules.state import LeaderlessPoints, Prisoners, State


def add_leaderless(state: State, army: Army, hex_id: str, points: int, supplied: bool) -> State:
    """Leave ``points`` of ``army`` without a leader in ``hex_id`` (merged with any there)."""
    old = sum(p.points for p in state.leaderless if p.army is army and p.hex == hex_id)
    kept = [p for p in state.leaderless if not (p.army is army and p.hex == hex_id)]
    kept.append(LeaderlessPoints(army, hex_id, old + points, supplied))
    kept.sort(key=lambda p: (p.hex, p.army.value))
    return dataclasses.replace(state, leaderless=tuple(kept))


def join_leaderless(state: State) -> tuple[State, list[Event]]:
    """6.2.3, 9.5: a leader of their country outside in the hex takes the points under his
    command (the highest-ranking one there); his force is demoralized with them (10.2.3)."""
    if not state.leaderless:
        return state, []
    events = []
    kept = []
    for p in state.leaderless:
        leaders = sorted(
            (x for x in state.leaders_at(p.hex) if x.army is p.army and not x.inside),
            key=lambda x: x.rank,
        )
        if not leaders:
            kept.append(p)
            continue
        chief = leaders[0]
        state = state.with_leader(chief.key, points=chief.points + p.points)
        state = state.with_leaders(
            dataclasses.replace(state.leader(x.key), demoralized=True) for x in leaders
        )
        events.append(
            Event(
                "9.5",
                EventKind.DEMORALIZED,
                f"{chief.table.name} takes under his command the {p.points} demoralized "
                f"{ADJECTIVES[p.army]} points left without a leader at {p.hex}; his force is "
                "demoralized with them until it rallies (6.2.3, 9.5, 10.2.3).",
                {"leader": chief.key, "hex": p.hex, "points": p.points},
                private(p.army),
            )
        )
    return dataclasses.replace(state, leaderless=tuple(kept)), events


def capture_leaderless(state: State) -> tuple[State, list[Event]]:
    """9, 13.2: points without a leader with an enemy force outside in their hex and no force of
    their own alliance there are taken prisoner by the enemy commander's army (9.2)."""
    if not state.leaderless:
        return state, []
    events = []
    kept = []
    prisoners = list(state.prisoners)
    for p in state.leaderless:
        sides = sides_at(state, p.hex, exclude=retreating_leaders(state))
        own = state.alliance_of(p.army)
        enemy = [s for a, s in sides.items() if a is not own]
        if own in sides or not enemy:
            kept.append(p)
            continue
        by = enemy[0].commander.army
        prisoners.append(Prisoners(p.army, by, p.points))
        events.append(
            Event(
                "9",
                EventKind.PRISONERS,
                f"The {p.points} {ADJECTIVES[p.army]} points without a leader at {p.hex} cannot "
                f"fight or retire: they are taken prisoner by the {ADJECTIVES[by]} army "
                "(9, 9.5, 13.2).",
                {"hex": p.hex, "army": p.army.value, "points": p.points, "by": by.value},
                private(p.army, by),
            )
        )
    return dataclasses.replace(state, leaderless=tuple(kept), prisoners=tuple(prisoners)), events
