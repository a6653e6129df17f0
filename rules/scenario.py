"""Scenario files: a situation, its orders and fixed dice, run through the phases of one turn.

The format is documented in docs/scenario-format.md. The casebook (tests/casebook/*.json) holds
one scenario per rule with its expected results under ``"expect"``; ``check_expectations`` says
which of them the outcome misses. ``manage.py adjudicate FILE`` prints ``outcome_to_dict``.

Every mistake in a file is refused when it is loaded, with a message that gives the place in the
file as a path (``state.leaders.daun.hex``, ``dice["rally:daun:t3"]``, ``expect.one_of[1]``) and
what is allowed there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maps.core.compact import compact_map
from maps.core.loader import MapError, load_map
from maps.core.model import HexMap
from rules.betweencampaigns import between_campaigns_from_dict
from rules.dice import Dice, DiceError, Roll, fixed_rolls
from rules.events import Event, Report, event_to_dict, report_to_dict
from rules.expectations import ExpectationError, misses, read_expect
from rules.linked import next_campaign
from rules.orders import OrderError, Orders, orders_from_dict
from rules.phases import HANDLERS, PhaseError, resolve_phase
from rules.rollnames import RollNameError, read_roll_name
from rules.rulesettings import RuleSettings, settings_from_dict, settings_to_dict
from rules.state import Phase, State, StateError, state_from_dict, state_to_dict

SCENARIO_FORMAT = "dgk-scenario/1"
OUTCOME_FORMAT = "dgk-adjudication/1"
KEYS = {
    "format",
    "title",
    "rule",
    "rules",
    "note",
    "map",
    "seed",
    "settings",
    "state",
    "orders",
    "dice",
    "through",
    "expect",
    "between_campaigns",
}


class ScenarioError(ValueError):
    """A scenario file that cannot be used; the message names the problem."""


@dataclass(frozen=True)
class Scenario:
    title: str
    rules: tuple[str, ...]
    hexmap: HexMap
    settings: RuleSettings
    state: State
    orders: Orders
    seed: str
    fixed: dict[str, Any]
    through: Phase | None
    expect: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    between: dict[str, Any] | None = None  # part 2: linked campaigns (13), instead of phases


@dataclass(frozen=True)
class Outcome:
    state: State
    phases: tuple[Phase, ...]
    events: tuple[Event, ...]
    reports: tuple[Report, ...]
    rolls: tuple[Roll, ...]
    stopped: str = ""
    unused_dice: tuple[dict[str, Any], ...] = ()  # fixed rolls not used up (Dice.unused)


def _fail(source: str, path: str, problem: str) -> ScenarioError:
    return ScenarioError(f"{source}: {path}: {problem}")


def read_map(spec: Any) -> HexMap:
    if isinstance(spec, str):
        return load_map(spec)
    if isinstance(spec, dict):
        return compact_map(spec)
    raise MapError("the name of a bundled map or an inline map object")


class _Object(dict):
    """A JSON object that remembers the keys it was given twice (json keeps the last)."""

    def __init__(self, pairs: list[tuple[str, Any]]):
        super().__init__(pairs)
        keys = [k for k, _v in pairs]
        self.twice = [k for i, k in enumerate(keys) if k in keys[:i]]


def _twice(value: Any, path: str) -> tuple[str, str] | None:
    """The first key given twice in ``value`` (a path, the key), or None."""
    if isinstance(value, _Object):
        if value.twice:
            return path, value.twice[0]
        items = [(f"{path}.{k}" if path else k, v) for k, v in value.items()]
        if path == "dice":
            items = [(f"dice[{k!r}]", v) for k, v in value.items()]
    elif isinstance(value, list):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
    else:
        return None
    for where, item in items:
        found = _twice(item, where)
        if found:
            return found
    return None


def scenario_from_dict(data: dict[str, Any], source: str = "<scenario>") -> Scenario:
    """A scenario checked from end to end; ``ScenarioError`` names the first mistake by its
    path in the file."""
    if not isinstance(data, dict):
        raise ScenarioError(f"{source}: a scenario is a JSON object")
    twice = _twice(data, "")
    if twice:
        where, key = twice
        hint = (
            "; fix a roll once, with a list of rolls for successive rolls of the same name"
            if where == "dice"
            else ""
        )
        raise _fail(
            source, where or "the file", f"{key!r} is given twice (JSON keeps the last){hint}"
        )
    fmt = data.get("format", SCENARIO_FORMAT)
    if fmt != SCENARIO_FORMAT:
        raise _fail(source, "format", f"{fmt!r} is not {SCENARIO_FORMAT!r}")
    unknown = set(data) - KEYS
    if unknown:
        raise ScenarioError(
            f"{source}: unknown key(s) {', '.join(sorted(unknown))}; "
            f"the keys are {', '.join(sorted(KEYS))}"
        )
    if "map" not in data:
        raise _fail(source, "map", "missing: the name of a bundled map or an inline map object")
    try:
        hexmap = read_map(data["map"])
    except MapError as exc:
        raise _fail(source, "map", str(exc)) from None
    try:
        settings = settings_from_dict(data.get("settings"))
    except ValueError as exc:
        raise _fail(source, "settings", str(exc)) from None
    try:
        state = state_from_dict(data.get("state") or {})
    except StateError as exc:
        raise _fail(source, f"state.{exc.path}" if exc.path else "state", exc.problem) from None
    _check_positions(state, hexmap, source)
    try:
        orders = orders_from_dict(data.get("orders"))
    except OrderError as exc:
        raise _fail(source, "orders", str(exc)) from None
    through = None
    if data.get("through"):
        try:
            through = Phase.parse(data["through"])
        except ValueError as exc:
            raise _fail(source, "through", str(exc)) from None
    fixed = _read_dice(data.get("dice"), settings, hexmap, source)
    try:
        expect = read_expect(data.get("expect") or {}, settings, hexmap)
    except ExpectationError as exc:
        raise _fail(source, exc.path, exc.problem) from None
    between = data.get("between_campaigns")
    if between is not None:
        try:
            between_campaigns_from_dict(between)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise _fail(source, "between_campaigns", str(exc)) from None
    rules = data.get("rules") or ([data["rule"]] if data.get("rule") else [])
    if isinstance(rules, str) or not isinstance(rules, list):
        raise _fail(source, "rules", f'{rules!r} is not a list of rule numbers, such as ["10.2.3"]')
    return Scenario(
        title=str(data.get("title", source)),
        rules=tuple(str(r) for r in rules),
        hexmap=hexmap,
        settings=settings,
        state=state,
        orders=orders,
        seed=str(data.get("seed", "scenario")),
        fixed=fixed,
        through=through,
        expect=dict(expect),
        source=source,
        between=between,
    )


def _read_dice(value: Any, settings: RuleSettings, hexmap: HexMap, source: str) -> dict[str, Any]:
    """The fixed rolls: each name one the engine makes (``rollnames``), each value dice it can
    throw (``dice.fixed_rolls``)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(source, "dice", 'an object of roll names and values, e.g. {"rally:daun:t3": 4}')
    for name, fixed in value.items():
        where = f"dice[{name!r}]"
        try:
            roll = read_roll_name(name, settings, hexmap)
            fixed_rolls(fixed, roll.dice, settings.die_sides)
        except (RollNameError, DiceError) as exc:
            raise _fail(source, where, str(exc)) from None
    return dict(value)


def _check_positions(state: State, hexmap: HexMap, source: str) -> None:
    """Every hex and city the state names is on the map."""

    def on_map(hex_id: str, path: str) -> None:
        try:
            hexmap.parse_hex_id(hex_id)
        except ValueError as exc:
            raise _fail(source, path, str(exc)) from None

    def city(name: str, path: str, fortress: bool = False) -> None:
        try:
            found = hexmap.city(name)
        except KeyError as exc:
            raise _fail(source, path, str(exc.args[0])) from None
        if fortress and not found.fortress:
            raise _fail(source, path, f"{found.name} is not a fortress")

    for x in state.leaders:
        on_map(x.hex, f"state.leaders.{x.key}.hex")
    for t in state.siege_trains:
        on_map(t.hex, f"state.siege_trains.{t.id}.hex")
    for i, g in enumerate(state.garrisons):
        city(g.city, f"state.garrisons[{i}].city", fortress=True)
    for i, p in enumerate(state.leaderless):
        on_map(p.hex, f"state.leaderless[{i}].hex")
    for i, r in enumerate(state.retreats):
        on_map(r.hex, f"state.retreats[{i}].hex")
    for key in ("control", "initial_control", "besieged_turns"):
        for name in getattr(state, key):
            city(name, f"state.{key}.{name}")


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_Object)
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: not valid JSON: {exc}") from None
    return scenario_from_dict(data, source=str(path))


def run_scenario(scenario: Scenario, through: Phase | None = None) -> Outcome:
    """Resolve phases from the state's phase up to ``through`` (default: the scenario's, else the
    last phase the engine has rules for), within one turn."""
    through = through or scenario.through
    state = scenario.state
    dice = Dice(scenario.seed, fixed=dict(scenario.fixed), sides=scenario.settings.die_sides)
    if scenario.between is not None:
        inputs = between_campaigns_from_dict(scenario.between)
        try:
            state, done = next_campaign(state, inputs, dice, scenario.hexmap, scenario.settings)
        except DiceError as exc:
            raise _fail(scenario.source, f"dice[{exc.name!r}]", exc.problem) from None
        return Outcome(state, (), tuple(done), (), tuple(dice.log), "", tuple(dice.unused()))
    events: list[Event] = []
    reports: list[Report] = []
    phases: list[Phase] = []
    stopped = ""
    start_turn = state.turn
    if through is not None and through.number < state.phase.number:
        raise ScenarioError(f"the state is already past the {through.value} phase")
    while True:
        phase = state.phase
        if phase not in HANDLERS:
            stopped = f"the {phase.value} phase has no rules yet"
            break
        try:
            result = resolve_phase(
                state, phase, scenario.orders, dice, scenario.hexmap, scenario.settings
            )
        except PhaseError as exc:
            stopped = str(exc)
            break
        except DiceError as exc:
            raise _fail(scenario.source, f"dice[{exc.name!r}]", exc.problem) from None
        phases.append(phase)
        events.extend(result.events)
        reports.extend(result.reports)
        state = result.state
        if not result.complete:
            stopped = f"the {phase.value} phase is not complete"
            break
        if phase is through or state.turn != start_turn or state.ended:
            break
        if phase is Phase.DEPLOYMENT and through is None:
            break
    return Outcome(
        state,
        tuple(phases),
        tuple(events),
        tuple(reports),
        tuple(dice.log),
        stopped,
        tuple(dice.unused()),
    )


def outcome_to_dict(outcome: Outcome, settings: RuleSettings | None = None) -> dict[str, Any]:
    """The JSON printed by ``manage.py adjudicate`` (keys documented in docs/scenario-format.md)."""
    out = {
        "format": OUTCOME_FORMAT,
        "phases": [p.value for p in outcome.phases],
        "turn": outcome.state.turn,
        "next_phase": outcome.state.phase.value,
        "stopped": outcome.stopped or None,
        "state": state_to_dict(outcome.state),
        "events": [event_to_dict(e) for e in outcome.events],
        "reports": [report_to_dict(r) for r in outcome.reports],
        "rolls": [
            {"name": r.name, "dice": list(r.dice), "total": r.total, "fixed": r.fixed}
            for r in outcome.rolls
        ],
        "unused_dice": list(outcome.unused_dice),
    }
    if settings is not None:
        out["settings"] = settings_to_dict(settings)
    return out


# --- expectations (the casebook) -----------------------------------------------------------------


def check_expectations(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Every expectation of ``scenario.expect`` the outcome misses, as sentences ([] if none);
    a fixed roll the run did not use up is a miss too (its name or its list is wrong)."""
    found = misses(scenario.expect, outcome_to_dict(outcome))
    for item in outcome.unused_dice:
        found.append(unused_dice_text(item))
    return found


def unused_dice_text(item: dict[str, Any]) -> str:
    """What is wrong with a fixed roll the run did not use up (``Dice.unused``)."""
    if item["used"] == 0:
        return f"dice[{item['name']!r}] is fixed but the roll was never made"
    return (
        f"dice[{item['name']!r}] fixes {item['fixed']} rolls but the roll was made "
        f"{item['used']} time(s)"
    )
