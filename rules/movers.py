"""The orders of a march phase read into movers (6.2-6.4, 5.1.1, 6.2.6, 9.4.2): who moves, along
which line of march, with how many MPs, dropping whom where; and the orders refused before any
force moves (stacks, leaders left alone under 50 points, field works). ``marches.py`` then moves
them one MP at a time; the orders page asks ``build_movers`` to check a draft.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from maps.core.hexgrid import Hex, format_path, neighbour, parse_hex_id
from maps.core.model import HexMap
from rules.armies import Army, siege_train_name
from rules.events import Event
from rules.garrisons import (
    garrison_named,
    no_garrison_orders,
)
from rules.leaders import leader
from rules.orders import ForcedMarchOrder, MarchOrder, rejection, unit_army
from rules.rulesettings import RuleSettings
from rules.state import LeaderState, State

FREDERICK = "frederick"


def strategic_ir(x: LeaderState) -> int:
    """A demoralized leader's IRs count as zero (10.2)."""
    return 0 if x.demoralized else x.table.strategic_ir


def marches_allowed(x: LeaderState, settings: RuleSettings) -> int:
    """6.2.2: one march, or two for a leader whose strategic IR has the asterisk (14)."""
    if x.table.two_marches and not x.demoralized:
        return settings.marches_per_leader_asterisk
    return settings.marches_per_leader


def may_force_march(state: State, x: LeaderState) -> bool:
    """Whether a forced march order for ``x`` could succeed this turn (6.3): the die must be
    able to come up at or under his strategic IR (so IR 1 or more, and not demoralized, 10.2),
    and he must be free to move (not held after the honors of war, 11.6.1; not halted in an
    enemy hex, 6.4.4; not dropped off along a line of march, 6.2.6). A player none of whose
    leaders passes has nothing to decide in the forced march phase.

    >>> from rules.armies import Army
    >>> soubise = LeaderState("soubise", Army.FRANCE, "2949")
    >>> may_force_march(State(turn=3), soubise)  # "Soubise can never force march" (6.3)
    False
    >>> may_force_march(State(turn=3), LeaderState("frederick", Army.PRUSSIA, "6340"))
    True
    """
    return (
        strategic_ir(x) >= 1
        and x.held_until_turn < state.turn
        and not x.halted
        and not x.dropped_off
    )


def march_mp(supplied: bool, turn: int, settings: RuleSettings, base: int) -> int:
    """MPs of one march (6.2, 6.3): less 1 if unsupplied (5.1.1), less 1 in winter (6.4.6)."""
    mp = base
    if not supplied:
        mp -= settings.unsupplied_mp_loss
    if settings.is_winter(turn):
        mp -= settings.winter_mp_loss
    return max(mp, 0)


@dataclass
class Mover:
    """A force (or siege train) carrying out an order."""

    unit: str
    army: Army
    train: bool
    members: list[str]
    drops: dict[str, Hex]
    start: Hex
    steps: tuple[int, ...]
    budgets: list[int]
    demoralized: bool
    ir: int
    meeting_choice: str
    enter_fortress: bool
    left_fortress: bool
    pos: Hex = None  # type: ignore[assignment]
    step_i: int = 0
    spent: int = 0
    progress: int = 0
    step_cost: int | None = None
    target: Hex | None = None
    stop_after: bool = False
    done: bool = False
    hexes_moved: int = 0  # in this phase
    earlier_hexes: int = 0  # moved earlier this turn: the march phase, for a forced march
    stop: str = ""
    stop_rule: str = "6.2"
    met: bool = False
    dropped: list[tuple[str, Hex, list[int], int]] = field(default_factory=list)
    entered_enemy: bool = False
    sallied: bool = False  # left a fortress with the enemy outside in its hex (11.3)
    visited: list[Hex] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.pos = self.start

    @property
    def mp_left(self) -> int:
        return sum(self.budgets) - self.spent

    @property
    def mp_spent(self) -> list[int]:
        """MPs expended in each march: the first march's MPs first, then the second's (7.1:
        "second march (over 5 MPs)")."""
        out, left = [], self.spent
        for budget in self.budgets:
            out.append(min(left, budget))
            left -= out[-1]
        return out

    @property
    def turn_hexes(self) -> int:
        """The distance moved this turn so far (6.4.4): earlier phases and this one."""
        return self.earlier_hexes + self.hexes_moved

    @property
    def name(self) -> str:
        return siege_train_name(self.unit) if self.train else leader(self.unit).name

    def next_target(self) -> Hex | None:
        if self.target is not None:
            return self.target
        if self.done or self.step_i >= len(self.steps):
            return None
        return neighbour(self.pos, self.steps[self.step_i])

    def finish(self, why: str, rule: str) -> None:
        self.done = True
        self.step_cost = None
        self.target = None
        if not self.stop:
            self.stop, self.stop_rule = why, rule


def _stack(state: State, x: LeaderState, own_orders: set[str]) -> list[str]:
    """The leaders the order of ``x`` moves: himself, and if he is the highest-ranking leader of
    his force, every other leader of it who has no order of his own (6.2.6)."""
    force = state.force_of(x.key)
    if force.commander.key != x.key:
        return [x.key]
    return [y.key for y in force.leaders if y.key == x.key or y.key not in own_orders]


def build_movers(
    state: State,
    orders: list[MarchOrder] | list[ForcedMarchOrder],
    hexmap: HexMap,
    settings: RuleSettings,
    *,
    forced: bool,
) -> tuple[list[Mover], list[Event]]:
    """Check each order (6.2, 6.2.2-6.2.6, 6.3.3, 6.4.2, 10.2.1) and make the movers of the valid
    ones. Rejected orders become ``ORDER_REJECTED`` events for their owner."""
    events: list[Event] = []
    rule = "6.3" if forced else "6.2"
    base_mp = settings.forced_march_mp if forced else settings.march_mp

    def reject(o, text: str, rule: str = rule) -> None:
        events.append(
            rejection(
                unit_army(o.unit), f"{o.unit}: {text}", rule, unit=o.unit, path=format_path(o.path)
            )
        )

    # 1. Checks of each order on its own.
    candidates: list[tuple[MarchOrder | ForcedMarchOrder, int]] = []
    seen: set[str] = set()
    for o in orders:
        if o.unit in seen:
            reject(o, "has two orders this phase; only the first counts")
            continue
        seen.add(o.unit)
        works = getattr(o, "works", False)
        marches = 1 if forced else o.marches  # type: ignore[union-attr]
        if not state.has_leader(o.unit):
            city = garrison_named(o.unit, hexmap)
            if city is not None and not any(t.id == o.unit for t in state.siege_trains):
                reject(o, no_garrison_orders(city), "11.3")
                continue
            if not any(t.id == o.unit for t in state.siege_trains):
                reject(
                    o,
                    "is neither a leader nor a siege train on the map; points without a "
                    "leader cannot be moved (6.2.3)",
                    "6.2.3",
                )
                continue
            if forced:
                reject(o, "siege trains cannot force march (6.3.3)", "6.3.3")
            elif marches > settings.marches_per_siege_train:
                reject(o, "a siege train may be given only one march per turn (6.2.5)", "6.2.5")
            elif o.drop or works:
                reject(o, "a siege train has no subordinates and builds no works", "6.2.5")
            elif not o.path and not o.enter_fortress and not o.leave_fortress:
                reject(o, "gives no line of march")
            else:
                candidates.append((o, marches))
            continue
        x = state.leader(o.unit)
        if x.held_until_turn >= state.turn:
            reject(o, "may not move this turn (11.6.1)", "11.6.1")
        elif x.halted:
            reject(
                o,
                "entered an enemy-occupied hex this turn and must remain there until the next "
                "turn (6.4.4)",
                "6.4.4",
            )
        elif x.dropped_off:
            reject(
                o,
                "was dropped off along a line of march and may not move any farther this "
                "turn (6.2.6)",
                "6.2.6",
            )
        elif marches > marches_allowed(x, settings):
            reject(
                o,
                f"may be given only {marches_allowed(x, settings)} march per turn (6.2.2)",
                "6.2.2",
            )
        elif works:
            problem = _works_problem(state, x, o, hexmap)  # type: ignore[arg-type]
            if problem:
                reject(o, problem, "9.4.2")
            else:
                candidates.append((o, marches))
        elif not o.path and not o.enter_fortress and not o.leave_fortress:
            reject(o, "gives no line of march")
        else:
            candidates.append((o, marches))

    # 2. Checks that depend on which other leaders have orders of their own (6.2.6, 6.4.2).
    changed = True
    while changed:
        changed = False
        own = {o.unit for o, _m in candidates if state.has_leader(o.unit)}
        for o, m in candidates:
            if not state.has_leader(o.unit) or getattr(o, "works", False):
                continue
            problem = _stack_problem(state, o, own, hexmap, settings)
            if problem:
                reject(o, *problem)
                candidates.remove((o, m))
                changed = True
                break

    # 3. Marches available to the army (6.2, 6.2.1), in the order the orders were written.
    movers: list[Mover] = []
    used: dict[str, int] = {}
    own = {o.unit for o, _m in candidates if state.has_leader(o.unit)}
    for o, marches in candidates:
        army = unit_army(o.unit) or Army.PRUSSIA
        pool = army.march_pool.value
        if not forced:
            have = state.marches.get(pool, 0)
            if used.get(pool, 0) + marches > have:
                reject(
                    o,
                    f"needs {marches} march(es) but only {have - used.get(pool, 0)} of the "
                    f"{have} allocated to {pool} remain (6.2)",
                )
                continue
            used[pool] = used.get(pool, 0) + marches
        movers.append(_mover(state, o, marches, own, hexmap, settings, base_mp))
    return movers, events


def _stack_problem(
    state: State,
    o: MarchOrder | ForcedMarchOrder,
    own: set[str],
    hexmap: HexMap,
    settings: RuleSettings,
) -> tuple[str, str] | None:
    x = state.leader(o.unit)
    members = _stack(state, x, own)
    force = state.force_of(x.key)
    whole = len(members) == len(force.leaders)
    if force.demoralized and (o.drop or not whole):
        return "a demoralized force may not be divided (10.2.1)", "10.2.1"
    for key, where in o.drop:
        if key not in members or key == x.key:
            return f"{key} is not a subordinate moving with {x.table.name} (6.2.6)", "6.2.6"
        if state.leader(key).points < settings.min_leader_points:
            return (
                f"{key} may be dropped off only with at least {settings.min_leader_points} "
                "points (6.2.6, 3.2.1)",
                "6.2.6",
            )
        try:
            hexmap.parse_hex_id(where)
        except ValueError as exc:
            return str(exc), "6.2.6"
    points = sum(state.leader(k).points for k in members)
    if not whole and points < settings.min_leader_points:
        return (
            f"{x.table.name} would march off alone with {points} points; a leader alone needs "
            f"at least {settings.min_leader_points} (3.2.1, 6.4.2)",
            "6.4.2",
        )
    left_alone = _left_alone(state, x, members, settings)
    if left_alone:
        return left_alone, "6.4.2"
    return None


def _mover(
    state: State,
    o: MarchOrder | ForcedMarchOrder,
    marches: int,
    own: set[str],
    hexmap: HexMap,
    settings: RuleSettings,
    base_mp: int,
) -> Mover:
    if not state.has_leader(o.unit):
        train = state.siege_train(o.unit)
        return Mover(
            unit=train.id,
            army=train.army,
            train=True,
            members=[],
            drops={},
            start=parse_hex_id(train.hex),
            steps=o.path,
            budgets=[march_mp(True, state.turn, settings, base_mp)],
            demoralized=False,
            ir=0,
            meeting_choice="hold",
            enter_fortress=o.enter_fortress,
            left_fortress=train.inside and (o.leave_fortress or bool(o.path)),
        )
    x = state.leader(o.unit)
    if getattr(o, "works", False):
        return Mover(
            unit=x.key,
            army=x.army,
            train=False,
            members=[],
            drops={},
            start=parse_hex_id(x.hex),
            steps=(),
            budgets=[0] * marches,
            demoralized=False,
            ir=0,
            meeting_choice="hold",
            enter_fortress=False,
            left_fortress=False,
            stop=f"works:{marches}",
        )
    force = state.force_of(x.key)
    mp = march_mp(x.supplied, state.turn, settings, base_mp)
    return Mover(
        unit=x.key,
        army=x.army,
        train=False,
        members=_stack(state, x, own),
        drops={key: hexmap.parse_hex_id(where) for key, where in o.drop},
        start=parse_hex_id(x.hex),
        steps=o.path,
        budgets=[mp] * marches,
        demoralized=force.demoralized,
        ir=strategic_ir(x),
        meeting_choice=o.meeting,
        enter_fortress=o.enter_fortress,
        left_fortress=x.inside and (o.leave_fortress or bool(o.path)),
        earlier_hexes=x.hexes_marched,
    )


def _works_problem(state: State, x: LeaderState, o: MarchOrder, hexmap: HexMap) -> str | None:
    if x.key != FREDERICK:
        return "only a force commanded by Frederick builds works with its marches (9.4.2)"
    if o.path:
        return "a force building works does not move; give no line of march (9.4.2)"
    if x.turns_in_hex < 1:
        return "Frederick must have occupied the hex since the previous turn (9.4.2)"
    city = hexmap.fortress_at(parse_hex_id(x.hex))
    if city is None or state.control.get(city.name) != Army.PRUSSIA.value:
        return "Frederick must be in the same hex as a Prussian-controlled fortress (9.4.2)"
    return None


def _left_alone(state: State, x: LeaderState, members: list[str], settings: RuleSettings) -> str:
    """6.4.2: a leader may never be left alone in a hex with fewer than 50 points."""
    force = state.force_of(x.key)
    staying = [y for y in force.leaders if y.key not in members]
    if staying and all(y.points < settings.min_leader_points for y in staying):
        return (
            f"moving {x.table.name} away would leave "
            f"{', '.join(y.table.name for y in staying)} alone with fewer than "
            f"{settings.min_leader_points} points (6.4.2)"
        )
    return ""


# --- after the movement -------------------------------------------------------------------------
