"""The Clock of Fate of *Friedrich* (its rule 11) for linked campaigns (13; issue 18).

An optional module: from a chosen campaign year on, at each season's end (or at the end of each
turn, as the organiser chooses), one Card of Fate is drawn with the campaign's dice. Its six
historical strokes of fate map onto DGK's linked-campaign rules (docs/clock-of-fate.md):

- ELISABETH (the Tsarina dies): Russia makes peace (13.7) and one Prussian general retires.
- SWEDEN (Sweden makes peace): Sweden makes peace (13.7) and one Prussian general retires.
- INDIA and AMERICA (France loses India, Canada): the first of the two drawn cuts the
  subsidies of Austria; the second takes France out of the war (13.7), retires Cumberland and
  cuts Hanover's subsidies.
- LORD BUTE and POEMS (England reduces subsidies): Prussia's subsidies are cut, then cut again.
- The twelve other cards have only minor effects in *Friedrich* (on one general for one turn)
  with nothing like them in DGK: they are announced, and the sands run on.

A subsidy cut multiplies the army's new points of the next seasons (13.4) by
``SUBSIDY_FACTORS`` (*Friedrich*'s Tactical Cards a turn: Prussia 7, then 5, then 4; Austria 5,
then 4; Hanover 2, then 1; France keeps 3 of 4 before and 3 of 3 after, so no change).

The deck is a shuffled stack drawn from the top, each card going under the stack: one named
roll per card (``fate:y<year>`` or ``fate:y<year>:t<turn>``, ``linked.pick``) chooses among the
cards not yet drawn, so each roll is recorded, replays from the seed, and tells nothing of the
cards still to come; after 18 draws the same order comes round again. The "less extreme" set-up
(*Friedrich* 13) keeps ELISABETH, POEMS and AMERICA out of the first four cards.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from maps.core.model import HexMap
from rules.armies import ADJECTIVES, Army, Seat
from rules.betweencampaigns import (
    STAR_SIZES,
    BetweenCampaigns,
    add_points_at,
    pick,
    take_points_at,
)
from rules.dice import Dice
from rules.events import Event, EventKind
from rules.leaders import leader
from rules.linked import make_peace, next_campaign
from rules.rulesettings import RuleSettings
from rules.state import State


class Card(Enum):
    ELISABETH = "elisabeth"
    INDIA = "india"
    AMERICA = "america"
    SWEDEN = "sweden"
    LORD_BUTE = "lord-bute"
    POEMS = "poems"
    Q1 = "fate-1"
    Q2 = "fate-2"
    Q3 = "fate-3"
    Q4 = "fate-4"
    Q5 = "fate-5"
    Q6 = "fate-6"
    Q7 = "fate-7"
    Q8 = "fate-8"
    Q9 = "fate-9"
    Q10 = "fate-10"
    Q11 = "fate-11"
    Q12 = "fate-12"


DECK = tuple(Card)  # 18 cards (Friedrich 11)
STROKES = DECK[:6]
LESS_EXTREME_LATER = (Card.ELISABETH, Card.POEMS, Card.AMERICA)
LESS_EXTREME_TOP = 4

HISTORY = {
    Card.ELISABETH: "The Tsarina Elisabeth is dead; her successor adores Frederick",
    Card.INDIA: "France loses India",
    Card.AMERICA: "France loses Canada",
    Card.SWEDEN: "Sweden makes peace",
    Card.LORD_BUTE: "Lord Bute: England reduces her subsidies",
    Card.POEMS: "Frederick's poems offend London: England reduces her subsidies",
}
# Subsidy cuts (Friedrich's Tactical Cards a turn), as factors on the next seasons' new points.
SUBSIDY_FACTORS: dict[Army, tuple[Fraction, ...]] = {
    Army.PRUSSIA: (Fraction(1), Fraction(5, 7), Fraction(4, 7)),
    Army.AUSTRIA: (Fraction(1), Fraction(4, 5)),
    Army.HANOVER: (Fraction(1), Fraction(1, 2)),
}
# A peace leaves a seat without armies: its player takes over the Empire (Friedrich 11), the
# first such seat; any other becomes a reserve.
EMPIRE = Army.EMPIRE


@dataclass(frozen=True)
class FateSettings:
    """The organiser's choices: from which campaign year, every season or every turn (from
    ``from_turn``), and the less extreme deck."""

    from_year: int = 1
    every: str = "season"  # or "turn"
    from_turn: int = 6
    less_extreme: bool = False

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> FateSettings:
        data = dict(data or {})
        every = data.get("every", "season")
        if every not in ("season", "turn"):
            raise ValueError("the Clock of Fate strikes every 'season' or every 'turn'")
        return cls(
            from_year=int(data.get("from_year", 1)),
            every=every,
            from_turn=int(data.get("from_turn", 6)),
            less_extreme=bool(data.get("less_extreme", False)),
        )


@dataclass(frozen=True)
class Clock:
    """The cards drawn so far, in order (kept by the caller between seasons)."""

    drawn: tuple[Card, ...] = ()

    def to_dict(self) -> dict:
        return {"drawn": [c.value for c in self.drawn]}

    @classmethod
    def from_dict(cls, data: dict | None) -> Clock:
        return cls(tuple(Card(v) for v in (data or {}).get("drawn", ())))

    def count(self, *cards: Card) -> int:
        return sum(1 for c in set(self.drawn) if c in cards)

    @property
    def out_of_the_war(self) -> tuple[Army, ...]:
        out = []
        if Card.ELISABETH in self.drawn:
            out.append(Army.RUSSIA)
        if Card.SWEDEN in self.drawn:
            out.append(Army.SWEDEN)
        if self.count(Card.INDIA, Card.AMERICA) == 2:
            out.append(Army.FRANCE)
        return tuple(out)

    def subsidy_factor(self, army: Army) -> Fraction:
        cuts = {
            Army.PRUSSIA: self.count(Card.LORD_BUTE, Card.POEMS),
            Army.AUSTRIA: min(1, self.count(Card.INDIA, Card.AMERICA)),
            Army.HANOVER: 1 if self.count(Card.INDIA, Card.AMERICA) == 2 else 0,
        }.get(army, 0)
        factors = SUBSIDY_FACTORS.get(army, (Fraction(1),))
        return factors[min(cuts, len(factors) - 1)]


def roll_name(year: int, turn: int | None = None) -> str:
    return f"fate:y{year}" if turn is None else f"fate:y{year}:t{turn}"


def draw(clock: Clock, dice: Dice, name: str, fate: FateSettings) -> tuple[Clock, Card]:
    """The top card of the Clock of Fate. In the first round one named roll picks it among the
    cards not yet drawn (the less extreme set-up keeps three cards out of the first four); then
    the order comes round again."""
    n = len(clock.drawn)
    if n >= len(DECK):
        card = clock.drawn[n % len(DECK)]
        return Clock((*clock.drawn, card)), card
    left = [c for c in DECK if c not in clock.drawn]
    if fate.less_extreme and n < LESS_EXTREME_TOP:
        left = [c for c in left if c not in LESS_EXTREME_LATER]
    card = left[pick(dice, name, len(left))]
    return Clock((*clock.drawn, card)), card


def retire_general(state: State, army: Army, hexmap: HexMap, key: str = "") -> tuple[State, str]:
    """One general of ``army`` retires for good (the player's choice ``key``, else the
    lowest-ranking on the map; never Frederick). His points join the highest-ranking leader of
    his army with him, else the garrison of his fortress, else the army's commander-in-chief."""
    mine = [x for x in state.leaders if x.army is army and x.key != "frederick"]
    if not mine:
        return state, ""
    chosen = next((x for x in mine if x.key == key), None) or max(mine, key=lambda x: x.rank)
    rest = [x for x in state.leaders if x.army is army and x.key != chosen.key]
    state = dataclasses.replace(
        state,
        leaders=tuple(x for x in state.leaders if x.key != chosen.key),
        retired_leaders=(*state.retired_leaders, chosen.key),
    )
    with_him = sorted(
        (x for x in rest if x.hex == chosen.hex and x.inside == chosen.inside),
        key=lambda x: x.rank,
    )
    city = hexmap.city_at(hexmap.parse_hex_id(chosen.hex))
    if with_him:
        state = state.with_leader(with_him[0].key, points=with_him[0].points + chosen.points)
    elif city is not None and city.fortress:
        state = add_points_at(state, hexmap, city, army, chosen.points)
    elif rest:
        cic = min(rest, key=lambda x: x.rank)
        state = state.with_leader(cic.key, points=cic.points + chosen.points)
    return state, chosen.key


def _event(text: str, **data: Any) -> Event:
    return Event("13", EventKind.FATE, text, data)


def apply(
    state: State,
    before: Clock,
    card: Card,
    hexmap: HexMap,
    choices: dict[str, str] | None = None,
) -> tuple[State, list[Event]]:
    """What the card does now: peace (13.7) and retired generals. Subsidy cuts act on the next
    seasons' new points (``cut_new_points``). ``choices``: {"retire": leader key} given by the
    Prussian player."""
    choices = choices or {}
    after = Clock((*before.drawn, card))
    if card not in STROKES:
        quiet = "The Clock of Fate turns a card with no stroke of fate: the sands run on."
        return state, [_event(quiet, card=card.value)]
    if card in before.drawn:
        return state, [_event(f"The Clock of Fate turns {card.name} again: it has already struck.")]
    events = [_event(f"The Clock of Fate strikes: {HISTORY[card]}.", card=card.value)]
    leaving = [a for a in after.out_of_the_war if a not in before.out_of_the_war]
    if leaving:
        state, more = make_peace(state, BetweenCampaigns(peace=tuple(leaving)))
        events += more
    if card in (Card.ELISABETH, Card.SWEDEN):
        state, gone = retire_general(state, Army.PRUSSIA, hexmap, choices.get("retire", ""))
        if gone:
            events.append(_event(f"{leader(gone).name} retires for good.", leader=gone))
    if Army.FRANCE in leaving and any(x.key == "cumberland" for x in state.leaders):
        state, gone = retire_general(state, Army.HANOVER, hexmap, "cumberland")
        events.append(_event("Cumberland retires for good.", leader=gone))
    for army in (Army.PRUSSIA, Army.AUSTRIA, Army.HANOVER):
        old, new = before.subsidy_factor(army), after.subsidy_factor(army)
        if new != old:
            events.append(
                _event(
                    f"The {ADJECTIVES[army]} subsidies are cut: new points (13.4) x {new} "
                    "from the next season on.",
                    army=army.value,
                    factor=str(new),
                )
            )
    return state, events


def cut_new_points(
    state: State,
    control_before: dict[str, str],
    clock: Clock,
    hexmap: HexMap,
    settings: RuleSettings,
) -> tuple[State, list[Event]]:
    """Take back the share of the season's new points (13.4) that a subsidy cut denies: from
    each star city the army controlled, (1 - factor) of the points it gave."""
    events = []
    per_city = settings.new_points_per_star_city
    if not settings.new_points or per_city <= 0:
        return state, events
    for army in SUBSIDY_FACTORS:
        factor = clock.subsidy_factor(army)
        if factor == 1:
            continue
        denied = int(per_city * (1 - factor))
        total = 0
        for city in sorted(hexmap.cities, key=lambda c: c.name):
            if city.size in STAR_SIZES and control_before.get(city.name) == army.value:
                state, taken = take_points_at(state, city, army, denied)
                total += taken
        if total:
            events.append(
                _event(
                    f"The {ADJECTIVES[army]} army gets {total} fewer new points: its subsidies "
                    f"were cut (x {factor}).",
                    army=army.value,
                    points=total,
                )
            )
    return state, events


def season_end(
    state: State,
    clock: Clock,
    inputs: BetweenCampaigns,
    dice: Dice,
    hexmap: HexMap,
    settings: RuleSettings,
    fate: FateSettings,
    choices: dict[str, str] | None = None,
) -> tuple[State, Clock, list[Event]]:
    """The end of a campaign year with the Clock of Fate: draw (if it strikes at seasons' end
    and the year has come), apply the card, then go on to the next campaign (13)."""
    events: list[Event] = []
    if fate.every == "season" and state.campaign_year >= fate.from_year:
        before = clock
        clock, card = draw(clock, dice, roll_name(state.campaign_year), fate)
        state, events = apply(state, before, card, hexmap, choices)
    control_before = dict(state.control)
    state, more = next_campaign(state, inputs, dice, hexmap, settings)
    events += more
    state, cut = cut_new_points(state, control_before, clock, hexmap, settings)
    return state, clock, events + cut


def turn_end(
    state: State,
    clock: Clock,
    dice: Dice,
    hexmap: HexMap,
    fate: FateSettings,
    choices: dict[str, str] | None = None,
) -> tuple[State, Clock, list[Event]]:
    """The end of a turn when the Clock strikes every turn (Friedrich: from its sixth turn)."""
    if fate.every != "turn" or state.campaign_year < fate.from_year or state.turn < fate.from_turn:
        return state, clock, []
    before = clock
    clock, card = draw(clock, dice, roll_name(state.campaign_year, state.turn), fate)
    state, events = apply(state, before, card, hexmap, choices)
    return state, clock, events


def seat_changes(
    seats: dict[Army, Seat], out: tuple[Army, ...]
) -> tuple[dict[Army, Seat], tuple[Seat, ...]]:
    """Who commands what once armies have left the war (Friedrich 11): the first seat left with
    no army in the war takes over the Empire; any other seat left with none becomes a reserve.
    Returns the new map and the seats that become reserves."""
    new = dict(seats)
    empty = []
    for army in out:
        seat = seats[army]
        if seat not in empty and all(a in out for a, s in seats.items() if s is seat):
            empty.append(seat)
    if empty and EMPIRE not in out and seats[EMPIRE] not in empty:
        new[EMPIRE] = empty[0]
        empty = empty[1:]
    return new, tuple(empty)
