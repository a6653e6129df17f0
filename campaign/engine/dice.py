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

SCHEME = "dgk-dice-v1"


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


@dataclass
class Dice:
    """Named dice. ``fixed`` maps a roll name to its total, or to a list with one value per die.

    ``log`` lists every roll made, in order, for the record kept with the phase.
    """

    seed: str
    fixed: dict[str, int | list[int]] = field(default_factory=dict)
    sides: int = 6
    log: list[Roll] = field(default_factory=list)

    def roll(self, name: str, count: int = 1) -> int:
        """The total of ``count`` dice rolled for ``name``."""
        return self.roll_dice(name, count).total

    def roll_dice(self, name: str, count: int = 1) -> Roll:
        if name in self.fixed:
            value = self.fixed[name]
            dice = tuple(value) if isinstance(value, list | tuple) else (int(value),)
            roll = Roll(name, dice, True)
        else:
            roll = Roll(name, tuple(self._die(name, i) for i in range(count)), False)
        self.log.append(roll)
        return roll

    def _die(self, name: str, index: int) -> int:
        return die_value(self.seed, name, index, self.sides)

    def rolls_as_dicts(self) -> list[dict]:
        return [
            {"name": r.name, "dice": list(r.dice), "total": r.total, "fixed": r.fixed}
            for r in self.log
        ]
