"""The Clock of Fate on the site (docs/clock-of-fate.md): its settings, the cards drawn so far,
and the draw at the end of each turn when the organiser chose "each turn".

The cards drawn are kept where the rest of the game is kept, so a roll-back takes them back too:
each draw's first event (kind ``fate``) carries the whole clock after it in its data
(``{"clock": [card, ...]}``); a campaign year starts from the clock its previous year left,
stored in ``Campaign.options["fate_clock"]`` by ``services.nextyear``.

``at_turn_end`` is called by ``services.resolution.insert_version`` on every phase it stores: it
does something only for the retreat/rally phase that closes a turn, from the turn chosen on.
"""

from __future__ import annotations

import dataclasses

from campaign.models import Campaign
from campaign.models import Event as EventRow
from campaign.services import gameplay
from rules import fate
from rules.dice import Dice
from rules.events import Event, EventKind, event_to_dict
from rules.state import Phase, state_to_dict


def settings_of(campaign: Campaign) -> fate.FateSettings | None:
    """The organiser's choice, or None when the Clock of Fate is off."""
    data = (campaign.options or {}).get("fate") or {}
    return fate.FateSettings.from_dict(data) if data else None


def clock_of(campaign: Campaign) -> fate.Clock:
    """The cards drawn so far: the last draw of this year, else the clock the year began with."""
    rows = EventRow.objects.filter(campaign=campaign, kind=EventKind.FATE.value).order_by(
        "-version__number", "-seq"
    )
    for data in rows.values_list("data", flat=True):
        if "clock" in (data or {}):
            return fate.Clock.from_dict({"drawn": data["clock"]})
    return fate.Clock.from_dict((campaign.options or {}).get("fate_clock"))


def with_clock(events: list[Event], clock: fate.Clock) -> list[dict]:
    """The events as dicts, the first of kind ``fate`` carrying the clock after the draw."""
    out, marked = [], False
    for event in events:
        data = event_to_dict(event)
        if event.kind is EventKind.FATE and not marked:
            data["data"] = {**(data.get("data") or {}), "clock": clock.to_dict()["drawn"]}
            marked = True
        out.append(data)
    return out


def at_turn_end(campaign: Campaign, outcome: gameplay.Outcome) -> gameplay.Outcome:
    """The outcome of a phase, with a card of fate drawn and applied if this phase closed a turn
    and the clock strikes every turn (``fate.turn_end``); unchanged otherwise."""
    chosen = settings_of(campaign)
    if chosen is None or chosen.every != "turn" or outcome.phase is not Phase.RETREAT_RALLY:
        return outcome
    state = outcome.decoded if outcome.decoded is not None else gameplay.read_state(outcome.state)
    if state.phase is not Phase.SUPPLY and not state.ended:
        return outcome  # the phase did not complete: the turn goes on
    hexmap = gameplay.load_campaign_map(campaign.map_name)
    if hexmap is None:
        return outcome
    closed = state.turn if state.ended else state.turn - 1
    rules = gameplay.rule_settings(campaign)
    dice = Dice(seed=campaign.seed, sides=rules.die_sides)
    at_close = dataclasses.replace(state, turn=closed)
    after, clock, events = fate.turn_end(at_close, clock_of(campaign), dice, hexmap, chosen)
    if not events:
        return outcome
    after = dataclasses.replace(after, turn=state.turn)
    return dataclasses.replace(
        outcome,
        state=state_to_dict(after),
        decoded=after,
        events=outcome.events + with_clock(events, clock),
        rolls=outcome.rolls + dice.rolls_as_dicts(),
    )
