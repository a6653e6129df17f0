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
from functools import cached_property
from typing import Any

from campaign.engine.armies import ALLIANCE_OF, Alliance, Army, Seat, seat_map
from campaign.engine.leaders import Leader, leader

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


def _enc(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_enc(v) for v in value]
    if isinstance(value, dict):
        return {k: _enc(v) for k, v in value.items()}
    return value


def _record_to_dict(record: Any, skip: str = "") -> dict[str, Any]:
    return {
        f.name: _enc(getattr(record, f.name)) for f in dataclasses.fields(record) if f.name != skip
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
    """A state document could not be read; the message names the problem."""


def _record(cls: type, data: dict[str, Any], where: str, **extra: Any) -> Any:
    known = {f.name for f in dataclasses.fields(cls)}
    values = {**extra, **data}
    unknown = set(values) - known
    if unknown:
        raise StateError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    if "army" in values:
        try:
            values["army"] = Army.parse(values["army"])
        except ValueError as exc:
            raise StateError(f"{where}: {exc}") from None
    if "held_by" in values:
        values["held_by"] = Army.parse(values["held_by"])
    try:
        return cls(**values)
    except TypeError as exc:
        raise StateError(f"{where}: {exc}") from None


def state_from_dict(data: dict[str, Any]) -> State:
    """Read a state document. Fields left out take their defaults, so scenario files may write
    a leader as ``"frederick": {"hex": "0503", "points": 1000}`` (the army comes from the table
    of section 14)."""
    if not isinstance(data, dict):
        raise StateError("a state is an object")
    fmt = data.get("format", STATE_FORMAT)
    if fmt != STATE_FORMAT:
        raise StateError(f"state format {fmt!r} is not {STATE_FORMAT!r}")
    known = {f.name for f in dataclasses.fields(State)} | {"format"}
    unknown = set(data) - known
    if unknown:
        raise StateError(f"state: unknown field(s) {', '.join(sorted(unknown))}")
    leaders = []
    for key, item in (data.get("leaders") or {}).items():
        try:
            table = leader(key)
        except KeyError as exc:
            raise StateError(f"state: {exc}") from None
        if table.key != key:
            raise StateError(f"state: write the leader {key!r} as {table.key!r}")
        leaders.append(
            _record(LeaderState, dict(item), f"leader {key!r}", key=key, army=table.army.value)
        )
        if leaders[-1].army is not table.army:
            raise StateError(f"leader {key!r} belongs to {table.army.value}")
    try:
        phase = Phase.parse(data.get("phase", Phase.DEPLOYMENT.value))
    except ValueError as exc:
        raise StateError(f"state: {exc}") from None
    return State(
        turn=int(data.get("turn", 1)),
        phase=phase,
        players=int(data.get("players", 5)),
        army_points={
            Army.parse(k).value: int(v) for k, v in (data.get("army_points") or {}).items()
        },
        leaders=tuple(leaders),
        garrisons=tuple(
            _record(Garrison, dict(g), f"garrison {i + 1}")
            for i, g in enumerate(data.get("garrisons") or [])
        ),
        siege_trains=tuple(
            _record(SiegeTrain, dict(t), f"siege train {tid!r}", id=tid)
            for tid, t in (data.get("siege_trains") or {}).items()
        ),
        control={k: Army.parse(v).value for k, v in (data.get("control") or {}).items()},
        initial_control={
            k: Army.parse(v).value for k, v in (data.get("initial_control") or {}).items()
        },
        deployed=tuple(Army.parse(a) for a in data.get("deployed") or []),
        marches={Army.parse(k).value: int(v) for k, v in (data.get("marches") or {}).items()},
        forced_march_arrivals=tuple(
            (str(h), Army.parse(a).value) for h, a in data.get("forced_march_arrivals") or []
        ),
        besieged_turns={k: int(v) for k, v in (data.get("besieged_turns") or {}).items()},
        blockaded=tuple(data.get("blockaded") or []),
        honors_pending=tuple(data.get("honors_pending") or []),
        captives=tuple(_record(Captive, dict(c), "captive") for c in data.get("captives") or []),
        prisoners=tuple(
            _record(Prisoners, dict(p), "prisoners") for p in data.get("prisoners") or []
        ),
        killed=tuple(data.get("killed") or []),
        victory_points={k: int(v) for k, v in (data.get("victory_points") or {}).items()},
        surrendered=tuple(Army.parse(a) for a in data.get("surrendered") or []),
        ended=bool(data.get("ended", False)),
        pending_battles=tuple(
            PendingBattle(str(b["id"]), str(b["hex"]), {k: int(v) for k, v in b["points"].items()})
            for b in data.get("pending_battles") or []
        ),
        retreats=tuple(
            Retreat(
                str(r["hex"]),
                str(r["kind"]),
                int(r["mp"]),
                tuple(r.get("leaders") or ()),
                tuple(r.get("trains") or ()),
            )
            for r in data.get("retreats") or []
        ),
        withdrawals=tuple(
            Withdrawal(
                str(w["city"]),
                Army.parse(w["army"]),
                str(w.get("to_city", "")),
                int(w.get("points", 0)),
                tuple(w.get("leaders") or ()),
                tuple(w.get("trains") or ()),
                str(w.get("captor", "")),
            )
            for w in data.get("withdrawals") or []
        ),
        battle_hexes=tuple(data.get("battle_hexes") or []),
        frederick_taken_by=str(data.get("frederick_taken_by", "")),
        campaign_year=int(data.get("campaign_year", 1)),
        british_aid_cut=bool(data.get("british_aid_cut", False)),
        at_peace=tuple(Army.parse(a) for a in data.get("at_peace") or []),
        changed_sides=tuple(Army.parse(a) for a in data.get("changed_sides") or []),
        retired_leaders=tuple(data.get("retired_leaders") or []),
        leaderless=tuple(
            _record(LeaderlessPoints, dict(p), f"leaderless points {i + 1}")
            for i, p in enumerate(data.get("leaderless") or [])
        ),
    )


def iter_armies(state: State) -> Iterator[Army]:
    """The armies still in the campaign (not surrendered, 12.6)."""
    for army in Army:
        if army not in state.surrendered:
            yield army
