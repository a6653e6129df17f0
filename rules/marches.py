"""Marches and forced marches (6, 6.2-6.4, 5.1.1, 9.4.2, 10.2.2, 11.3).

All orders of a phase are carried out simultaneously. The engine moves every force and siege
train one movement point at a time (a "tick"), so that forces moving at once meet where their
lines of march cross:

- A step into the next hex costs the Terrain Effects Chart's MPs (2.2). The cost, and whether the
  hex is enemy-occupied (+2 MPs and stop there, 6.4.4), are fixed when the step begins.
- A force with two marches has their MPs together (10, or 8 when unsupplied); the MPs over the
  first march's are its "second march" for attrition (7.1). A force that cannot pay for the next
  hex stops where it is (6.4.5).
- Two enemy forces that both moved this phase and run into each other (one steps into the other's
  hex after that one moved into it, or each steps toward the other's hex) *meet* (6.4.4
  exception): both stop, in the hex of the one that had moved fewer hexes; with equal distances
  each rolls a die plus his leader's strategic IR, the higher chooses (ties roll again).
- Subordinates are dropped off when the line of march reaches their hex (6.2.6).

See docs/rules-interpretations.md, 6 for every reading made here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from maps.core.hexgrid import Hex, hex_id, neighbour, parse_hex_id
from maps.core.model import HexMap
from rules.armies import ADJECTIVES, Alliance, Army
from rules.board import Board
from rules.contagion import demoralize_entered
from rules.dice import Dice
from rules.events import Event, EventKind, mps, private
from rules.garrisons import (
    garrison_limit,
    led_armies,
    over_limit,
)
from rules.leaderless import join_leaderless
from rules.movers import Mover, build_movers, strategic_ir
from rules.orders import Orders, rejection
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.state import LeaderState, SiegeTrain, State
from rules.transfers import apply_transfers, cic_events


@dataclass
class Movement:
    """One simultaneous movement phase (march or forced march)."""

    state: State
    hexmap: HexMap
    settings: RuleSettings
    dice: Dice
    movers: list[Mover]
    roll_prefix: str
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        board = Board(self.state, self.hexmap)
        moving = {k for m in self.movers for k in m.members}
        self.standing: dict[Hex, set[Army]] = {}
        for x in self.state.leaders:
            if x.key not in moving:
                self.standing.setdefault(parse_hex_id(x.hex), set()).add(x.army)
        for p in self.state.leaderless:  # points without a leader hold their hex (9.5)
            self.standing.setdefault(parse_hex_id(p.hex), set()).add(p.army)
        self.garrisons = board.garrison_hexes
        self.closed = board.closed_hexes
        self.board = board
        self._enemy_forts = {
            alliance: frozenset(board.enemy_fortresses(alliance)) for alliance in Alliance
        }

    # --- who is where ---------------------------------------------------------------------------

    def armies_at(self, h: Hex) -> set[Army]:
        """Armies with a force (not a lone siege train) or garrison in ``h`` right now."""
        out = set(self.standing.get(h, set())) | set(self.garrisons.get(h, set()))
        for m in self.movers:
            if not m.train and m.pos == h and m.members:
                out.add(m.army)
        return out

    def enemy_in(self, h: Hex, army: Army) -> bool:
        is_enemy = self.state.is_enemy
        return any(is_enemy(a, army) for a in self.armies_at(h))

    def enemy_movers_in(self, h: Hex, army: Army) -> list[Mover]:
        return [
            m
            for m in self.movers
            if not m.train and m.members and m.pos == h and self.state.is_enemy(m.army, army)
        ]

    def enemy_fortresses(self, army: Army) -> frozenset[Hex]:
        return self._enemy_forts[self.state.alliance_of(army)]

    def _sortie(self, m: Mover) -> bool:
        """11.3: forces friendly to a garrison may not leave a blockaded or besieged fortress
        without fighting a battle with the enemy force outside in its hex."""
        if m.train or not m.left_fortress:
            return False
        outside = self.board.outside_force_hexes.get(m.start, set())
        return any(self.state.is_enemy(a, m.army) for a in outside)

    # --- the ticks ------------------------------------------------------------------------------

    def run(self) -> None:
        for m in self.movers:
            if not m.steps:
                m.finish("", "6.2")
            elif self._sortie(m):
                m.sallied = True
                m.finish(
                    "leaves a fortress with the enemy outside: it must fight a battle there "
                    "before it may go farther (11.3)",
                    "11.3",
                )
            self._drop(m)
        guard = 0
        while any(not m.done for m in self.movers):
            guard += 1
            if guard > 1000:
                raise AssertionError("movement did not finish")
            for m in self.movers:
                if not m.done and m.step_cost is None:
                    self._begin_step(m)
            arrived = []
            for m in self.movers:
                if m.done or m.step_cost is None:
                    continue
                m.progress += 1
                m.spent += 1
                if m.progress >= m.step_cost:
                    arrived.append(m)
            for m in arrived:
                m.pos = m.target  # type: ignore[assignment]
                m.target = None
                m.step_cost = None
                m.progress = 0
                m.step_i += 1
                m.hexes_moved += 1
                m.visited.append(m.pos)
                self._drop(m)
                if m.stop_after:
                    m.entered_enemy = True
                    m.finish(
                        f"entered the enemy-occupied hex {hex_id(m.pos)} and must stop", "6.4.4"
                    )
                elif m.step_i >= len(m.steps):
                    m.finish("", "6.2")
            for m in arrived:
                if not m.done and not m.train and self.enemy_in(m.pos, m.army):
                    m.entered_enemy = True
                    m.finish(f"ran into an enemy force at {hex_id(m.pos)} and must stop", "6.4.4")

    def _begin_step(self, m: Mover) -> None:
        d = m.steps[m.step_i]
        to = neighbour(m.pos, d)
        if not m.train and not m.demoralized:  # a demoralized force never seeks the enemy
            for other in self.enemy_movers_in(to, m.army):
                if other.met or m.met:
                    continue
                moved_in = other.hexes_moved > 0 and other.pos == to
                heading_here = other.next_target() == m.pos
                if moved_in or heading_here:
                    self._meet(m, other)
                    return
        if to in self.closed:
            m.finish(f"may not enter {self.hexmap.area(to)} (3.3)", "3.3")
            return
        base = self.hexmap.enter_cost(m.pos, d, enemy_fortresses=self.enemy_fortresses(m.army))
        if base is None:
            m.finish(f"cannot enter {hex_id(to)}: the way is impassable (2.2)", "6.4.5")
            return
        enemy = self.enemy_in(to, m.army)
        if enemy and m.demoralized:
            m.finish(
                f"is demoralized and may not enter the enemy-occupied hex {hex_id(to)}", "10.2.2"
            )
            return
        cost = base + (self.settings.enemy_hex_extra_mp if enemy else 0)
        if cost > m.mp_left:
            why = (
                f"has too few MPs left to enter the enemy-occupied hex {hex_id(to)} and stays "
                "adjacent"
                if enemy
                else f"has too few MPs left to enter {hex_id(to)}"
            )
            m.finish(why, "6.4.4" if enemy else "6.4.5")
            return
        m.step_cost = cost
        m.target = to
        m.stop_after = enemy

    def _drop(self, m: Mover) -> None:
        for key, h in list(m.drops.items()):
            if h == m.pos and key in m.members:
                m.members.remove(key)
                m.dropped.append((key, h, list(m.mp_spent), m.hexes_moved))
                self.standing.setdefault(h, set()).add(m.army)
                del m.drops[key]

    def _meet(self, a: Mover, b: Mover) -> None:
        """6.4.4 exception: both end in the hex of the force that moved the shorter distance."""
        distances = {a.unit: a.turn_hexes, b.unit: b.turn_hexes}
        if a.turn_hexes != b.turn_hexes:
            shorter, longer = (a, b) if a.turn_hexes < b.turn_hexes else (b, a)
            where = shorter.pos
            how = (
                f"{shorter.name} had moved the shorter distance this turn "
                f"({_hexes(shorter.turn_hexes)} against {_hexes(longer.turn_hexes)}"
                + (", the march phase counted" if a.earlier_hexes or b.earlier_hexes else "")
                + ")"
            )
            rolls = {}
        else:
            winner, rolls = self._meeting_roll(a, b)
            loser = b if winner is a else a
            where = winner.pos if winner.meeting_choice == "hold" else loser.pos
            how = (
                f"both had moved {_hexes(a.turn_hexes)} this turn; {winner.name} won the roll "
                f"({rolls[winner.unit]} to {rolls[loser.unit]}) and chose "
                f"{hex_id(where)}"
            )
        for m in (a, b):
            if m.pos != where:
                m.pos = where
                m.hexes_moved += 1
                m.visited.append(m.pos)
                self._drop(m)
            m.met = True
            m.entered_enemy = True
            m.finish(f"met the enemy at {hex_id(where)}", "6.4.4")
        self.events.append(
            Event(
                "6.4.4",
                EventKind.MEETING,
                f"{a.name} and {b.name} marched into each other and meet at {hex_id(where)}: "
                f"{how}.",
                {
                    "forces": [a.unit, b.unit],
                    "hex": hex_id(where),
                    "distances": distances,
                    "rolls": rolls,
                },
            )
        )

    def _meeting_roll(self, a: Mover, b: Mover) -> tuple[Mover, dict[str, int]]:
        first, second = sorted((a, b), key=lambda m: m.unit)
        base = f"{self.roll_prefix}meeting:{first.unit}-vs-{second.unit}:t{self.state.turn}"
        attempt = 1
        while True:
            suffix = "" if attempt == 1 else f":r{attempt}"
            totals = {
                m.unit: self.dice.roll(f"{base}:{m.unit}{suffix}") + m.ir for m in (first, second)
            }
            if totals[first.unit] != totals[second.unit]:
                winner = first if totals[first.unit] > totals[second.unit] else second
                return winner, totals
            attempt += 1
            if attempt > 50:
                return first, totals


# --- orders to movers -------------------------------------------------------------------------


def _finish_movement(
    state: State, movement: Movement, hexmap: HexMap, *, forced: bool
) -> tuple[State, list[Event]]:
    events = list(movement.events)
    board = Board(state, hexmap)
    updated: list[LeaderState] = []
    trains: dict[str, SiegeTrain] = {}
    arrivals = list(state.forced_march_arrivals)
    phase_word = "forced march" if forced else "march"
    for m in movement.movers:
        if m.stop.startswith("works:"):
            n = int(m.stop.split(":")[1])
            x = state.leader(m.unit)
            updated.append(dataclasses.replace(x, marched=True, field_works=x.field_works + n))
            events.append(
                Event(
                    "9.4.2",
                    EventKind.FIELD_WORKS,
                    f"Frederick spends {n} march{'es' if n > 1 else ''} building field works at "
                    f"{x.hex} instead of marching (9.4.2): {12 * n} inches of works.",
                    {"leader": m.unit, "hex": x.hex, "marches": n},
                )
            )
            continue
        end = hex_id(m.pos)
        moved = m.hexes_moved > 0
        fortress = hexmap.fortress_at(m.pos)
        fortress_note = ""
        entered = False
        if m.enter_fortress:
            problem = _enter_problem(board, m, fortress)
            if problem:
                events.append(
                    rejection(
                        m.army, f"{m.name} cannot enter a fortress: {problem}", "11.3", unit=m.unit
                    )
                )
            else:
                entered = True
                fortress_note = f" and enters {fortress.name}"  # type: ignore[union-attr]

        def inside_after(was_inside: bool, entered=entered, moved=moved, m=m) -> bool:
            if entered:
                return True
            if moved or m.left_fortress:
                return False
            return was_inside

        if m.train:
            t = state.siege_train(m.unit)
            trains[t.id] = dataclasses.replace(
                t, hex=end, inside=inside_after(t.inside), moved=moved
            )
            events.append(
                Event(
                    "6.2.5",
                    EventKind.STOPPED if m.stop else EventKind.MARCHED,
                    f"{t.name} marches from {t.hex} to {end}{fortress_note}"
                    + (f"; it {m.stop}" if m.stop else "")
                    + ".",
                    {"unit": t.id, "from": t.hex, "to": end, "mp": sum(m.mp_spent)},
                    private(m.army),
                )
            )
            continue
        mp_total = sum(m.mp_spent)
        for key in m.members:
            x = state.leader(key)
            changes = {
                "hex": end,
                "inside": inside_after(x.inside),
                "hexes_marched": x.hexes_marched + m.hexes_moved,
            }
            if forced:
                changes.update(forced_marched=True, forced_march_mp=mp_total)
            else:
                changes.update(
                    marched=True, second_march_mp=m.mp_spent[1] if len(m.mp_spent) > 1 else 0
                )
            if moved:
                changes.update(moved=True, turns_in_hex=0, field_works=0)
            if m.entered_enemy and moved:
                changes.update(halted=True)
            if m.sallied:
                changes.update(sallied=True)
            updated.append(dataclasses.replace(x, **changes))
        for key, h, spent_then, hexes_then in m.dropped:
            x = state.leader(key)
            spent = sum(spent_then)
            changes = {
                "hex": hex_id(h),
                "dropped_off": True,
                "hexes_marched": x.hexes_marched + hexes_then,
            }
            if h != m.start:
                changes.update(moved=True, turns_in_hex=0, field_works=0, inside=False)
            if forced:
                changes.update(forced_marched=True, forced_march_mp=spent)
            else:
                changes.update(
                    marched=True, second_march_mp=spent_then[1] if len(spent_then) > 1 else 0
                )
            updated.append(dataclasses.replace(x, **changes))
            events.append(
                Event(
                    "6.2.6",
                    EventKind.DROPPED_OFF,
                    f"{x.table.name} is dropped off at {hex_id(h)} and may not move any farther "
                    "this turn (6.2.6).",
                    {"leader": key, "hex": hex_id(h)},
                )
            )
        commander = state.leader(m.unit)
        start = hex_id(m.start)
        verb = "force marches" if forced else "marches"
        text = (
            f"{ADJECTIVES[m.army]} force under {commander.table.name} {verb} from {start} to "
            f"{end}{fortress_note} ({mps(mp_total)})"
            if moved
            else f"{ADJECTIVES[m.army]} force under {commander.table.name} stays at {start}"
            f"{fortress_note}"
        )
        if m.left_fortress and not entered:
            text += ", leaving the fortress"
        if m.stop:
            text += f"; it {m.stop}"
        events.append(
            Event(
                m.stop_rule if m.stop else ("6.3" if forced else "6.2"),
                EventKind.STOPPED
                if m.stop
                else (EventKind.FORCED_MARCH if forced else EventKind.MARCHED),
                text + ".",
                {
                    "leader": m.unit,
                    "from": start,
                    "to": end,
                    "mp": mp_total,
                    "mp_per_march": list(m.mp_spent),
                    "hexes": m.hexes_moved,
                    "phase": phase_word,
                    "stopped": bool(m.stop),
                },
            )
        )
        if forced and m.entered_enemy and moved:
            arrivals.append((end, m.army.value))
            events.append(
                Event(
                    "6.3.2",
                    EventKind.NO_RETIRING,
                    f"The force under {commander.table.name} reached {end} by forced march: the "
                    "enemy there may not retire from battle this turn (6.3.2, 10.1.1).",
                    {"hex": end, "army": m.army.value},
                )
            )
    state = state.with_leaders(updated)
    state, left = _garrisons_left_behind(state, movement, hexmap)
    events.extend(left)
    state, joined = join_leaderless(state)
    events.extend(joined)
    state, contagion = _demoralize_joined(state, movement)
    events.extend(contagion)
    state = dataclasses.replace(
        state,
        siege_trains=tuple(trains.get(t.id, t) for t in state.siege_trains),
        forced_march_arrivals=tuple(dict.fromkeys(arrivals)),
    )
    state, control_events = update_control(state, hexmap)
    events.extend(control_events)
    return state, events


def _garrisons_left_behind(
    state: State, movement: Movement, hexmap: HexMap
) -> tuple[State, list[Event]]:
    """2.3.4, 11.2: when the last leader of a country leaves a fortress, its garrison there is
    leaderless and holds only 100 points per bastion; the points above that march out with him
    (the commander of the force that left), as a 6.4.3 transfer he could have ordered."""
    events: list[Event] = []
    for m in movement.movers:
        if m.train or not m.left_fortress or not m.members:
            continue
        city = hexmap.fortress_at(m.start)
        x = state.leader(m.unit)
        if city is None or (x.hex == city.hex_id and x.inside):
            continue  # he did not leave after all
        if m.army in led_armies(state, city):
            continue  # another leader of his country stays inside
        own = next((g for g in state.garrisons_of(city.name) if g.army is m.army), None)
        take = min(over_limit(state, city, movement.settings), own.points if own else 0)
        if take <= 0 or own is None:
            continue
        limit = garrison_limit(city, movement.settings)
        state = state.with_garrison(city.name, m.army, own.points - take)
        state = state.with_leader(x.key, points=x.points + take)
        events.append(
            Event(
                "11.2",
                EventKind.POINTS_TRANSFERRED,
                f"{x.table.name} leaves {city.name} with no {ADJECTIVES[m.army]} leader inside: "
                f"without a leader its {city.bastions} bastions hold {limit} points, so the "
                f"{take} points above that march out with him (2.3.4, 11.2, 6.4.3).",
                {
                    "leader": x.key,
                    "city": city.name,
                    "points": take,
                    "limit": limit,
                    "garrison": own.points - take,
                },
                private(m.army),
            )
        )
    return state, events


def _demoralize_joined(state: State, movement: Movement) -> tuple[State, list[Event]]:
    """10.2.3 (``contagion``): every hex a demoralized force entered, passing or stopping."""
    events: list[Event] = []
    for m in movement.movers:
        if m.train or not m.demoralized or not m.visited:
            continue
        entered = [hex_id(h) for h in m.visited]
        state, more = demoralize_entered(state, m.unit, m.army, m.members, entered, "marches")
        events.extend(more)
    return state, events


def _enter_problem(board: Board, m: Mover, fortress) -> str | None:
    if fortress is None:
        return f"there is no fortress at {hex_id(m.pos)}"
    garrison = board.garrisoned_by(fortress.hex)
    if any(board.state.is_enemy(a, m.army) for a in garrison):
        return f"{fortress.name} is held by the enemy; it can only be taken by siege (11)"
    outside = board.outside_force_hexes.get(fortress.hex, set())
    if any(board.state.is_enemy(a, m.army) for a in outside):
        return (
            f"{fortress.name} is blockaded; friendly forces may not enter it without "
            "fighting a battle (11.3)"
        )
    return None


def update_control(state: State, hexmap: HexMap) -> tuple[State, list[Event]]:
    """2.3, 11: a city passes to the country whose points occupy it, when no enemy force or
    garrison shares its hex."""
    control = dict(state.control)
    events = []
    points_at: dict[Hex, dict[Army, int]] = {}
    for x in state.leaders:
        h = parse_hex_id(x.hex)
        points_at.setdefault(h, {}).setdefault(x.army, 0)
        points_at[h][x.army] += x.points
    for g in state.garrisons:
        h = hexmap.city(g.city).hex
        points_at.setdefault(h, {}).setdefault(g.army, 0)
        points_at[h][g.army] += g.points
    for city in hexmap.cities:
        armies = {a: p for a, p in points_at.get(city.hex, {}).items() if p > 0}
        if not armies or hexmap.area(city.hex) in ("Denmark", "United Provinces"):
            continue
        alliances = {state.alliance_of(a) for a in armies}
        if len(alliances) > 1:
            continue
        holder = control.get(city.name)
        if holder is not None and Army(holder) in state.surrendered:
            holder = None  # 12.6: any army may take and use the cities of a surrendered one
        if holder is not None and Army(holder) in armies:
            continue
        if holder is not None and not any(state.is_enemy(Army(holder), a) for a in armies):
            continue
        new = max(armies, key=lambda a: (armies[a], a.value))
        control[city.name] = new.value
        was = f" from {ADJECTIVES[Army(holder)]} hands" if holder else ""
        events.append(
            Event(
                "11" if city.fortress else "2.3",
                EventKind.CITY_CONTROL,
                f"{ADJECTIVES[new]} points occupy {city.name}: it passes into {ADJECTIVES[new]} "
                f"control{was} (2.3).",
                {"city": city.name, "army": new.value, "previous": holder},
            )
        )
    return dataclasses.replace(state, control=control), events


# --- the two phases -------------------------------------------------------------------------------


def march_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 3 (6.2, 6.4): transfers at the start of the turn, then all march orders at once."""
    state, events = apply_transfers(state, orders.transfers, hexmap, settings)
    movers, rejected = build_movers(state, list(orders.march), hexmap, settings, forced=False)
    events.extend(rejected)
    movement = Movement(state, hexmap, settings, dice, movers, roll_prefix="")
    movement.run()
    state, moved = _finish_movement(state, movement, hexmap, forced=False)
    events.extend(moved)
    events.extend(cic_events(state))
    return Resolution(state, tuple(events))


def forced_march_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 4 (6.3): the orders are checked, then each ordered leader rolls a die; the forces
    whose leaders roll at or under their strategic IR force march, all at once. A force whose roll
    fails stays where it is, even a subordinate who would otherwise follow his commander."""
    movers, rejected = build_movers(state, list(orders.forced_march), hexmap, settings, forced=True)
    events: list[Event] = list(rejected)
    going = []
    for m in movers:
        x = state.leader(m.unit)
        name = f"forced-march:{x.key}:t{state.turn}"
        roll = dice.roll(name)
        ir = strategic_ir(x)
        data = {"leader": x.key, "roll": roll, "strategic_ir": ir, "dice": name}
        if roll <= ir:
            going.append(m)
            text = (
                f"{x.table.name} rolls {roll} against a strategic IR of {ir}: the force may "
                "force march (6.3)."
            )
            events.append(Event("6.3", EventKind.FORCED_MARCH, text, data, private(x.army)))
        else:
            why = " (demoralized: IR counts as 0, 10.2)" if x.demoralized else ""
            text = (
                f"{x.table.name} rolls {roll} against a strategic IR of {ir}{why}: the force "
                "stays where it is (6.3)."
            )
            events.append(Event("6.3", EventKind.FORCED_MARCH_FAILED, text, data, private(x.army)))
    movement = Movement(state, hexmap, settings, dice, going, roll_prefix="forced-")
    movement.run()
    state, moved = _finish_movement(state, movement, hexmap, forced=True)
    events.extend(moved)
    events.extend(cic_events(state))
    return Resolution(state, tuple(events))


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"
