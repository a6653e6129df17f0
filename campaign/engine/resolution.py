"""What a phase handler returns, and the handler contract (see README.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from campaign.engine.dice import Dice, Roll
from campaign.engine.events import Event, Report
from campaign.engine.orders import Orders
from campaign.engine.rulesettings import RuleSettings
from campaign.engine.state import State
from maps.core.model import HexMap


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
