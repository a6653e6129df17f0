"""What a call for orders says to a player who may answer it by mail (issue 29): the reply
address, the seat's forces with where each stands and its MPs, the grammar in three lines, and an
example written for this seat and this phase. Only the seat's own view is read: nothing here is
anything the page would not show the same player.
"""

from __future__ import annotations

from campaign.models import PhaseWindow, Seat, StateVersion
from campaign.projection import Relation
from campaign.services import gameplay, viewcache
from maps.core.hexgrid import DIRECTION_NAMES, distance, hex_id, parse_hex_id
from orders import replyaddress
from rules.allocation import march_reason
from rules.armies import siege_train_name
from rules.movers import march_mp

MAILED_PHASES = ("march", "forced-march", "battle", "honors")

GRAMMAR = {
    "march": (
        "One order a line: a leader and his direction codes (1 W, 2 NW, 3 NE, 4 E, 5 SE, 6 SW), "
        "or 'to' a hex or a place (the least-cost way), 'via' a waypoint; '2 marches' for two.",
        "'drop' a subordinate where he stays, 'enter fortress', 'leave fortress'; "
        "'transfer 100 from X to Y'; 'X stands' removes an order.",
        "READY on a line of its own submits the orders; NOT READY takes them back.",
    ),
    "forced-march": (
        "One order a line: a leader and his direction codes (1 W, 2 NW, 3 NE, 4 E, 5 SE, 6 SW), "
        "or 'to' a hex or a place; siege trains cannot force march (6.3.3).",
        "'drop' a subordinate where he stays; 'X stands' removes an order.",
        "READY on a line of its own submits the orders; NOT READY takes them back.",
    ),
    "battle": (
        "One decision a line: 'fight at HEX', 'decline at HEX' or 'retire at HEX' (9, 10.1), "
        "a place's name for HEX if you like.",
        "With two armies there, name one: 'Hanoverian retire at HEX'.",
        "READY on a line of its own submits the decisions; NOT READY takes them back.",
    ),
    "honors": (
        "One answer a line: 'grant honors at CITY' or 'deny honors at CITY' as the besieger,",
        "'surrender CITY' or 'fight on at CITY' as the garrison (11.6).",
        "READY on a line of its own submits the answers; NOT READY takes them back.",
    ),
}


def call_for_orders(seat: Seat, window: PhaseWindow | None, version: StateVersion | None) -> dict:
    """The context a call for orders (or a reminder) adds for orders by mail; ``{}`` when
    orders by mail are off, or the seat owes nothing that mail can carry."""
    if (
        not replyaddress.enabled()
        or window is None
        or version is None
        or window.phase not in MAILED_PHASES
        or not window.owes(seat)
    ):
        return {}
    view = viewcache.seat_view(seat, version)
    rules = gameplay.rule_settings(seat.campaign)
    hexmap = gameplay.load_campaign_map(seat.campaign.map_name)
    forced = window.phase == "forced-march"
    forces = []
    pools = sorted({f.army.march_pool for f in view.own_forces()}, key=lambda a: a.value)
    if not forced and window.phase == "march":
        for pool in pools:
            n = view.marches.get(pool.value)
            if n is not None:
                reason = march_reason(n, rules.march_modifier.get(pool.value, 0))
                why = f"{reason}; " if reason else ""
                forces.append(
                    f"{pool.value.capitalize()}'s marches this turn: {n} ({why}6.1, 6.2.1)"
                )
    for f in view.own_forces():
        base = rules.forced_march_mp if forced else rules.march_mp
        mp = march_mp(f.supplied is not False, view.turn, rules, base)
        names = ", ".join(x.name for x in f.leaders)
        where = _where(hexmap, f.hex)
        inside = " (inside the walls)" if f.inside else ""
        forces.append(f"{names}: {f.points} points at {where}{inside}, {mp} MP a march")
    if not forced:
        for t in view.siege_trains:
            if t.army in view.armies:
                forces.append(f"{siege_train_name(t.id)} at {_where(hexmap, t.hex)}")
    return {
        "reply_address": replyaddress.address(window.id, seat.id),
        "mail_forces": forces,
        "mail_grammar": GRAMMAR[window.phase],
        "mail_example": _example(view, hexmap, window.phase),
    }


def _where(hexmap, hexid: str) -> str:
    city = hexmap.city_at(parse_hex_id(hexid)) if hexmap is not None else None
    return f"{hexid} ({city.name})" if city else hexid


def _example(view, hexmap, phase: str) -> list[str]:
    own = view.own_forces()
    if phase == "march":  # a force of an army whose pool has no march left cannot move (6.2)
        own = tuple(f for f in own if view.marches.get(f.army.march_pool.value, 1) > 0)
    if phase in ("march", "forced-march") and own:
        lead = own[0].commander
        here = parse_hex_id(lead.hex)
        step = next(iter(hexmap.steps(here)), None) if hexmap is not None else None
        lines = []
        if step is not None:
            d, to, _cost, _bridged = step
            lines.append(f"{lead.name} {d}   (one step {DIRECTION_NAMES[d]}, into {hex_id(to)})")
        near = _nearest_city(hexmap, here)
        if near is not None:
            lines.append(f"{lead.name} march to {near}")
        return [*lines, "READY"]
    if phase == "battle":
        enemy = {f.hex for f in view.forces if f.relation is Relation.ENEMY and not f.inside}
        mine = [f for f in own if f.hex in enemy and not f.inside]
        return [f"fight at {mine[0].hex}", "READY"] if mine else ["READY"]
    if phase == "honors" and view.honors_pending:
        return [f"grant honors at {view.honors_pending[0]}", "READY"]
    return ["READY"]


def _nearest_city(hexmap, here) -> str | None:
    if hexmap is None:
        return None
    others = [c for c in hexmap.cities if c.hex != here]
    if not others:
        return None
    best = min(others, key=lambda c: (distance(c.hex, here), c.name))
    return best.name
