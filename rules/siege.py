"""The siege phase (11, 11.1-11.6, 12.3): blockades and sieges, breaches, honors of war.

A fortress with a garrison (points, or a leader inside) and an enemy force outside in its hex is
*besieged* when that force is supplied, has a siege train with it and has stood in the hex at
least one complete turn; otherwise it is only *blockaded* (11). Each siege rolls two dice plus the
factors of the Siege Chart (11.1); 12 or more breaches the walls, and the honors of war are
settled at once from the decisions given with the phase's orders (11.6): the besieger grants or
denies (default: grants), and a garrison denied honors surrenders or fights (default: surrenders).

The 11.6 example, as the engine computes it:

>>> from rules.rulesettings import DEFAULT_SETTINGS
>>> f = SiegeFactors(besieger_leader=1, garrison_leader=0, besieger_points=500, garrison_points=100,
...                  besieger_trains=2, garrison_trains=1, turns=3)
>>> f.total(DEFAULT_SETTINGS), 5 + f.total(DEFAULT_SETTINGS) >= DEFAULT_SETTINGS.siege_breach
(7, True)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from maps.core.hexgrid import Hex
from maps.core.model import HexMap
from maps.core.paths import nearest
from rules import victory
from rules.armies import ADJECTIVES, CLOSED_NEUTRALS, Army
from rules.battle import capture_trains
from rules.dice import Dice
from rules.events import Event, EventKind
from rules.garrisons import garrison_limit  # noqa: F401 (re-exported)
from rules.investment import (
    Investment,
    besieging_trains,
    garrison_trains,
    investments,
    involved,
    is_besieged,
)
from rules.losses import share_loss
from rules.orders import HonorsDecision, Orders
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.sides import commander_of, outnumbers, retreating_leaders, sides_at
from rules.state import Captive, Force, Prisoners, State, Withdrawal


@dataclass(frozen=True)
class SiegeFactors:
    """The numbers the Siege Chart (11.1) reads."""

    besieger_leader: int  # tactical IR of the besiegers' highest-ranking leader (0 if demoralized)
    garrison_leader: int  # the same for the garrison (0 without a leader)
    besieger_points: int
    garrison_points: int
    besieger_trains: int
    garrison_trains: int
    turns: int  # consecutive turns besieged, this one included

    def lines(self, settings: RuleSettings) -> list[tuple[str, int]]:
        """(factor, modifier) for every factor that applies."""
        out = []
        if self.besieger_leader:
            out.append(("tactical IR of the besiegers' leader", self.besieger_leader))
        if self.garrison_leader:
            out.append(("tactical IR of the garrison's leader", -self.garrison_leader))
        for ratio, mod in sorted(
            settings.siege_outnumber_besieger.items(), key=lambda kv: -int(kv[0])
        ):
            if outnumbers(self.besieger_points, self.garrison_points, int(ratio)):
                out.append((f"besiegers outnumber the garrison {ratio}:1", mod))
                break
        for ratio, mod in sorted(
            settings.siege_outnumber_garrison.items(), key=lambda kv: -int(kv[0])
        ):
            if outnumbers(self.garrison_points, self.besieger_points, int(ratio)):
                out.append((f"garrison outnumbers the besiegers {ratio}:1", mod))
                break
        if self.besieger_trains:
            out.append(
                (
                    f"{self.besieger_trains} besieging siege train(s)",
                    self.besieger_trains * settings.siege_train_factor,
                )
            )
        if self.garrison_trains:
            out.append(
                (
                    f"{self.garrison_trains} siege train(s) in the fortress",
                    -self.garrison_trains * settings.siege_train_factor,
                )
            )
        if self.turns:
            out.append(
                (
                    f"{self.turns} consecutive turn(s) besieged",
                    self.turns * settings.siege_turn_factor,
                )
            )
        return out

    def total(self, settings: RuleSettings) -> int:
        return sum(m for _, m in self.lines(settings))


def siege_factors(state: State, inv: Investment, turns: int) -> SiegeFactors:
    # 10.2: a demoralized force's commander has IRs of 0; a force is demoralized if any of its
    # leaders is, but another country's force beside it does not count.
    besieger = inv.besiegers.commander
    own = [x for x in inv.besiegers.records if x.army is besieger.army]
    b_ir = 0 if any(x.demoralized for x in own) else besieger.table.tactical_ir
    g_ir = 0
    if inv.inside:
        forces = [Force(x.army, x.hex, True, (x,)) for x in inv.inside]
        chief = commander_of(forces)
        mates = [x for x in inv.inside if x.army is chief.army]
        g_ir = 0 if any(x.demoralized for x in mates) else chief.table.tactical_ir
    return SiegeFactors(
        b_ir,
        g_ir,
        inv.besiegers.points,
        inv.garrison_points,
        len(besieging_trains(state, inv)),
        len(garrison_trains(state, inv)),
        turns,
    )


def nearest_refuge(
    state: State, hexmap: HexMap, start: Hex, army: Army, closed: set[str], exclude: str
) -> str:
    """11.6.1: the nearest fortress garrisoned by the same country that is not blockaded or
    besieged, by movement points over the map (ties: the map core's order); "" if none."""
    targets = {}
    for city in hexmap.fortresses:
        if city.name == exclude or city.name in closed or city.area in CLOSED_NEUTRALS:
            continue
        if any(g.army is army and g.points > 0 for g in state.garrisons_of(city.name)):
            targets[city.hex] = city.name
    if not targets:
        return ""
    found = nearest(hexmap, start, targets)
    if found is None:
        h = min(targets, key=lambda t: (abs(t.q - start.q) + abs(t.r - start.r), t.r, t.q))
        return targets[h]
    return targets[found[0]]


def _capture_leaders(state: State, leaders, by: Army, rule: str) -> tuple[State, list[Event]]:
    events = []
    keys = {x.key for x in leaders}
    state = dataclasses.replace(
        state,
        leaders=tuple(x for x in state.leaders if x.key not in keys),
        captives=(*state.captives, *(Captive(x.key, x.army, by) for x in leaders)),
    )
    for x in leaders:
        events.append(
            Event(
                rule,
                EventKind.LEADER_CAPTURED,
                f"{x.table.name} is taken prisoner by the {ADJECTIVES[by]} army ({rule}).",
                {"leader": x.key, "by": by.value},
            )
        )
        if x.key == "frederick":
            state, more = victory.frederick_taken(state, by, "captured")
            events.extend(more)
    return state, events


def honors_of_war(
    state: State,
    inv: Investment,
    decision: HonorsDecision,
    hexmap: HexMap,
    settings: RuleSettings,
    closed: set[str],
) -> tuple[State, list[Event]]:
    """11.6, 12.3: the garrison asks for the honors of war; the besieger grants or denies; a
    garrison denied surrenders or fights (1:1 exchange)."""
    city = inv.city.name
    captor = inv.besiegers.commander.army
    grant = (decision.besieger or "grant") == "grant"
    events = [
        Event(
            "11.6",
            EventKind.HONORS_OF_WAR,
            f"The garrison of {city} asks for the honors of war; the besieger "
            f"{'grants' if grant else 'denies'} them (11.6).",
            {"city": city, "granted": grant},
        )
    ]
    if grant:
        withdrawals = []
        armies = sorted({*inv.garrisons, *(x.army for x in inv.inside)}, key=lambda a: a.value)
        for army in armies:
            to = nearest_refuge(state, hexmap, inv.city.hex, army, closed, city)
            trains = tuple(
                t for t in garrison_trains(state, inv) if state.siege_train(t).army is army
            )
            withdrawals.append(
                Withdrawal(
                    city,
                    army,
                    to,
                    inv.garrisons.get(army, 0),
                    tuple(x.key for x in inv.inside if x.army is army),
                    trains,
                    captor.value,
                )
            )
        state = dataclasses.replace(state, withdrawals=(*state.withdrawals, *withdrawals))
        events.append(
            Event(
                "12.3.1",
                EventKind.VICTORY_POINTS,
                f"No VPs are won or lost for the garrison of {city}, granted the honors "
                "of war (12.3.1).",
                {"city": city},
            )
        )
        return state, events
    fight = (decision.garrison or "surrender") == "fight"
    g_by_army = inv.garrison_by_army()
    b_by_army = inv.besiegers.points_by_army()
    if not fight:
        for army, points in inv.garrisons.items():
            state = state.with_garrison(city, army, 0)
            state = dataclasses.replace(
                state, prisoners=(*state.prisoners, Prisoners(army, captor, points))
            )
        inside_points = {}
        for x in inv.inside:
            inside_points[x.army] = inside_points.get(x.army, 0) + x.points
        for army, points in inside_points.items():
            if points:
                state = dataclasses.replace(
                    state, prisoners=(*state.prisoners, Prisoners(army, captor, points))
                )
        events.append(
            Event(
                "11.6.2",
                EventKind.SURRENDER,
                f"The garrison of {city} ({inv.garrison_points} points) surrenders and "
                f"is taken prisoner; the {ADJECTIVES[captor]} besiegers enter the "
                "fortress (11.6.2, 13.2).",
                {"city": city, "points": inv.garrison_points},
                involved(inv),
            )
        )
        state, more = _capture_leaders(state, inv.inside, captor, "11.6.2")
        events.extend(more)
        state, more = capture_trains(state, garrison_trains(state, inv), captor, "11.6.2")
        events.extend(more)
        state = dataclasses.replace(state, control={**state.control, city: captor.value})
        vps = victory.outcome_vps(b_by_army, g_by_army, True, settings, state.players)
        state, more = victory.award(state, vps, "12.3.2", f"the surrender of {city}")
        return state, events + more
    # 11.6.3: fight it out, 1:1.
    g, b = inv.garrison_points, inv.besiegers.points
    loss = min(g, b)
    records = inv.besiegers.records
    shares = share_loss(records, loss)
    state = state.with_leaders(
        dataclasses.replace(x, points=x.points - shares[x.key]) for x in records
    )
    # The garrison's loss falls on the garrison points first, then on the leaders inside.
    left = loss
    for army in sorted(inv.garrisons, key=lambda a: a.value):
        take = min(left, inv.garrisons[army])
        state = state.with_garrison(city, army, inv.garrisons[army] - take)
        left -= take
    inside_now = [state.leader(x.key) for x in inv.inside]
    if left and inside_now:
        taken = share_loss(inside_now, left)
        state = state.with_leaders(
            dataclasses.replace(x, points=x.points - taken[x.key]) for x in inside_now
        )
    events.append(
        Event(
            "11.6.3",
            EventKind.SIEGE,
            f"The garrison of {city} ({g} points) fights the besiegers ({b} points): "
            f"{loss} points are lost on each side (11.6.3).",
            {"city": city, "garrison": g, "besiegers": b, "loss": loss},
            involved(inv),
        )
    )
    if g < b:
        state, more = _capture_leaders(state, inv.inside, captor, "11.6.3")
        events.extend(more)
        state, more = capture_trains(state, garrison_trains(state, inv), captor, "11.6.3")
        events.extend(more)
        state = dataclasses.replace(state, control={**state.control, city: captor.value})
        events.append(
            Event(
                "11.6.3",
                EventKind.FORTRESS_CAPTURED,
                f"{city} falls to the {ADJECTIVES[captor]} besiegers (11.6.3).",
                {"city": city, "by": captor.value},
            )
        )
        vps = victory.outcome_vps(b_by_army, g_by_army, True, settings, state.players)
        state, more = victory.award(state, vps, "12.3.2", f"the storm of {city}")
        events.extend(more)
    elif b < g:
        holder = max(g_by_army, key=lambda a: (g_by_army[a], -list(Army).index(a)))
        besiegers = [state.leader(x.key) for x in records if state.has_leader(x.key)]
        state, more = _capture_leaders(state, besiegers, holder, "11.6.3")
        events.extend(more)
        state, more = capture_trains(state, besieging_trains(state, inv), holder, "11.6.3")
        events.extend(more)
        events.append(
            Event(
                "11.6.3",
                EventKind.SIEGE,
                f"The besiegers of {city} are wiped out; the garrison holds the fortress (11.6.3).",
                {"city": city},
            )
        )
        vps = victory.outcome_vps(g_by_army, b_by_army, True, settings, state.players)
        state, more = victory.award(state, vps, "12.3.2", f"the defence of {city}")
        events.extend(more)
    else:
        events.append(
            Event(
                "11.6.3",
                EventKind.SIEGE,
                f"Both the garrison and the besiegers of {city} are wiped out; neither "
                "side has points left to take or hold it, and it stays in the hands of "
                "its old master, empty (11.6.3).",
                {"city": city},
            )
        )
    return state, events


def capture_empty_fortresses(state: State, hexmap: HexMap) -> tuple[State, list[Event]]:
    """11: an empty fortress is captured by any enemy force in its hex (a safety net for captures
    not already made on entering)."""
    events = []
    for city in hexmap.fortresses:
        if state.garrisons_of(city.name) or any(x.inside for x in state.leaders_at(city.hex_id)):
            continue
        owner = state.control.get(city.name)
        if owner is not None and Army(owner) in state.surrendered:
            owner = None  # 12.6: free for any army to capture and use
        sides = sides_at(state, city.hex_id, exclude=retreating_leaders(state))
        if not sides:
            continue
        if owner is not None:
            owner_alliance = state.alliance_of(Army(owner))
            if owner_alliance in sides or not any(a is not owner_alliance for a in sides):
                continue
            taker = next(s for a, s in sides.items() if a is not owner_alliance)
        else:
            if len(sides) != 1 or city.area in CLOSED_NEUTRALS:
                continue
            taker = next(iter(sides.values()))
        if taker.points <= 0:
            continue  # leaders with no points left cannot occupy it (2.3)
        army = taker.commander.army
        state = dataclasses.replace(state, control={**state.control, city.name: army.value})
        events.append(
            Event(
                "11",
                EventKind.FORTRESS_CAPTURED,
                f"The empty fortress of {city.name} is taken by the {ADJECTIVES[army]} "
                "force in its hex (11).",
                {"city": city.name, "by": army.value},
            )
        )
    return state, events


def siege_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 8 (11): blockades, sieges, breaches and the honors of war."""
    events: list[Event] = []
    found = investments(state, hexmap)
    status = {inv.city.name: is_besieged(state, inv) for inv in found}
    closed = set(status)  # blockaded or besieged this turn (11.6.1)
    besieged_turns = {}
    blockaded = []
    breaches = []
    for inv in found:
        name = inv.city.name
        ok, why = status[name]
        if not ok:
            blockaded.append(name)
            events.append(
                Event(
                    "11",
                    EventKind.BLOCKADE,
                    f"{name} is blockaded, not besieged: {why} (11).",
                    {"city": name, "why": why},
                )
            )
            continue
        turns = state.besieged_turns.get(name, 0) + 1
        besieged_turns[name] = turns
        factors = siege_factors(state, inv, turns)
        roll = dice.roll(f"siege:{name}:t{state.turn}", settings.siege_dice)
        total = roll + factors.total(settings)
        lines = factors.lines(settings)
        detail = ", ".join(f"{m:+d} {what}" for what, m in lines) or "no factors"
        breached = total >= settings.siege_breach
        events.append(
            Event(
                "11.1",
                EventKind.BREACH if breached else EventKind.SIEGE,
                f"Siege of {name}, turn {turns}: the {ADJECTIVES[inv.besiegers.commander.army]} "
                f"besiegers roll {roll}, {detail}: {total}"
                + (
                    ", a breach in the walls (11, 11.1)."
                    if breached
                    else f", short of {settings.siege_breach} (11, 11.1)."
                ),
                {
                    "city": name,
                    "roll": roll,
                    "factors": [[w, m] for w, m in lines],
                    "total": total,
                    "breach": breached,
                    "turns": turns,
                },
                involved(inv),
            )
        )
        if breached:
            breaches.append(inv)
    state = dataclasses.replace(
        state, besieged_turns=besieged_turns, blockaded=tuple(sorted(blockaded)), honors_pending=()
    )
    decisions = {d.city.casefold(): d for d in orders.honors}
    for inv in breaches:
        if state.ended:
            break
        decision = decisions.get(inv.city.name.casefold(), HonorsDecision(inv.city.name))
        state, more = honors_of_war(state, inv, decision, hexmap, settings, closed)
        events.extend(more)
        state = dataclasses.replace(
            state,
            besieged_turns={k: v for k, v in state.besieged_turns.items() if k != inv.city.name},
        )
    state, more = capture_empty_fortresses(state, hexmap)
    events.extend(more)
    if state.ended:
        events.append(victory.table_event(victory.final_table(state, hexmap, settings)))
    return Resolution(state, tuple(events))
