"""The scenario sheet of a battle (issue 14): what a side needs before the first move, laid out as
the scenario sheets of *Prussia's Glory* (seed 002): place and date, who attacks, order of
set-up, game length and time of day, retreat edges, retiring, Frederick, siege trains, the
garrison, what the side does not know, the terrain features with their sizes, the order of
battle by wing in the club's units, and the victory conditions in the rulebook's terms.

Pure Python: the web side (``battles.services.sheet``) passes the engine's battle set-up,
where each side came from, the generated table and the facts of the state the set-up does not
carry (siege trains and the garrison of the hex). ``sheet(..., audience)`` decides what that
audience may read: the umpire everything; a side its own forces in full and of the enemy only
what the rules make public (leader positions 3.1.1, total points 9, demoralization 10.2, the
garrison's country 3.1.2, field works on the table) and what its reconnaissance reported this
turn (the garrison's strength, 8.2).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules import battlenames
from rules.armies import ADJECTIVES, Army, siege_train_name
from rules.armies import Seat as EngineSeat
from tabletop import forces
from tabletop import units as unit_rules
from tabletop.layout import FeatureKind, TableLayout

UMPIRE = "umpire"
MONTHS = ("April", "May", "June", "July", "August", "September", "October", "November", "December")
CM = 2.54
LATITUDE = 51.0
"""Latitude for the hours of daylight: the middle of the map (Saxony, Bohemia, Silesia)."""
START_HOUR = 8
"""The hour a battle opens: armies of the period formed at dawn and marched to contact; the
famous battles of the war opened between seven and ten in the morning (interpretation)."""


@dataclass(frozen=True)
class Facts:
    """What the set-up does not carry: per side (alliance value), the ids of its siege trains
    outside the walls in the hex (9.1); the garrison of the fortress of the hex, if any, with
    the leaders inside its walls (name, points: their places are public, 3.1.1, their points
    not, 3.1.2), and per side the garrison's points (chits and leaders inside) as that side's
    reconnaissance reported them this turn (8, 8.2), for a side every player of which was told."""

    siege_trains: Mapping[str, Sequence[str]] = field(default_factory=dict)
    garrison_city: str = ""
    garrison_army: str = ""
    garrison_points: int = 0
    garrison_side: str = ""
    year: str = ""
    garrison_leaders: Sequence[tuple[str, int]] = ()
    garrison_reported: Mapping[str, int] = field(default_factory=dict)


def fighting_name(side_data: Mapping[str, Any]) -> str:
    """The side named by who actually fights: "Hanoverian army", "Austrian and Imperial armies"."""
    armies = [ADJECTIVES.get(Army(a), a) for a in side_data.get("points_by_country", {})]
    if not armies:
        return "army"
    if len(armies) == 1:
        return f"{armies[0]} army"
    return f"{', '.join(armies[:-1])} and {armies[-1]} armies"


def turn_label(turn: int) -> str:
    return f"{MONTHS[(turn - 1) // 2]} {'I' if turn % 2 else 'II'}"


def location(setup: Mapping[str, Any]) -> str:
    """Where the battle is, in words: the city of the hex, else the hex and how far the nearest
    city is (``setup["city"]``, 2.3), with the area of the map the hex lies in.

    >>> location({"hex": "6340", "area": "Austria",
    ...           "city": {"name": "Koniggratz", "hexes_away": 0}})
    'Koniggratz (hex 6340, Austria)'
    >>> location({"hex": "6639", "area": "Austria", "city": {"name": "Glatz", "hexes_away": 2}})
    'hex 6639 (Austria), 2 hexes from Glatz'
    >>> location({"hex": "6737", "area": "", "city": {"name": "Glatz", "hexes_away": 1}})
    'hex 6737, next to Glatz'
    """
    hex_id, area = setup["hex"], setup.get("area") or ""
    city = setup.get("city") or {}
    if city.get("hexes_away") == 0:
        return f"{city['name']} (hex {hex_id}{f', {area}' if area else ''})"
    where = f"hex {hex_id}" + (f" ({area})" if area else "")
    if not city:
        return where
    away = int(city.get("hexes_away") or 0)
    near = "next to" if away == 1 else f"{away} hexes from"
    return f"{where}, {near} {city['name']}"


def sunset(turn: int, latitude: float = LATITUDE) -> float:
    """Sunset, in local solar hours, on the 8th (I) or 23rd (II) day of the turn's month."""
    month = 4 + (turn - 1) // 2
    day = 8 if turn % 2 else 23
    days_before = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)
    n = days_before[month - 1] + day
    declination = math.radians(-23.44 * math.cos(math.radians(360 / 365 * (n + 10))))
    cos_w = -math.tan(math.radians(latitude)) * math.tan(declination)
    return 12 + math.degrees(math.acos(max(-1.0, min(1.0, cos_w)))) / 15


def _clock(hours: float) -> str:
    h, m = divmod(round(hours * 60), 60)
    return f"{h:02d}:{m:02d}"


def game_length(turn: int, minutes_per_turn: int) -> dict[str, Any]:
    """From START_HOUR to sunset, rounded down to whole game turns."""
    end = sunset(turn)
    turns = int((end - START_HOUR) * 60 // minutes_per_turn)
    finish = START_HOUR + turns * minutes_per_turn / 60
    return {
        "start": _clock(START_HOUR),
        "end": _clock(finish),
        "sunset": _clock(end),
        "turns": turns,
        "minutes_per_turn": minutes_per_turn,
    }


def _size(f) -> str:
    if f.kind.is_line:
        return f'{f.length:.0f}" long ({f.length * CM:.0f} cm)'
    return (
        f'{f.width:.0f}" × {f.depth:.0f}" ({f.width * CM:.0f} × {f.depth * CM:.0f} cm)'
        if f.width and f.depth
        else ""
    )


_GROUPED = (FeatureKind.BRIDGE, FeatureKind.FORD, FeatureKind.ROAD, FeatureKind.FIELD_WORKS)


def features(layout: TableLayout) -> list[dict[str, str]]:
    """The terrain features, each with its size in inches and cm and where its centre lies
    (inches from the north-west corner). Buildings are counted; crossings, roads and works are
    listed one line per kind, so the list stays short enough for one page."""
    out = []
    for f in layout.features:
        if f.kind is FeatureKind.BUILDING or f.kind in _GROUPED:
            continue
        out.append(
            {
                "kind": f.kind.value,
                "label": f.label,
                "size": _size(f),
                "where": f'centre {f.x:.0f}" E, {f.y:.0f}" S',
            }
        )
    for kind in _GROUPED:
        items = layout.of_kind(kind)
        if not items:
            continue
        one, many = {
            FeatureKind.FIELD_WORKS: ("section of field works", "sections of field works")
        }.get(kind, (kind.value, f"{kind.value}s"))
        if kind is FeatureKind.ROAD:
            size = "; ".join(
                f'{f.label.removeprefix("Road ")} {f.length:.0f}" ({f.length * CM:.0f} cm)'
                for f in items
            )
            where = "from the edge they face to the town"
        else:
            size = f'each {items[0].length:.0f}" long ({items[0].length * CM:.0f} cm)'
            where = "centres " + ", ".join(f'{f.x:.0f}" E {f.y:.0f}" S' for f in items)
        label = f"{len(items)} {many}" if len(items) > 1 else f"1 {one}"
        if kind is FeatureKind.FIELD_WORKS:
            sides = sorted({f.label.removesuffix(" field works") for f in items})
            label += f" ({', '.join(sides)})"
        out.append({"kind": kind.value, "label": label, "size": size, "where": where})
    buildings = layout.of_kind(FeatureKind.BUILDING)
    if buildings:
        w = max(b.width for b in buildings)
        out.append(
            {
                "kind": "building",
                "label": f"{len(buildings)} buildings (2.3.1)",
                "size": f'up to {w:.1f}" ({w * CM:.0f} cm) a side',
                "where": "in the towns above",
            }
        )
    return out


def _seat(value: str) -> str:
    try:
        return EngineSeat(value).label
    except ValueError:
        return value


def stake_lines(setup: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """The VPs at stake (12.1, 12.2), each side named by who fights in it (``names``)."""
    lines = []
    for key, vps in sorted((setup.get("stakes") or {}).items()):
        side, outcome = key.split(" ", 1)
        name = names.get(side, side)
        many = name.endswith("armies")
        if outcome == "retired":
            what = "retire (10.1)" if many else "retires (10.1)"
        else:
            what = "are defeated outright (10.1)" if many else "is defeated outright (10.1)"
        shares = ", ".join(f"{_seat(s)} {v:+d}" for s, v in sorted(vps.items()))
        lines.append(f"If the {name} {what}: {shares} VPs (12.1, 12.2).")
    return lines


def _garrison_strength(facts: Facts) -> str:
    """The garrison's points with those of the leaders inside its walls, as reconnaissance
    counts them (8.2): "221 points (50 points in garrison, 171 with Nadasy)"."""
    total = facts.garrison_points + sum(p for _, p in facts.garrison_leaders)
    if not facts.garrison_leaders:
        return f"{total} points"
    parts = [f"{facts.garrison_points} points in garrison"]
    parts += [f"{points} with {name}" for name, points in facts.garrison_leaders]
    return f"{total} points ({', '.join(parts)})"


def _garrison(facts: Facts, audience: str) -> str:
    """The garrison of the hex as ``audience`` may know it: its country and the leaders inside
    its walls to all (3.1.2, 3.1.1); its strength to its own side and the umpire, and to a side
    whose reconnaissance reported it this turn (8, 8.2: an enemy force in the same hex always
    sees it), in the report's number; else "unknown strength"."""
    if not facts.garrison_city:
        return "No fortress in the hex: no garrison."
    army = ADJECTIVES.get(Army(facts.garrison_army), facts.garrison_army)
    who = f"{'an' if army[0] in 'AEIOU' else 'a'} {army} garrison"
    if facts.garrison_leaders:
        who += " under " + " and ".join(name for name, _ in facts.garrison_leaders)
    if audience in (UMPIRE, facts.garrison_side):
        strength = f" of {_garrison_strength(facts)}"
    elif audience in facts.garrison_reported:
        strength = (
            f" of {facts.garrison_reported[audience]} points, as your reconnaissance reported "
            "it this turn (8.2)"
        )
    else:
        strength = f"{',' if facts.garrison_leaders else ''} of unknown strength (3.1.2)"
    return (
        f"{facts.garrison_city}: {who}{strength}; it fights no battle and may not be attacked "
        "in one (11)."
    )


def _verb(name: str, verb: str) -> str:
    return verb if name.endswith("armies") else f"{verb}s"


def _attack(sides, came_from, setup, names, wished: Sequence[str] = ()) -> dict:
    """10.1: a force that was given a march order may retire: the side that marched into the
    hex attacks; the side that held it defends and sets up first. When both marched in (or both
    held it: a sortie, 11.3) the side that alone chose to fight (9) attacks; otherwise it is a
    meeting engagement: the side whose commander has the lower tactical IR sets up first."""
    marched = [s for s in sides if came_from.get(s)]
    held = [s for s in sides if not came_from.get(s)]
    chose = [s for s in sides if s in wished]
    if (len(marched) == 1 and held) or len(chose) == 1:
        if len(marched) == 1 and held:
            attacker, defender = marched[0], held[0]
            why = f"it marched into the hex this turn; the {names[defender]} held it (10.1)"
        else:
            attacker = chose[0]
            defender = next(s for s in sides if s != attacker)
            why = f"it alone chose to fight (9); the {names[defender]} would not"
        return {
            "text": f"The {names[attacker]} {_verb(names[attacker], 'attack')}: {why}.",
            "setup_order": [defender, attacker],
            "setup_text": f"The {names[defender]} {_verb(names[defender], 'set')} up first, "
            f"anywhere in its zone; then the {names[attacker]} {_verb(names[attacker], 'set')} "
            f"up in its zone and {_verb(names[attacker], 'move')} first.",
            "attacker": attacker,
        }

    def tir(side: str) -> tuple[int, int]:
        data = setup["sides"][side]
        lead = next(
            (x for x in data.get("leaders", []) if x.get("leader") == data.get("commander")), {}
        )
        return (int(lead.get("tactical_ir", 0)), int(data.get("points", 0)))

    first, second = sorted(sides, key=tir)
    how = "both marched into the hex this turn" if marched else "both held the hex"
    return {
        "text": f"Meeting engagement: {how}; both attack (10.1).",
        "setup_order": [first, second],
        "setup_text": f"The {names[first]} (its commander has the lower tactical IR, or the "
        f"smaller force) {_verb(names[first], 'set')} up first; then the {names[second]} "
        f"{_verb(names[second], 'set')} up and {_verb(names[second], 'move')} first.",
        "attacker": "",
    }


def sheet(
    setup: Mapping[str, Any],
    came_from: Mapping[str, Sequence[int]],
    layout: TableLayout,
    audience: str,
    facts: Facts,
    units: unit_rules.UnitSystem,
    ratio: Fraction = Fraction(1),
    wished: Sequence[str] = (),
) -> dict[str, Any]:
    """The scenario sheet for ``audience`` (UMPIRE or a side's alliance value)."""
    sides = [s for s in ("prussian", "austrian") if s in setup["sides"]]
    if audience != UMPIRE and audience not in sides:
        raise ValueError(f"{audience!r} fought no part in this battle")
    names = {s: fighting_name(setup["sides"][s]) for s in sides}
    place = battlenames.place(setup)
    attack = _attack(sides, came_from, setup, names, wished)
    length = game_length(int(setup["turn"]), units.minutes_per_turn)
    edges = {d.side: d for d in layout.deployments}
    frederick = [
        (s, x)
        for s in sides
        for x in setup["sides"][s].get("leaders", [])
        if x["leader"] == "frederick"
    ]
    out: dict[str, Any] = {
        "audience": audience,
        "audience_label": "Umpire sheet" if audience == UMPIRE else names[audience],
        "place": place,
        "hex": setup["hex"],
        "area": setup.get("area", ""),
        "where": location(setup),
        "date": turn_label(int(setup["turn"])) + (f" {facts.year}" if facts.year else ""),
        "turn": setup["turn"],
        "terrain": setup["terrain"],
        "rivers": [
            f"{r.get('name') or 'a river'} ({r['class']}, hexside {r['side']})"
            for r in setup.get("rivers", [])
        ],
        "title": battlenames.title(setup),
        "attack": attack,
        "setup_order": [names[s] for s in attack["setup_order"]],
        "length": length,
        "units": units,
        "table": {
            "feet": f"{layout.width / 12:g} × {layout.depth / 12:g} ft",
            "cm": f"{layout.width * CM:.0f} × {layout.depth * CM:.0f} cm",
            "notes": list(layout.notes),
        },
        "features": features(layout),
        "frederick": (
            f"Frederick is present with the {names[frederick[0][0]]}: if he is killed or "
            "captured the campaign ends at once and the player whose army was responsible wins "
            "(12.7)."
            if frederick
            else "Frederick is not present (12.7 does not apply)."
        ),
        "stakes": stake_lines(setup, names),
        "victory": [
            "Fight to the club's tactical rules. A side defeated outright by them is demoralized "
            "and routs 10 MPs toward its nearest friendly fortress (10.1, 10.1.3).",
            "A side may retire instead, before the battle (during it only if the enemy agrees): "
            "it retreats 5 MPs (10.1, 10.1.2).",
            "Each side deducts the points of the figures it lost (9.5); a leader killed or "
            "captured leaves the map; a force left with no leader of its country is "
            "demoralized even if it won (9.5). Points surrendered on the table are prisoners "
            "(13.2). An unsupplied force is demoralized after the battle, win or lose (10.2.4).",
        ],
        "sides": [],
        "unknown": [],
        "hidden": [],
    }
    for side in sides:
        data = setup["sides"][side]
        full = audience in (UMPIRE, side)
        edge = edges.get(names[side])
        trains = list(facts.siege_trains.get(side, ()))
        entry: dict[str, Any] = {
            "side": side,
            "name": names[side],
            "own": audience == side,
            "full": full,
            "commander": data.get("commander_name", ""),
            "points": data.get("points", 0),
            "size_class": data.get("size_class", ""),
            "leaders": [
                {
                    "name": x["name"],
                    "army": ADJECTIVES.get(Army(x["army"]), x["army"]),
                    "rank": x["rank"],
                    "tactical_ir": x["tactical_ir"],
                    "strategic_ir": x["strategic_ir"],
                    "points": x["points"] if full else None,
                }
                for x in data.get("leaders", [])
            ],
            "demoralized": bool(data.get("demoralized_forces")),
            "morale_penalty": data.get("morale_penalty", 0),
            "field_works": data.get("field_works", {}).get("inches", 0),
            "edge": edge.edge.value if edge else "",
            "zone": f'{edge.zone:g}" ({edge.zone * CM:.0f} cm)' if edge else "",
            "retreat": f"off the {edge.edge.value} edge" if edge else "",
        }
        if full:
            scale = forces.Scale(ratio=ratio)
            by_country = data["points_by_country"]
            tabletop = {a: scale.tabletop(v["points"]) for a, v in by_country.items()}
            commander_army = next(
                (
                    x["army"]
                    for x in data.get("leaders", [])
                    if x["leader"] == data.get("commander")
                ),
                next(iter(tabletop), ""),
            )
            order = sorted(tabletop, key=lambda a: (a != commander_army, -tabletop[a], a))
            leaders = sorted(
                data.get("leaders", []),
                key=lambda x: (x["leader"] != data.get("commander"), x["rank"]),
            )
            entry["by_country"] = [
                f"{ADJECTIVES.get(Army(a), a)}: {data['points_by_country'][a]['points']} campaign "
                f"points = {tabletop[a]} tabletop points"
                for a in order
            ]
            entry["oob"] = unit_rules.order_of_battle(
                [(a, "", tabletop[a]) for a in order],
                units,
                [(x["name"], x["army"]) for x in leaders],
            )
            may = data.get("may_retire", True)
            cost = [
                line
                for key, line in zip(
                    sorted(setup.get("stakes") or {}), stake_lines(setup, names), strict=False
                )
                if key == f"{side} retired"
            ]
            entry["retire"] = (
                "May retire before the battle (10.1): it then retreats 5 MPs toward the nearest "
                "friendly fortress (10.1.2). " + " ".join(cost)
                if may
                else f"May not retire (10.1.1): {data.get('retire_refusal') or 'refused'}; it "
                "must stand and fight."
            )
            entry["siege_trains"] = (
                f"{len(trains)} siege train(s) with this side outside the walls "
                f"({', '.join(siege_train_name(t) for t in trains)}): "
                "never on the table; captured if the whole side is eliminated or surrenders (9.1)."
                if trains
                else "No siege train of this side is in the hex (9.1)."
            )
            entry["unsupplied"] = list(data.get("unsupplied_forces", []))
        out["sides"].append(entry)
    out["garrison"] = _garrison(facts, audience)
    for side in sides:
        if side == audience:
            continue
        n = names[side]
        of = f"{n}'" if n.endswith("s") else f"{n}'s"
        has = "have" if n.endswith("armies") else "has"
        data = setup["sides"][side]
        lines = [
            f"How the {of} {data.get('points', 0)} points are shared among its leaders and "
            "countries, and what it buys with them (3.1.2, 9).",
            f"Whether the {n} may retire (10.1, 10.1.1).",
            f"Whether the {n} {has} siege trains in the hex (8: they are never reported).",
        ]
        # the garrison's strength, unless every player of the other side was told it (8.2)
        hidden_garrison = (
            facts.garrison_city
            and facts.garrison_side == side
            and not any(other in facts.garrison_reported for other in sides if other != side)
        )
        if hidden_garrison:
            lines.append(f"The strength of the {of} garrison of {facts.garrison_city} (3.1.2).")
        if audience == UMPIRE:
            # the umpire's sheet gives the answers
            trains = list(facts.siege_trains.get(side, ()))
            answers = [
                "; ".join(f"{x['name']} {x['points']}" for x in data.get("leaders", [])) + ".",
                "Yes." if data.get("may_retire", True) else f"No: {data.get('retire_refusal')}.",
                ", ".join(siege_train_name(t) for t in trains) + "." if trains else "None.",
            ]
            if hidden_garrison:
                answers.append(f"{_garrison_strength(facts)}.")
            lines = [f"{q} {a}" for q, a in zip(lines, answers, strict=True)]
            out["hidden"].append({"side": n, "lines": lines})
        else:
            out["unknown"].extend(lines)
    if audience != UMPIRE:
        out["unknown"].append(
            "Anything of the map beyond this hex that your reconnaissance (8) has not told you."
        )
    return out
