"""Between two campaigns (13): the players' choices (``BetweenCampaigns``, read from plain data by
``between_campaigns_from_dict``) and what the rules of section 13 share: friendly fortresses and
star cities, points added or taken at a city, the lending table (13.6), the events they write.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from maps.core.hexgrid import Hex
from maps.core.model import City, CitySize, HexMap
from rules.armies import ADJECTIVES, CONTROLLED_AREAS, Army, seat_map
from rules.dice import Dice
from rules.events import Event, EventKind, private
from rules.leaders import leader_key
from rules.state import State

# 13.6: who may give points to whom. "britain" is the Hanoverian player's off-map star city.


LENDING: dict[str, tuple[str, ...]] = {
    "france": tuple(a.value for a in Army if a is not Army.FRANCE),
    "austria": ("russia", "sweden", "empire"),
    "prussia": ("hanover", "russia"),
    "hanover": ("empire",),
    "britain": tuple(a.value for a in Army if a.is_enemy_of(Army.FRANCE)),
}


STAR_SIZES = (CitySize.CIRCLED_STAR, CitySize.STAR)


def lending_to(state: State, donor: str) -> tuple[str, ...]:
    """Who ``donor`` may give points to now (13.6, 13.8): the chart, among armies that are not
    its enemies now; Britain (the Hanoverian player's) any army opposed to France now and not an
    enemy of Hanover."""
    if donor == "britain":
        return tuple(
            a.value
            for a in Army
            if state.is_enemy(a, Army.FRANCE) and not state.is_enemy(a, Army.HANOVER)
        )
    giver = Army.parse(donor)
    return tuple(r for r in LENDING.get(donor, ()) if not state.is_enemy(giver, Army(r)))


@dataclass(frozen=True)
class Loan:
    """13.6: ``points`` from ``donor`` (an army value or "britain") at ``from_city`` to
    ``recipient`` at ``to_city``."""

    donor: str
    recipient: Army
    points: int
    from_city: str = ""
    to_city: str = ""


@dataclass(frozen=True)
class BetweenCampaigns:
    """The players' choices between two campaigns (13)."""

    redeploy: tuple[tuple[str, str], ...] = ()  # 13.1 leader -> friendly fortress or star city
    no_exchange: tuple[Army, ...] = ()  # 13.2 armies declining to exchange prisoners
    replace: tuple[tuple[str, str], ...] = ()  # 13.3 leader removed -> leader from the pool
    new_leader_city: tuple[tuple[str, str], ...] = ()  # 13.3 seat -> fortress for the new leader
    siege_trains: tuple[Army, ...] = ()  # 13.5 armies building one
    loans: tuple[Loan, ...] = ()  # 13.6
    peace: tuple[Army, ...] = ()  # 13.7 armies leaving the war
    change_sides: tuple[Army, ...] = ()  # 13.8
    own_course: tuple[Army, ...] = ()  # 13.8 the Empire or Sweden not following its player
    # The armies each player commands, as the seats stand (1.2 and the set-up page's changes);
    # empty: the presets of 1.2 for the state's number of players (``players_of``).
    players: tuple[tuple[Army, ...], ...] = ()
    notes: dict[str, Any] = field(default_factory=dict)


def between_campaigns_from_dict(data: dict[str, Any] | None) -> BetweenCampaigns:
    data = dict(data or {})
    known = {
        "redeploy",
        "no_exchange",
        "replace",
        "new_leader_city",
        "siege_trains",
        "loans",
        "peace",
        "change_sides",
        "own_course",
        "players",
    }
    unknown = set(data) - known
    if unknown:
        raise ValueError(
            f"between campaigns: unknown choice(s) {', '.join(sorted(unknown))}; "
            f"the choices are {', '.join(sorted(known))}"
        )
    armies = lambda key: tuple(Army.parse(a) for a in data.get(key) or ())  # noqa: E731
    return BetweenCampaigns(
        redeploy=tuple((leader_key(k), str(v)) for k, v in (data.get("redeploy") or {}).items()),
        no_exchange=armies("no_exchange"),
        replace=tuple(
            (leader_key(k), leader_key(v)) for k, v in (data.get("replace") or {}).items()
        ),
        new_leader_city=tuple(
            (str(k), str(v)) for k, v in (data.get("new_leader_city") or {}).items()
        ),
        siege_trains=armies("siege_trains"),
        loans=tuple(
            Loan(
                str(x["from"]).lower(),
                Army.parse(x["to"]),
                int(x["points"]),
                str(x.get("from_city", "")),
                str(x.get("to_city", "")),
            )
            for x in data.get("loans") or ()
        ),
        peace=armies("peace"),
        change_sides=armies("change_sides"),
        own_course=armies("own_course"),
        players=tuple(
            tuple(Army.parse(a) for a in group) for group in data.get("players") or () if group
        ),
    )


def players_of(state: State, inputs: BetweenCampaigns) -> dict[Army, int]:
    """Each army's player, numbered from 0: the seats given in ``inputs.players``, else the
    presets of 1.2 for ``state.players``. An army no player commands is a player of its own.

    >>> from rules.state import State
    >>> players_of(State(players=3), BetweenCampaigns())[Army.EMPIRE]
    0
    >>> p = players_of(State(players=3), BetweenCampaigns(players=((Army.PRUSSIA,),)))
    >>> p[Army.PRUSSIA], p[Army.HANOVER] == p[Army.PRUSSIA]
    (0, False)
    """
    if inputs.players:
        groups = [tuple(g) for g in inputs.players]
    else:
        seats = seat_map(state.players)
        groups = [
            tuple(a for a in Army if seats[a] is seat)
            for seat in dict.fromkeys(seats[a] for a in Army)
        ]
    out: dict[Army, int] = {}
    for n, group in enumerate(groups):
        for army in group:
            out.setdefault(army, n)
    for army in Army:
        out.setdefault(army, len(groups) + list(Army).index(army))
    return out


def player_name(armies: Iterable[Army]) -> str:
    """ "the Austrian and Imperial player": a player named by the armies he commands."""
    names = [ADJECTIVES[a] for a in armies]
    joined = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"the {joined} player"


def is_friendly(state: State, city: City, army: Army) -> bool:
    owner = state.control.get(city.name)
    return bool(owner) and not state.is_enemy(Army(owner), army)


def quarters(state: State, hexmap: HexMap, army: Army) -> dict[Hex, City]:
    """Friendly-controlled fortresses and star cities (13.1)."""
    out: dict[Hex, City] = {}
    for city in hexmap.cities:
        if (city.fortress or city.size in STAR_SIZES) and is_friendly(state, city, army):
            out.setdefault(city.hex, city)
    return out


def home_fortresses(state: State, hexmap: HexMap, army: Army) -> list[City]:
    """Fortresses in the army's home country that it controls, by name (13.2, 13.5)."""
    return sorted(
        (
            c
            for c in hexmap.fortresses
            if c.area in CONTROLLED_AREAS[army] and state.control.get(c.name) == army.value
        ),
        key=lambda c: c.name,
    )


def add_points_at(state: State, hexmap: HexMap, city: City, army: Army, points: int) -> State:
    """Put new points in a city: with the highest-ranking leader of the army there, else into the
    garrison of its fortress."""
    here = sorted(
        (x for x in state.leaders_at(city.hex_id) if x.army is army), key=lambda x: x.rank
    )
    if here:
        return state.with_leader(here[0].key, points=here[0].points + points)
    if city.fortress:
        old = sum(g.points for g in state.garrisons_of(city.name) if g.army is army)
        return state.with_garrison(city.name, army, old + points)
    return state


def take_points_at(state: State, city: City, army: Army, points: int) -> tuple[State, int]:
    """Take up to ``points`` of the army's points in a city (garrison first, then leaders keeping
    50 each); returns the points taken."""
    taken = 0
    for g in state.garrisons_of(city.name):
        if g.army is army and taken < points:
            step = min(g.points, points - taken)
            state = state.with_garrison(city.name, army, g.points - step)
            taken += step
    for x in sorted(state.leaders_at(city.hex_id), key=lambda x: -x.rank):
        if x.army is army and taken < points:
            step = max(0, min(x.points - 50, points - taken))
            state = state.with_leader(x.key, points=x.points - step)
            taken += step
    return state, taken


def pick(dice: Dice, name: str, n: int) -> int:
    """A uniform choice among ``n`` (at most 36) with named pairs of dice: the pair read as a
    two-digit base-6 number, rolled again (name + ":2", ...) when it falls in the uneven tail."""
    limit = n * (36 // n)
    for attempt in range(1, 50):
        roll = dice.roll_dice(name if attempt == 1 else f"{name}:{attempt}", 2)
        a, b = (list(roll.dice) + [1, 1])[:2]
        value = (a - 1) * 6 + (b - 1)
        if value < limit:
            return value % n
    return 0


def linked_event(
    rule: str, kind: EventKind, text: str, audience: Iterable[Army] | None = None, **data: Any
) -> Event:
    return Event(rule, kind, text, data, private(*audience) if audience else None)
