"""The battle set-up (9, 9.2, 9.4, 10.1.1): what the table is told of a battle the engine found, and
whether a force may retire before it.

``battle_setup`` describes one battle for the tabletop (the sides, their leaders, points and
ratings, the buying by country, field works, the nearest city, the stakes); ``retire_refusal``
says why a force may not retire (also asked by the orders page when a retire is saved).
The battle phase (``battle.py``) calls both.
"""

from __future__ import annotations

from typing import Any

from maps.core.hexgrid import distance, parse_hex_id
from maps.core.model import HexMap
from rules import victory
from rules.armies import Alliance, Army
from rules.contingents import BUYS as CONTINGENTS
from rules.leaders import leader
from rules.orders import Outcome
from rules.rulesettings import RuleSettings
from rules.sides import Side, outnumbers, sides_at
from rules.state import (
    LeaderState,
    State,
)

MONTHS = ("April", "May", "June", "July", "August", "September", "October", "November", "December")

# 9: what each country's points may buy on the tabletop (rules.contingents).


BUYS: dict[Army, tuple[str, ...]] = {
    army: tuple(n.label for n in contingents) for army, contingents in CONTINGENTS.items()
}


def turn_date(turn: int) -> str:
    """The half month of a turn (4): turn 1 is April I, turn 18 December II.

    >>> turn_date(1), turn_date(2), turn_date(18)
    ('April I', 'April II', 'December II')
    """
    return f"{MONTHS[(turn - 1) // 2]} {'I' if turn % 2 else 'II'}"


def battle_id(turn: int, hex_id: str) -> str:
    return f"t{turn}-{hex_id}"


def leader_name(key: str) -> str:
    return leader(key).name


def field_works_inches(side: Side, state: State, hexmap: HexMap, settings: RuleSettings) -> dict:
    """Field works of one side, in inches (9.4): 12" for each complete turn a force has stood in
    the hex (9.4.1; the longest-standing force of the side counts), plus 12" for each march
    Frederick spent on works beside a Prussian-controlled fortress (9.4.2)."""
    turns = max((x.turns_in_hex for x in side.records), default=0)
    standing = turns * settings.field_works_inches
    frederick = 0
    for x in side.records:
        if x.key == "frederick" and x.field_works:
            fortress = hexmap.fortress_at(parse_hex_id(x.hex))
            if fortress is not None and state.control.get(fortress.name) == Army.PRUSSIA.value:
                frederick = x.field_works * settings.field_works_inches
    return {
        "inches": standing + frederick,
        "standing_turns": turns,
        "standing": standing,
        "frederick": frederick,
    }


def nearest_city(hexmap: HexMap, h) -> dict[str, Any] | None:
    """The city of the hex or the nearest one by hexes (ties: by name), with its buildings
    (2.3.2, 9.3)."""
    best = None
    for city in hexmap.cities:
        key = (distance(h, city.hex), city.name)
        if best is None or key < best[0]:
            best = (key, city)
    if best is None:
        return None
    city = best[1]
    return {
        "name": city.name,
        "hex": city.hex_id,
        "hexes_away": best[0][0],
        "size": city.size.value,
        "buildings": city.buildings,
        "fortress": city.fortress,
    }


def leader_line(x: LeaderState, demoralized: bool) -> dict[str, Any]:
    t = x.table
    return {
        "leader": x.key,
        "name": t.name,
        "army": x.army.value,
        "rank": t.rank,
        "points": x.points,
        "tactical_ir": 0 if demoralized else t.tactical_ir,
        "strategic_ir": 0 if demoralized else t.strategic_ir,
        "book_tactical_ir": t.tactical_ir,
        "book_strategic_ir": t.strategic_ir,
    }


def stakes(sides: dict[Alliance, Side], settings: RuleSettings, players: int) -> dict:
    """What each player wins or loses in VPs if a side retires or is defeated (12.1-12.2.3)."""
    out = {}
    for alliance, side in sides.items():
        other = sides[alliance.opponent]
        for outcome in Outcome:
            vps = victory.outcome_vps(
                other.points_by_army(),
                side.points_by_army(),
                outcome is Outcome.DEFEATED,
                settings,
                players,
            )
            out[f"{alliance.value} {outcome.value}"] = {s.value: v for s, v in vps.items()}
    return out


def retire_refusal(
    state: State, hex_id: str, army: Army, settings: RuleSettings
) -> tuple[str, str] | None:
    """Why the force of ``army`` at ``hex_id`` may not retire before the battle, as (reason,
    rule), or None when it may (10.1, 10.1.1, 11.3, 6.3.2). The orders page asks this when a
    player chooses to retire, so that the order is refused then, not at resolution."""
    sides = sides_at(state, hex_id)
    for alliance, side in sides.items():
        for f in side.forces:
            if f.army is army:
                return force_retire_refusal(state, hex_id, sides, alliance, f, settings)
    return None


def force_retire_refusal(state, hex_id, sides, alliance, force, settings) -> tuple[str, str] | None:
    """``retire_refusal`` for one force of a side already found (the battle phase asks it)."""
    forces = [f for s in sides.values() for f in s.forces]
    sallied = {f.army for f in forces if any(x.sallied for x in f.leaders)}
    enemy_total = sum(s.points for a, s in sides.items() if a is not alliance)
    forced_in = {(h, Army.parse(a)) for h, a in state.forced_march_arrivals}
    if force.army in sallied:
        return "it left the fortress to fight the enemy outside (11.3)", "11.3"
    if not any(x.marched for x in force.leaders):
        return "it had no march order this turn (10.1)", "10.1"
    if outnumbers(enemy_total, sides[alliance].points, settings.no_battle_ratio):
        return f"it is outnumbered {settings.no_battle_ratio}:1 (10.1.1)", "10.1.1"
    if any((hex_id, a) in forced_in for a in state.armies_of(alliance.opponent)):
        return "enemy forces reached the hex by forced march this turn (10.1.1, 6.3.2)", "10.1.1"
    return None


def _retiring(state, hex_id, sides, alliance, side, settings) -> dict[str, Any]:
    """Whether the side may retire rather than fight (10.1, 10.1.1, 11.3): only if every one of
    its forces may; the first reason why not, in words, with its rule."""
    for force in side.forces:
        refused = force_retire_refusal(state, hex_id, sides, alliance, force, settings)
        if refused is not None:
            reason, rule = refused
            return {
                "may_retire": False,
                "retire_refusal": f"the force of {force.commander.table.name} may not retire: "
                f"{reason}",
                "retire_rule": rule,
            }
    return {"may_retire": True, "retire_refusal": "", "retire_rule": "10.1"}


def battle_setup(
    state: State, hex_id: str, sides: dict[Alliance, Side], hexmap: HexMap, settings: RuleSettings
) -> dict[str, Any]:
    """Everything the tabletop needs for one battle (9, 9.2-9.4, 2.3.2, 10.2, 12)."""
    h = parse_hex_id(hex_id)
    out_sides = {}
    for alliance, side in sides.items():
        demoralized = [f.commander.key for f in side.forces if f.demoralized]
        out_sides[alliance.value] = {
            "commander": side.commander.key,
            "commander_name": side.commander.table.name,
            "points": side.points,
            "points_by_country": {
                a.value: {"points": p, "may_buy": list(BUYS[a])}
                for a, p in sorted(side.points_by_army().items(), key=lambda kv: kv[0].value)
            },
            "leaders": [leader_line(x, f.demoralized) for f in side.forces for x in f.leaders],
            "demoralized_forces": demoralized,
            "unsupplied_forces": [
                f.commander.key for f in side.forces if not all(x.supplied for x in f.leaders)
            ],
            "morale_penalty": settings.morale_penalty_demoralized if demoralized else 0,
            "field_works": field_works_inches(side, state, hexmap, settings),
            "size_class": victory.size_class(side.points, settings).value,
            **_retiring(state, hex_id, sides, alliance, side, settings),
        }
    fortress = hexmap.fortress_at(h)
    return {
        "battle": battle_id(state.turn, hex_id),
        "hex": hex_id,
        "turn": state.turn,
        "date": turn_date(state.turn),
        "terrain": hexmap.terrain(h).label,
        "area": hexmap.area(h),
        "rivers": [
            {"side": d, "class": r.value, "name": name} for d, r, name in hexmap.rivers_of(h)
        ],
        "city": nearest_city(hexmap, h),
        "fortress": fortress.name if fortress else None,
        "sides": out_sides,
        "stakes": stakes(sides, settings, state.players),
        "notes": [
            "9.3: rough hexes call for many woods and hills and few towns; marsh hexes few hills.",
            "9: British units should be restricted in share or cost more (players agree).",
        ],
    }


# --- step 1: decisions ----------------------------------------------------------------------
