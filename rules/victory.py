"""Victory (12): victory points for battles and sieges, fortresses, key cities, surrender of an
army (12.6), Frederick (12.7) and the final table.

Victory points belong to players (seats), not armies: ``state.victory_points`` maps a seat value
("austria", ...) to its running total of battle and siege VPs (12.2, 12.3). Fortress and key-city
VPs (12.4, 12.5) are counted only in the final table, from control at the end of the campaign.

The Victory Point Chart (12.1), with the size of the defeated force in three classes
(A 1-500 points, B 501-1000, C 1001+):

>>> from rules.rulesettings import DEFAULT_SETTINGS as S
>>> size_class(500, S).value, size_class(501, S).value, size_class(1001, S).value
('A', 'B', 'C')
>>> chart_vps(Row.ENEMY_DEMORALIZED, SizeClass.C, S)
4
>>> chart_vps(Row.FRIENDLY_RETIRES, SizeClass.A, S)
0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from maps.core.model import HexMap
from rules.armies import ADJECTIVES, CONTROLLED_AREAS, Alliance, Army, Seat, seat_map
from rules.events import Event, EventKind
from rules.rulesettings import RuleSettings
from rules.state import State


class SizeClass(Enum):
    """Size of the defeated force (12.1, 12.2.2)."""

    A = "A"
    B = "B"
    C = "C"

    @property
    def index(self) -> int:
        return ("A", "B", "C").index(self.value)


class Row(Enum):
    """The battle and siege rows of the Victory Point Chart (12.1)."""

    ENEMY_RETIRES = "forcing enemy force to retire from battle"
    ENEMY_DEMORALIZED = "demoralizing or capturing enemy force in battle or siege"
    FRIENDLY_RETIRES = "friendly force retires from a battle"
    FRIENDLY_DEMORALIZED = "friendly force demoralized or surrenders in battle or siege"


_ROW_SETTING = {
    Row.ENEMY_RETIRES: "vp_enemy_retires",
    Row.ENEMY_DEMORALIZED: "vp_enemy_demoralized",
    Row.FRIENDLY_RETIRES: "vp_friendly_retires",
    Row.FRIENDLY_DEMORALIZED: "vp_friendly_demoralized",
}


def size_class(points: int, settings: RuleSettings) -> SizeClass:
    """A: up to 500 points, B: 501-1000, C: 1001 or more (12.1). A force of 0 points is A."""
    a_max, b_max = settings.vp_size_bands
    if points <= a_max:
        return SizeClass.A
    if points <= b_max:
        return SizeClass.B
    return SizeClass.C


def chart_vps(row: Row, size: SizeClass, settings: RuleSettings) -> int:
    """One cell of the Victory Point Chart (12.1)."""
    return getattr(settings, _ROW_SETTING[row])[size.index]


def share_vps(total: int, points_by_seat: Mapping[Seat, int]) -> dict[Seat, int]:
    """Share VPs among the players of one side (12.2.3): equal parts, the odd points to the player
    with the largest force (ties: the seat first in the order Austria, France, Hanover, Prussia,
    Russia). Negative totals are shared the same way.

    >>> share_vps(3, {Seat.AUSTRIA: 900, Seat.FRANCE: 400})
    {<Seat.AUSTRIA: 'austria'>: 2, <Seat.FRANCE: 'france'>: 1}
    >>> share_vps(-3, {Seat.AUSTRIA: 900, Seat.FRANCE: 1400})
    {<Seat.AUSTRIA: 'austria'>: -1, <Seat.FRANCE: 'france'>: -2}
    """
    seats = sorted(points_by_seat, key=lambda s: list(Seat).index(s))
    if not seats:
        return {}
    sign = -1 if total < 0 else 1
    each, odd = divmod(abs(total), len(seats))
    out = dict.fromkeys(seats, sign * each)
    largest = max(seats, key=lambda s: (points_by_seat[s], -list(Seat).index(s)))
    out[largest] += sign * odd
    return out


def seat_points(points_by_army: Mapping[Army, int], players: int) -> dict[Seat, int]:
    """Points of each player's armies on one side of a battle or siege."""
    seats = seat_map(players)
    out: dict[Seat, int] = {}
    for army, points in points_by_army.items():
        out[seats[army]] = out.get(seats[army], 0) + points
    return out


def outcome_vps(
    winners: Mapping[Army, int],
    losers: Mapping[Army, int],
    demoralized: bool,
    settings: RuleSettings,
    players: int,
) -> dict[Seat, int]:
    """VPs for one battle or siege outcome (12.2, 12.3): the losing side retired
    (``demoralized`` False) or was demoralized, captured or surrendered (True). The size class is
    that of the whole defeated side (12.2.2); each side's VPs are shared by 12.2.3."""
    size = size_class(sum(losers.values()), settings)
    won = chart_vps(Row.ENEMY_DEMORALIZED if demoralized else Row.ENEMY_RETIRES, size, settings)
    lost = chart_vps(
        Row.FRIENDLY_DEMORALIZED if demoralized else Row.FRIENDLY_RETIRES, size, settings
    )
    out: dict[Seat, int] = {}
    for seat, vps in share_vps(won, seat_points(winners, players)).items():
        out[seat] = out.get(seat, 0) + vps
    for seat, vps in share_vps(lost, seat_points(losers, players)).items():
        out[seat] = out.get(seat, 0) + vps
    return out


def award(state: State, vps: Mapping[Seat, int], rule: str, why: str) -> tuple[State, list[Event]]:
    """Add VPs to the players' running totals, one public event per player."""
    totals = dict(state.victory_points)
    events = []
    for seat, delta in vps.items():
        totals[seat.value] = totals.get(seat.value, 0) + delta
        events.append(
            Event(
                rule,
                EventKind.VICTORY_POINTS,
                f"The {seat.label} {'gains' if delta >= 0 else 'loses'} {abs(delta)} "
                f"VP{'s' * (abs(delta) != 1)} "
                f"({why}, {rule}); total {totals[seat.value]}.",
                {"seat": seat.value, "vps": delta, "total": totals[seat.value], "why": why},
            )
        )
    return dataclasses.replace(state, victory_points=totals), events


# --- 12.4, 12.5: fortresses and key cities ---------------------------------------------------

NO_FORTRESS_VP_AREAS = ("Mecklinburg", "Poland", "United Provinces")  # 12.4.1
PRUSSIAN_KEY_CITIES = ("Berlin", "Koenigsberg", "Breslau", "Magdeburg", "Dresden")  # 12.5.1
HANOVERIAN_KEY_CITIES = ("Bremen", "Hanover", "Brunswick")  # 12.5.2

# 13.9 Star City Chart, for the home countries of the armies (12.6). "Britain" is off the map.
HOME_STAR_CITIES: dict[Army, tuple[str, ...]] = {
    Army.AUSTRIA: ("Budapest", "Prague", "Vienna"),
    Army.EMPIRE: ("Frankfurt", "Munich", "Nuremburg", "Stuttgart"),
    Army.FRANCE: ("Lille", "Paris", "Strasburg"),
    Army.HANOVER: ("Bremen", "Britain", "Brunswick", "Hanover"),
    Army.PRUSSIA: ("Berlin", "Breslau", "Stettin"),
    Army.RUSSIA: (),
    Army.SWEDEN: (),
}


def controller(state: State, city: str) -> Army | None:
    value = state.control.get(city)
    return Army(value) if value else None


def fortress_vps(state: State, hexmap: HexMap, seat: Seat) -> list[tuple[str, int]]:
    """(fortress, VPs) for each enemy fortress the player controls (12.4): not in Mecklinburg,
    Poland or the United Provinces (12.4.1), and not one his own armies held at the start
    (12.4.2). "Enemy" means held at the start by an army of the other alliance."""
    seats = seat_map(state.players)
    out = []
    for city in hexmap.fortresses:
        owner = controller(state, city.name)
        if owner is None or seats[owner] is not seat or city.area in NO_FORTRESS_VP_AREAS:
            continue
        first = state.initial_control.get(city.name)
        if not first:
            continue
        first_army = Army(first)
        if seats[first_army] is seat or not state.is_enemy(first_army, owner):
            continue
        out.append((city.name, city.vp))
    return out


def key_city_vps(state: State, hexmap: HexMap, seat: Seat, settings: RuleSettings) -> list:
    """(city, VPs) for the key cities of 12.5 the player controls: the Prussian player's five
    and the Hanoverian player's three (the player commanding that army; with three players the
    Prussian player commands both)."""
    seats = seat_map(state.players)
    out = []
    for army, cities, vps in (
        (Army.PRUSSIA, PRUSSIAN_KEY_CITIES, settings.vp_prussian_key_city),
        (Army.HANOVER, HANOVERIAN_KEY_CITIES, settings.vp_hanoverian_key_city),
    ):
        if seats[army] is not seat:
            continue
        for name in cities:
            owner = controller(state, _map_name(hexmap, name))
            if owner is not None and seats[owner] is seat:
                out.append((name, vps))
    return out


def _map_name(hexmap: HexMap, name: str) -> str:
    try:
        return hexmap.city(name).name
    except KeyError:
        return name


@dataclass(frozen=True)
class TableRow:
    seat: Seat
    armies: tuple[Army, ...]
    battles: int
    fortresses: tuple[tuple[str, int], ...]
    key_cities: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return (
            self.battles + sum(v for _, v in self.fortresses) + sum(v for _, v in self.key_cities)
        )


@dataclass(frozen=True)
class VictoryTable:
    """The final table (12): one row per player, the alliance totals and the winner(s)."""

    rows: tuple[TableRow, ...]
    alliances: dict[str, int]
    winners: tuple[Seat, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [
                {
                    "seat": r.seat.value,
                    "armies": [a.value for a in r.armies],
                    "battles": r.battles,
                    "fortresses": [list(x) for x in r.fortresses],
                    "key_cities": [list(x) for x in r.key_cities],
                    "total": r.total,
                }
                for r in self.rows
            ],
            "alliances": dict(self.alliances),
            "winners": [s.value for s in self.winners],
            "reason": self.reason,
        }


def final_table(state: State, hexmap: HexMap, settings: RuleSettings) -> VictoryTable:
    """Total every player's VPs (12): battles and sieges, enemy fortresses controlled (12.4) and
    key cities (12.5). The highest total wins; if Frederick was killed or captured (12.7), the
    player whose army was responsible wins whatever the totals."""
    seats = seat_map(state.players)
    rows = []
    for seat in Seat:
        armies = tuple(a for a in Army if seats[a] is seat)
        if not armies:
            continue
        rows.append(
            TableRow(
                seat,
                armies,
                state.victory_points.get(seat.value, 0),
                tuple(fortress_vps(state, hexmap, seat)),
                tuple(key_city_vps(state, hexmap, seat, settings)),
            )
        )
    # 12.2.3, 13.8: a player counts for the alliance his own army fights for now (the Austrian
    # player's Empire may have followed another course; the player's VPs are his, not his
    # armies').
    alliances = {a.value: 0 for a in Alliance}
    for row in rows:
        alliances[state.alliance_of(Army(row.seat.value)).value] += row.total
    if state.frederick_taken_by:
        winner = seats[Army(state.frederick_taken_by)]
        return VictoryTable(
            tuple(rows),
            alliances,
            (winner,),
            f"Frederick was killed or captured by the {ADJECTIVES[Army(state.frederick_taken_by)]} "
            "army (12.7)",
        )
    best = max(r.total for r in rows)
    winners = tuple(r.seat for r in rows if r.total == best)
    return VictoryTable(tuple(rows), alliances, winners, f"the highest total, {best} VPs (12)")


def table_event(table: VictoryTable) -> Event:
    lines = ", ".join(f"{r.seat.label} {r.total}" for r in table.rows)
    names = " and ".join(s.label for s in table.winners)
    return Event(
        "12",
        EventKind.CAMPAIGN_ENDS,
        f"Final victory table: {lines}. Winner: {names}, by {table.reason}.",
        {"table": table.to_dict()},
    )


# --- 12.6 surrender, 12.7 Frederick ---------------------------------------------------------


def home_star_cities_on_map(army: Army, hexmap: HexMap) -> list[str]:
    out = []
    for name in HOME_STAR_CITIES[army]:
        try:
            out.append(hexmap.city(name).name)
        except KeyError:
            continue
    return out


def surrendering_armies(state: State, hexmap: HexMap) -> list[Army]:
    """Armies all of whose home star cities (13.9) are controlled by enemy armies (12.6).

    An army with a star city off the map (Hanover's Britain) or none on it (Russia, Sweden) can
    never surrender this way: an off-map city cannot be taken.
    """
    out = []
    for army in Army:
        if army in state.surrendered:
            continue
        listed = HOME_STAR_CITIES[army]
        on_map = home_star_cities_on_map(army, hexmap)
        if not listed or len(on_map) < len(listed):
            continue
        owners = [controller(state, c) for c in on_map]
        if all(o is not None and state.is_enemy(o, army) for o in owners):
            out.append(army)
    return out


def apply_surrenders(state: State, hexmap: HexMap) -> tuple[State, list[Event]]:
    """12.6: at the end of a turn, remove every army whose home star cities are all in enemy
    hands: its leaders, garrisons and siege trains leave the map. Its empty fortresses may be
    captured by entering, like any empty fortress (11)."""
    events = []
    for army in surrendering_armies(state, hexmap):
        state = dataclasses.replace(
            state,
            leaders=tuple(x for x in state.leaders if x.army is not army),
            garrisons=tuple(g for g in state.garrisons if g.army is not army),
            siege_trains=tuple(t for t in state.siege_trains if t.army is not army),
            leaderless=tuple(p for p in state.leaderless if p.army is not army),
            surrendered=(*state.surrendered, army),
        )
        cities = ", ".join(home_star_cities_on_map(army, hexmap))
        events.append(
            Event(
                "12.6",
                EventKind.ARMY_SURRENDERS,
                f"The {ADJECTIVES[army]} army surrenders: all its home star cities ({cities}) "
                "are held by the enemy. It is removed from the map (12.6).",
                {"army": army.value},
            )
        )
    return state, events


def frederick_taken(state: State, by: Army, how: str) -> tuple[State, list[Event]]:
    """12.7: Frederick killed or captured ends the campaign at once; the player whose army was
    responsible wins."""
    state = dataclasses.replace(state, ended=True, frederick_taken_by=by.value)
    seat = state.seat_of(by)
    return state, [
        Event(
            "12.7",
            EventKind.CAMPAIGN_ENDS,
            f"Frederick has been {how} by the {ADJECTIVES[by]} army. The campaign ends at once; "
            f"the {seat.label} wins (12.7).",
            {"how": how, "by": by.value, "winner": seat.value},
        )
    ]


def home_areas(army: Army) -> tuple[str, ...]:
    """The areas an army controls at the start (3.4), its "home country" for 13.2 and 13.5."""
    return CONTROLLED_AREAS[army]


def enemies(state: State, army: Army, armies: Iterable[Army]) -> list[Army]:
    """The armies of ``armies`` that fight ``army`` now (1.2, 13.8)."""
    return [a for a in armies if state.is_enemy(a, army)]
