"""Historical openings at the start of a campaign, and the Clock of Fate option (issue 18;
docs/historical-openings.md, docs/clock-of-fate.md).

The organiser chooses an opening at set-up (``Campaign.options["opening"]``, blank: rule 3's
free deployment). At the start the opening's armies stand where the SPI scenario puts them, with
their leaders; the seats of the armies it leaves out deploy by rule 3 as usual.
"""

from __future__ import annotations

import dataclasses

from rules.armies import Army
from rules.events import event_to_dict
from rules.fate import FateSettings
from rules.openings import OPENINGS, Opening, load_opening, opening_state
from rules.openings.rules import march_breach
from rules.orders import (
    OrderError,
    forced_march_order_from_dict,
    march_order_from_dict,
)
from rules.rulesettings import RuleSettings
from rules.state import state_to_dict

CHOICES = [("", "Free deployment (rule 3)")] + [
    (key, f"{load_opening(key).title} (SPI)") for key in OPENINGS
]


def opening_of(campaign) -> Opening | None:
    key = (campaign.options or {}).get("opening") or ""
    return load_opening(key) if key else None


def opening_armies(campaign) -> set[str]:
    """Army values the campaign's opening places (their leaders are the opening's)."""
    opening = opening_of(campaign)
    return {a.value for a in opening.armies} if opening else set()


def seat_leaders(campaign, armies: list[str]) -> dict[str, list[str]]:
    """The opening's leaders of the seat's armies that it places."""
    opening = opening_of(campaign)
    if opening is None:
        return {}
    return {a: opening.leaders_of(Army(a)) for a in armies if Army(a) in opening.armies}


def start_state(campaign, players: int, settings: RuleSettings, hexmap) -> tuple[dict, list[dict]]:
    """State version 0 with the opening's armies deployed, and the public events telling it."""
    opening = opening_of(campaign)
    state, events = opening_state(opening, players, campaign.army_points, settings, hexmap)
    return state_to_dict(state), [event_to_dict(e) for e in events]


def march_problem(campaign, kind: str, item, state, hexmap) -> str:
    """Why a march or forced march order breaks the opening's special rules ("" if none)."""
    opening = opening_of(campaign)
    if opening is None or not opening.rules or kind not in ("march", "forced_march"):
        return ""
    if state is None or hexmap is None or not isinstance(item, dict):
        return ""
    try:
        read = march_order_from_dict if kind == "march" else forced_march_order_from_dict
        order = read(item)
    except OrderError:
        return ""  # the engine says what is wrong with it
    return march_breach(opening.rules, state, order, hexmap)


def fate_option(every: str, from_year: int | None, less_extreme: bool) -> dict:
    """The Clock of Fate as stored in ``Campaign.options["fate"]`` ({} when off), read by
    ``rules.fate.FateSettings.from_dict``."""
    if not every:
        return {}
    return dataclasses.asdict(
        FateSettings.from_dict(
            {"every": every, "from_year": from_year or 1, "less_extreme": less_extreme}
        )
    )
