"""Automatic players, for the whole-season test and the bench: legal deployment, random legal
orders, simple battle and honors decisions, and a stand-in for the tabletop.

Nothing here is a rule: it only writes orders and results that the engine then checks and applies
like anyone's. Its randomness comes from ``random.Random(f"{seed}|{what}|t{turn}")``, so the same
seed plays the same season, whatever else happens in between.

The tabletop stand-in (``stand_in_result``): the larger side wins; the loser is defeated outright
when outnumbered 5:4 or more, otherwise it retires with the winner's consent; the loser loses 15%
of its points, the winner 15% of the loser's points shared by size; nobody is killed or captured.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from maps.core.hexgrid import Hex, direction_to, distance, parse_hex_id
from maps.core.model import HexMap
from maps.core.paths import least_cost_path
from rules.armies import Alliance, Army
from rules.board import Board
from rules.deployment import army_points_from, sample_deployments
from rules.dice import Dice
from rules.events import Event
from rules.investment import investments
from rules.orders import (
    BattleDecision,
    BattleResult,
    Choice,
    HonorsDecision,
    MarchOrder,
    Orders,
    Outcome,
)
from rules.phases import resolve_phase
from rules.rulesettings import DEFAULT_SETTINGS, RuleSettings
from rules.sides import sides_at
from rules.state import PendingBattle, Phase, State
from rules.victory import VictoryTable, final_table


def rng(seed: str, what: str, turn: int) -> random.Random:
    return random.Random(f"{seed}|{what}|t{turn}")


def deployment_orders(hexmap: HexMap, settings: RuleSettings, swedish_points: int = 400) -> tuple:
    points = army_points_from(Army.SWEDEN, swedish_points, settings)
    return points, Orders(deployment=tuple(sample_deployments(hexmap, settings, points).values()))


def _codes(path: list[Hex]) -> tuple[int, ...]:
    out = []
    for a, b in zip(path, path[1:], strict=False):
        d = direction_to(a, b)
        if d is None:
            break
        out.append(d)
    return tuple(out)


def march_orders(state: State, hexmap: HexMap, seed: str) -> Orders:
    """Random legal march orders: each force's commander (in rank order, while the army's marches
    last) marches, most often toward the nearest enemy fortress, sometimes toward a friendly one
    or nowhere; each siege train follows its commander-in-chief's line."""
    r = rng(seed, "march", state.turn)
    board = Board(state, hexmap)
    budget = dict(state.marches)
    orders: list[MarchOrder] = []
    closed = board.closed_hexes

    enemy_forts: dict[Alliance, list[Hex]] = {a: [] for a in Alliance}
    for city in hexmap.fortresses:
        owner = state.control.get(city.name)
        if owner is None or city.area in ("Denmark", "United Provinces"):
            continue
        for alliance in Alliance:
            if state.alliance_of(Army(owner)) is not alliance:
                enemy_forts[alliance].append(city.hex)
    lines: dict[Army, tuple[int, ...]] = {}
    for force in sorted(state.forces(), key=lambda f: (f.commander.rank, f.hex)):
        x = force.commander
        pool = force.army.march_pool.value
        if force.inside or x.held_until_turn >= state.turn or budget.get(pool, 0) <= 0:
            continue
        if r.random() < 0.3:
            continue
        h = parse_hex_id(force.hex)
        targets = enemy_forts[state.alliance_of(force.army)]
        if not targets:
            continue
        target = min(targets, key=lambda t: (distance(h, t), t))
        if target == h:
            continue
        path = least_cost_path(hexmap, h, target, avoid=closed, max_mp=40)
        if not path or len(path) < 2:
            continue
        with_train = any(
            t.hex == force.hex and not t.inside and t.army is force.army for t in state.siege_trains
        )
        two = x.table.two_marches and budget[pool] >= 2 and not with_train
        marches = 2 if two and r.random() < 0.5 else 1
        codes = _codes(path[: 1 + 5 * marches])
        if not codes:
            continue
        budget[pool] -= marches
        orders.append(MarchOrder(x.key, codes, marches=marches))
        if x.rank == min(y.rank for y in state.leaders if y.army is force.army):
            lines[force.army] = codes
    for t in sorted(state.siege_trains, key=lambda t: t.id):
        pool = t.army.march_pool.value
        line = lines.get(t.army)
        if t.inside or not line or budget.get(pool, 0) <= 0:
            continue
        cic = min(
            (y for y in state.leaders if y.army is t.army),
            key=lambda y: (y.rank, y.key),
            default=None,
        )
        if cic is None or cic.hex != t.hex:
            continue
        budget[pool] -= 1
        orders.append(MarchOrder(t.id, line))
    return Orders(march=tuple(orders))


def battle_decisions(state: State, seed: str = "") -> Orders:
    """Fight when at least as strong; otherwise, half the time, retire if the force marched
    (else decline)."""
    r = rng(seed, "battle", state.turn)
    decisions = []
    seen: set[str] = set()
    for x in sorted(state.leaders, key=lambda y: (y.hex, y.key)):  # not the state's order
        if x.inside or x.hex in seen:
            continue
        sides = sides_at(state, x.hex)
        if len(sides) < 2:
            continue
        seen.add(x.hex)
        for alliance, side in sides.items():
            enemy = sum(s.points for a, s in sides.items() if a is not alliance)
            for f in side.forces:
                if side.points >= enemy:
                    choice = Choice.FIGHT
                elif any(y.marched for y in f.leaders) and r.random() < 0.5:
                    choice = Choice.RETIRE
                else:
                    choice = Choice.DECLINE
                decisions.append(BattleDecision(x.hex, f.army, choice))
    return Orders(battle=tuple(decisions))


def stand_in_result(state: State, pending: PendingBattle) -> BattleResult:
    """The tabletop stand-in (see the module docstring)."""
    points = {Army(a): p for a, p in pending.points.items()}
    side = {
        a: sum(p for army, p in points.items() if state.alliance_of(army) is a) for a in Alliance
    }
    winner = max(Alliance, key=lambda a: (side[a], a is Alliance.PRUSSIAN))
    loser = winner.opponent
    routed = side[winner] * 4 >= side[loser] * 5
    loser_loss = side[loser] * 15 // 100
    winner_loss = loser_loss * side[loser] // max(side[winner], 1)
    losses = []
    for army, p in sorted(points.items(), key=lambda kv: kv[0].value):
        total, loss = (
            (side[loser], loser_loss)
            if state.alliance_of(army) is loser
            else (side[winner], winner_loss)
        )
        losses.append((army.value, loss * p // max(total, 1)))
    return BattleResult(
        pending.id, loser, Outcome.DEFEATED if routed else Outcome.RETIRED, tuple(losses)
    )


def honors_decisions(state: State, hexmap: HexMap) -> Orders:
    """Deny the honors of war when the besiegers outnumber the garrison 3:1; a garrison denied
    fights when it has at least half the besiegers' points, else surrenders."""
    out = []
    for inv in investments(state, hexmap):
        b, g = inv.besiegers.points, inv.garrison_points
        deny = b >= 3 * g
        out.append(
            HonorsDecision(
                inv.city.name, "deny" if deny else "grant", "fight" if 2 * g >= b else "surrender"
            )
        )
    return Orders(honors=tuple(out))


@dataclass
class Season:
    """A season played by the automatic players."""

    state: State
    events: list[Event] = field(default_factory=list)
    resolutions: int = 0
    battles: int = 0
    table: VictoryTable | None = None


def play_season(
    hexmap: HexMap,
    seed: str = "season",
    settings: RuleSettings = DEFAULT_SETTINGS,
    on_phase: Callable[[State, Phase], None] | None = None,
) -> Season:
    """Deploy seven armies and play every phase until the campaign ends (18 turns, or 12.7)."""
    points, orders = deployment_orders(hexmap, settings)
    dice = Dice(seed)
    state = State(army_points=points)
    season = Season(state)
    result = resolve_phase(state, Phase.DEPLOYMENT, orders, dice, hexmap, settings)
    season.events.extend(result.events)
    if not result.complete:
        raise RuntimeError(
            "the sample deployment was rejected: " + " ".join(e.text for e in result.events)
        )
    return play_on(result.state, hexmap, seed, settings, on_phase, season, dice)


def play_on(
    state: State,
    hexmap: HexMap,
    seed: str = "season",
    settings: RuleSettings = DEFAULT_SETTINGS,
    on_phase: Callable[[State, Phase], None] | None = None,
    season: Season | None = None,
    dice: Dice | None = None,
    until_turn: int | None = None,
) -> Season:
    """Play from ``state`` until the campaign ends (or ``until_turn`` begins)."""
    season = season or Season(state)
    dice = dice or Dice(seed)
    while not state.ended and (until_turn is None or state.turn < until_turn):
        phase = state.phase
        if phase is Phase.MARCH:
            orders = march_orders(state, hexmap, seed)
        elif phase is Phase.BATTLE:
            orders = battle_decisions(state, seed)
        elif phase is Phase.SIEGE:
            orders = honors_decisions(state, hexmap)
        else:
            orders = Orders()
        result = resolve_phase(state, phase, orders, dice, hexmap, settings)
        season.resolutions += 1
        season.events.extend(result.events)
        state = result.state
        if phase is Phase.BATTLE and not result.complete:
            season.battles += len(state.pending_battles)
            results = tuple(stand_in_result(state, b) for b in state.pending_battles)
            result = resolve_phase(
                state, phase, Orders(battle_results=results), dice, hexmap, settings
            )
            season.resolutions += 1
            season.events.extend(result.events)
            state = result.state
            if not result.complete and not state.ended:
                raise RuntimeError(f"battles left without a result: {state.pending_battles}")
        if on_phase is not None:
            on_phase(state, phase)
    season.state = state
    if state.ended:
        season.table = final_table(state, hexmap, settings)
    return season
