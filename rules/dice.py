"""The one dice object of the engine.

Every roll has a stable name saying what it is for and for whom, e.g.
``march-allocation:austria:t3`` or ``forced-march:frederick:t3`` (all names: docs/dice.md).
A roll's value depends only on the campaign seed and the name, never on the order in which rolls
are made, so a phase replays exactly. A scenario file (or a test) can fix any roll by its name.

>>> d = Dice("campaign-7", fixed={"forced-march:frederick:t3": 4})
>>> d.roll("forced-march:frederick:t3")
4
>>> Dice("campaign-7").roll("meeting:daun:t2") == Dice("campaign-7").roll("meeting:daun:t2")
True
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field

# The scheme's version (docs/dice.md). v2: every new seed is 256 bits (64 hex digits), so that
# its public SHA-256 commitment cannot be searched back to it. v1 campaigns have 64-bit seeds
# (re-seeds 128 bits); the dice, the commitment and the derived seeds are computed the same way
# in both, so a v1 campaign verifies as before.
SCHEME = "dgk-dice-v2"
SEED_BYTES = 32


def seed_scheme(seed: str) -> str:
    """The scheme a seed was drawn under: its version and its strength in bits.

    >>> seed_scheme("0" * 64), seed_scheme("0" * 16)
    ('dgk-dice-v2, a 256-bit seed', 'dgk-dice-v1, a 64-bit seed')
    """
    bits = len(seed) * 4
    version = SCHEME if bits >= SEED_BYTES * 8 else "dgk-dice-v1"
    return f"{version}, a {bits}-bit seed"


def die_value(seed: str, name: str, index: int, sides: int = 6) -> int:
    """One die of the roll ``name``: ``sha256(seed|name|index)``, first 8 bytes big-endian,
    mod ``sides`` plus 1 (docs/dice.md says how a player checks it).

    >>> die_value("campaign-7", "meeting:daun:t2", 0) in range(1, 7)
    True
    """
    digest = hashlib.sha256(f"{seed}|{name}|{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % sides + 1


def commitment(seed: str) -> str:
    """What every player sees before the first roll: the SHA-256 of the seed, in hex.

    >>> commitment("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(seed.encode()).hexdigest()


def derive_seed(seed: str, label: str) -> str:
    """A seed of its own for ``label`` (a battle table, a quick resolution, a leader draw):
    HMAC-SHA256 keyed by the campaign seed. Knowing it tells nothing of the campaign seed nor of
    any campaign die.

    >>> derive_seed("campaign-7", "table:t2-0502") == derive_seed("campaign-7", "table:t2-0502")
    True
    >>> derive_seed("campaign-7", "a") != derive_seed("campaign-7", "b")
    True
    """
    return hmac.new(seed.encode(), label.encode(), hashlib.sha256).hexdigest()


def short_code(seed: str) -> str:
    """The code printed for a derived seed (8 hex digits): it names a layout so two printouts
    can be compared, and gives nothing to compute a die from."""
    return hashlib.sha256(f"code|{seed}".encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Mismatch:
    """A recorded roll that the seed does not give."""

    name: str
    recorded: tuple[int, ...]
    expected: tuple[int, ...]


def check_rolls(seed: str, rolls: Iterable[dict], sides: int = 6) -> tuple[int, list[Mismatch]]:
    """Recompute the recorded ``rolls`` (as ``Dice.rolls_as_dicts`` writes them) from ``seed``.

    Returns how many random rolls were checked and those that do not match; fixed rolls (set by
    a scenario or a tabletop result, not by the dice) are not counted.

    >>> d = Dice("s")
    >>> _ = d.roll("x", 2)
    >>> check_rolls("s", d.rolls_as_dicts())
    (1, [])
    >>> check_rolls("s", [{"name": "x", "dice": [7, 7], "fixed": False}])[1][0].name
    'x'
    """
    checked, bad = 0, []
    for roll in rolls:
        if roll.get("fixed"):
            continue
        recorded = tuple(int(v) for v in roll["dice"])
        expected = tuple(die_value(seed, roll["name"], i, sides) for i in range(len(recorded)))
        checked += 1
        if recorded != expected:
            bad.append(Mismatch(roll["name"], recorded, expected))
    return checked, bad


@dataclass(frozen=True)
class Roll:
    name: str
    dice: tuple[int, ...]
    fixed: bool

    @property
    def total(self) -> int:
        return sum(self.dice)


class DiceError(ValueError):
    """A fixed roll that cannot be used as given; ``name`` is the roll's name (if known),
    ``problem`` says why."""

    def __init__(self, problem: str, name: str = ""):
        super().__init__(f"{name}: {problem}" if name else problem)
        self.problem = problem
        self.name = name


def _die(value: object, sides: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise DiceError(f"{what} {value!r} is not a die: a whole number from 1 to {sides}")
    return value


def _form(count: int) -> str:
    return "[" + ", ".join(f"d{i + 1}" for i in range(count)) + "]"


def _one_roll(value: object, count: int, sides: int) -> tuple[int, ...]:
    """One roll of ``count`` dice written as a number or as a list with one value per die."""
    if isinstance(value, list | tuple):
        if len(value) != count:
            raise DiceError(
                f"{list(value)!r} gives {len(value)} dice; this roll throws {count}"
                + (f": write {_form(count)}" if count > 1 else "")
            )
        return tuple(_die(v, sides, "the value") for v in value)
    if count == 1:
        return (_die(value, sides, "the value"),)
    if isinstance(value, bool) or not isinstance(value, int) or not count <= value <= count * sides:
        raise DiceError(
            f"the total {value!r} is not one {count} dice can make: a whole number from "
            f"{count} to {count * sides}, or {_form(count)} with one value per die"
        )
    return (value,)


def fixed_rolls(
    value: object, count: int = 1, sides: int = 6
) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """The rolls a fixed value gives a roll name of ``count`` dice, and whether they are used in
    order (a list of rolls) or each time the name is rolled (a single roll).

    A single roll is a number (the die, or the total of several dice) or, for several dice, a
    list with one value per die. A list of rolls gives successive rolls of the same name: for a
    roll of one die a list of numbers, for several dice a list of lists.

    >>> fixed_rolls(4)
    (((4,),), False)
    >>> fixed_rolls([2, 5])
    (((2,), (5,)), True)
    >>> fixed_rolls([6, 4], count=2)
    (((6, 4),), False)
    >>> fixed_rolls([[6, 4], [1, 1]], count=2)
    (((6, 4), (1, 1)), True)
    """
    if isinstance(value, list | tuple):
        if not value:
            raise DiceError("an empty list fixes nothing: give a value, or a list of rolls")
        if count > 1 and all(not isinstance(v, list | tuple) for v in value):
            return (_one_roll(value, count, sides),), False
        rolls = []
        for i, item in enumerate(value):
            try:
                rolls.append(_one_roll(item, count, sides))
            except DiceError as exc:
                raise DiceError(f"roll {i + 1} of the list: {exc}") from None
        return tuple(rolls), True
    return (_one_roll(value, count, sides),), False


@dataclass
class Dice:
    """Named dice. ``fixed`` maps a roll name to a value (``fixed_rolls``: a number, one value per
    die, or a list of rolls used in order).

    ``log`` lists every roll made, in order, for the record kept with the phase; ``used`` how
    many times each fixed name was rolled.
    """

    seed: str
    fixed: dict[str, object] = field(default_factory=dict)
    sides: int = 6
    log: list[Roll] = field(default_factory=list)
    used: dict[str, int] = field(default_factory=dict)
    in_order: dict[str, int] = field(default_factory=dict)  # fixed name -> rolls in its list

    def roll(self, name: str, count: int = 1) -> int:
        """The total of ``count`` dice rolled for ``name``."""
        return self.roll_dice(name, count).total

    def roll_dice(self, name: str, count: int = 1) -> Roll:
        if name in self.fixed:
            try:
                rolls, in_order = fixed_rolls(self.fixed[name], count, self.sides)
            except DiceError as exc:
                raise DiceError(exc.problem, name) from None
            n = self.used.get(name, 0)
            if in_order and n >= len(rolls):
                raise DiceError(
                    f"{len(rolls)} roll(s) fixed, but the engine rolls it a {_ordinal(n + 1)} time",
                    name,
                )
            self.used[name] = n + 1
            if in_order:
                self.in_order[name] = len(rolls)
            roll = Roll(name, rolls[n] if in_order else rolls[0], True)
        else:
            roll = Roll(name, tuple(self._die(name, i) for i in range(count)), False)
        self.log.append(roll)
        return roll

    def unused(self) -> list[dict]:
        """The fixed rolls the engine did not use up: names never rolled, and lists of rolls
        with values left over (``{"name", "fixed", "used"}``)."""
        out = []
        for name in self.fixed:
            used = self.used.get(name, 0)
            given = self.in_order.get(name, 1)
            if used == 0 or used < given:
                out.append({"name": name, "fixed": given, "used": used})
        return out

    def _die(self, name: str, index: int) -> int:
        return die_value(self.seed, name, index, self.sides)

    def rolls_as_dicts(self) -> list[dict]:
        return [
            {"name": r.name, "dice": list(r.dice), "total": r.total, "fixed": r.fixed}
            for r in self.log
        ]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
