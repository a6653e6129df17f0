"""Attrition (7, 7.1, 5.1.2, 11.5): forces lose a percentage of their points.

Causes add up (7): 1% per MP of a second march, 1% per MP of a forced march, 5% for a siege
(besieger and garrison, 11.5, while the siege conditions of 11 hold), 10% for a force that began the
turn unsupplied (5.1.2), 10% for a force outside a fortress in a winter turn. Rounding: the loss of
a force is its total points times the percentage over 100, rounded to the nearest point, halves
rounded up (so 5% of 150 = 7.5 loses 8, and 5% of 8 = 0.4 loses nothing). The loss of a force of
several leaders is shared among them in proportion to their points (largest remainders, ties to the
higher-ranking leader).
See docs/rules-interpretations.md, 7.
"""

from __future__ import annotations

import dataclasses

from maps.core.model import HexMap
from rules import investment
from rules.armies import ADJECTIVES, Army
from rules.board import Board
from rules.dice import Dice
from rules.events import Event, EventKind, mps, private
from rules.losses import share_loss
from rules.orders import Orders
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.state import LeaderState, State
from rules.transfers import cic_events


def percent_loss(points: int, pct: int) -> int:
    """Points lost to ``pct`` percent attrition, rounded half up (7).

    >>> percent_loss(1000, 5), percent_loss(150, 5), percent_loss(8, 5), percent_loss(0, 13)
    (50, 8, 0, 0)
    """
    return (points * pct * 2 + 100) // 200


def besieged_cities(state: State, hexmap: HexMap) -> set[str]:
    """Fortresses under siege in this attrition phase (11.5, 7.1 "every turn of siege"): those
    where the conditions of 11 hold now, after the marches (a supplied enemy force with a siege
    train, in the hex a complete turn or more). Not last turn's sieges: a siege's first turn
    costs attrition, and a garrison whose besiegers marched away loses nothing."""
    return {
        inv.city.name
        for inv in investment.investments(state, hexmap)
        if investment.is_besieged(state, inv)[0]
    }


def causes(
    x: LeaderState, state: State, board: Board, settings: RuleSettings, sieges: set[str]
) -> list[tuple[str, str, int]]:
    """(cause, rule, percent) for one leader record."""
    out = []
    if x.second_march_mp:
        out.append(
            (
                f"second march of {mps(x.second_march_mp)}",
                "7.1",
                x.second_march_mp * settings.second_march_pct_per_mp,
            )
        )
    if x.forced_march_mp:
        out.append(
            (
                f"forced march of {mps(x.forced_march_mp)}",
                "7.1",
                x.forced_march_mp * settings.forced_march_pct_per_mp,
            )
        )
    fortress = board.fortress(x.hex)
    if fortress is not None and fortress.name in sieges:
        garrison_armies = board.garrisoned_by(fortress.hex)
        inside_defender = x.inside
        besieger = not x.inside and any(state.is_enemy(a, x.army) for a in garrison_armies)
        if inside_defender or besieger:
            out.append(("siege", "11.5", settings.siege_pct))
    if not x.supplied:
        out.append(("unsupplied", "5.1.2", settings.unsupplied_pct))
    if settings.is_winter(state.turn) and not x.inside:
        out.append(("outside a fortress in winter", "7.1", settings.winter_outside_pct))
    return out


def attrition_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 5 (7): apply attrition to every force and besieged garrison."""
    board = Board(state, hexmap)
    sieges = besieged_cities(state, hexmap)
    events: list[Event] = []
    updated: list[LeaderState] = []
    # Group leader records of one force with the same causes: they lose together (7).
    groups: dict[tuple, list[LeaderState]] = {}
    for x in state.leaders:
        key = (x.army, x.hex, x.inside, tuple(causes(x, state, board, settings, sieges)))
        groups.setdefault(key, []).append(x)
    for (army, hex_id, _inside, why), records in sorted(
        groups.items(), key=lambda kv: (kv[0][1], kv[0][0].value)
    ):
        if not why:
            continue
        pct = sum(p for _c, _r, p in why)
        total = sum(x.points for x in records)
        loss = percent_loss(total, pct)
        shares = share_loss(records, loss)
        records.sort(key=lambda x: x.rank)
        for x in records:
            updated.append(dataclasses.replace(x, points=x.points - shares[x.key]))
        reasons = " + ".join(f"{p}% {c} ({r})" for c, r, p in why)
        name = records[0].table.name
        events.append(
            Event(
                "7",
                EventKind.ATTRITION,
                f"The {ADJECTIVES[army]} force under {name} at {hex_id} loses {loss} of its "
                f"{total} points to attrition: {reasons} = {pct}%.",
                {
                    "leader": records[0].key,
                    "leaders": [x.key for x in records],
                    "hex": hex_id,
                    "points": total,
                    "percent": pct,
                    "loss": loss,
                    "causes": [{"cause": c, "rule": r, "percent": p} for c, r, p in why],
                },
                private(army),
            )
        )
    state = state.with_leaders(updated)
    state, more = _leaderless_attrition(state, settings)
    events.extend(more)
    # 11.5: the garrison of a besieged fortress loses 5% as well.
    for g in sorted(state.garrisons, key=lambda g: (g.city, g.army.value)):
        if g.city not in sieges:
            continue
        loss = percent_loss(g.points, settings.siege_pct)
        state = state.with_garrison(g.city, g.army, g.points - loss)
        events.append(
            Event(
                "11.5",
                EventKind.ATTRITION,
                f"The {ADJECTIVES[g.army]} garrison of {g.city} loses {loss} of its {g.points} "
                f"points to attrition: {settings.siege_pct}% siege (11.5).",
                {
                    "city": g.city,
                    "points": g.points,
                    "percent": settings.siege_pct,
                    "loss": loss,
                    "causes": [{"cause": "siege", "rule": "11.5", "percent": settings.siege_pct}],
                },
                private(g.army),
            )
        )
    events.extend(cic_events(state))
    return Resolution(state, tuple(events))


def _leaderless_attrition(state: State, settings: RuleSettings) -> tuple[State, list[Event]]:
    """Points left without a leader (9.5) lose 10% unsupplied (5.1.2) and 10% outside a
    fortress in winter (7.1); they never march."""
    events = []
    kept = []
    for p in state.leaderless:
        why = []
        if not p.supplied:
            why.append(("unsupplied", "5.1.2", settings.unsupplied_pct))
        if settings.is_winter(state.turn):
            why.append(("outside a fortress in winter", "7.1", settings.winter_outside_pct))
        if not why:
            kept.append(p)
            continue
        pct = sum(q for _c, _r, q in why)
        loss = percent_loss(p.points, pct)
        reasons = " + ".join(f"{q}% {c} ({r})" for c, r, q in why)
        events.append(
            Event(
                "7",
                EventKind.ATTRITION,
                f"The {p.points} {ADJECTIVES[p.army]} points without a leader at {p.hex} lose "
                f"{loss} to attrition: {reasons} = {pct}%.",
                {"hex": p.hex, "army": p.army.value, "points": p.points, "loss": loss},
                private(p.army),
            )
        )
        if p.points - loss > 0:
            kept.append(dataclasses.replace(p, points=p.points - loss))
    return dataclasses.replace(state, leaderless=tuple(kept)), events


def army_totals(state: State) -> dict[Army, int]:
    """Points of each army on the map (leaders and garrisons), public knowledge (3)."""
    totals = dict.fromkeys(Army, 0)
    for x in state.leaders:
        totals[x.army] += x.points
    for g in state.garrisons:
        totals[g.army] += g.points
    for p in state.leaderless:
        totals[p.army] += p.points
    return totals
