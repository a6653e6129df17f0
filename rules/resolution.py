"""What a phase handler returns, and the handler contract (see README.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from maps.core.model import HexMap
from rules.dice import Dice, Roll
from rules.events import Event, Report
from rules.orders import Orders
from rules.rulesettings import RuleSettings
from rules.state import State


@dataclass(frozen=True)
class Resolution:
    """The new state, the events (each with its audience) and the reconnaissance reports.

    ``complete`` False keeps the campaign in the same phase (a deployment still missing armies).
    ``rolls`` is filled by ``resolve_phase`` with every named roll made.
    """

    state: State
    events: tuple[Event, ...] = ()
    reports: tuple[Report, ...] = ()
    complete: bool = True
    rolls: tuple[Roll, ...] = ()


Handler = Callable[[State, Orders, Dice, HexMap, RuleSettings], Resolution]
