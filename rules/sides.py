"""Who stands where (9, 9.2): the sides of a hex outside the fortress walls and their commander.

Shared by the battle phase, the siege phase (the besiegers are a side), points without a leader
(9.5) and the retreats; it imports nothing of theirs, so none of them imports another to find a
side.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from rules.armies import Alliance, Army
from rules.state import Force, LeaderState, State


def outnumbers(big: int, small: int, ratio: int) -> bool:
    """``big`` outnumbers ``small`` by ``ratio``:1 or more (9, 10.1.1, 11.1).

    >>> outnumbers(2000, 500, 4), outnumbers(1999, 500, 4), outnumbers(100, 0, 4)
    (True, False, True)
    """
    return big > 0 and big >= ratio * small


@dataclass(frozen=True)
class Side:
    """All forces of one alliance outside the fortress walls in one hex, merged into a single
    army for the battle (9.2)."""

    alliance: Alliance
    forces: tuple[Force, ...]

    @property
    def records(self) -> list[LeaderState]:
        return [x for f in self.forces for x in f.leaders]

    @property
    def points(self) -> int:
        return sum(f.points for f in self.forces)

    def points_by_army(self) -> dict[Army, int]:
        out: dict[Army, int] = {}
        for f in self.forces:
            out[f.army] = out.get(f.army, 0) + f.points
        return out

    @property
    def armies(self) -> tuple[Army, ...]:
        return tuple(f.army for f in self.forces)

    @property
    def commander(self) -> LeaderState:
        return commander_of(self.forces)


def commander_of(forces: Iterable[Force]) -> LeaderState:
    """9.2: the highest-ranking leader of the country with the largest force (ties between
    countries: the country whose leader ranks higher, then the army order)."""
    by_army: dict[Army, list[LeaderState]] = {}
    for f in forces:
        by_army.setdefault(f.army, []).extend(f.leaders)
    army = max(
        by_army,
        key=lambda a: (
            sum(x.points for x in by_army[a]),
            -min(x.rank for x in by_army[a]),
            -list(Army).index(a),
        ),
    )
    return min(by_army[army], key=lambda x: x.rank)


def sides_at(state: State, hex_id: str, exclude: Iterable[str] = ()) -> dict[Alliance, Side]:
    """The sides outside the fortress walls in ``hex_id`` (forces inside never fight, 11.3)."""
    skip = set(exclude)
    out: dict[Alliance, list[Force]] = {}
    for f in state.forces():
        if f.hex != hex_id or f.inside:
            continue
        leaders = tuple(x for x in f.leaders if x.key not in skip)
        if leaders:
            side = out.setdefault(state.alliance_of(f.army), [])
            side.append(dataclasses.replace(f, leaders=leaders))
    return {a: Side(a, tuple(fs)) for a, fs in out.items()}


def retreating_leaders(state: State) -> set[str]:
    return {key for r in state.retreats for key in r.leaders}
