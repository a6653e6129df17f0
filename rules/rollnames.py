"""The names of the engine's rolls (docs/dice.md), read back: what a scenario file may fix.

Every roll the engine makes has a name built from a kind and its parts (``rally:daun:t3``).
``read_roll_name`` checks a name written by hand, part by part, and says how many dice the roll
throws under the campaign's settings, so that a scenario cannot fix a roll that is never made
(a misspelt name would otherwise leave the real roll random) nor give it the wrong dice.

>>> from rules.rulesettings import RuleSettings
>>> read_roll_name("siege:Torgau:t3", RuleSettings()).dice
2
>>> read_roll_name("rally:napoleon:t3", RuleSettings())
Traceback (most recent call last):
...
rules.rollnames.RollNameError: 'napoleon' is not a leader of section 14
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from maps.core.model import HexMap
from rules.armies import Army, Seat
from rules.leaders import leader
from rules.rulesettings import RuleSettings


class RollNameError(ValueError):
    """A roll name the engine never makes; the message says which part is wrong."""


@dataclass(frozen=True)
class RollKind:
    """One kind of roll: its written form (as docs/dice.md shows it) and its rule."""

    kind: str
    form: str
    rule: str
    pattern: re.Pattern[str]
    check: Callable[[re.Match[str], RuleSettings, HexMap | None], int]


@dataclass(frozen=True)
class RollName:
    name: str
    kind: RollKind
    dice: int  # how many dice the roll throws


def _turn(text: str, settings: RuleSettings) -> None:
    turn = int(text)
    if not 1 <= turn <= settings.turns:
        raise RollNameError(f"t{turn}: the turns are t1 to t{settings.turns}")


def _year(text: str) -> None:
    if int(text) < 2:
        raise RollNameError(f"y{text}: this roll is made between campaigns, from y2 on")


def _leader(key: str) -> None:
    try:
        table = leader(key)
    except KeyError as exc:
        raise RollNameError(exc.args[0]) from None
    if table.key != key:
        raise RollNameError(f"write the leader {key!r} as {table.key!r}")


def _allocation(m: re.Match[str], settings: RuleSettings, hexmap: HexMap | None) -> int:
    try:
        army = Army.parse(m["army"])
    except ValueError as exc:
        raise RollNameError(str(exc)) from None
    if army.value != m["army"]:
        raise RollNameError(f"write the army {m['army']!r} as {army.value!r}")
    if army.value not in settings.march_dice:
        pool = army.march_pool
        rolling = ", ".join(sorted(settings.march_dice))
        also = f": it uses {pool.value}'s marches (6.2.1)" if pool is not army else ""
        raise RollNameError(
            f"{army.value} rolls no dice for marches{also}; the armies that roll are {rolling}"
        )
    _turn(m["turn"], settings)
    return settings.march_dice[army.value]


def _one_leader(m: re.Match[str], settings: RuleSettings, hexmap: HexMap | None) -> int:
    _leader(m["leader"])
    _turn(m["turn"], settings)
    return 1


def _meeting(m: re.Match[str], settings: RuleSettings, hexmap: HexMap | None) -> int:
    a, b, roller = m["a"], m["b"], m["leader"]
    for key in (a, b):
        _leader(key)
    if not a < b:
        raise RollNameError(f"write the two commanders in alphabetical order: {b}-vs-{a}")
    if roller not in (a, b):
        raise RollNameError(f"the roller {roller!r} is neither {a!r} nor {b!r}")
    _turn(m["turn"], settings)
    if m["again"] and int(m["again"]) < 2:
        raise RollNameError("a roll after a tie is r2, r3, ... (the first roll has no :r)")
    return 1


def _siege(m: re.Match[str], settings: RuleSettings, hexmap: HexMap | None) -> int:
    if hexmap is not None:
        try:
            city = hexmap.city(m["city"])
        except KeyError as exc:
            raise RollNameError(str(exc.args[0])) from None
        if not city.fortress or city.name != m["city"]:
            raise RollNameError(f"{m['city']!r} is not a fortress of the map as it spells it")
    _turn(m["turn"], settings)
    return settings.siege_dice


def _british_aid(m: re.Match[str], settings: RuleSettings, hexmap: HexMap | None) -> int:
    _year(m["year"])
    return 1


def _new_leader(m: re.Match[str], settings: RuleSettings, hexmap: HexMap | None) -> int:
    if m["seat"] not in {s.value for s in Seat}:
        seats = ", ".join(s.value for s in Seat)
        raise RollNameError(f"{m['seat']!r} is not a seat; the seats are {seats}")
    _year(m["year"])
    if m["again"] and int(m["again"]) < 2:
        raise RollNameError("a roll again is :2, :3, ... (the first roll has none)")
    return 2


_LEADER = r"(?P<leader>[a-z0-9-]+)"
_TURN = r"t(?P<turn>\d+)"
_MEETING = rf"(?P<a>[a-z0-9-]+?)-vs-(?P<b>[a-z0-9-]+):{_TURN}:{_LEADER}(?::r(?P<again>\d+))?"

KINDS: tuple[RollKind, ...] = tuple(
    RollKind(kind, form, rule, re.compile(rf"{kind}:{pattern}"), check)
    for kind, form, rule, pattern, check in (
        (
            "march-allocation",
            "march-allocation:{army}:t{turn}",
            "6.1",
            rf"(?P<army>[a-z]+):{_TURN}",
            _allocation,
        ),
        (
            "forced-march",
            "forced-march:{leader}:t{turn}",
            "6.3",
            rf"{_LEADER}:{_TURN}",
            _one_leader,
        ),
        ("meeting", "meeting:{a}-vs-{b}:t{turn}:{leader}[:r{n}]", "6.4.4", _MEETING, _meeting),
        (
            "forced-meeting",
            "forced-meeting:{a}-vs-{b}:t{turn}:{leader}[:r{n}]",
            "6.4.4",
            _MEETING,
            _meeting,
        ),
        ("siege", "siege:{city}:t{turn}", "11.1", rf"(?P<city>[^:]+):{_TURN}", _siege),
        ("rally", "rally:{leader}:t{turn}", "10.3", rf"{_LEADER}:{_TURN}", _one_leader),
        ("british-aid", "british-aid:y{year}", "13.6", r"y(?P<year>\d+)", _british_aid),
        (
            "new-leader",
            "new-leader:{seat}:y{year}[:{n}]",
            "13.3",
            r"(?P<seat>[a-z]+):y(?P<year>\d+)(?::(?P<again>\d+))?",
            _new_leader,
        ),
    )
)
_BY_KIND = {k.kind: k for k in KINDS}
FORMS = ", ".join(k.form for k in KINDS)


def read_roll_name(name: str, settings: RuleSettings, hexmap: HexMap | None = None) -> RollName:
    """The roll ``name`` names, with its number of dice; ``RollNameError`` if the engine never
    makes such a roll. With ``hexmap``, a siege's city must be a fortress of that map."""
    if not isinstance(name, str):
        raise RollNameError(f"{name!r} is not a roll name; the rolls are {FORMS}")
    kind = _BY_KIND.get(name.split(":", 1)[0])
    if kind is None:
        raise RollNameError(f"{name!r} is not a roll of the engine; the rolls are {FORMS}")
    m = kind.pattern.fullmatch(name)
    if m is None:
        raise RollNameError(f"{name!r} does not read as {kind.form} (rule {kind.rule})")
    return RollName(name, kind, kind.check(m, settings, hexmap))
