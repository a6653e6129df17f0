"""Least-cost paths and reach over the hex map: the basis of movement, supply lines and retreats.

Searches are Dijkstra's algorithm over movement points. Ties are broken the same way every time:
by cost, then by the order in which hexes were reached, neighbours being tried in direction-code
order (1 W to 6 SW). So a search with the same inputs always gives the same path.

A search takes an optional ``cost(frm, d, to) -> int | None`` (None: the step is not allowed) and an
optional ``can_leave(h) -> bool`` (False: a line may enter ``h`` but not go on from it, as supply
lines and forces entering an enemy-occupied hex, 5.2.3 and 6.4.4).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from maps.core.hexgrid import Hex, Side, distance
from maps.core.model import HexMap

StepCost = Callable[[Hex, int, Hex], "int | None"]
CanLeave = Callable[[Hex], bool]


def enemy_aware_cost(
    hexmap: HexMap,
    enemy_occupied: Iterable[Hex] = (),
    enemy_fortresses: Iterable[Hex] = (),
    *,
    enemy_surcharge: bool = True,
) -> StepCost:
    """A step cost by the Terrain Effects Chart with enemy-occupied hexes and fortresses known.

    ``enemy_surcharge=False`` leaves out the +2 for entering an enemy-occupied hex, as supply lines
    do (5.2.1).
    """
    enemies = frozenset(enemy_occupied) if enemy_surcharge else frozenset()
    forts = frozenset(enemy_fortresses)

    def cost(frm: Hex, d: int, to: Hex) -> int | None:
        return hexmap.enter_cost(frm, d, enemy_occupied=enemies, enemy_fortresses=forts)

    return cost


def _search(
    hexmap: HexMap,
    starts: Iterable[Hex],
    max_mp: float,
    cost: StepCost | None,
    can_leave: CanLeave | None,
    goal: Hex | None = None,
    avoid: frozenset[Hex] | set[Hex] = frozenset(),
) -> tuple[dict[Hex, int], dict[Hex, Hex]]:
    best: dict[Hex, int] = {}
    came_from: dict[Hex, Hex] = {}
    heap: list[tuple[int, int, Hex]] = []
    seq = 0
    for s in starts:
        if s in hexmap and s not in best:
            best[s] = 0
            heap.append((0, seq, s))
            seq += 1
    heapq.heapify(heap)
    done: set[Hex] = set()
    start_set = set(best)
    while heap:
        spent, _, h = heapq.heappop(heap)
        if h in done:
            continue
        done.add(h)
        if h == goal:
            break
        if can_leave is not None and h not in start_set and not can_leave(h):
            continue
        for d, to, base, _bridged in hexmap.steps(h):
            if to in avoid:
                continue
            step = base if cost is None else cost(h, d, to)
            if step is None:
                continue
            total = spent + step
            if total > max_mp:
                continue
            if total < best.get(to, total + 1):
                best[to] = total
                came_from[to] = h
                heapq.heappush(heap, (total, seq, to))
                seq += 1
    return best, came_from


def reachable(
    hexmap: HexMap,
    start: Hex | Iterable[Hex],
    max_mp: float,
    *,
    cost: StepCost | None = None,
    can_leave: CanLeave | None = None,
) -> dict[Hex, int]:
    """Every hex reachable from ``start`` (a hex or several) within ``max_mp``, with its cost.

    >>> from maps.core.compact import compact_map
    >>> from maps.core.hexgrid import parse_hex_id, hex_id
    >>> m = compact_map({"terrain": ["c c c c"]})
    >>> sorted(hex_id(h) for h in reachable(m, parse_hex_id("0101"), 4))
    ['0101', '0201', '0301']
    """
    starts = [start] if isinstance(start, Hex) else list(start)
    best, _ = _search(hexmap, starts, max_mp, cost, can_leave)
    return best


def reachable_paths(
    hexmap: HexMap,
    start: Hex,
    max_mp: float,
    *,
    cost: StepCost | None = None,
    can_leave: CanLeave | None = None,
) -> dict[Hex, tuple[int, list[Hex]]]:
    """``reachable`` with the cheapest path to each hex (start included), from one search.

    >>> from maps.core.compact import compact_map
    >>> from maps.core.hexgrid import parse_hex_id, hex_id
    >>> m = compact_map({"terrain": ["c c c c"]})
    >>> mp, line = reachable_paths(m, parse_hex_id("0101"), 4)[parse_hex_id("0301")]
    >>> mp, [hex_id(h) for h in line]
    (4, ['0101', '0201', '0301'])
    """
    best, came_from = _search(hexmap, [start], max_mp, cost, can_leave)
    out: dict[Hex, tuple[int, list[Hex]]] = {}
    for h, mp in best.items():
        line = [h]
        while line[-1] != start:
            line.append(came_from[line[-1]])
        line.reverse()
        out[h] = (mp, line)
    return out


def least_cost_path(
    hexmap: HexMap,
    a: Hex,
    b: Hex,
    *,
    cost: StepCost | None = None,
    can_leave: CanLeave | None = None,
    max_mp: float = float("inf"),
    avoid: frozenset[Hex] | set[Hex] = frozenset(),
) -> list[Hex] | None:
    """The cheapest path from ``a`` to ``b`` (both included), or None if there is none.
    ``avoid``: hexes the path may not enter (the same as a ``cost`` that refuses them, without
    a call for every step)."""
    best, came_from = _search(hexmap, [a], max_mp, cost, can_leave, goal=b, avoid=avoid)
    if b not in best:
        return None
    path = [b]
    while path[-1] != a:
        path.append(came_from[path[-1]])
    path.reverse()
    return path


def path_cost(hexmap: HexMap, path: list[Hex], *, cost: StepCost | None = None) -> int | None:
    """MPs to follow ``path`` (hex by hex), or None if a step is impossible."""
    total = 0
    for frm, to in zip(path, path[1:], strict=False):
        step = None
        for d, nxt, base, _bridged in hexmap.steps(frm):
            if nxt == to:
                step = base if cost is None else cost(frm, d, to)
                break
        if step is None:
            return None
        total += step
    return total


def nearest(
    hexmap: HexMap,
    start: Hex,
    targets: Iterable[Hex],
    *,
    cost: StepCost | None = None,
    can_leave: CanLeave | None = None,
) -> tuple[Hex, int] | None:
    """The target nearest to ``start`` in MPs (ties: the one reached first), or None."""
    wanted = set(targets)
    if start in wanted:
        return start, 0
    best, _ = _search(hexmap, [start], float("inf"), cost, can_leave)
    found = [(mp, distance(start, h), h.r, h.q, h) for h, mp in best.items() if h in wanted]
    if not found:
        return None
    found.sort()
    return found[0][4], found[0][0]


def water_reach(
    hexmap: HexMap,
    sources: Iterable[Hex],
    *,
    stop_at: AbstractSet[Hex] = frozenset(),
) -> set[Hex]:
    """Hexes a supply line reaches by water from ``sources`` (5, 5.2.2, 5.2.3).

    A line follows river, coast and lake-shore hexsides that continue one another, for any
    distance. A source must itself touch water; the hexes reached are those with a reached side.
    A line may reach a side but not go on from it when either of its hexes is in ``stop_at``
    (an enemy-occupied hex). The map's water network is made once (``HexMap.water_network``).
    """
    network = hexmap.water_network()
    frontier: list[Side] = []
    seen: set[Side] = set()
    for h in sources:
        for side in hexmap.water_sides(h):
            if side not in seen:
                seen.add(side)
                frontier.append(side)
    while frontier:
        side = frontier.pop()
        onward, ends, _reached = network[side]
        if not ends.isdisjoint(stop_at):
            continue
        for nxt in onward:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    reached: set[Hex] = set()
    for side in seen:
        reached.update(network[side][2])
    return reached
