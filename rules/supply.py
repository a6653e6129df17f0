"""Supply (5, 5.1, 5.2, 5.3, 11.4): which forces are supplied for the whole turn.

A force is supplied if a supply line reaches its hex from a friendly garrisoned fortress, either
over land within 10 MPs paying terrain costs (5.2.1), or along rivers, coasts and lake shores for
any distance (5.2.2); never a mixture of the two. One search per alliance and method answers for
every force at once: a multi-source search from all the alliance's supply sources.
"""

from __future__ import annotations

import dataclasses
import heapq
from dataclasses import dataclass

from maps.core.hexgrid import Hex, hex_id, parse_hex_id, within
from maps.core.model import HexMap
from maps.core.paths import water_reach
from rules.armies import ADJECTIVES, Alliance, Army
from rules.board import Board
from rules.dice import Dice
from rules.events import Event, EventKind, mps, private
from rules.orders import Orders
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.state import LeaderState, State


@dataclass(frozen=True)
class SupplyMap:
    """The hexes an alliance can supply this turn, by land (with the MPs) and by water."""

    alliance: Alliance
    sources: frozenset[Hex]
    land: dict[Hex, int]
    water: frozenset[Hex]

    def supplied(self, h: Hex) -> bool:
        return h in self.land or h in self.water

    def how(self, h: Hex) -> str | None:
        if h in self.land:
            return "land"
        if h in self.water:
            return "water"
        return None


def croat_screen(board: Board, radius: int = 1) -> set[Hex]:
    """Hexes of the Croat screen (5.3): the hexes around every Austrian force (``radius`` 1: the
    six surrounding hexes), except hexes occupied by an enemy force, and none at all around an
    Austrian force sharing its hex with an enemy force. Garrisons without a leader have none."""
    screen: set[Hex] = set()
    enemy_forces = board.enemy_force_hexes(board.state.alliance_of(Army.AUSTRIA))
    for x in board.state.leaders:
        if x.army is not Army.AUSTRIA:
            continue
        h = parse_hex_id(x.hex)
        if h in enemy_forces:
            continue
        for n in within(h, radius):
            if n != h and n not in enemy_forces:
                screen.add(n)
    return screen


def supply_sources(board: Board, alliance: Alliance) -> set[Hex]:
    """Fortresses garrisoned by the alliance (5, 5.2.7) with no enemy force in their hex
    (5.2.6; a blockaded or besieged fortress supplies only its inside, 11.4)."""
    enemy_forces = board.enemy_force_hexes(alliance)
    sources = set()
    for city in board.hexmap.fortresses:
        if city.hex in board.closed_hexes or city.hex in enemy_forces:
            continue
        if any(board.state.alliance_of(a) is alliance for a in board.garrisoned_by(city.hex)):
            sources.add(city.hex)
    return sources


def blocking_hexes(board: Board, alliance: Alliance, radius: int = 1) -> set[Hex]:
    """Hexes a supply line may enter but not leave (5.2.3, 5.2.4, 5.3)."""
    blocking = board.enemy_occupied(alliance)
    if alliance is not board.state.alliance_of(Army.AUSTRIA):
        blocking |= croat_screen(board, radius)
    return blocking


def supply_map(board: Board, alliance: Alliance, settings: RuleSettings) -> SupplyMap:
    hexmap = board.hexmap
    blocking = blocking_hexes(board, alliance, settings.croat_screen_range)
    # 5.3 with 5.2.3 and 5.2.6: a fortress in a Croat screen hex is cut off "as if there was an
    # Austrian force" there; a line may not leave its hex, by land as by water.
    sources = supply_sources(board, alliance) - blocking
    closed = board.closed_hexes
    enemy_forts = frozenset(board.enemy_fortresses(alliance))

    land = land_reach(hexmap, sources, settings.supply_land_mp, blocking, closed, enemy_forts)

    water = water_reach(hexmap, sorted(sources), stop_at=blocking | closed)
    return SupplyMap(alliance, frozenset(sources), land, frozenset(water - closed))


def land_reach(
    hexmap: HexMap,
    sources: set[Hex],
    max_mp: int,
    blocking: set[Hex],
    closed: frozenset[Hex],
    enemy_forts: frozenset[Hex],
) -> dict[Hex, int]:
    """Hexes a land supply line reaches from any source within ``max_mp`` (5, 5.2.1, 5.2.3).

    Dijkstra over the map's precomputed steps (terrain, roads, rivers, bridges of 2.2), with no
    +2 for enemy-occupied hexes (5.2.1); a line may enter a blocking hex but not leave it, and may
    not enter Denmark or the United Provinces (3.3). A bridge into an enemy-held fortress costs
    its 2 MPs as for a force.
    """
    best: dict[Hex, int] = {}
    heap: list[tuple[int, int, Hex]] = []
    for h in sorted(sources):
        best[h] = 0
        heap.append((0, h.r * 10000 + h.q, h))
    heapq.heapify(heap)
    bridge_cost = 2
    # An entry is current while its cost is the hex's best (a better one pushed later makes it
    # stale); every best is within ``max_mp``, so beating it is the whole test.
    steps, pop, push, beyond = hexmap.steps, heapq.heappop, heapq.heappush, max_mp + 1
    while heap:
        spent, _tie, h = pop(heap)
        if spent != best[h] or h in blocking:
            continue
        for _d, to, cost, bridged in steps(h):
            if to in closed:
                continue
            if bridged and to in enemy_forts:
                cost += bridge_cost
            total = spent + cost
            if total < best.get(to, beyond):
                best[to] = total
                push(heap, (total, to.r * 10000 + to.q, to))
    return best


def supply_maps(board: Board, settings: RuleSettings) -> dict[Alliance, SupplyMap]:
    return {a: supply_map(board, a, settings) for a in Alliance}


def start_of_turn(state: State) -> State:
    """Clear the per-turn records of the last turn; every force has stood one more turn."""
    leaders = tuple(
        dataclasses.replace(
            x,
            turns_in_hex=x.turns_in_hex + 1,
            marched=False,
            forced_marched=False,
            moved=False,
            dropped_off=False,
            halted=False,
            sallied=False,
            second_march_mp=0,
            forced_march_mp=0,
            hexes_marched=0,
        )
        for x in state.leaders
    )
    trains = tuple(dataclasses.replace(t, moved=False) for t in state.siege_trains)
    return dataclasses.replace(
        state, leaders=leaders, siege_trains=trains, marches={}, forced_march_arrivals=()
    )


def supply_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 1 (5): fix the supply state of every force for the turn."""
    state = start_of_turn(state)
    board = Board(state, hexmap)
    maps = supply_maps(board, settings)
    events: list[Event] = []
    updated: list[LeaderState] = []
    for force in state.forces():
        h = parse_hex_id(force.hex)
        smap = maps[state.alliance_of(force.army)]
        if force.inside:
            supplied, how, rule = True, "inside a fortress", "5.2.5"
        else:
            method = smap.how(h)
            supplied = method is not None
            rule = "5"
            how = (
                f"by land, {mps(smap.land[h])} from a friendly fortress"
                if method == "land"
                else "by river or coast"
                if method == "water"
                else "no supply line reaches it"
            )
        name = force.commander.table.name
        noun = f"{ADJECTIVES[force.army]} force under {name} at {force.hex}"
        data = {
            "leader": force.commander.key,
            "hex": force.hex,
            "supplied": supplied,
            "how": how,
            "land_mp": smap.land.get(h),
        }
        if supplied:
            events.append(
                Event(
                    rule,
                    EventKind.SUPPLIED,
                    f"The {noun} is supplied ({how}).",
                    data,
                    private(force.army),
                )
            )
        else:
            events.append(
                Event(
                    "5.1",
                    EventKind.UNSUPPLIED,
                    f"The {noun} is unsupplied: {how}. It loses 1 MP per march (5.1.1) and 10% "
                    "of its points in the attrition phase (5.1.2).",
                    data,
                )
            )
        updated.extend(dataclasses.replace(x, supplied=supplied) for x in force.leaders)
    # 9.5: points left without a leader trace supply like a force.
    leaderless = tuple(
        dataclasses.replace(
            p, supplied=maps[state.alliance_of(p.army)].supplied(parse_hex_id(p.hex))
        )
        for p in state.leaderless
    )
    state = dataclasses.replace(state.with_leaders(updated), leaderless=leaderless)
    return Resolution(state, tuple(events))


def supplied_hexes(state: State, hexmap: HexMap, settings: RuleSettings, army: Army) -> set[str]:
    """Hex ids an army's alliance supplies right now (for maps and briefings)."""
    smap = supply_map(Board(state, hexmap), state.alliance_of(army), settings)
    return {hex_id(h) for h in set(smap.land) | set(smap.water)}
