"""The engine adapter: campaign state in and out of JSON, orders per seat, who owes input.

Every rule is the engine's (``rules``); this module only translates between the
database's JSON and the engine's dataclasses, and decides which seats a phase waits for.
Where the engine has no handler for a phase yet (battle, siege, retreat/rally until part 2
lands) or the campaign's map cannot be loaded, the phase passes the state through unchanged with
a public event saying so, and the campaign moves on.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from campaign.projection import cites
from campaign.services import openings
from maps.core.loader import DEFAULT_MAP, MapError, load_map
from rules import investment, phases
from rules.armies import Army, Seat, armies_of, seats_in_play
from rules.battlesetup import retire_refusal as engine_retire_refusal
from rules.dice import Dice, derive_seed
from rules.events import Event, EventKind, event_to_dict, private, report_to_dict
from rules.leaders import leader_key, leaders_of
from rules.movers import may_force_march
from rules.orders import OrderError, orders_from_dict, unit_army
from rules.rulesettings import RuleSettings, settings_from_dict
from rules.state import Phase, State, state_from_dict, state_to_dict

# Phases that may wait for players (issue 6); the others always run straight through.
INPUT_PHASES = (Phase.DEPLOYMENT, Phase.MARCH, Phase.FORCED_MARCH, Phase.BATTLE, Phase.SIEGE)


def _handlers() -> dict:
    """The engine's phase handlers."""
    return phases.HANDLERS


def _order_kinds(phase: Phase | None) -> tuple[str, ...] | None:
    """The order kinds the engine reads in ``phase`` (None: no filtering)."""
    if phase is None:
        return None
    return phases.ORDER_KINDS.get(phase, ())


# --- set-up -------------------------------------------------------------------------------


def rule_settings(campaign) -> RuleSettings:
    return settings_from_dict(campaign.rule_settings, stored=True)


def preset_armies(players: int) -> dict[str, list[str]]:
    """Rule 1.2's presets: seat value -> army values, for 2 to 5 players.

    >>> preset_armies(2)["prussia"]
    ['hanover', 'prussia']
    """
    return {s.value: [a.value for a in armies_of(s, players)] for s in seats_in_play(players)}


def seat_label(power: str) -> str:
    return Seat(power).label


def army_points_from_base(army: str, points: int, settings: RuleSettings) -> dict[str, int]:
    """Starting points of every army from one army's figure, by the ratios of 3.4.

    >>> army_points_from_base("sweden", 200, RuleSettings())["prussia"]
    3200
    """
    unit = points / settings.point_ratio[Army.parse(army).value]
    return {a.value: round(unit * settings.point_ratio[a.value]) for a in Army}


def army_points_from_total(total: int, settings: RuleSettings) -> dict[str, int]:
    """Starting points of every army from a total for all seven, by the ratios of 3.4.

    >>> army_points_from_total(13400, RuleSettings())["sweden"]
    200
    """
    whole = sum(settings.point_ratio[a.value] for a in Army)
    return {a.value: round(total * settings.point_ratio[a.value] / whole) for a in Army}


def historical_leaders(settings: RuleSettings) -> dict[str, list[str]]:
    """The default selection (3.1.1): each army's highest-ranking leaders of section 14, as many
    as the Deployment Chart gives it; Frederick (rank 1) is always among them."""
    return {
        a.value: [x.key for x in sorted(leaders_of(a), key=lambda x: x.rank)][
            : settings.leaders[a.value]
        ]
        for a in Army
    }


def random_leaders(seed: str, settings: RuleSettings) -> dict[str, list[str]]:
    """A random draw from section 14, seeded by the campaign; Frederick always included."""
    rng = random.Random(derive_seed(seed, "leaders"))
    out = {}
    for a in Army:
        keys = [x.key for x in leaders_of(a)]
        wanted = settings.leaders[a.value]
        if a is Army.PRUSSIA:
            keys.remove("frederick")
            chosen = ["frederick", *rng.sample(keys, wanted - 1)]
        else:
            chosen = rng.sample(keys, min(wanted, len(keys)))
        out[a.value] = sorted(chosen, key=lambda k: _rank(a, k))
    return out


def _rank(army: Army, key: str) -> int:
    return next(x.rank for x in leaders_of(army) if x.key == key)


def check_leader_pick(army: str, keys: Iterable[str], settings: RuleSettings) -> list[str]:
    """A player's own pick (3.1.1): the messages, empty when it is valid."""
    a = Army.parse(army)
    known = {x.key for x in leaders_of(a)}
    picked = [leader_key(k) for k in keys]
    problems = [f"{k!r} is not a {a.label} leader of section 14" for k in picked if k not in known]
    wanted = settings.leaders[a.value]
    if len(set(picked)) != wanted:
        problems.append(f"{a.label} has {wanted} leaders (3.4); {len(set(picked))} were chosen")
    if a is Army.PRUSSIA and "frederick" not in picked:
        problems.append("The Prussian player must include Frederick (3.1.1)")
    return problems


def initial_state(players: int, army_points: dict[str, int]) -> dict:
    """The state before deployment (3): nothing on the map yet."""
    return state_to_dict(
        State(turn=1, phase=Phase.DEPLOYMENT, players=players, army_points=dict(army_points))
    )


# --- reading a state ------------------------------------------------------------------------


def read_state(data: dict) -> State:
    return state_from_dict(data)


def seats_owing(seats: Iterable, state: State, phase: Phase, hexmap=None) -> list:
    """The playing seats this phase waits for; empty means the phase runs automatically.

    Deployment: seats with an army not yet deployed (3). March: every seat with an army still
    in the campaign (12.6), so players always get their turn to write orders, even if only to
    press "ready". Forced march: only the seats with a leader who could force march
    (``rules.movers.may_force_march``, 6.3) and that did not answer "no forced march this
    turn" in advance (``Seat.declined_forced_march_turn``); the others have nothing to decide.
    Battle: seats with a force in a hex shared with an
    enemy force outside any fortress, who decide to fight, not fight or retire (9, 10.1).
    Siege: the besiegers and garrisons of every fortress under siege, who answer the honors of
    war in advance should the walls be breached (11.6; needs the map).
    """
    if phase not in INPUT_PHASES or state.ended or phase not in _handlers():
        return []
    involved: set[str] = set()
    if phase is Phase.DEPLOYMENT:
        involved = {a.value for a in Army if a not in state.deployed}
    elif phase is Phase.MARCH:
        involved = {a.value for a in Army}
    elif phase is Phase.FORCED_MARCH:
        involved = {x.army.value for x in state.leaders if may_force_march(state, x)}
    elif phase is Phase.BATTLE and not state.pending_battles:
        by_hex: dict[str, set[Army]] = {}
        for x in state.leaders:
            if not x.inside:
                by_hex.setdefault(x.hex, set()).add(x.army)
        for armies in by_hex.values():
            if len({state.alliance_of(a) for a in armies}) > 1:
                involved |= {a.value for a in armies}
    elif phase is Phase.SIEGE and hexmap is not None:
        for inv in investment.investments(state, hexmap):
            if investment.is_besieged(state, inv)[0]:
                involved |= {a.value for a in inv.garrisons} | {x.army.value for x in inv.inside}
                involved |= {x.army.value for x in inv.besiegers.records}
    involved -= {a.value for a in state.surrendered}
    seats = [s for s in seats if not s.reserve and set(s.armies) & involved]
    if phase is Phase.FORCED_MARCH:  # "no forced march this turn", answered on the march page
        seats = [s for s in seats if s.declined_forced_march_turn != state.turn]
    return seats


def awaits_tabletop(state: State) -> bool:
    """Battles are set up and the campaign waits for their results (9): the battle phase stays
    open, with no deadline, until the results are entered."""
    return state.phase is Phase.BATTLE and bool(state.pending_battles)


def battle_seats(seats: Iterable, state: State) -> list:
    """The seats with a force in a battle waiting to be fought."""
    armies: set[str] = set()
    for battle in state.pending_battles:
        for x in state.leaders:
            if x.hex == battle.hex and not x.inside:
                armies.add(x.army.value)
    return [s for s in seats if not s.reserve and set(s.armies) & armies]


# --- orders ------------------------------------------------------------------------------


def _rejected(armies: Iterable[str], text: str, rule: str) -> dict:
    audience = private(*(Army(a) for a in armies))
    return event_to_dict(
        Event(rule, EventKind.ORDER_REJECTED, f"Order rejected: {text}", audience=audience)
    )


@dataclass(frozen=True)
class _Fortress:
    """Who stands where at a fortress, for the honors of war (11.6)."""

    defender: Any  # the alliance holding it (garrison or leaders inside), or None
    holders: frozenset[str]  # the armies with a garrison or a leader inside
    outside: frozenset[str] | None  # the armies with a leader outside in its hex (None: no map)


def _fortress(state: State | None, hexmap, city: str) -> _Fortress:
    if state is None:
        return _Fortress(None, frozenset(), None)
    holders = {g.army for g in state.garrisons_of(city) if g.points > 0}
    outside = None
    if hexmap is not None:
        try:
            hex_id = hexmap.city(city).hex_id
        except KeyError:
            hex_id = None
        holders |= {x.army for x in state.leaders if x.inside and x.hex == hex_id}
        outside = frozenset(x.army.value for x in state.leaders if not x.inside and x.hex == hex_id)
    alliances = {state.alliance_of(a) for a in holders}
    defender = alliances.pop() if len(alliances) == 1 else None
    return _Fortress(defender, frozenset(a.value for a in holders), outside)


def seat_orders(
    seat,
    draft: Any,
    chosen_leaders: dict[str, list[str]] | None,
    *,
    phase: Phase | None = None,
    state: State | None = None,
    hexmap=None,
) -> tuple[dict, list]:
    """One seat's orders for ``phase``, keeping only what the seat may order: the kinds of
    that phase, its own armies' leaders, siege trains and decisions, its chosen leaders at
    deployment, and for the honors of war only its own side's answer (11.6). Battle results
    never come from a seat. Returns (orders in the engine's format, rejection events)."""
    own = set(seat.armies)
    own_alliances = {(state.alliance_of(Army(a)) if state else Army(a).alliance) for a in own}
    chosen_leaders = chosen_leaders or {}
    rejections: list[dict] = []
    if not draft:
        return {}, rejections
    if not isinstance(draft, dict):
        return {}, [_rejected(own, "the orders could not be read", "6")]
    kinds = _order_kinds(phase)
    out: dict[str, Any] = {}
    for kind, items in draft.items():
        if kind == "battle_results":
            rejections.append(_rejected(own, "battle results come from the tabletop", "9.5"))
            continue
        if kinds is not None and kind not in kinds:
            continue  # another phase's orders: this phase does not read them
        if kind == "deployment" and isinstance(items, dict):
            kept = {}
            for army, spec in items.items():
                if army not in own:
                    rejections.append(_rejected(own, f"{army!r} is not your army", "3"))
                    continue
                allowed = set(chosen_leaders.get(army) or [])
                leaders = (spec or {}).get("leaders") if isinstance(spec, dict) else None
                if allowed and isinstance(leaders, dict):
                    for key in [k for k in leaders if leader_key(k) not in allowed]:
                        rejections.append(
                            _rejected(own, f"{key!r} was not chosen for this campaign", "3.1.1")
                        )
                        leaders.pop(key)
                kept[army] = spec
            out[kind] = kept
        elif isinstance(items, list):
            kept_items = []
            for item in items:
                problem = _foreign(item, own, own_alliances, state, hexmap)
                problem = problem or openings.march_problem(
                    seat.campaign, kind, item, state, hexmap
                )
                if problem:
                    rejections.append(_rejected(own, problem, "11.6" if kind == "honors" else "6"))
                    continue
                kept_items.append(item)
            out[kind] = kept_items
        else:
            out[kind] = items
    return out, rejections


def _foreign(item: Any, own: set[str], alliances: set, state, hexmap) -> str:
    """Why an order item is not the seat's to give ("" when it is)."""
    if not isinstance(item, dict):
        return ""
    for field_name in ("unit", "from", "to"):
        unit = item.get(field_name)
        army = unit_army(leader_key(unit)) if isinstance(unit, str) else None
        if army is not None and army.value not in own:
            return f"{unit!r} is not under your command"
    if "army" in item:
        try:
            army = Army.parse(item["army"])
        except ValueError:
            return ""  # the engine says what is wrong with it
        if army.value not in own:
            return f"you do not command {army.label}"
    if "city" in item and ("besieger" in item or "garrison" in item):
        return _honors_problem(item, own, alliances, state, hexmap)
    return ""


def _honors_problem(item: dict, own: set[str], alliances: set, state, hexmap) -> str:
    """11.6: the garrison's owner answers "surrender" or "fight"; the besiegers (an enemy force
    outside in the fortress's hex, when the map is known) "grant" or "deny"."""
    city = str(item["city"])
    fortress = _fortress(state, hexmap, city)
    if fortress.defender is None:
        return f"no fortress of yours or of an enemy is under siege at {city!r}"
    if "garrison" in item and not own & fortress.holders:
        return f"only the garrison of {city} answers for it"
    if "besieger" in item:
        if fortress.defender in alliances:
            return f"only the besiegers of {city} grant or deny the honors of war"
        if fortress.outside is not None and not own & fortress.outside:
            return f"you have no force besieging {city}"
    return ""


def merge_orders(per_seat: Iterable[dict]) -> dict:
    """All seats' orders for one phase, as one engine orders document."""
    merged: dict[str, Any] = {}
    for orders in per_seat:
        for kind, items in orders.items():
            if isinstance(items, list):
                merged.setdefault(kind, []).extend(items)
            elif isinstance(items, dict):
                merged.setdefault(kind, {}).update(items)
    return merged


# --- resolving one phase ------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one phase made: the new state (JSON), and events, rolls, reports as dicts."""

    phase: Phase
    state: dict
    events: list[dict] = field(default_factory=list)
    rolls: list[dict] = field(default_factory=list)
    reports: list[dict] = field(default_factory=list)
    complete: bool = True
    # The new state decoded (``state`` is its JSON): the next phase starts from it unread.
    decoded: State | None = None


def load_campaign_map(map_name: str):
    """The campaign's map, or None when it cannot be loaded (the reason is logged by caller)."""
    try:
        return load_map(map_name or DEFAULT_MAP)
    except (MapError, OSError):
        return None


def _pass_through(state: State, phase: Phase, reason: str, settings: RuleSettings) -> Outcome:
    """Advance the campaign past a phase the engine cannot resolve, saying so."""
    nxt = phase.next()
    turn, ended = state.turn, state.ended
    if phase is Phase.RETREAT_RALLY:
        turn += 1
        ended = ended or turn > settings.turns
        turn = min(turn, settings.turns)
    new = dataclasses.replace(state, phase=nxt, turn=turn, ended=ended)
    event = Event(
        "4",
        EventKind.PHASE,
        f"The {phase.value} phase passes: {reason}.",
        {"phase": phase.value, "passed": True},
    )
    return Outcome(phase, state_to_dict(new), [event_to_dict(event)], decoded=new)


def run_phase(
    state_data: dict | State,
    orders: dict,
    *,
    seed: str,
    settings: RuleSettings,
    map_name: str = "",
) -> Outcome:
    """Resolve the state's current phase with the engine (see module docstring).
    ``state_data`` is the state's JSON, or the state already decoded (States are immutable)."""
    state = state_data if isinstance(state_data, State) else state_from_dict(state_data)
    phase = state.phase
    if phase not in _handlers():
        return _pass_through(state, phase, "the rules engine has no rules for it yet", settings)
    hexmap = load_campaign_map(map_name)
    if hexmap is None:
        return _pass_through(state, phase, "the campaign map could not be loaded", settings)
    try:
        engine_orders = orders_from_dict(orders)
    except OrderError as exc:
        # The error may quote any seat's orders: its words are the umpire's alone (an empty
        # audience); every player reads only that nothing moved.
        engine_orders = orders_from_dict({})
        told = Event(
            "6",
            EventKind.ORDER_REJECTED,
            "The orders could not be read: every force stands still this phase. The organiser "
            "has the details.",
        )
        bad = Event("6", EventKind.ORDER_REJECTED, f"Orders rejected: {exc}", audience=frozenset())
        extra = [event_to_dict(told), event_to_dict(bad)]
    else:
        extra = []
    dice = Dice(seed=seed, sides=settings.die_sides)
    result = phases.resolve_phase(state, phase, engine_orders, dice, hexmap, settings)
    return Outcome(
        phase=phase,
        state=state_to_dict(result.state),
        events=extra + [event_to_dict(e) for e in result.events],
        rolls=[
            {"name": r.name, "dice": list(r.dice), "total": r.total, "fixed": r.fixed}
            for r in result.rolls
        ],
        reports=[{**report_to_dict(r), "turn": state.turn} for r in result.reports],
        complete=result.complete,
        decoded=result.state,
    )


def retire_refusal(campaign, state: State, hex_id: str, army: str) -> str | None:
    """Why ``army``'s force at ``hex_id`` may not retire before the battle (10.1, 10.1.1, 11.3,
    6.3.2), or None, in ``state`` (the battle window's, decoded once: ``viewcache.version_state``).
    Everything it weighs is known to that player: his own march orders, the enemy's total at the
    battle (9) and the enemy's forced-march arrival."""
    try:
        which = Army.parse(army)
    except ValueError:
        return None
    refused = engine_retire_refusal(state, hex_id, which, rule_settings(campaign))
    if refused is None:
        return None
    reason, rule = refused  # (the reason's words cite its rule: not a second time)
    return reason if cites(reason, rule) else f"{reason} ({rule})"
