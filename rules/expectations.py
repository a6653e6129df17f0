"""The ``expect`` part of a scenario file: what the casebook says must (or must not) happen.

``read_expect`` checks an ``expect`` object when the file is loaded, so that a misspelt key, event
kind or roll name is refused instead of passing unnoticed (an expectation of absence would
otherwise hold for any typo). ``misses`` compares it with the outcome of a run, as printed by
``manage.py adjudicate`` (``scenario.outcome_to_dict``), and says what it misses.
Keys and examples: docs/scenario-format.md.
"""

from __future__ import annotations

from typing import Any

from maps.core.model import HexMap
from rules.armies import Army
from rules.events import EventKind
from rules.leaders import leader
from rules.rollnames import RollNameError, read_roll_name
from rules.rulesettings import RuleSettings
from rules.state import Phase

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
_RECORDS = ("leaders", "siege_trains")
_MAPS = ("control", "marches", "besieged_turns", "victory_points")
_EQUAL = ("forced_march_arrivals", "turn", "deployed", "ended")
_FRAGMENTS = ("events", "absent", "reports")
_NAMES = ("rolls", "not_rolled")
KEYS = (
    *_RECORDS,
    "garrisons",
    *_MAPS,
    *PART2_KEYS,
    *_EQUAL,
    "violations",
    "phases",
    "next_phase",
    *_FRAGMENTS,
    "report_count",
    *_NAMES,
    "one_of",
)
_RENAMED = {"no_events": "absent"}
_EVENT_FIELDS = ("rule", "kind", "text", "data", "audience")
_REPORT_FIELDS = ("rule", "to", "hex", "army", "commander", "points", "inside", "garrison", "text")


class ExpectationError(ValueError):
    """An ``expect`` object that cannot be checked; ``path`` says where (``expect.events[2]``)."""

    def __init__(self, problem: str, path: str):
        super().__init__(f"{path}: {problem}")
        self.problem = problem
        self.path = path


def read_expect(
    expect: Any, settings: RuleSettings, hexmap: HexMap | None = None, path: str = "expect"
) -> dict[str, Any]:
    """``expect`` checked key by key; raises ``ExpectationError`` naming the first mistake."""
    if not isinstance(expect, dict):
        raise ExpectationError("an object of expectations (docs/scenario-format.md)", path)
    for key, value in expect.items():
        where = f"{path}.{key}"
        if key in _RENAMED:
            raise ExpectationError(f"'{key}' is now '{_RENAMED[key]}'", where)
        if key not in KEYS:
            raise ExpectationError(
                f"unknown expectation; the expectations are {', '.join(KEYS)}", where
            )
        _READERS.get(key, _anything)(value, where, settings, hexmap)
    return expect


def _anything(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    return None


def _object(value: Any, path: str, what: str) -> dict:
    if not isinstance(value, dict):
        raise ExpectationError(f"{value!r} is not {what}", path)
    return value


def _list(value: Any, path: str, what: str) -> list:
    if not isinstance(value, list):
        raise ExpectationError(f"{value!r} is not a list of {what}", path)
    return value


def _records(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    for name, fields in _object(value, path, "an object naming records").items():
        if path.endswith(".leaders"):
            try:
                table = leader(name)
            except KeyError as exc:
                raise ExpectationError(exc.args[0], f"{path}.{name}") from None
            if table.key != name:
                raise ExpectationError(f"write the leader as {table.key!r}", f"{path}.{name}")
        if fields is not None:
            _object(fields, f"{path}.{name}", "an object of fields, or null (the record is gone)")


def _garrisons(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    for city, want in _object(value, path, 'an object such as {"Glatz": 250}').items():
        where = f"{path}.{city}"
        if hexmap is not None:
            try:
                hexmap.city(city)
            except KeyError as exc:
                raise ExpectationError(str(exc.args[0]), where) from None
        if isinstance(want, dict):
            for army in want:
                try:
                    Army.parse(army)
                except ValueError as exc:
                    raise ExpectationError(str(exc), f"{where}.{army}") from None
        elif isinstance(want, bool) or not isinstance(want, int):
            raise ExpectationError(
                f"{want!r} is neither a number of points nor an object of points by army", where
            )


def _map(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    _object(value, path, "an object")


def _phases(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    items = [value] if path.endswith("next_phase") else _list(value, path, "phase names")
    for i, name in enumerate(items):
        where = path if path.endswith("next_phase") else f"{path}[{i}]"
        if name not in {p.value for p in Phase}:
            names = ", ".join(p.value for p in Phase)
            raise ExpectationError(f"{name!r} is not a phase; the phases are {names}", where)


def _fragments(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    reports = path.endswith(".reports")
    fields = _REPORT_FIELDS if reports else _EVENT_FIELDS
    for i, fragment in enumerate(_list(value, path, "objects")):
        where = f"{path}[{i}]"
        _object(
            fragment, where, "an object matched against each " + ("report" if reports else "event")
        )
        if not fragment:
            raise ExpectationError("an empty object matches anything; name a field", where)
        unknown = set(fragment) - set(fields)
        if unknown:
            raise ExpectationError(
                f"unknown field(s) {', '.join(sorted(unknown))}; "
                f"the fields are {', '.join(fields)}",
                where,
            )
        kind = fragment.get("kind")
        if not reports and kind is not None and kind not in {k.value for k in EventKind}:
            raise ExpectationError(
                f"{kind!r} is not an event kind; the kinds are "
                f"{', '.join(k.value for k in EventKind)}",
                f"{where}.kind",
            )


def _count(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ExpectationError(f"{value!r} is not a number of reports", path)


def _names(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    for i, name in enumerate(_list(value, path, "roll names")):
        try:
            read_roll_name(name, settings, hexmap)
        except RollNameError as exc:
            raise ExpectationError(str(exc), f"{path}[{i}]") from None


def _one_of(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    alternatives = _list(value, path, "alternatives")
    if len(alternatives) < 2:
        raise ExpectationError(
            "give at least two alternatives, each an object of expectations", path
        )
    for i, alternative in enumerate(alternatives):
        read_expect(alternative, settings, hexmap, f"{path}[{i}]")


def _violations(value: Any, path: str, settings: RuleSettings, hexmap: HexMap | None) -> None:
    for army, rules in _object(value, path, 'an object such as {"prussia": ["3.2.1"]}').items():
        try:
            Army.parse(army)
        except ValueError as exc:
            raise ExpectationError(str(exc), f"{path}.{army}") from None
        _list(rules, f"{path}.{army}", "rule numbers")


_READERS = {
    **dict.fromkeys(_RECORDS, _records),
    "garrisons": _garrisons,
    **dict.fromkeys(_MAPS, _map),
    "phases": _phases,
    "next_phase": _phases,
    **dict.fromkeys(_FRAGMENTS, _fragments),
    "report_count": _count,
    **dict.fromkeys(_NAMES, _names),
    "one_of": _one_of,
    "violations": _violations,
}


# --- checking ------------------------------------------------------------------------------------


def matches(expected: Any, actual: Any) -> bool:
    """Subset match: every key given in ``expected`` equals the one in ``actual``; lists match
    item by item and must have the same length."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            matches(e, a) for e, a in zip(expected, actual, strict=True)
        )
    return expected == actual


def misses(expect: dict[str, Any], result: dict[str, Any]) -> list[str]:
    """Every expectation of ``expect`` that ``result`` (an ``outcome_to_dict``) misses, as
    sentences; [] if it meets them all."""
    out: list[str] = []
    for key, fragment in expect.items():
        out.extend(_CHECKS.get(key, _check_equal)(key, fragment, result))
    return out


def _check_records(key: str, fragment: dict, result: dict) -> list[str]:
    state, out = result["state"], []
    for name, fields in fragment.items():
        actual = state[key].get(name)
        if fields is None:
            if actual is not None:
                out.append(f"{key} {name}: expected gone, found {actual}")
        elif actual is None or not matches(fields, actual):
            out.append(f"{key} {name}: expected {fields}, found {actual}")
    return out


def _check_garrisons(key: str, fragment: dict, result: dict) -> list[str]:
    actual: dict[str, dict[str, int]] = {}
    for g in result["state"]["garrisons"]:
        actual.setdefault(g["city"], {})[g["army"]] = g["points"]
    out = []
    for city, want in fragment.items():
        have = actual.get(city, {})
        if isinstance(want, int):
            if sum(have.values()) != want:
                out.append(f"garrison {city}: expected {want} points, found {have}")
        elif have != want:
            out.append(f"garrison {city}: expected {want}, found {have}")
    return out


def _check_map(key: str, fragment: dict, result: dict) -> list[str]:
    state = result["state"]
    return [
        f"{key} {k}: expected {v}, found {state[key].get(k)}"
        for k, v in fragment.items()
        if state[key].get(k) != v
    ]


def _check_part2(key: str, fragment: Any, result: dict) -> list[str]:
    actual = result["state"][key]
    return [] if matches(fragment, actual) else [f"{key}: expected {fragment}, found {actual}"]


def _check_equal(key: str, fragment: Any, result: dict) -> list[str]:
    actual = result["state"][key]
    return [] if actual == fragment else [f"{key}: expected {fragment}, found {actual}"]


def _check_violations(key: str, fragment: dict, result: dict) -> list[str]:
    out = []
    for army, rules in fragment.items():
        found = [
            sorted(v["rule"] for v in e["data"].get("violations", []))
            for e in result["events"]
            if e["kind"] == "deployment-rejected" and e["data"].get("army") == army
        ]
        if sorted(rules) not in found:
            out.append(f"violations of {army}: expected rules {sorted(rules)}, found {found}")
    return out


def _check_top(key: str, fragment: Any, result: dict) -> list[str]:
    what = key.replace("_", " ")
    return [] if result[key] == fragment else [f"{what}: expected {fragment}, found {result[key]}"]


def _check_events(key: str, fragment: list, result: dict) -> list[str]:
    return [f"no event matches {want}" for want in fragment if not _any(want, result["events"])]


def _check_absent(key: str, fragment: list, result: dict) -> list[str]:
    out = []
    for want in fragment:
        found = [e for e in result["events"] if matches(want, e)]
        if found:
            out.append(f"expected no event matching {want}, found {found[0]}")
    return out


def _check_reports(key: str, fragment: list, result: dict) -> list[str]:
    return [f"no report matches {want}" for want in fragment if not _any(want, result["reports"])]


def _check_report_count(key: str, fragment: int, result: dict) -> list[str]:
    n = len(result["reports"])
    return [] if n == fragment else [f"expected {fragment} reports, found {n}"]


def _check_rolls(key: str, fragment: list, result: dict) -> list[str]:
    names = [r["name"] for r in result["rolls"]]
    return [f"no roll named {name!r} (rolls: {names})" for name in fragment if name not in names]


def _check_not_rolled(key: str, fragment: list, result: dict) -> list[str]:
    rolled = {r["name"]: r for r in result["rolls"]}
    return [
        f"the roll {name!r} was made ({rolled[name]['dice']}); it should not be"
        for name in fragment
        if name in rolled
    ]


def _check_one_of(key: str, fragment: list, result: dict) -> list[str]:
    found = [misses(alternative, result) for alternative in fragment]
    if any(not m for m in found):
        return []
    told = "; ".join(f"({i + 1}) {', '.join(m)}" for i, m in enumerate(found))
    return [f"none of the {len(fragment)} alternatives of one_of is met: {told}"]


def _any(want: dict, items: list[dict]) -> bool:
    return any(matches(want, item) for item in items)


_CHECKS = {
    **dict.fromkeys(_RECORDS, _check_records),
    "garrisons": _check_garrisons,
    **dict.fromkeys(_MAPS, _check_map),
    **dict.fromkeys(PART2_KEYS, _check_part2),
    **dict.fromkeys(_EQUAL, _check_equal),
    "violations": _check_violations,
    "phases": _check_top,
    "next_phase": _check_top,
    "events": _check_events,
    "absent": _check_absent,
    "reports": _check_reports,
    "report_count": _check_report_count,
    "rolls": _check_rolls,
    "not_rolled": _check_not_rolled,
    "one_of": _check_one_of,
}
