"""Scenario files: a situation, its orders and fixed dice, run through the phases of one turn.

The format is documented in docs/scenario-format.md. The casebook (tests/casebook/*.json) holds
one scenario per rule with its expected results under ``"expect"``; ``check_expectations`` says
which of them the outcome misses. ``manage.py adjudicate FILE`` prints ``outcome_to_dict``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campaign.engine.dice import Dice, Roll
from campaign.engine.events import Event, Report, event_to_dict, report_to_dict
from campaign.engine.linked import between_campaigns_from_dict, next_campaign
from campaign.engine.orders import OrderError, Orders, orders_from_dict
from campaign.engine.phases import HANDLERS, PhaseError, resolve_phase
from campaign.engine.rulesettings import RuleSettings, settings_from_dict, settings_to_dict
from campaign.engine.state import Phase, State, StateError, state_from_dict, state_to_dict
from maps.core.compact import compact_map
from maps.core.loader import MapError, load_map
from maps.core.model import HexMap

SCENARIO_FORMAT = "dgk-scenario/1"
# part 2: state fields a case may expect, matched like events (docs/scenario-format.md)
PART2_KEYS = (
    "captives",
    "prisoners",
    "killed",
    "retreats",
    "withdrawals",
    "pending_battles",
    "blockaded",
    "surrendered",
    "frederick_taken_by",
    "battle_hexes",
    "at_peace",
    "changed_sides",
    "campaign_year",
    "british_aid_cut",
    "retired_leaders",
    "leaderless",
)
OUTCOME_FORMAT = "dgk-adjudication/1"
_KEYS = {
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


def read_map(spec: Any) -> HexMap:
    if isinstance(spec, str):
        return load_map(spec)
    if isinstance(spec, dict):
        return compact_map(spec)
    raise ScenarioError("'map' is the name of a bundled map or an inline map object")


def scenario_from_dict(data: dict[str, Any], source: str = "<scenario>") -> Scenario:
    if not isinstance(data, dict):
        raise ScenarioError(f"{source}: a scenario is a JSON object")
    fmt = data.get("format", SCENARIO_FORMAT)
    if fmt != SCENARIO_FORMAT:
        raise ScenarioError(f"{source}: format {fmt!r} is not {SCENARIO_FORMAT!r}")
    unknown = set(data) - _KEYS
    if unknown:
        raise ScenarioError(
            f"{source}: unknown key(s) {', '.join(sorted(unknown))}; "
            f"the keys are {', '.join(sorted(_KEYS))}"
        )
    if "map" not in data:
        raise ScenarioError(f"{source}: 'map' is missing")
    try:
        hexmap = read_map(data["map"])
    except MapError as exc:
        raise ScenarioError(f"{source}: map: {exc}") from None
    try:
        settings = settings_from_dict(data.get("settings"))
    except ValueError as exc:
        raise ScenarioError(f"{source}: settings: {exc}") from None
    try:
        state = state_from_dict(data.get("state") or {})
    except (StateError, ValueError) as exc:
        raise ScenarioError(f"{source}: state: {exc}") from None
    _check_positions(state, hexmap, source)
    try:
        orders = orders_from_dict(data.get("orders"))
    except OrderError as exc:
        raise ScenarioError(f"{source}: orders: {exc}") from None
    through = None
    if data.get("through"):
        try:
            through = Phase.parse(data["through"])
        except ValueError as exc:
            raise ScenarioError(f"{source}: through: {exc}") from None
    fixed = data.get("dice") or {}
    if not isinstance(fixed, dict):
        raise ScenarioError(f"{source}: 'dice' maps roll names to values")
    rules = data.get("rules") or ([data["rule"]] if data.get("rule") else [])
    return Scenario(
        title=str(data.get("title", source)),
        rules=tuple(str(r) for r in rules),
        hexmap=hexmap,
        settings=settings,
        state=state,
        orders=orders,
        seed=str(data.get("seed", "scenario")),
        fixed=dict(fixed),
        through=through,
        expect=dict(data.get("expect") or {}),
        source=source,
        between=data.get("between_campaigns"),
    )


def _check_positions(state: State, hexmap: HexMap, source: str) -> None:
    for x in state.leaders:
        try:
            hexmap.parse_hex_id(x.hex)
        except ValueError as exc:
            raise ScenarioError(f"{source}: leader {x.key!r}: {exc}") from None
    for t in state.siege_trains:
        try:
            hexmap.parse_hex_id(t.hex)
        except ValueError as exc:
            raise ScenarioError(f"{source}: siege train {t.id!r}: {exc}") from None
    for g in state.garrisons:
        try:
            city = hexmap.city(g.city)
        except KeyError as exc:
            raise ScenarioError(f"{source}: garrison: {exc.args[0]}") from None
        if not city.fortress:
            raise ScenarioError(f"{source}: garrison: {city.name} is not a fortress")


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
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
        state, done = next_campaign(state, inputs, dice, scenario.hexmap, scenario.settings)
        return Outcome(state, (), tuple(done), (), tuple(dice.log))
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
    return Outcome(state, tuple(phases), tuple(events), tuple(reports), tuple(dice.log), stopped)


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
    }
    if settings is not None:
        out["settings"] = settings_to_dict(settings)
    return out


# --- expectations (the casebook) -----------------------------------------------------------------


def _matches(expected: Any, actual: Any) -> bool:
    """Subset match: every key given in ``expected`` equals the one in ``actual``."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _matches(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            _matches(e, a) for e, a in zip(expected, actual, strict=True)
        )
    return expected == actual


def check_expectations(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Every expectation of ``scenario.expect`` the outcome misses, as sentences ([] if none)."""
    expect = scenario.expect
    result = outcome_to_dict(outcome)
    state = result["state"]
    misses: list[str] = []
    for key, fragment in expect.items():
        if key in ("leaders", "siege_trains"):
            for name, fields in fragment.items():
                if fields is None:
                    if name in state[key]:
                        misses.append(f"{key} {name}: expected gone, found {state[key][name]}")
                    continue
                actual = state[key].get(name)
                if actual is None or not _matches(fields, actual):
                    misses.append(f"{key} {name}: expected {fields}, found {actual}")
        elif key == "garrisons":
            actual_g: dict[str, dict[str, int]] = {}
            for g in state["garrisons"]:
                actual_g.setdefault(g["city"], {})[g["army"]] = g["points"]
            for city, want in fragment.items():
                have = actual_g.get(city, {})
                if isinstance(want, int):
                    if sum(have.values()) != want:
                        misses.append(f"garrison {city}: expected {want} points, found {have}")
                elif have != want:
                    misses.append(f"garrison {city}: expected {want}, found {have}")
        elif key in ("control", "marches", "besieged_turns", "victory_points"):
            for k, v in fragment.items():
                if state[key].get(k) != v:
                    misses.append(f"{key} {k}: expected {v}, found {state[key].get(k)}")
        elif key in PART2_KEYS:
            if not _matches(fragment, state[key]):
                misses.append(f"{key}: expected {fragment}, found {state[key]}")
        elif key in ("forced_march_arrivals", "turn", "deployed", "ended"):
            if state[key] != fragment:
                misses.append(f"{key}: expected {fragment}, found {state[key]}")
        elif key == "violations":
            for army, rules in fragment.items():
                found = [
                    sorted(v["rule"] for v in e["data"].get("violations", []))
                    for e in result["events"]
                    if e["kind"] == "deployment-rejected" and e["data"].get("army") == army
                ]
                if sorted(rules) not in found:
                    misses.append(
                        f"violations of {army}: expected rules {sorted(rules)}, found {found}"
                    )
        elif key == "phases":
            if result["phases"] != fragment:
                misses.append(f"phases: expected {fragment}, found {result['phases']}")
        elif key == "next_phase":
            if result["next_phase"] != fragment:
                misses.append(f"next phase: expected {fragment}, found {result['next_phase']}")
        elif key == "events":
            for want in fragment:
                if not any(_matches(want, e) for e in result["events"]):
                    misses.append(f"no event matches {want}")
        elif key == "no_events":
            for want in fragment:
                found = [e for e in result["events"] if _matches(want, e)]
                if found:
                    misses.append(f"unexpected event {found[0]}")
        elif key == "reports":
            for want in fragment:
                if not any(_matches(want, r) for r in result["reports"]):
                    misses.append(f"no report matches {want}")
        elif key == "report_count":
            if len(result["reports"]) != fragment:
                misses.append(f"expected {fragment} reports, found {len(result['reports'])}")
        elif key == "rolls":
            names = [r["name"] for r in result["rolls"]]
            for name in fragment:
                if name not in names:
                    misses.append(f"no roll named {name!r} (rolls: {names})")
        else:
            misses.append(f"unknown expectation {key!r}")
    return misses
