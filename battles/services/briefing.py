"""What an audience may read of a battle (issue 7): ``briefing`` is the one place that decides it.

The umpire reads everything; a side its own forces in full and of the enemy only what the rules
make known (the commander and the leaders present, 3.1.1; the total points, 9; demoralization,
which changes the enemy's morale on the table, 10.2). ``describe_result`` says a result in
sentences, with or without its exact numbers.
"""

from __future__ import annotations

from typing import Any

from battles.models import Battle
from battles.services.records import (
    SIDES,
    UMPIRE,
    BattleError,
    side_name,
    table_layout,
    tabletop_settings,
)
from campaign.services import gameplay
from rules.armies import ADJECTIVES, Army
from rules.armies import Seat as EngineSeat
from rules.leaders import leader
from tabletop import forces
from tabletop.layout import TableLayout
from tabletop.sheet import location

MONTHS = ("April", "May", "June", "July", "August", "September", "October", "November", "December")


def turn_label(turn: int) -> str:
    return f"{MONTHS[(turn - 1) // 2]} {'I' if turn % 2 else 'II'}"


def briefing(battle: Battle, audience: str, *, layout: TableLayout | None = None) -> dict[str, Any]:
    """What ``audience`` (UMPIRE or a side's alliance value) may read of the battle.
    ``layout``: the battle's table (``table_layout``), when the caller made it for several
    audiences."""
    if audience != UMPIRE and audience not in battle.setup["sides"]:
        raise BattleError(f"{audience!r} fought no part in this battle")
    setup = battle.setup
    ts = tabletop_settings(battle.campaign)
    rules = gameplay.rule_settings(battle.campaign)
    layout = layout or table_layout(battle)
    players: dict[str, str] | None = None  # army to its player's seat, read once if needed
    city = setup.get("city") if (setup.get("city") or {}).get("hexes_away") == 0 else None
    out: dict[str, Any] = {
        "audience": audience,
        "audience_label": "Umpire" if audience == UMPIRE else side_name(audience),
        "battle": battle,
        "hex": setup["hex"],
        "area": setup.get("area", ""),
        "where": location(setup),
        "date": turn_label(setup["turn"]),
        "month": MONTHS[(setup["turn"] - 1) // 2],
        "winter": rules.is_winter(setup["turn"]),
        "terrain": setup["terrain"],
        "rivers": [
            {"side": r["side"], "class": r["class"], "name": r.get("name", "")}
            for r in setup.get("rivers", [])
        ],
        "city": city,
        "fortress": setup.get("fortress"),
        "table": {
            "feet": f"{layout.width / 12:g} × {layout.depth / 12:g} ft",
            "deployments": [d.description for d in layout.deployments],
            "notes": list(layout.notes),
        },
        "stakes": stakes(setup, audience),
        "sides": [],
        "quick": battle.quick,
        "fought_on_table": not battle.quick,
    }
    for side in SIDES:
        if side not in setup["sides"]:
            continue
        data = setup["sides"][side]
        full = audience in (UMPIRE, side)
        entry: dict[str, Any] = {
            "side": side,
            "name": side_name(side),
            "own": audience == side,
            "full": full,
            "commander": data.get("commander_name", ""),
            "points": data.get("points", 0),
            "size_class": data.get("size_class", ""),
            "leaders": [_leader_entry(x, full) for x in data.get("leaders", [])],
            "demoralized": bool(data.get("demoralized_forces")),
            "morale_penalty": data.get("morale_penalty", 0),
            "field_works": data.get("field_works", {}).get("inches", 0),
        }
        if full:
            players = players if players is not None else _players(battle)
            budget = forces.side_budget(
                side_name(side),
                [
                    forces.Contingent(Army(a), int(v["points"]), players.get(a, ""))
                    for a, v in data.get("points_by_country", {}).items()
                ],
                ts.scale,
                {
                    _power_label(battle, power): points
                    for power, points in (ts.collections or {}).items()
                },
            )
            entry["budget"] = [a.description for a in budget.armies]
            entry["tabletop_points"] = budget.tabletop_points
            entry["warnings"] = list(budget.warnings)
            entry["unsupplied"] = [leader(k).name for k in data.get("unsupplied_forces", [])]
            entry["demoralized_forces"] = [
                leader(k).name for k in data.get("demoralized_forces", [])
            ]
            entry["order_of_battle"] = _suggestions(budget, ts.unit_costs)
        out["sides"].append(entry)
    return out


def _leader_entry(line: dict, full: bool) -> dict[str, Any]:
    entry = {
        "name": line["name"],
        "army": ADJECTIVES[Army(line["army"])],
        "rank": line["rank"],
        "tactical_ir": line["tactical_ir"],
        "strategic_ir": line["strategic_ir"],
    }
    if full:
        entry["points"] = line["points"]
    return entry


def stakes(setup: dict, audience: str) -> list[str]:
    """The VPs at stake (12.1, 12.2): who gains and loses what if a side retires or is
    defeated. Only for those who know both sides' strengths (the sides, 8 and 9; the umpire):
    they follow from the size classes, which are bands of the strengths rule 3 hides.

    >>> stakes({"stakes": {"austrian defeated": {"prussia": 1, "austria": -1}}}, "prussian")
    ['If the Austrian alliance is defeated: Austrian player -1, Prussian player +1 VPs.']
    """
    lines = []
    for key, vps in sorted((setup.get("stakes") or {}).items()):
        side, outcome = key.split(" ", 1)
        what = "retires" if outcome == "retired" else "is defeated"
        shares = ", ".join(f"{seat_label(seat)} {v:+d}" for seat, v in sorted(vps.items()))
        lines.append(f"If the {side_name(side)} {what}: {shares} VPs.")
    return lines


def seat_label(value: str) -> str:
    try:
        return EngineSeat(value).label
    except ValueError:
        return value


def _players(battle: Battle) -> dict[str, str]:
    """Each army's player (its seat's label), the first playing seat that commands it."""
    out: dict[str, str] = {}
    for seat in battle.campaign.seats.filter(reserve=False):
        for army in seat.armies:
            out.setdefault(army, seat.label)
    return out


def _power_label(battle: Battle, power: str) -> str:
    seat = battle.campaign.seats.filter(power=power).first()
    return seat.label if seat else power


def _suggestions(budget: forces.SideBudget, unit_costs: str) -> list[dict[str, Any]]:
    if not unit_costs.strip():
        return []
    try:
        costs = forces.parse_unit_costs(unit_costs)
    except forces.UnitCostError:
        return []
    out = []
    for army in budget.armies:
        oob = forces.suggest_order_of_battle(army, costs)
        bought: dict[tuple[Army, forces.Nationality], int] = {}
        for unit, count in oob.units:
            key = (army.army, unit.nationality)
            bought[key] = bought.get(key, 0) + unit.cost * count
        out.append(
            {
                "army": ADJECTIVES[army.army],
                "lines": oob.lines(),
                "spent": oob.spent,
                "left": oob.left,
                # the suggestion obeys 9 as any purchase must (never shown wrong)
                "problems": forces.check_purchase(budget, bought),
            }
        )
    return out


def describe_result(battle: Battle, result: dict[str, Any], *, exact: bool = True) -> list[str]:
    """The result in words; the losses by country only when ``exact`` (the sides that fought
    and the umpire: points are secret, 3). Who gave way, and leaders killed or captured, are
    public: every army sees the leaders and the field."""
    if not result:
        return []
    names = {
        x["leader"]: x["name"] for s in battle.setup["sides"].values() for x in s.get("leaders", [])
    }
    how = "retired" if result["outcome"] == "retired" else "was defeated outright and routed"
    lines = [f"The {result['loser'].capitalize()} alliance {how} (10.1)."]
    taken = result.get("prisoners") or {}
    for army, points in sorted(result.get("losses", {}).items()) if exact else ():
        line = f"{ADJECTIVES[Army(army)]} losses: {points} points (9.5)"
        if taken.get(army):
            line += f", of which {taken[army]} taken prisoner (13.2)"
        lines.append(line + ".")
    for key in result.get("killed", []):
        lines.append(f"{names.get(key, key)} was killed (9.5).")
    for key in result.get("captured", []):
        lines.append(f"{names.get(key, key)} was captured (9.5).")
    return lines
