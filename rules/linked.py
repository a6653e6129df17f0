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

from maps.core.model import City, HexMap
from rules.armies import ADJECTIVES, Army, Seat, seat_map, siege_train_name

# 13.6: who may give points to whom. "britain" is the Hanoverian player's off-map star city.
from rules.betweencampaigns import (
    STAR_SIZES,
    BetweenCampaigns,
    add_points_at,
    home_fortresses,
    lending_to,
    linked_event,
    pick,
    player_name,
    players_of,
    take_points_at,
)
from rules.dice import Dice
from rules.events import Event, EventKind
from rules.leaders import leader, leaders_of
from rules.rulesettings import RuleSettings
from rules.state import LeaderState, Phase, Prisoners, SiegeTrain, State
from rules.winterquarters import winter_quarters


def exchange_prisoners(
    state: State, hexmap: HexMap, inputs: BetweenCampaigns
) -> tuple[State, list]:
    """13.2: prisoners exchanged 1:1 "by players who hold each other's points or leaders
    prisoner": all the points of one player's armies held by another player's armies against all
    of his held by the first's, whichever of their armies took them (a player with two armies
    exchanges across them); leaders one for one, highest rank first. An army that declines
    (``no_exchange``) keeps its prisoners and its men stay prisoners. Recovered prisoners go to
    the first friendly fortress of their home country (by name)."""
    events = []
    player = players_of(state, inputs)
    armies_of_player: dict[int, list[Army]] = {}
    for army in Army:
        armies_of_player.setdefault(player[army], []).append(army)
    declining = set(inputs.no_exchange)
    held: dict[tuple[Army, Army], int] = {}
    for p in state.prisoners:
        held[(p.army, p.held_by)] = held.get((p.army, p.held_by), 0) + p.points
    by_players: dict[tuple[int, int], list[tuple[Army, Army]]] = {}
    for a, b in sorted(held, key=lambda k: (k[0].value, k[1].value)):
        if a not in declining and b not in declining and player[a] != player[b]:
            by_players.setdefault((player[a], player[b]), []).append((a, b))
    back: dict[Army, int] = {}
    for (p, q), mine in sorted(by_players.items()):
        theirs = by_players.get((q, p), [])
        if p > q or not theirs:
            continue
        n = min(sum(held[k] for k in mine), sum(held[k] for k in theirs))
        if not n:
            continue
        freed = [_release(held, mine, n), _release(held, theirs, n)]
        for side in freed:
            for army, points in side.items():
                back[army] = back.get(army, 0) + points
        events.append(
            linked_event(
                "13.2",
                EventKind.PRISONERS,
                f"Prisoners are exchanged one for one between "
                f"{player_name(armies_of_player[p])} and {player_name(armies_of_player[q])}: "
                f"{_counted(freed[0])} for {_counted(freed[1])} (13.2).",
                points=n,
                armies=sorted({a.value for side in freed for a in side}),
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
    # Leaders, one for one between the same two players, highest rank first.
    captives = list(state.captives)
    freed_leaders: list = []
    free = [c for c in captives if c.army not in declining and c.held_by not in declining]
    pairs = sorted({(player[c.army], player[c.held_by]) for c in free})
    for p, q in pairs:
        if p > q:
            continue
        mine = sorted(
            (c for c in free if player[c.army] == p and player[c.held_by] == q),
            key=lambda c: (leader(c.leader).rank, c.leader),
        )
        theirs = sorted(
            (c for c in free if player[c.army] == q and player[c.held_by] == p),
            key=lambda c: (leader(c.leader).rank, c.leader),
        )
        for c1, c2 in zip(mine, theirs, strict=False):
            freed_leaders.extend([c1, c2])
            events.append(
                linked_event(
                    "13.2",
                    EventKind.PRISONERS,
                    f"{leader(c1.leader).name} is exchanged for {leader(c2.leader).name} (13.2).",
                    leaders=[c1.leader, c2.leader],
                )
            )
    for c in freed_leaders:
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


def _release(
    held: dict[tuple[Army, Army], int], keys: list[tuple[Army, Army]], n: int
) -> dict[Army, int]:
    """Take ``n`` points off the prisoners ``keys`` (in their order) in ``held``; returns the
    points freed per army."""
    out: dict[Army, int] = {}
    for key in keys:
        step = min(held[key], n)
        if step:
            held[key] -= step
            n -= step
            out[key[0]] = out.get(key[0], 0) + step
    return out


def _counted(points: dict[Army, int]) -> str:
    """ "200 Prussian and 100 Hanoverian"."""
    parts = [f"{p} {ADJECTIVES[a]}" for a, p in sorted(points.items(), key=lambda kv: kv[0].value)]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


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
                linked_event(
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
            linked_event(
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
                linked_event(
                    "13.3",
                    EventKind.ORDER_REJECTED,
                    f"{old!r} cannot be replaced by {new_key!r} (13.3).",
                )
            )
            continue
        x = state.leader(old)
        if leader(new_key).army is not x.army:
            events.append(
                linked_event(
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
            linked_event(
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
    points, placed in the city; a player building a siege train pays 300 of his new points, and
    "each player can build one siege train per year": a second request of the same player (the
    same army again, or another of his armies) is refused."""
    events = []
    per_city = settings.new_points_per_star_city
    gained: dict[Army, list[tuple[City, int]]] = {}
    for city in sorted(hexmap.cities, key=lambda c: c.name):
        owner = state.control.get(city.name)
        if city.size in STAR_SIZES and owner and per_city > 0:
            gained.setdefault(Army(owner), []).append((city, per_city))
    player = players_of(state, inputs)
    built: dict[int, Army] = {}
    for army in inputs.siege_trains:
        total = sum(p for _, p in gained.get(army, []))
        if not settings.new_siege_trains:
            continue
        if player[army] in built:
            first = built[player[army]]
            events.append(
                linked_event(
                    "13.5",
                    EventKind.ORDER_REJECTED,
                    f"No second siege train for the {ADJECTIVES[army]} army: each player can "
                    f"build one siege train per year, and this player's is the "
                    f"{ADJECTIVES[first]} one (13.5).",
                    [army],
                )
            )
            continue
        if total < settings.siege_train_cost:
            events.append(
                linked_event(
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
        built[player[army]] = army
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
            linked_event(
                "13.5",
                EventKind.DEPLOYED,
                f"The {ADJECTIVES[army]} army builds a siege train, "
                f"{siege_train_name(train_id)}, at {homes[0].name} for "
                f"{settings.siege_train_cost} new points (13.5).",
                # Siege trains are never reported (8) and the new points are told only to
                # their army (13.4): the other armies read its total, public (3), no more.
                [army],
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
                    linked_event(
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
            linked_event(
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
                linked_event(
                    "13.6",
                    EventKind.ORDER_REJECTED,
                    f"{loan.donor} may not give points to {loan.recipient.value} (13.6).",
                )
            )
            continue
        try:
            to_city = hexmap.city(loan.to_city)
        except KeyError:
            events.append(
                linked_event("13.6", EventKind.ORDER_REJECTED, f"no city {loan.to_city!r}")
            )
            continue
        if state.control.get(to_city.name) != loan.recipient.value:
            events.append(
                linked_event(
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
                    linked_event("13.6", EventKind.ORDER_REJECTED, f"no city {loan.from_city!r}")
                )
                continue
            if state.control.get(from_city.name) != donor.value:
                events.append(
                    linked_event(
                        "13.6",
                        EventKind.ORDER_REJECTED,
                        f"{from_city.name} is not controlled by {donor.value} (13.6).",
                    )
                )
                continue
            state, taken = take_points_at(state, from_city, donor, loan.points)
        state = add_points_at(state, hexmap, to_city, loan.recipient, taken)
        events.append(
            linked_event(
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
            linked_event(
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
                linked_event(
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
                    linked_event(
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
                linked_event(
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
            linked_event(
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
        linked_event(
            "13",
            EventKind.TURN,
            f"Campaign year {state.campaign_year} begins, from the positions at the "
            "end of the last (13).",
            year=state.campaign_year,
        )
    )
    return state, events
