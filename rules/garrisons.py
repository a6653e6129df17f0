"""Garrison capacity in play (2.3.4, 11.2).

"Fortresses can hold an unlimited amount of points if a leader is present, but only 100 points
per bastion if there is no leader." A garrison counts as *led* when a leader of its own country
is inside (points move and stand only with a leader of their country, 6.2.3, 9.5). The limit
binds the points of every garrison in the fortress that has no leader of its country inside.

The engine enforces it where a garrison becomes leaderless or grows without a leader
(docs/rules-interpretations.md, 11.2): the last leader of a country leaving a fortress takes the
excess with him (``marches``); a garrison granted the honors of war fills its refuge only to the
limit (``retreat.withdraw``); leaderless points after a battle join a fortress only to the limit
(``battle``).
"""

from __future__ import annotations

from collections.abc import Iterable

from maps.core.model import City, HexMap
from rules.armies import Army
from rules.leaders import leader_key
from rules.rulesettings import RuleSettings
from rules.state import State


def no_garrison_orders(city: str) -> str:
    """Why a march order given to the garrison of ``city`` is refused, and what to do instead."""
    who = f"the garrison of {city}" if city else "a garrison"
    return (
        f"{who} takes no march orders: points move only with a leader of their country "
        "(6.2.3). To sortie, a leader inside the fortress is given the march order (11.3 "
        "EXAMPLE) and takes points from the garrison with a transfer at the start of the turn "
        "(6.4.3)"
    )


def garrison_named(unit: str, hexmap: HexMap) -> str | None:
    """The fortress whose garrison an order's ``unit`` names, as written in an order
    (``"garrison"``, ``"garrison:Glatz"``, ``"Glatz"``, read by ``orders.leader_key``): the
    city's name, ``""`` for a garrison of no named fortress, None if ``unit`` names none."""
    fortresses = {leader_key(c.name): c.name for c in hexmap.fortresses}
    if unit == "garrison":
        return ""
    head, _, rest = unit.partition("-")
    if head == "garrison" and rest in fortresses:
        return fortresses[rest]
    return fortresses.get(unit)


def garrison_limit(city: City, settings: RuleSettings) -> int:
    """Points a fortress holds without a leader: 100 per bastion (2.3.4, 11.2)."""
    return settings.garrison_points_per_bastion * city.bastions


def led_armies(state: State, city: City, leaving: Iterable[str] = ()) -> set[Army]:
    """Armies with a leader inside ``city`` (leaders ``leaving`` do not count)."""
    gone = set(leaving)
    return {x.army for x in state.leaders_at(city.hex_id) if x.inside and x.key not in gone}


def leaderless_points(state: State, city: City, leaving: Iterable[str] = ()) -> int:
    """Garrison points of ``city`` with no leader of their country inside (11.2)."""
    led = led_armies(state, city, leaving)
    return sum(g.points for g in state.garrisons_of(city.name) if g.army not in led)


def room(state: State, city: City, army: Army, settings: RuleSettings) -> int | None:
    """How many more points of ``army`` the fortress holds: None (no limit) if a leader of its
    country is inside, else what is left of the 100 per bastion (never below 0)."""
    if army in led_armies(state, city):
        return None
    return max(0, garrison_limit(city, settings) - leaderless_points(state, city))


def over_limit(
    state: State, city: City, settings: RuleSettings, leaving: Iterable[str] = ()
) -> int:
    """Points by which the leaderless garrisons of ``city`` exceed the limit (0 if they fit),
    as they would stand if the leaders ``leaving`` were gone."""
    return max(0, leaderless_points(state, city, leaving) - garrison_limit(city, settings))
