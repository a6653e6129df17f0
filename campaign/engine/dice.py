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
from dataclasses import dataclass, field


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
        digest = hashlib.sha256(f"{self.seed}|{name}|{index}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % self.sides + 1

    def rolls_as_dicts(self) -> list[dict]:
        return [
            {"name": r.name, "dice": list(r.dice), "total": r.total, "fixed": r.fixed}
            for r in self.log
        ]
