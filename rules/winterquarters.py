"""Winter quarters (13.1): at the end of a campaign every leader goes to a friendly fortress or
star city, redeployed as the player chose or to the nearest; points without a leader and
besiegers are handled as docs/rules-interpretations.md (13) says.
"""

from __future__ import annotations

import dataclasses

from maps.core.model import City, HexMap
from maps.core.paths import nearest
from rules.armies import ADJECTIVES, Army

# 13.6: who may give points to whom. "britain" is the Hanoverian player's off-map star city.
from rules.betweencampaigns import BetweenCampaigns, add_points_at, linked_event, quarters
from rules.events import EventKind
from rules.garrisons import garrison_limit, room
from rules.rulesettings import RuleSettings
from rules.state import LeaderState, State


def winter_quarters(
    state: State, hexmap: HexMap, inputs: BetweenCampaigns, settings: RuleSettings
) -> tuple[State, list]:
    """13.1: forces not in fortresses or star cities go to the nearest friendly-controlled one,
    even besiegers; D and U markers are removed; leaders may be redeployed."""
    events = []
    leaders = []
    for x in state.leaders:
        x = dataclasses.replace(x, demoralized=False, supplied=True, field_works=0)
        h = hexmap.parse_hex_id(x.hex)
        homes = quarters(state, hexmap, x.army)
        settled = x.inside or _in_quarters(state, x, h, homes)
        if not settled and homes:
            found = nearest(hexmap, h, homes)
            target = homes[found[0]] if found else min(homes.values(), key=lambda c: c.name)
            x = dataclasses.replace(x, hex=target.hex_id, inside=target.fortress, turns_in_hex=0)
            events.append(
                linked_event(
                    "13.1",
                    EventKind.RETREAT,
                    _quarters_text(x.table.name, target, h),
                    leader=x.key,
                    city=target.name,
                )
            )
        leaders.append(x)
    trains = []
    for t in state.siege_trains:
        h = hexmap.parse_hex_id(t.hex)
        homes = quarters(state, hexmap, t.army)
        if not t.inside and not (h in homes and not homes[h].fortress) and homes:
            found = nearest(hexmap, h, homes)
            target = homes[found[0]] if found else min(homes.values(), key=lambda c: c.name)
            t = dataclasses.replace(t, hex=target.hex_id, inside=target.fortress)
            events.append(
                linked_event(
                    "13.1",
                    EventKind.RETREAT,
                    _quarters_text(t.name, target, h),
                    [t.army],  # siege trains are never reported to others (8)
                    train=t.id,
                    city=target.name,
                )
            )
        trains.append(t)
    state = dataclasses.replace(
        state, leaders=tuple(leaders), siege_trains=tuple(trains), besieged_turns={}, blockaded=()
    )
    state, more = _leaderless_quarters(state, hexmap, settings)
    events.extend(more)
    for key, city_name in inputs.redeploy:
        state, more = _redeploy(state, hexmap, key, city_name, settings)
        events.extend(more)
    return state, events


def _leaderless_quarters(
    state: State, hexmap: HexMap, settings: RuleSettings
) -> tuple[State, list]:
    """13.1 for points left without a leader (9.5): they go into the nearest friendly-controlled
    fortress (without a leader they can stand only as a garrison, 11.2), their D removed; a
    fortress with no leader of their country inside takes them only to 100 points per bastion
    (2.3.4), the rest leave the map, as in 11.6.1."""
    events = []
    kept = []
    for p in state.leaderless:
        forts = {h: c for h, c in quarters(state, hexmap, p.army).items() if c.fortress}
        if not forts:
            kept.append(p)
            continue
        found = nearest(hexmap, hexmap.parse_hex_id(p.hex), forts)
        target = forts[found[0]] if found else min(forts.values(), key=lambda c: c.name)
        space = room(state, target, p.army, settings)
        placed = p.points if space is None else min(p.points, space)
        state = add_points_at(state, hexmap, target, p.army, placed) if placed else state
        events.append(
            linked_event(
                "13.1",
                EventKind.RETREAT,
                f"{p.points} {ADJECTIVES[p.army]} points without a leader at {p.hex} go into "
                f"winter quarters at {target.name}"
                + (
                    f"; {p.points - placed} above its limit leave the map (11.2)."
                    if placed < p.points
                    else " (13.1)."
                ),
                # Their points are the army's own (9.5): where they stood is public, and the
                # map shows the garrison they joined, not its strength (3.1.2).
                [p.army],
                army=p.army.value,
                city=target.name,
                points=placed,
                dismissed=p.points - placed,
            )
        )
    return dataclasses.replace(state, leaderless=tuple(kept)), events


def _quarters_text(name: str, target: City, h) -> str:
    if target.hex == h:
        return (
            f"{name} goes inside {target.name} for winter quarters (13.1: outside the walls "
            "is not in the fortress, 11.3)."
        )
    return f"{name} goes into winter quarters at {target.name} (13.1)."


def _in_quarters(state: State, x: LeaderState, h, homes: dict) -> bool:
    """Whether a force outside any walls is already *in* a friendly fortress or star city
    (13.1): only in a star city without walls. A force in a fortress hex but outside is not in
    the fortress (11.3: inside or outside; 3.2.3, 5.2.5 speak of points *in* it), so it is
    placed in the nearest, which is that same fortress, inside."""
    city = homes.get(h)
    return city is not None and not city.fortress and not _besieging(state, x, city)


def _besieging(state: State, x: LeaderState, city: City) -> bool:
    owner = state.control.get(city.name)
    return bool(owner) and state.is_enemy(Army(owner), x.army)


def _redeploy(
    state: State, hexmap: HexMap, key: str, city_name: str, settings: RuleSettings
) -> tuple[State, list]:
    if not state.has_leader(key):
        return state, [linked_event("13.1", EventKind.ORDER_REJECTED, f"{key!r} is not on the map")]
    x = state.leader(key)
    try:
        city = hexmap.city(city_name)
    except KeyError:
        return state, [
            linked_event("13.1", EventKind.ORDER_REJECTED, f"no city {city_name!r}", [x.army])
        ]
    if city.hex not in quarters(state, hexmap, x.army):
        return state, [
            linked_event(
                "13.1",
                EventKind.ORDER_REJECTED,
                f"{city.name} is not a friendly fortress or star city (13.1)",
                [x.army],
            )
        ]
    # The points stay (13.1): with the next leader of the country there, or in the fortress.
    heirs = sorted(
        (y for y in state.leaders_at(x.hex) if y.army is x.army and y.key != key),
        key=lambda y: y.rank,
    )
    here = hexmap.city_at(hexmap.parse_hex_id(x.hex))
    if x.points and heirs:
        state = state.with_leader(heirs[0].key, points=heirs[0].points + x.points)
    elif here is not None and here.fortress and (x.points or x.inside):
        # 11.2: with no leader of the country left inside, the garrison holds only 100 points
        # per bastion; the points may not move without him (13.1), so the order is refused.
        old = sum(g.points for g in state.garrisons_of(here.name) if g.army is x.army)
        limit = garrison_limit(here, settings)
        if old + x.points > limit:
            return state, [
                linked_event(
                    "11.2",
                    EventKind.ORDER_REJECTED,
                    f"{x.table.name} may not be redeployed: the garrison of {here.name} would be "
                    f"left with {old + x.points} points and no leader, and its {here.bastions} "
                    f"bastions hold {limit} without one (2.3.4, 11.2, 13.1)",
                    [x.army],
                    leader=key,
                    limit=limit,
                )
            ]
        if x.points:
            state = state.with_garrison(here.name, x.army, old + x.points)
    elif x.points:
        return state, [
            linked_event(
                "13.1",
                EventKind.ORDER_REJECTED,
                f"{x.table.name}'s points would be left alone outside a fortress (3.2.2)",
                [x.army],
            )
        ]
    state = state.with_leader(key, hex=city.hex_id, inside=city.fortress, points=0)
    return state, [
        linked_event(
            "13.1",
            EventKind.DEPLOYED,
            f"{x.table.name} is redeployed to {city.name} for the next campaign (13.1).",
            [x.army],
            leader=key,
            city=city.name,
        )
    ]
