"""The campaign state between phases, as frozen dataclasses that round-trip through JSON.

A ``State`` is never changed in place: the engine builds a new one with ``dataclasses.replace``
and the helpers below. Positions are people's hex ids ("CCRR"); algorithms convert to ``Hex``.

A *leader record* (``LeaderState``) is one leader counter and the points under his own command.
A *force* (3.2.1) is the group of leader records of one army in one hex, on the same side of the
fortress walls (inside or outside, 11.3); its commander is the highest-ranking leader (6.2.6) and
its points are the sum of its records' points. Points never stand on the map without a leader
except as a fortress garrison (3.2.2), which is a ``Garrison`` record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, cached_property
from typing import Any

from rules.armies import ALLIANCE_OF, Alliance, Army, Seat, seat_map, siege_train_name
from rules.leaders import Leader, leader

STATE_FORMAT = "dgk-state/1"


class Phase(Enum):
    """Rule 4's nine phases, after the deployment that opens the campaign (3)."""

    DEPLOYMENT = "deployment"
    SUPPLY = "supply"
    MARCH_ALLOCATION = "march-allocation"
    MARCH = "march"
    FORCED_MARCH = "forced-march"
    ATTRITION = "attrition"
    RECONNAISSANCE = "reconnaissance"
    BATTLE = "battle"
    SIEGE = "siege"
    RETREAT_RALLY = "retreat-rally"

    @property
    def number(self) -> int:
        """The phase's number in rule 4 (deployment is 0)."""
        return list(Phase).index(self)

    @classmethod
    def parse(cls, text: str) -> Phase:
        key = str(text).strip().lower().replace("_", "-").replace(" ", "-").replace("/", "-")
        for phase in cls:
            if key in (phase.value, str(phase.number)):
                return phase
        names = ", ".join(p.value for p in cls)
        raise ValueError(f"{text!r} is not a phase; the phases are: {names}")

    def next(self) -> Phase:
        """The phase after this one; after retreat/rally the next turn starts with supply."""
        phases = list(Phase)
        i = phases.index(self)
        return Phase.SUPPLY if self is Phase.RETREAT_RALLY else phases[i + 1]


@dataclass(frozen=True)
class LeaderState:
    """One leader on the map and the points under his own command.

    Per-turn fields (``marched`` ... ``dropped_off``) are cleared in the supply phase.
    """

    key: str
    army: Army
    hex: str
    points: int = 0
    inside: bool = False  # inside the fortress of his hex (11.3)
    demoralized: bool = False  # 10.2, the "D" marker
    supplied: bool = True  # fixed in the supply phase for the whole turn (5), the "U" marker
    turns_in_hex: int = 0  # complete turns stood in this hex (9.4.1, 11)
    field_works: int = 0  # 12-inch lengths of field works held in this hex (9.4)
    held_until_turn: int = 0  # may not move while the turn is this or earlier (11.6.1)
    # this turn only:
    marched: bool = False  # had a march order in the march phase (10.1)
    forced_marched: bool = False  # carried out a forced march (6.3)
    moved: bool = False  # left his hex this turn (march, forced march or retreat)
    dropped_off: bool = False  # dropped off along a line of march, may not move on (6.2.6)
    halted: bool = False  # entered an enemy hex: stays there until the next turn (6.4.4)
    sallied: bool = False  # left a blockaded or besieged fortress: must fight (11.3)
    second_march_mp: int = 0  # MPs expended in a second march (7.1)
    forced_march_mp: int = 0  # MPs expended in a forced march (7.1)
    hexes_marched: int = 0  # hexes moved this turn, march and forced march (6.4.4)

    @property
    def table(self) -> Leader:
        return leader(self.key)

    @property
    def rank(self) -> int:
        return self.table.rank


@dataclass(frozen=True)
class Garrison:
    """Points of one army inside a fortress (3.2.3, 11.2)."""

    city: str
    army: Army
    points: int


@dataclass(frozen=True)
class LeaderlessPoints:
    """Points of one army left in a hex outside a fortress with no leader of their country after
    a battle (9.5): demoralized (10.2) and unable to move (6.2.3) until a leader of their country
    joins them. They occupy the hex like a force (5.2.3, 6.4.4, 10.1.5) and suffer attrition."""

    army: Army
    hex: str
    points: int
    supplied: bool = True  # fixed in the supply phase (5)


@dataclass(frozen=True)
class SiegeTrain:
    """A siege train (3.1.3); ``id`` such as "prussia-1"."""

    id: str
    army: Army
    hex: str
    inside: bool = False
    moved: bool = False  # this turn

    @property
    def name(self) -> str:
        """Its one name, e.g. "Prussian siege train 1" (``armies.siege_train_name``)."""
        return siege_train_name(self.id)


@dataclass(frozen=True)
class Captive:
    """A captured leader (11.6.3, 13.2)."""

    leader: str
    army: Army
    held_by: Army


@dataclass(frozen=True)
class Prisoners:
    """Points taken prisoner (9, 11.6.2, 13.2)."""

    army: Army
    held_by: Army
    points: int


@dataclass(frozen=True)
class PendingBattle:
    """A battle set up and waiting for its result from the tabletop (9); part 2.

    ``points`` are each army's points at the start of the battle, for the VP size class
    (12.2.2) and the sharing rule (12.2.3).
    """

    id: str
    hex: str
    points: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Retreat:
    """A retreat owed in the retreat/rally phase (10.1.2, 10.1.3): ``kind`` "retire" (5 MPs) or
    "rout" (10 MPs); the leaders and siege trains move as one group (10.1.4)."""

    hex: str
    kind: str
    mp: int
    leaders: tuple[str, ...] = ()
    trains: tuple[str, ...] = ()


@dataclass(frozen=True)
class Withdrawal:
    """A garrison granted the honors of war (11.6.1), withdrawn in the retreat/rally phase to
    ``to_city`` (empty: no fortress of its country left, the garrison is removed)."""

    city: str
    army: Army
    to_city: str
    points: int = 0
    leaders: tuple[str, ...] = ()
    trains: tuple[str, ...] = ()
    captor: str = ""  # the besieging army, which takes control of ``city``


@dataclass(frozen=True)
class Force:
    """A view of the state, not stored: the leader records of one army in one hex on one side of
    the fortress walls, commander first."""

    army: Army
    hex: str
    inside: bool
    leaders: tuple[LeaderState, ...]

    @property
    def commander(self) -> LeaderState:
        return self.leaders[0]

    @property
    def points(self) -> int:
        return sum(x.points for x in self.leaders)

    @property
    def demoralized(self) -> bool:
        return any(x.demoralized for x in self.leaders)


@dataclass(frozen=True)
class State:
    """Everything a campaign needs between phases."""

    turn: int = 1
    phase: Phase = Phase.DEPLOYMENT
    players: int = 5
    army_points: dict[str, int] = field(default_factory=dict)  # agreed totals (3)
    leaders: tuple[LeaderState, ...] = ()
    garrisons: tuple[Garrison, ...] = ()
    siege_trains: tuple[SiegeTrain, ...] = ()
    control: dict[str, str] = field(default_factory=dict)  # city -> army value (2.3)
    initial_control: dict[str, str] = field(default_factory=dict)  # at the start (12.4.2)
    deployed: tuple[Army, ...] = ()  # armies whose deployment is done (3)
    marches: dict[str, int] = field(default_factory=dict)  # this turn, per rolling army (6.2)
    forced_march_arrivals: tuple[tuple[str, str], ...] = ()  # (hex, army) this turn (6.3.2)
    besieged_turns: dict[str, int] = field(default_factory=dict)  # city -> consecutive (11.1)
    blockaded: tuple[str, ...] = ()  # cities blockaded at the last siege phase (11)
    honors_pending: tuple[str, ...] = ()  # besieged this turn: honors of war asked ahead (11.6)
    captives: tuple[Captive, ...] = ()
    prisoners: tuple[Prisoners, ...] = ()
    killed: tuple[str, ...] = ()  # leaders killed in battle (9.5)
    victory_points: dict[str, int] = field(default_factory=dict)  # seat value -> VPs (12)
    surrendered: tuple[Army, ...] = ()  # armies removed from the map (12.6)
    ended: bool = False  # 12.7, or after turn 18
    # part 2 (9-13)
    pending_battles: tuple[PendingBattle, ...] = ()  # set up, awaiting results (9)
    retreats: tuple[Retreat, ...] = ()  # owed in the retreat/rally phase (10.1)
    withdrawals: tuple[Withdrawal, ...] = ()  # honors of war (11.6.1, 10)
    battle_hexes: tuple[str, ...] = ()  # hexes whose meeting was decided this turn (9)
    frederick_taken_by: str = ""  # army responsible (12.7)
    campaign_year: int = 1  # linked campaigns (13)
    british_aid_cut: bool = False  # 13.6
    at_peace: tuple[Army, ...] = ()  # 13.7
    changed_sides: tuple[Army, ...] = ()  # 13.8
    retired_leaders: tuple[str, ...] = ()  # removed for good between campaigns (13.3)
    leaderless: tuple[LeaderlessPoints, ...] = ()  # points left without a leader (9.5)

    # --- lookups --------------------------------------------------------------------------------

    @cached_property
    def _leader_index(self) -> dict[str, LeaderState]:
        return {x.key: x for x in self.leaders}

    def leader(self, key: str) -> LeaderState:
        try:
            return self._leader_index[key]
        except KeyError:
            raise KeyError(f"{key!r} is not a leader on the map") from None

    def has_leader(self, key: str) -> bool:
        return key in self._leader_index

    def leaders_at(self, hex_id: str) -> list[LeaderState]:
        return [x for x in self.leaders if x.hex == hex_id]

    def garrison(self, city: str) -> Garrison | None:
        for g in self.garrisons:
            if g.city == city:
                return g
        return None

    def garrisons_of(self, city: str) -> list[Garrison]:
        return [g for g in self.garrisons if g.city == city]

    def siege_train(self, train_id: str) -> SiegeTrain:
        for t in self.siege_trains:
            if t.id == train_id:
                return t
        raise KeyError(f"{train_id!r} is not a siege train on the map")

    # --- alliances (1.2, 13.8) -------------------------------------------------------------------

    @cached_property
    def alliance_by_value(self) -> dict[str, Alliance]:
        """Army value -> its alliance now (13.8), for hot loops: hashing a str is much cheaper
        than hashing an Enum member."""
        out = {army.value: alliance for army, alliance in ALLIANCE_OF.items()}
        for army in self.changed_sides:
            out[army.value] = ALLIANCE_OF[army].opponent
        return out

    def alliance_of(self, army: Army) -> Alliance:
        """The alliance ``army`` fights for now: its side of 1.2, or the other one if it changed
        sides between campaigns (13.8, ``changed_sides``)."""
        return self.alliance_by_value[army._value_]

    def is_enemy(self, army: Army, other: Army) -> bool:
        """Whether two armies fight for different alliances now (1.2, 13.8)."""
        by_value = self.alliance_by_value
        return by_value[army._value_] is not by_value[other._value_]

    def armies_of(self, alliance: Alliance) -> tuple[Army, ...]:
        """The armies fighting for ``alliance`` now (1.2, 13.8), in the order of ``Army``."""
        return tuple(a for a in Army if self.alliance_of(a) is alliance)

    def seat_of(self, army: Army) -> Seat:
        return seat_map(self.players)[army]

    def forces(self) -> list[Force]:
        """Every force on the map, grouped by army, hex and inside/outside (see module doc)."""
        return list(self._forces)

    @cached_property
    def _forces(self) -> tuple[Force, ...]:
        groups: dict[tuple[Army, str, bool], list[LeaderState]] = {}
        for x in self.leaders:
            groups.setdefault((x.army, x.hex, x.inside), []).append(x)
        return tuple(
            Force(army, hex_id, inside, tuple(sorted(xs, key=lambda x: x.rank)))
            for (army, hex_id, inside), xs in sorted(
                groups.items(), key=lambda kv: (kv[0][1], kv[0][0].value, kv[0][2])
            )
        )

    @cached_property
    def _force_of_leader(self) -> dict[str, Force]:
        return {x.key: force for force in self._forces for x in force.leaders}

    def force_of(self, key: str) -> Force:
        self.leader(key)
        return self._force_of_leader[key]

    # --- new states -----------------------------------------------------------------------------

    def with_leader(self, key: str, **changes: Any) -> State:
        return dataclasses.replace(
            self,
            leaders=tuple(
                dataclasses.replace(x, **changes) if x.key == key else x for x in self.leaders
            ),
        )

    def with_leaders(self, updated: Iterable[LeaderState]) -> State:
        by_key = {x.key: x for x in updated}
        return dataclasses.replace(
            self, leaders=tuple(by_key.pop(x.key, x) for x in self.leaders) + tuple(by_key.values())
        )

    def with_garrison(self, city: str, army: Army, points: int) -> State:
        """Set (or, with 0 points, remove) the garrison of ``army`` in ``city``."""
        kept = [g for g in self.garrisons if not (g.city == city and g.army is army)]
        if points > 0:
            kept.append(Garrison(city, army, points))
        kept.sort(key=lambda g: (g.city, g.army.value))
        return dataclasses.replace(self, garrisons=tuple(kept))


# --- JSON -------------------------------------------------------------------------------------


_PLAIN = frozenset((str, int, bool, float, type(None)))


def _enc(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_enc(v) for v in value]
    if isinstance(value, dict):
        return {k: _enc(v) for k, v in value.items()}
    return value


@cache
def _field_names(record_type: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(record_type))


def _record_to_dict(record: Any, skip: str = "") -> dict[str, Any]:
    return {
        name: _enc(getattr(record, name)) for name in _field_names(type(record)) if name != skip
    }


def state_to_dict(state: State) -> dict[str, Any]:
    """The state as JSON-safe data. ``state_from_dict(state_to_dict(s)) == s``."""
    return {
        "format": STATE_FORMAT,
        "turn": state.turn,
        "phase": state.phase.value,
        "players": state.players,
        "army_points": dict(state.army_points),
        "leaders": {x.key: _record_to_dict(x, skip="key") for x in state.leaders},
        "garrisons": [_record_to_dict(g) for g in state.garrisons],
        "siege_trains": {t.id: _record_to_dict(t, skip="id") for t in state.siege_trains},
        "control": dict(state.control),
        "initial_control": dict(state.initial_control),
        "deployed": [a.value for a in state.deployed],
        "marches": dict(state.marches),
        "forced_march_arrivals": [list(x) for x in state.forced_march_arrivals],
        "besieged_turns": dict(state.besieged_turns),
        "blockaded": list(state.blockaded),
        "honors_pending": list(state.honors_pending),
        "captives": [_record_to_dict(c) for c in state.captives],
        "prisoners": [_record_to_dict(p) for p in state.prisoners],
        "killed": list(state.killed),
        "victory_points": dict(state.victory_points),
        "surrendered": [a.value for a in state.surrendered],
        "ended": state.ended,
        "pending_battles": [_record_to_dict(b) for b in state.pending_battles],
        "retreats": [_record_to_dict(r) for r in state.retreats],
        "withdrawals": [_record_to_dict(w) for w in state.withdrawals],
        "battle_hexes": list(state.battle_hexes),
        "frederick_taken_by": state.frederick_taken_by,
        "campaign_year": state.campaign_year,
        "british_aid_cut": state.british_aid_cut,
        "at_peace": [a.value for a in state.at_peace],
        "changed_sides": [a.value for a in state.changed_sides],
        "retired_leaders": list(state.retired_leaders),
        "leaderless": [_record_to_dict(p) for p in state.leaderless],
    }


class StateError(ValueError):
    """A state document could not be read. ``path`` says where in the document (for instance
    ``leaders.daun.hex``; empty for the document itself), ``problem`` what is wrong there."""

    def __init__(self, problem: str, path: str = ""):
        super().__init__(f"{path}: {problem}" if path else problem)
        self.problem = problem
        self.path = path


# What a scenario writer is told when a field is missing or of the wrong kind.
_HINTS = {
    "hex": 'a hex id "CCRR", such as "0503"',
    "city": 'a city name as the map spells it, such as "Glatz"',
    "army": "an army: " + ", ".join(a.value for a in Army),
    "held_by": "an army: " + ", ".join(a.value for a in Army),
    "points": "a whole number of points",
}
_KINDS = {"int": "a whole number", "bool": "true or false", "str": "a string"}


def _join(path: str, name: str | int) -> str:
    if isinstance(name, int):
        return f"{path}[{name}]"
    return f"{path}.{name}" if path else name


def _value(kind: str, value: Any, path: str) -> Any:
    """``value`` read as the annotation ``kind`` of a state field (a string, as annotations are
    under ``from __future__ import annotations``)."""
    name = path.rsplit(".", 1)[-1]
    if kind in _KINDS:
        python = {"int": int, "bool": bool, "str": str}[kind]
        if not isinstance(value, python) or (kind == "int" and isinstance(value, bool)):
            raise StateError(f"{value!r} is not {_HINTS.get(name, _KINDS[kind])}", path)
        return value
    if kind in ("Army", "Phase"):
        try:
            return (Army if kind == "Army" else Phase).parse(value)
        except ValueError as exc:
            raise StateError(str(exc), path) from None
    if kind.startswith("tuple["):
        inner = kind[len("tuple[") : -1]
        if not isinstance(value, list | tuple):
            raise StateError(f"{value!r} is not a list", path)
        if inner.endswith(", ..."):
            return tuple(_value(inner[:-5], v, _join(path, i)) for i, v in enumerate(value))
        kinds = [k.strip() for k in inner.split(",")]
        if len(value) != len(kinds):
            raise StateError(f"{value!r} is not a list of {len(kinds)} items", path)
        return tuple(
            _value(k, v, _join(path, i)) for i, (k, v) in enumerate(zip(kinds, value, strict=True))
        )
    if kind.startswith("dict[str, "):
        inner = kind[len("dict[str, ") : -1]
        if not isinstance(value, dict):
            raise StateError(f"{value!r} is not an object", path)
        return {str(k): _value(inner, v, _join(path, str(k))) for k, v in value.items()}
    if kind in _RECORDS:
        return _record(_RECORDS[kind], value, path)
    return value


def _record(cls: type, data: Any, path: str, **extra: Any) -> Any:
    """One record of the state (a leader, a garrison, ...), every field checked by name and
    kind; ``extra`` gives fields the document leaves implicit (a leader's key and army)."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    if not isinstance(data, dict):
        raise StateError(f"{data!r} is not an object with the fields {', '.join(fields)}", path)
    values = {**extra, **data}
    unknown = set(values) - set(fields)
    if unknown:
        raise StateError(
            f"unknown field(s) {', '.join(sorted(unknown))}; the fields are {', '.join(fields)}",
            path,
        )
    for f in fields.values():
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if required and f.name not in values:
            hint = _HINTS.get(f.name, _KINDS.get(str(f.type), str(f.type)))
            raise StateError(f"'{f.name}' is missing: {hint}", path)
    return cls(**{k: _value(str(fields[k].type), v, _join(path, k)) for k, v in values.items()})


_RECORDS: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        LeaderState,
        Garrison,
        SiegeTrain,
        Captive,
        Prisoners,
        PendingBattle,
        Retreat,
        Withdrawal,
        LeaderlessPoints,
    )
}


def _keyed(data: Any, path: str) -> dict[str, Any]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise StateError(f"{data!r} is not an object", path)
    return data


def _army_map(data: Any, path: str, keys: bool = False) -> dict[str, Any]:
    """An object whose values (or keys) are armies, written as their values."""
    out = {}
    for k, v in _keyed(data, path).items():
        try:
            if keys:
                out[Army.parse(k).value] = _value("int", v, _join(path, k))
            else:
                out[str(k)] = Army.parse(v).value
        except ValueError as exc:
            raise StateError(str(exc), _join(path, k)) from None
    return out


def state_from_dict(data: dict[str, Any]) -> State:
    """Read a state document. Fields left out take their defaults, so scenario files may write
    a leader as ``"frederick": {"hex": "0503", "points": 1000}`` (the army comes from the table
    of section 14). A mistake raises ``StateError`` naming the field by its path."""
    if not isinstance(data, dict):
        raise StateError("a state is an object")
    fmt = data.get("format", STATE_FORMAT)
    if fmt != STATE_FORMAT:
        raise StateError(f"{fmt!r} is not {STATE_FORMAT!r}", "format")
    fields = {f.name: f for f in dataclasses.fields(State)}
    unknown = set(data) - set(fields) - {"format"}
    if unknown:
        raise StateError(
            f"unknown field(s) {', '.join(sorted(unknown))}; the fields are {', '.join(fields)}"
        )
    leaders = []
    for key, item in _keyed(data.get("leaders"), "leaders").items():
        path = _join("leaders", key)
        try:
            table = leader(key)
        except KeyError as exc:
            raise StateError(exc.args[0], path) from None
        if table.key != key:
            raise StateError(f"write the leader {key!r} as {table.key!r}", path)
        x = _record(LeaderState, item, path, key=key, army=table.army.value)
        if x.army is not table.army:
            raise StateError(f"{table.name} belongs to {table.army.value}", _join(path, "army"))
        leaders.append(x)
    trains = tuple(
        _record(SiegeTrain, t, _join("siege_trains", tid), id=tid)
        for tid, t in _keyed(data.get("siege_trains"), "siege_trains").items()
    )
    special = {
        "format": None,
        "leaders": tuple(leaders),
        "siege_trains": trains,
        "army_points": _army_map(data.get("army_points"), "army_points", keys=True),
        "marches": _army_map(data.get("marches"), "marches", keys=True),
        "control": _army_map(data.get("control"), "control"),
        "initial_control": _army_map(data.get("initial_control"), "initial_control"),
    }
    values = {
        name: special[name] if name in special else _value(str(fields[name].type), v, name)
        for name, v in data.items()
        if name != "format" and v is not None
    }
    for name in ("leaders", "siege_trains"):
        values[name] = special[name]
    return State(**values)


def iter_armies(state: State) -> Iterator[Army]:
    """The armies still in the campaign (not surrendered, 12.6)."""
    for army in Army:
        if army not in state.surrendered:
            yield army
