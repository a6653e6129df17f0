"""Linked campaigns (13, optional rules): the next campaign year starts from the end of the last.

``next_campaign(state, inputs, dice, hexmap, settings)`` applies, in the book's order, each rule
switched on in ``RuleSettings``: winter quarters (13.1), prisoners of war exchanged (13.2), new
leaders (13.3), new points per star city (13.4), new siege trains (13.5), lending points and the
British aid roll (13.6), peace (13.7) and changing sides (13.8). The players' choices come in as
``BetweenCampaigns`` (read from plain data by ``between_campaigns_from_dict``); missing choices
take the defaults written in docs/rules-interpretations.md (13).

The result is a new state at turn 1, supply phase, of the next campaign year, with the victory
points of the year reset and ``initial_control`` set to the control at its start (12.4.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from campaign.engine.armies import ADJECTIVES, CONTROLLED_AREAS, Army, Seat, seat_map
from campaign.engine.dice import Dice
from campaign.engine.events import Event, EventKind, private
from campaign.engine.garrisons import garrison_limit, room
from campaign.engine.leaders import leader, leader_key, leaders_of
from campaign.engine.rulesettings import RuleSettings
from campaign.engine.state import LeaderState, Phase, Prisoners, SiegeTrain, State
from maps.core.hexgrid import Hex
from maps.core.model import City, CitySize, HexMap
from maps.core.paths import nearest

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
    )


# --- helpers ------------------------------------------------------------------------------------


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


def _event(
    rule: str, kind: EventKind, text: str, audience: Iterable[Army] | None = None, **data: Any
) -> Event:
    return Event(rule, kind, text, data, private(*audience) if audience else None)


# --- the rules ---------------------------------------------------------------------------------


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
        city = hexmap.city_at(h)
        settled = x.inside or (city is not None and h in homes and not _besieging(state, x, city))
        if not settled and homes:
            found = nearest(hexmap, h, homes)
            target = homes[found[0]] if found else min(homes.values(), key=lambda c: c.name)
            x = dataclasses.replace(x, hex=target.hex_id, inside=target.fortress, turns_in_hex=0)
            events.append(
                _event(
                    "13.1",
                    EventKind.RETREAT,
                    f"{x.table.name} goes into winter quarters at {target.name} (13.1).",
                    leader=x.key,
                    city=target.name,
                )
            )
        leaders.append(x)
    trains = []
    for t in state.siege_trains:
        h = hexmap.parse_hex_id(t.hex)
        homes = quarters(state, hexmap, t.army)
        if not t.inside and h not in homes and homes:
            found = nearest(hexmap, h, homes)
            target = homes[found[0]] if found else min(homes.values(), key=lambda c: c.name)
            t = dataclasses.replace(t, hex=target.hex_id, inside=target.fortress)
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
            _event(
                "13.1",
                EventKind.RETREAT,
                f"{p.points} {p.army.label} points without a leader at {p.hex} go into winter "
                f"quarters at {target.name}"
                + (
                    f"; {p.points - placed} above its limit leave the map (11.2)."
                    if placed < p.points
                    else " (13.1)."
                ),
                city=target.name,
                points=placed,
                dismissed=p.points - placed,
            )
        )
    return dataclasses.replace(state, leaderless=tuple(kept)), events


def _besieging(state: State, x: LeaderState, city: City) -> bool:
    owner = state.control.get(city.name)
    return bool(owner) and state.is_enemy(Army(owner), x.army)


def _redeploy(
    state: State, hexmap: HexMap, key: str, city_name: str, settings: RuleSettings
) -> tuple[State, list]:
    if not state.has_leader(key):
        return state, [_event("13.1", EventKind.ORDER_REJECTED, f"{key!r} is not on the map")]
    x = state.leader(key)
    try:
        city = hexmap.city(city_name)
    except KeyError:
        return state, [_event("13.1", EventKind.ORDER_REJECTED, f"no city {city_name!r}", [x.army])]
    if city.hex not in quarters(state, hexmap, x.army):
        return state, [
            _event(
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
                _event(
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
            _event(
                "13.1",
                EventKind.ORDER_REJECTED,
                f"{x.table.name}'s points would be left alone outside a fortress (3.2.2)",
                [x.army],
            )
        ]
    state = state.with_leader(key, hex=city.hex_id, inside=city.fortress, points=0)
    return state, [
        _event(
            "13.1",
            EventKind.DEPLOYED,
            f"{x.table.name} is redeployed to {city.name} for the next campaign (13.1).",
            [x.army],
            leader=key,
            city=city.name,
        )
    ]


def exchange_prisoners(
    state: State, hexmap: HexMap, inputs: BetweenCampaigns
) -> tuple[State, list]:
    """13.2: prisoners exchanged 1:1 between armies holding each other's points or leaders;
    recovered prisoners go to the first friendly fortress of their home country (by name)."""
    events = []
    held: dict[tuple[Army, Army], int] = {}
    for p in state.prisoners:
        held[(p.army, p.held_by)] = held.get((p.army, p.held_by), 0) + p.points
    back: dict[Army, int] = {}
    for (a, b), points in sorted(held.items(), key=lambda kv: (kv[0][0].value, kv[0][1].value)):
        if a.value >= b.value or a in inputs.no_exchange or b in inputs.no_exchange:
            continue
        n = min(points, held.get((b, a), 0))
        if n:
            held[(a, b)] -= n
            held[(b, a)] -= n
            back[a] = back.get(a, 0) + n
            back[b] = back.get(b, 0) + n
            events.append(
                _event(
                    "13.2",
                    EventKind.PRISONERS,
                    f"{n} {ADJECTIVES[a]} and {n} {ADJECTIVES[b]} prisoners are exchanged (13.2).",
                    points=n,
                    armies=[a.value, b.value],
                )
            )
    prisoners = tuple(
        Prisoners(a, b, p)
        for (a, b), p in sorted(held.items(), key=lambda kv: (kv[0][0].value, kv[0][1].value))
        if p > 0
    )
    state = dataclasses.replace(state, prisoners=prisoners)
    for army, points in sorted(back.items(), key=lambda kv: kv[0].value):
        homes = home_fortresses(state, hexmap, army)
        if homes:
            state = add_points_at(state, hexmap, homes[0], army, points)
    # Leaders, one for one, highest rank first.
    captives = list(state.captives)
    freed: list = []
    for a in Army:
        for b in Army:
            if a.value >= b.value or a in inputs.no_exchange or b in inputs.no_exchange:
                continue
            mine = sorted(
                (c for c in captives if c.army is a and c.held_by is b),
                key=lambda c: leader(c.leader).rank,
            )
            theirs = sorted(
                (c for c in captives if c.army is b and c.held_by is a),
                key=lambda c: leader(c.leader).rank,
            )
            for c1, c2 in zip(mine, theirs, strict=False):
                freed.extend([c1, c2])
                events.append(
                    _event(
                        "13.2",
                        EventKind.PRISONERS,
                        f"{leader(c1.leader).name} is exchanged for "
                        f"{leader(c2.leader).name} (13.2).",
                        leaders=[c1.leader, c2.leader],
                    )
                )
    for c in freed:
        captives.remove(c)
        homes = home_fortresses(state, hexmap, c.army)
        if homes:
            state = dataclasses.replace(
                state,
                leaders=(
                    *state.leaders,
                    LeaderState(c.leader, c.army, homes[0].hex_id, 0, inside=True),
                ),
            )
    return dataclasses.replace(state, captives=tuple(captives)), events


def _unavailable(state: State) -> set[str]:
    return (
        {x.key for x in state.leaders}
        | set(state.killed)
        | {c.leader for c in state.captives}
        | set(state.retired_leaders)
    )


def new_leaders(
    state: State, hexmap: HexMap, inputs: BetweenCampaigns, dice: Dice
) -> tuple[State, list]:
    """13.3: each player picks one leader at random from the unused pool and may replace one
    leader on the map by another from the pool; removed leaders never return. New leaders go to a
    fortress garrisoned by their country (the player's choice, else the first by name)."""
    events = []
    seats = seat_map(state.players)
    chosen = dict(inputs.new_leader_city)
    for seat in Seat:
        armies = [
            a
            for a in Army
            if seats[a] is seat and a not in state.surrendered and a not in state.at_peace
        ]
        if not armies:
            continue
        taken = _unavailable(state)
        pool = [x for a in armies for x in leaders_of(a) if x.key not in taken]
        if not pool:
            continue
        new = pool[pick(dice, f"new-leader:{seat.value}:y{state.campaign_year + 1}", len(pool))]
        forts = sorted(
            (
                c
                for c in hexmap.fortresses
                if any(g.army is new.army and g.points > 0 for g in state.garrisons_of(c.name))
            ),
            key=lambda c: c.name,
        )
        want = chosen.get(seat.value)
        place = next((c for c in forts if c.name == want), forts[0] if forts else None)
        if place is None:
            events.append(
                _event(
                    "13.3",
                    EventKind.DEPLOYMENT_REJECTED,
                    f"{new.name} has no fortress of his country to go to (13.3).",
                    [new.army],
                )
            )
            continue
        state = dataclasses.replace(
            state,
            leaders=(*state.leaders, LeaderState(new.key, new.army, place.hex_id, 0, inside=True)),
        )
        events.append(
            _event(
                "13.3",
                EventKind.DEPLOYED,
                f"{new.name} joins the {ADJECTIVES[new.army]} army at {place.name} (13.3).",
                leader=new.key,
                city=place.name,
            )
        )
    used = set()
    for old, new_key in inputs.replace:
        if not state.has_leader(old) or new_key in _unavailable(state) or old in used:
            events.append(
                _event(
                    "13.3",
                    EventKind.ORDER_REJECTED,
                    f"{old!r} cannot be replaced by {new_key!r} (13.3).",
                )
            )
            continue
        x = state.leader(old)
        if leader(new_key).army is not x.army:
            events.append(
                _event(
                    "13.3",
                    EventKind.ORDER_REJECTED,
                    f"{new_key!r} is not of the {ADJECTIVES[x.army]} army (13.3).",
                    [x.army],
                )
            )
            continue
        used.add(old)
        state = dataclasses.replace(
            state,
            leaders=tuple(
                dataclasses.replace(y, key=new_key) if y.key == old else y for y in state.leaders
            ),
            retired_leaders=(*state.retired_leaders, old),
        )
        events.append(
            _event(
                "13.3",
                EventKind.DEPLOYED,
                f"{x.table.name} is replaced by {leader(new_key).name} for good (13.3).",
                leader=new_key,
                replaced=old,
            )
        )
    return state, events


def new_points(
    state: State, hexmap: HexMap, inputs: BetweenCampaigns, settings: RuleSettings
) -> tuple[State, list]:
    """13.4 and 13.5: every star and circled-star city gives its controller the agreed number of
    points, placed in the city; a player building a siege train pays 300 of his new points."""
    events = []
    per_city = settings.new_points_per_star_city
    gained: dict[Army, list[tuple[City, int]]] = {}
    for city in sorted(hexmap.cities, key=lambda c: c.name):
        owner = state.control.get(city.name)
        if city.size in STAR_SIZES and owner and per_city > 0:
            gained.setdefault(Army(owner), []).append((city, per_city))
    for army in inputs.siege_trains:
        total = sum(p for _, p in gained.get(army, []))
        if not settings.new_siege_trains:
            continue
        if total < settings.siege_train_cost:
            events.append(
                _event(
                    "13.5",
                    EventKind.ORDER_REJECTED,
                    f"The {ADJECTIVES[army]} army has {total} new points, fewer than "
                    f"{settings.siege_train_cost}: no siege train (13.5).",
                    [army],
                )
            )
            continue
        homes = home_fortresses(state, hexmap, army)
        if not homes:
            continue
        left = settings.siege_train_cost
        spent = []
        for city, p in sorted(gained[army], key=lambda cp: -cp[1]):
            take = min(p, left)
            left -= take
            spent.append((city, p - take))
        gained[army] = [(c, p) for c, p in spent if p > 0]
        n = 1 + sum(1 for t in state.siege_trains if t.id.startswith(f"{army.value}-"))
        train_id = f"{army.value}-{n}"
        while any(t.id == train_id for t in state.siege_trains):
            n += 1
            train_id = f"{army.value}-{n}"
        state = dataclasses.replace(
            state,
            siege_trains=(
                *state.siege_trains,
                SiegeTrain(train_id, army, homes[0].hex_id, inside=True),
            ),
        )
        events.append(
            _event(
                "13.5",
                EventKind.DEPLOYED,
                f"The {ADJECTIVES[army]} army builds siege train {train_id} at "
                f"{homes[0].name} for {settings.siege_train_cost} new points (13.5).",
                train=train_id,
            )
        )
    if settings.new_points:
        for army, items in sorted(gained.items(), key=lambda kv: kv[0].value):
            for city, p in items:
                before = state
                state = add_points_at(state, hexmap, city, army, p)
                if state is before:
                    homes = home_fortresses(state, hexmap, army)
                    if homes:
                        state = add_points_at(state, hexmap, homes[0], army, p)
                events.append(
                    _event(
                        "13.4",
                        EventKind.DEPLOYED,
                        f"{city.name} raises {p} new {ADJECTIVES[army]} points (13.4).",
                        [army],
                        city=city.name,
                        points=p,
                    )
                )
    return state, events


def lend_points(
    state: State, hexmap: HexMap, inputs: BetweenCampaigns, dice: Dice, settings: RuleSettings
) -> tuple[State, list]:
    """13.6: the British aid roll (second campaign on: a die plus the campaigns completed; 7 or
    more and Britain sends no more points), then the loans allowed by the chart."""
    events = []
    completed = state.campaign_year  # the year just ended is completed
    if not state.british_aid_cut:
        roll = dice.roll(f"british-aid:y{state.campaign_year + 1}")
        cut = roll + completed >= settings.britain_aid_cutoff
        state = dataclasses.replace(state, british_aid_cut=cut)
        events.append(
            _event(
                "13.6",
                EventKind.PHASE,
                f"British aid roll: {roll} + {completed} = {roll + completed}: "
                + (
                    "Britain stops sending points to the Continent (13.6)."
                    if cut
                    else "Britain keeps sending points (13.6)."
                ),
                roll=roll,
                completed=completed,
                cut=cut,
            )
        )
    for loan in inputs.loans:
        allowed = lending_to(state, loan.donor)
        if loan.recipient.value not in allowed or (
            loan.donor == "britain" and state.british_aid_cut
        ):
            events.append(
                _event(
                    "13.6",
                    EventKind.ORDER_REJECTED,
                    f"{loan.donor} may not give points to {loan.recipient.value} (13.6).",
                )
            )
            continue
        try:
            to_city = hexmap.city(loan.to_city)
        except KeyError:
            events.append(_event("13.6", EventKind.ORDER_REJECTED, f"no city {loan.to_city!r}"))
            continue
        if state.control.get(to_city.name) != loan.recipient.value:
            events.append(
                _event(
                    "13.6",
                    EventKind.ORDER_REJECTED,
                    f"{to_city.name} is not controlled by {loan.recipient.value} (13.6).",
                )
            )
            continue
        if loan.donor == "britain":
            taken = loan.points
        else:
            donor = Army.parse(loan.donor)
            try:
                from_city = hexmap.city(loan.from_city)
            except KeyError:
                events.append(
                    _event("13.6", EventKind.ORDER_REJECTED, f"no city {loan.from_city!r}")
                )
                continue
            if state.control.get(from_city.name) != donor.value:
                events.append(
                    _event(
                        "13.6",
                        EventKind.ORDER_REJECTED,
                        f"{from_city.name} is not controlled by {donor.value} (13.6).",
                    )
                )
                continue
            state, taken = take_points_at(state, from_city, donor, loan.points)
        state = add_points_at(state, hexmap, to_city, loan.recipient, taken)
        events.append(
            _event(
                "13.6",
                EventKind.POINTS_TRANSFERRED,
                f"{taken} points are lent by {loan.donor} to the "
                f"{ADJECTIVES[loan.recipient]} army at {to_city.name}; they become "
                "its own (13.6).",
                points=taken,
                to=loan.recipient.value,
                # who may read the number (campaign/projection.py): the two armies concerned
                army=loan.recipient.value,
                by=Army.HANOVER.value if loan.donor == "britain" else loan.donor,
            )
        )
    return state, events


def make_peace(state: State, inputs: BetweenCampaigns) -> tuple[State, list]:
    """13.7: armies whose players made peace leave the map; their home countries are treated as
    the United Provinces (the Empire's as Poland). Recorded in ``state.at_peace``."""
    events = []
    for army in inputs.peace:
        if army in state.at_peace:
            continue
        state = dataclasses.replace(
            state,
            leaders=tuple(x for x in state.leaders if x.army is not army),
            garrisons=tuple(g for g in state.garrisons if g.army is not army),
            siege_trains=tuple(t for t in state.siege_trains if t.army is not army),
            leaderless=tuple(p for p in state.leaderless if p.army is not army),
            control={c: a for c, a in state.control.items() if a != army.value},
            at_peace=(*state.at_peace, army),
        )
        treated = "Poland" if army is Army.EMPIRE else "the United Provinces"
        events.append(
            _event(
                "13.7",
                EventKind.ARMY_SURRENDERS,
                f"The {ADJECTIVES[army]} army makes peace and leaves the war; its home "
                f"country is treated as {treated} (13.7).",
                army=army.value,
            )
        )
    return state, events


# 13.8: "The small armies of the Empire and Sweden may follow a different course from that chosen
# by the Austrian and Russian players": by default they follow.
FOLLOWERS = {Army.AUSTRIA: Army.EMPIRE, Army.RUSSIA: Army.SWEDEN}


def changing_armies(inputs: BetweenCampaigns) -> tuple[list[Army], list[Event]]:
    """The armies that change sides (13.8): those named, with the Empire following Austria and
    Sweden following Russia unless named in ``own_course``. The Empire or Sweden named alone
    changes alone (the different course 13.8 allows)."""
    events = []
    changing = list(dict.fromkeys(inputs.change_sides))
    for army in inputs.own_course:
        if army not in FOLLOWERS.values():
            events.append(
                _event(
                    "13.8",
                    EventKind.ORDER_REJECTED,
                    f"Only the Empire and Sweden may follow a course of their own, not the "
                    f"{ADJECTIVES[army]} army (13.8).",
                    army=army.value,
                )
            )
    for leader_army, follower in FOLLOWERS.items():
        if leader_army in changing and follower not in changing:
            if follower in inputs.own_course:
                events.append(
                    _event(
                        "13.8",
                        EventKind.PHASE,
                        f"The {ADJECTIVES[follower]} army follows a different course from the "
                        f"{ADJECTIVES[leader_army]} and keeps its side (13.8).",
                        army=follower.value,
                    )
                )
            else:
                changing.append(follower)
    return changing, events


def change_sides(state: State, inputs: BetweenCampaigns) -> tuple[State, list]:
    """13.8: the armies that change alliance between campaigns (``changing_armies``). The state
    records the armies fighting for the alliance they did not start in (``changed_sides``);
    every rule asks ``state.alliance_of`` from then on. A second change brings an army back."""
    changing, events = changing_armies(inputs)
    for army in changing:
        if army in state.at_peace:
            events.append(
                _event(
                    "13.8",
                    EventKind.ORDER_REJECTED,
                    f"The {ADJECTIVES[army]} army has made peace (13.7); it cannot change sides.",
                    army=army.value,
                )
            )
            continue
        was = state.alliance_of(army)
        flipped = tuple(a for a in state.changed_sides if a is not army)
        if army not in state.changed_sides:
            flipped = (*flipped, army)
        state = dataclasses.replace(state, changed_sides=flipped)
        events.append(
            _event(
                "13.8",
                EventKind.PHASE,
                f"The {ADJECTIVES[army]} army changes sides, from the {was.value} alliance to "
                f"the {state.alliance_of(army).value} alliance (13.8).",
                army=army.value,
                alliance=state.alliance_of(army).value,
            )
        )
    return state, events


def next_campaign(
    state: State, inputs: BetweenCampaigns, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> tuple[State, list[Event]]:
    """Carry a finished campaign into the next year (13.1-13.8, each rule a ``RuleSettings``
    switch)."""
    events: list[Event] = []
    steps = [
        (settings.winter_quarters, lambda s: winter_quarters(s, hexmap, inputs, settings)),
        (settings.prisoner_exchange, lambda s: exchange_prisoners(s, hexmap, inputs)),
        (settings.new_leaders, lambda s: new_leaders(s, hexmap, inputs, dice)),
        (
            settings.new_points or settings.new_siege_trains,
            lambda s: new_points(s, hexmap, inputs, settings),
        ),
        (settings.lending_points, lambda s: lend_points(s, hexmap, inputs, dice, settings)),
        (settings.peace, lambda s: make_peace(s, inputs)),
        (settings.changing_sides, lambda s: change_sides(s, inputs)),
    ]
    for on, step in steps:
        if on:
            state, more = step(state)
            events.extend(more)
    state = dataclasses.replace(
        state,
        turn=1,
        phase=Phase.SUPPLY,
        ended=False,
        campaign_year=state.campaign_year + 1,
        victory_points={},
        initial_control=dict(state.control),
        pending_battles=(),
        retreats=(),
        withdrawals=(),
        battle_hexes=(),
        honors_pending=(),
        marches={},
        forced_march_arrivals=(),
    )
    events.append(
        _event(
            "13",
            EventKind.TURN,
            f"Campaign year {state.campaign_year} begins, from the positions at the "
            "end of the last (13).",
            year=state.campaign_year,
        )
    )
    return state, events
