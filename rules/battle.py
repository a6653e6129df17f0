"""The battle phase (9, 9.1, 9.2, 9.4, 9.5, 10.1, 10.1.1): meetings, decisions, battle setups and
the application of battle results.

The phase runs in two steps, both through ``battle_phase``:

1. With no battle waiting, it finds every hex where forces of the two alliances stand outside
   any fortress, reads each army's decision (fight / decline / retire; no decision = no wish to
   fight), lets forces with a march order retire (10.1, 10.1.1), eliminates forces outnumbered
   4:1 (9), captures unescorted siege trains (9.1) and sets up every battle to be fought
   (``BattleSetup``): the phase is then *incomplete* and waits.
2. With battles waiting, it applies the results given (``Orders.battle_results``): losses (9.5),
   killed and captured leaders, the loser retiring or routing (10.1), demoralization (9.5, 10.1,
   5.1.3, 10.2.4) and victory points (12.2). When no battle is left waiting the phase is complete.

Results for a battle set up in step 1 may come with the decisions (a scenario file, the season
test): the battle id is ``t<turn>-<hex>``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from maps.core.hexgrid import parse_hex_id
from maps.core.model import HexMap
from rules import battlenames, investment, victory
from rules.armies import ADJECTIVES, Alliance, Army
from rules.battlesetup import battle_setup, force_retire_refusal, turn_date
from rules.dice import Dice
from rules.events import Event, EventKind, mps, private
from rules.garrisons import room
from rules.leaderless import add_leaderless, capture_leaderless
from rules.losses import share_loss
from rules.orders import BattleResult, Choice, Orders, Outcome, rejection
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.sides import Side, outnumbers, retreating_leaders, sides_at
from rules.state import (
    Captive,
    Force,
    PendingBattle,
    Prisoners,
    Retreat,
    State,
)
from rules.transfers import cic_events


def meeting_hexes(state: State) -> list[str]:
    """Hexes where forces of both alliances stand outside the fortress walls (9)."""
    seen: dict[str, set[Alliance]] = {}
    for x in state.leaders:
        if not x.inside:
            seen.setdefault(x.hex, set()).add(state.alliance_of(x.army))
    return sorted(h for h, alliances in seen.items() if len(alliances) == 2)


def describe(side: Side) -> str:
    parts = ", ".join(
        f"{ADJECTIVES[a]} {p}"
        for a, p in sorted(side.points_by_army().items(), key=lambda kv: kv[0].value)
    )
    chief = side.commander.table.name
    return f"{side.alliance.value.capitalize()} alliance under {chief} ({parts} points)"


# --- the battle setup ---------------------------------------------------------------------------


def capture_trains(
    state: State, train_ids: Iterable[str], by: Army, rule: str
) -> tuple[State, list[Event]]:
    ids = set(train_ids)
    if not ids:
        return state, []
    events = []
    trains = []
    for t in state.siege_trains:
        if t.id in ids:
            events.append(
                Event(
                    rule,
                    EventKind.SIEGE_TRAIN_CAPTURED,
                    f"The {t.name} at {t.hex} is captured by the {ADJECTIVES[by]} army ({rule}).",
                    {"train": t.id, "from": t.army.value, "by": by.value, "hex": t.hex},
                    private(t.army, by),  # siege trains are never reported to others (8)
                )
            )
            t = dataclasses.replace(t, army=by, inside=False)
        trains.append(t)
    return dataclasses.replace(state, siege_trains=tuple(trains)), events


def unescorted_trains(state: State) -> list[tuple[str, Army]]:
    """9.1: siege trains outside a fortress with an enemy force and no friendly force outside in
    their hex are captured (train id, capturing army)."""
    out = []
    for t in state.siege_trains:
        if t.inside:
            continue
        sides = sides_at(state, t.hex, exclude=retreating_leaders(state))
        own = sides.get(state.alliance_of(t.army))
        enemy = [s for a, s in sides.items() if a is not state.alliance_of(t.army)]
        if own is None and enemy:
            out.append((t.id, enemy[0].commander.army))
    return out


def remove_leaders(state: State, keys: Iterable[str]) -> State:
    gone = set(keys)
    return dataclasses.replace(state, leaders=tuple(x for x in state.leaders if x.key not in gone))


def eliminate_side(state: State, side: Side, by: Army, rule: str) -> tuple[State, list[Event]]:
    """The whole side is taken prisoner (9, 13.2): points become prisoners, leaders captives,
    siege trains with it are captured (9.1)."""
    events: list[Event] = []
    prisoners = list(state.prisoners)
    captives = list(state.captives)
    for army, points in side.points_by_army().items():
        if points:
            prisoners.append(Prisoners(army, by, points))
    for x in side.records:
        captives.append(Captive(x.key, x.army, by))
        events.append(
            Event(
                rule,
                EventKind.LEADER_CAPTURED,
                f"{x.table.name} is taken prisoner by the {ADJECTIVES[by]} army ({rule}).",
                {"leader": x.key, "by": by.value},
            )
        )
    hex_id = side.forces[0].hex
    trains = [
        t.id
        for t in state.siege_trains
        if t.hex == hex_id and not t.inside and state.alliance_of(t.army) is side.alliance
    ]
    state = remove_leaders(state, [x.key for x in side.records])
    state = dataclasses.replace(state, prisoners=tuple(prisoners), captives=tuple(captives))
    state, more = capture_trains(state, trains, by, "9.1")
    events.extend(more)
    if any(x.key == "frederick" for x in side.records):
        state, more = victory.frederick_taken(state, by, "captured")
        events.extend(more)
    return state, events


def decide_meeting(
    state: State, hex_id: str, orders: Orders, hexmap: HexMap, settings: RuleSettings
) -> tuple[State, list[Event], PendingBattle | None]:
    """One meeting of opposing forces: decisions, retirements, 4:1, or a battle set up."""
    events: list[Event] = []
    sides = sides_at(state, hex_id)
    choices: dict[Army, Choice] = {}
    for d in orders.battle:
        if d.hex == hex_id:
            choices[d.army] = d.choice
    present = {f.army for s in sides.values() for f in s.forces}
    # 11.3: a force that left a blockaded or besieged fortress this turn came out to fight.
    forces = [f for s in sides.values() for f in s.forces]
    sallied = {f.army for f in forces if any(x.sallied for x in f.leaders)}
    wants = {
        a: any(choices.get(f.army) is Choice.FIGHT or f.army in sallied for f in s.forces)
        for a, s in sides.items()
    }
    if not any(wants.values()):
        events.append(
            Event(
                "9",
                EventKind.NO_BATTLE,
                f"No battle at {hex_id}: neither side wishes to fight (9).",
                {"hex": hex_id, "armies": sorted(a.value for a in present)},
            )
        )
        return state, events, None
    # 9.4.2: Frederick in his works cannot initiate a battle without leaving them.
    prussian = state.alliance_of(Army.PRUSSIA)
    if wants.get(prussian) and choices.get(Army.PRUSSIA) is Choice.FIGHT:
        for x in sides[prussian].records:
            if x.key == "frederick" and x.field_works:
                state = state.with_leader(x.key, field_works=0)
                events.append(
                    Event(
                        "9.4.2",
                        EventKind.FIELD_WORKS,
                        f"Frederick leaves his field works at {hex_id} to give battle (9.4.2).",
                        {"hex": hex_id},
                    )
                )
        sides = sides_at(state, hex_id)
    # 10.1, 10.1.1: retiring before the battle.
    retiring: list[Force] = []
    for alliance, side in sides.items():
        for f in side.forces:
            if choices.get(f.army) is not Choice.RETIRE:
                continue
            why, rule = force_retire_refusal(state, hex_id, sides, alliance, f, settings) or (
                None,
                "",
            )
            if why:
                events.append(
                    rejection(
                        f.army,
                        f"the {ADJECTIVES[f.army]} force under "
                        f"{f.commander.table.name} at {hex_id} may not retire: {why}",
                        rule,
                        hex=hex_id,
                    )
                )
            else:
                retiring.append(f)
    for f in retiring:
        keys = tuple(x.key for x in f.leaders)
        trains = tuple(
            t.id
            for t in state.siege_trains
            if t.hex == hex_id and not t.inside and t.army is f.army
        )
        state = dataclasses.replace(
            state,
            retreats=(*state.retreats, Retreat(hex_id, "retire", settings.retire_mp, keys, trains)),
        )
        enemy_side = next(s for a, s in sides.items() if a is not state.alliance_of(f.army))
        events.append(
            Event(
                "10.1",
                EventKind.RETIRED,
                f"The {ADJECTIVES[f.army]} force under {f.commander.table.name} retires "
                f"from battle at {hex_id}; it will retreat {mps(settings.retire_mp)} in the "
                "retreat/rally phase (10.1, 10.1.2).",
                {"hex": hex_id, "leader": f.commander.key, "points": f.points},
                private(*sorted(present, key=lambda a: a.value)),
            )
        )
        vps = victory.outcome_vps(
            enemy_side.points_by_army(), {f.army: f.points}, False, settings, state.players
        )
        state, more = victory.award(state, vps, "12.2", f"retirement before battle at {hex_id}")
        events.extend(more)
    sides = sides_at(state, hex_id, exclude=retreating_leaders(state))
    if len(sides) < 2:
        return state, events, None
    # 9: 4:1 or more, no battle; the smaller force is taken prisoner.
    a, b = sorted(sides.values(), key=lambda s: (-s.points, s.alliance.value))
    if outnumbers(a.points, b.points, settings.no_battle_ratio):
        events.append(
            Event(
                "9",
                EventKind.NO_BATTLE,
                f"No battle at {hex_id}: the {describe(a)} outnumbers the {describe(b)} "
                f"{settings.no_battle_ratio}:1 or more. The smaller force is taken "
                "prisoner; the larger loses nothing (9).",
                {"hex": hex_id, "larger": a.points, "smaller": b.points},
                private(*sorted(present, key=lambda a: a.value)),
            )
        )
        events.append(
            Event(
                "9",
                EventKind.NO_BATTLE,
                f"No battle at {hex_id}: {b.commander.table.name}'s force, outnumbered 4:1 or "
                f"more by {a.commander.table.name}'s, is taken prisoner (9).",
                {"hex": hex_id},
            )
        )
        vps = victory.outcome_vps(
            a.points_by_army(), b.points_by_army(), True, settings, state.players
        )
        state, more = eliminate_side(state, b, a.commander.army, "9")
        events.extend(more)
        state, more = victory.award(state, vps, "12.2", f"capture of a force at {hex_id}")
        events.extend(more)
        return state, events, None
    setup = battle_setup(state, hex_id, sides, hexmap, settings)
    pending = PendingBattle(
        setup["battle"],
        hex_id,
        {army.value: p for s in sides.values() for army, p in s.points_by_army().items()},
    )
    events.append(
        Event(
            "9",
            EventKind.BATTLE,
            f"{battlenames.title(setup)} ({battlenames.hex_note(setup)}{setup['terrain']}, "
            f"{turn_date(state.turn)}): "
            f"{describe(sides[Alliance.PRUSSIAN])} against "
            f"{describe(sides[Alliance.AUSTRIAN])}. The campaign waits for the result "
            "from the tabletop (9).",
            {"setup": setup},
            private(*sorted(present, key=lambda a: a.value)),
        )
    )
    events.append(
        Event(
            "9",
            EventKind.BATTLE,
            f"{battlenames.capital(battlenames.named(setup))} is fought between "
            f"{sides[Alliance.PRUSSIAN].commander.table.name} and "
            f"{sides[Alliance.AUSTRIAN].commander.table.name} (9).",
            {"hex": hex_id, "battle": pending.id},
        )
    )
    return state, events, pending


# --- step 2: results ----------------------------------------------------------------------------


def _orphan_points(
    state: State,
    hex_id: str,
    army: Army,
    points: int,
    side_lost: bool,
    enemy: Army,
    hexmap: HexMap,
    settings: RuleSettings,
    supplied: bool,
) -> tuple[State, list[Event]]:
    """Points left with no leader of their country after a battle (9.5). In a fortress hex they
    garrison a friendly fortress (11.2), as far as its bastions hold them without a leader
    (2.3.4). The rest cannot move (6.2.3): if their side lost they are taken prisoner, the enemy
    holding the field; if it won they stay in the hex, demoralized "even if it won" (9.5), until
    a leader of their country joins them (``leaderless.py``)."""
    if points <= 0:
        return state, []
    events = []
    fortress = hexmap.fortress_at(parse_hex_id(hex_id))
    if fortress is not None and state.control.get(fortress.name) in {
        a.value for a in state.armies_of(state.alliance_of(army))
    }:
        space = room(state, fortress, army, settings)
        taken = points if space is None else min(points, space)
        if taken > 0:
            old = sum(g.points for g in state.garrisons_of(fortress.name) if g.army is army)
            state = state.with_garrison(fortress.name, army, old + taken)
            events.append(
                Event(
                    "9.5",
                    EventKind.DEMORALIZED,
                    f"{taken} {ADJECTIVES[army]} points left without a leader at {hex_id} "
                    f"fall back into {fortress.name} (9.5, 11.2).",
                    {"hex": hex_id, "points": taken, "army": army.value, "city": fortress.name},
                    private(army),
                )
            )
        points -= taken
        if points <= 0:
            return state, events
    if side_lost:
        state = dataclasses.replace(
            state, prisoners=(*state.prisoners, Prisoners(army, enemy, points))
        )
        events.append(
            Event(
                "9.5",
                EventKind.PRISONERS,
                f"{points} {ADJECTIVES[army]} points left without a leader at {hex_id} cannot "
                f"retreat (6.2.3): they are taken prisoner by the {ADJECTIVES[enemy]} army (9.5).",
                {"hex": hex_id, "points": points, "army": army.value},
                private(army, enemy),
            )
        )
        return state, events
    state = add_leaderless(state, army, hex_id, points, supplied)
    events.append(
        Event(
            "9.5",
            EventKind.DEMORALIZED,
            f"{points} {ADJECTIVES[army]} points are left without a leader of their country at "
            f"{hex_id}: they are demoralized even though their side won, and cannot move until "
            "a leader of their country joins them (9.5, 6.2.3).",
            {"hex": hex_id, "points": points, "army": army.value, "leaderless": True},
            private(army),
        )
    )
    return state, events


def apply_result(
    state: State,
    pending: PendingBattle,
    result: BattleResult,
    hexmap: HexMap,
    settings: RuleSettings,
) -> tuple[State, list[Event]]:
    """Apply one tabletop result (9.5, 10.1, 5.1.3, 10.2.4, 12.2, 12.7)."""
    hex_id = pending.hex
    events: list[Event] = []
    sides = sides_at(state, hex_id, exclude=retreating_leaders(state))
    loser = state.alliance_of(result.loser_army) if result.loser_army else result.loser
    winner = loser.opponent
    if loser not in sides or winner not in sides:
        return state, [
            rejection(None, f"battle {pending.id}: the forces are no longer in {hex_id}", "9.5")
        ]
    captor = {loser: sides[winner].commander.army, winner: sides[loser].commander.army}
    # Points are secret (3): the numbers go to the armies that fought only.
    fought = private(*sorted({Army(a) for a in pending.points}, key=lambda a: a.value))
    # 9.5: losses.
    for army_value, loss in result.losses:
        army = Army(army_value)
        records = [
            x
            for x in sides.get(state.alliance_of(army), Side(state.alliance_of(army), ())).records
            if x.army is army
        ]
        if not records:
            events.append(
                rejection(
                    army, f"battle {pending.id}: no {ADJECTIVES[army]} force fought there", "9.5"
                )
            )
            continue
        before = sum(x.points for x in records)
        shares = share_loss(records, loss)
        state = state.with_leaders(
            dataclasses.replace(x, points=x.points - shares[x.key]) for x in records
        )
        events.append(
            Event(
                "9.5",
                EventKind.BATTLE,
                f"The {ADJECTIVES[army]} force at {hex_id} loses "
                f"{min(loss, before)} of its {before} points in the battle (9.5).",
                {"hex": hex_id, "army": army.value, "loss": min(loss, before), "before": before},
                fought,
            )
        )
    # 13.2: the part of the losses taken prisoner (surrendered on the tabletop, or taken in the
    # quick resolution) becomes prisoners of war. The result does not say which: the words fit
    # both.
    lost = dict(result.losses)
    for army_value, taken in result.prisoners:
        army = Army(army_value)
        taken = min(taken, lost.get(army_value, 0))
        if taken <= 0:
            events.append(
                rejection(
                    army,
                    f"battle {pending.id}: {ADJECTIVES[army]} prisoners must be counted among "
                    "its losses (9.5, 13.2)",
                    "13.2",
                )
            )
            continue
        by = captor[state.alliance_of(army)]
        state = dataclasses.replace(state, prisoners=(*state.prisoners, Prisoners(army, by, taken)))
        events.append(
            Event(
                "13.2",
                EventKind.PRISONERS,
                f"{taken} of the {ADJECTIVES[army]} points lost at {hex_id} were taken "
                f"prisoner in the battle: they are prisoners of the {ADJECTIVES[by]} army (13.2).",
                {"hex": hex_id, "army": army.value, "points": taken, "by": by.value},
                fought,
            )
        )
    # 9.5: killed and captured leaders; their points pass to the next leader of the country.
    for key, how in [(k, "killed") for k in result.killed] + [
        (k, "captured") for k in result.captured
    ]:
        if not state.has_leader(key) or state.leader(key).hex != hex_id or state.leader(key).inside:
            events.append(
                rejection(None, f"battle {pending.id}: {key!r} was not in the battle", "9.5")
            )
            continue
        x = state.leader(key)
        enemy = captor[state.alliance_of(x.army)]
        state = remove_leaders(state, [key])
        if how == "killed":
            state = dataclasses.replace(state, killed=(*state.killed, key))
        else:
            state = dataclasses.replace(
                state, captives=(*state.captives, Captive(key, x.army, enemy))
            )
        events.append(
            Event(
                "9.5",
                EventKind.LEADER_KILLED if how == "killed" else EventKind.LEADER_CAPTURED,
                f"{x.table.name} is {how} in the battle at {hex_id}; his counter is removed (9.5).",
                {"leader": key, "how": how, "by": enemy.value},
            )
        )
        heirs = sorted(
            (y for y in state.leaders_at(hex_id) if y.army is x.army and not y.inside),
            key=lambda y: y.rank,
        )
        if heirs:
            state = state.with_leader(heirs[0].key, points=heirs[0].points + x.points)
        else:
            state, more = _orphan_points(
                state,
                hex_id,
                x.army,
                x.points,
                state.alliance_of(x.army) is loser,
                enemy,
                hexmap,
                settings,
                x.supplied,
            )
            events.extend(more)
        if key == "frederick":
            state, more = victory.frederick_taken(state, enemy, how)
            events.extend(more)
    sides = sides_at(state, hex_id, exclude=retreating_leaders(state))
    # A side with no points left has lost its whole escort: leaders and trains taken (9.1).
    if loser in sides and sides[loser].points == 0:
        state, more = eliminate_side(state, sides[loser], captor[loser], "9.1")
        events.extend(more)
    sides = sides_at(state, hex_id, exclude=retreating_leaders(state))
    # 10.1: the loser retires (with consent) or is defeated: demoralized and routed.
    demoralize: set[str] = set()
    if loser in sides:
        side = sides[loser]
        routed = result.outcome is Outcome.DEFEATED
        mp = settings.rout_mp if routed else settings.retire_mp
        keys = tuple(x.key for x in side.records)
        trains = tuple(
            t.id
            for t in state.siege_trains
            if t.hex == hex_id and not t.inside and state.alliance_of(t.army) is loser
        )
        state = dataclasses.replace(
            state,
            retreats=(
                *state.retreats,
                Retreat(hex_id, "rout" if routed else "retire", mp, keys, trains),
            ),
        )
        if routed:
            demoralize.update(keys)
        events.append(
            Event(
                "10.1",
                EventKind.ROUTED if routed else EventKind.RETIRED,
                f"The {describe(side)} "
                + (
                    f"is defeated outright: demoralized, it routs {mps(mp)} (10.1, 10.1.3)."
                    if routed
                    else f"retires from the battle with the enemy's consent and will retreat "
                    f"{mps(mp)} (10.1, 10.1.2)."
                ),
                {"hex": hex_id, "battle": pending.id, "mp": mp, "leaders": list(keys)},
                fought,
            )
        )
        events.append(
            Event(
                "10.1",
                EventKind.ROUTED if routed else EventKind.RETIRED,
                f"{side.commander.table.name}'s force "
                + ("is defeated at " if routed else "retires from the battle at ")
                + f"{hex_id} (10.1).",
                {"hex": hex_id, "battle": pending.id},
            )
        )
    # 5.1.3, 10.2.4: unsupplied forces are demoralized whether they win or lose.
    for side in sides.values():
        for f in side.forces:
            if not all(x.supplied for x in f.leaders):
                demoralize.update(x.key for x in f.leaders)
                events.append(
                    Event(
                        "5.1.3",
                        EventKind.DEMORALIZED,
                        f"The unsupplied {ADJECTIVES[f.army]} force under "
                        f"{f.commander.table.name} is demoralized after the battle "
                        "(5.1.3, 10.2.4).",
                        {"leader": f.commander.key},
                    )
                )
    state = state.with_leaders(
        dataclasses.replace(state.leader(k), demoralized=True)
        for k in sorted(demoralize)
        if state.has_leader(k)
    )
    # 12.2: victory points by the size of the defeated side at the start of the battle.
    armies = {Army(a): p for a, p in pending.points.items()}
    vps = victory.outcome_vps(
        {a: p for a, p in armies.items() if state.alliance_of(a) is winner},
        {a: p for a, p in armies.items() if state.alliance_of(a) is loser},
        result.outcome is Outcome.DEFEATED,
        settings,
        state.players,
    )
    state, more = victory.award(state, vps, "12.2", f"the battle at {hex_id}")
    events.extend(more)
    state = dataclasses.replace(
        state,
        pending_battles=tuple(b for b in state.pending_battles if b.id != pending.id),
        battle_hexes=(*state.battle_hexes, hex_id),
    )
    return state, events


# --- the phase ---------------------------------------------------------------------------------


def battle_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 7 (9): decide meetings and set up battles, or apply battle results."""
    events: list[Event] = []
    if not state.pending_battles:
        state = dataclasses.replace(state, battle_hexes=())
        pending: list[PendingBattle] = []
        for hex_id in meeting_hexes(state):
            if state.ended:
                break
            state, more, battle = decide_meeting(state, hex_id, orders, hexmap, settings)
            events.extend(more)
            if battle is not None:
                pending.append(battle)
        state = dataclasses.replace(state, pending_battles=tuple(pending))
        for train, by in unescorted_trains(state):
            state, more = capture_trains(state, [train], by, "9.1")
            events.extend(more)
        state, more = capture_leaderless(state)
        events.extend(more)
    results = {r.battle: r for r in orders.battle_results}
    applied = False
    for pending_battle in state.pending_battles:
        if state.ended:
            break
        result = results.pop(pending_battle.id, None)
        if result is not None:
            state, more = apply_result(state, pending_battle, result, hexmap, settings)
            events.extend(more)
            applied = True
    for battle in results:
        events.append(rejection(None, f"there is no battle {battle!r} waiting for a result", "9"))
    if applied:  # 3.2.6 "at any time": losses and fallen leaders may break it
        events.extend(cic_events(state))
    if state.ended:
        state = dataclasses.replace(state, pending_battles=())
        events.append(victory.table_event(victory.final_table(state, hexmap, settings)))
    elif not state.pending_battles:
        state = dataclasses.replace(state, honors_pending=sieges_ahead(state, hexmap))
    return Resolution(state, tuple(events), complete=not state.pending_battles)


def sieges_ahead(state: State, hexmap: HexMap) -> tuple[str, ...]:
    """The fortresses the siege phase will find besieged: their garrisons and besiegers answer the
    honors of war in advance, in case of a breach (11.6; ``State.honors_pending``)."""
    return tuple(
        inv.city.name
        for inv in investment.investments(state, hexmap)
        if investment.is_besieged(state, inv)[0]
    )
