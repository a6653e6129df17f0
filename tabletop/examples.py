"""Six battles on the real map of 1756, set up by the engine, for the printed example briefings
(``manage.py printbriefings``, ``docs/briefings/``) and their test.

Each is a ``State`` at the battle phase with the forces in the hex, built the way the campaign
would have it, then passed through the engine's own ``battle_setup`` (9, 9.2-9.4, 10.1.1, 12):
the sheets show what a real campaign's would. Pure Python (engine, map core, tabletop).

- field battle: Leuthen, December I: Frederick marches on Charles and Daun west of Breslau;
- river crossing: Kolin, June II: Bevern crosses the Upper Elbe at Daun, who holds the bank;
- siege: Prague, May II: Frederick besieges Prague (works, siege trains) when Daun marches in
  to relieve it; the Austrian garrison sits behind the walls;
- sortie: Olmütz, June I: Browne sallies from the besieged walls against Keith (11.3);
- one-sided Hanover: Hastenbeck, July II: only Hanoverians fight on the Prussian side;
- three armies: Rossbach, November I: Frederick against the French and the Reichsarmee.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from maps.core.hexgrid import parse_hex_id
from maps.core.model import CitySize, HexMap, River, Terrain
from rules.armies import Alliance, Army
from rules.battle import battle_setup, sides_at
from rules.dice import Dice
from rules.orders import Orders
from rules.reconnaissance import reconnaissance_phase
from rules.rulesettings import DEFAULT_SETTINGS
from rules.state import Garrison, LeaderState, Phase, SiegeTrain, State
from tabletop.layout import (
    RiverSide,
    TableCity,
    TableLayout,
    TableRequest,
    TableSide,
    generate,
)
from tabletop.sheet import Facts, fighting_name
from tabletop.shore import WaterSide, road_sides, water_sides


@dataclass(frozen=True)
class Example:
    key: str
    title: str
    setup: dict[str, Any]
    came_from: dict[str, list[int]]
    layout: TableLayout
    facts: Facts
    wished: tuple[str, ...]


def _leader(key: str, army: Army, hex_id: str, points: int, **kw) -> LeaderState:
    return LeaderState(key, army, hex_id, points, **kw)


# key: (title, hex, turn, leaders, garrisons, siege trains, came_from, wished)
_SPECS: dict[str, tuple] = {
    "field-battle": (
        "Field battle: Leuthen",
        "6834",
        17,
        [
            ("frederick", Army.PRUSSIA, 1400, {"marched": True}),
            ("kieth", Army.PRUSSIA, 400, {"marched": True}),
            ("charles", Army.AUSTRIA, 1900, {"turns_in_hex": 1}),
            ("daun", Army.AUSTRIA, 900, {"turns_in_hex": 1}),
        ],
        [],
        [],
        {"prussian": [1], "austrian": []},
        ("prussian",),
    ),
    "river-crossing": (
        "River crossing: Kolin",
        "6142",
        6,
        [
            ("bevern", Army.PRUSSIA, 1100, {"marched": True}),
            ("henry", Army.PRUSSIA, 500, {"marched": True}),
            ("daun", Army.AUSTRIA, 1700, {"turns_in_hex": 0}),
        ],
        [],
        [],
        {"prussian": [2, 3], "austrian": []},
        ("prussian",),
    ),
    "siege": (
        "Siege: Prague relieved",
        "5742",
        4,
        [
            ("frederick", Army.PRUSSIA, 1600, {"turns_in_hex": 2}),
            ("schwerin", Army.PRUSSIA, 700, {"turns_in_hex": 2}),
            ("daun", Army.AUSTRIA, 1800, {"marched": True}),
            ("browne", Army.AUSTRIA, 500, {"marched": True}),
            ("charles", Army.AUSTRIA, 900, {"inside": True}),
        ],
        [("Prague", Army.AUSTRIA, 400)],
        [("prussia-1", Army.PRUSSIA), ("prussia-2", Army.PRUSSIA)],
        {"prussian": [], "austrian": [4, 5]},
        ("austrian",),
    ),
    "sortie": (
        "Sortie: Olmütz",
        "7045",
        5,
        [
            ("kieth", Army.PRUSSIA, 900, {"turns_in_hex": 2}),
            ("browne", Army.AUSTRIA, 700, {"sallied": True, "turns_in_hex": 2}),
        ],
        [("Olmutz", Army.AUSTRIA, 300)],
        [("prussia-1", Army.PRUSSIA)],
        {"prussian": [], "austrian": []},
        ("austrian",),
    ),
    "hanover-alone": (
        "One-sided Hanover: Hastenbeck",
        "3526",
        8,
        [
            ("cumberland", Army.HANOVER, 900, {"turns_in_hex": 1}),
            ("zastrow", Army.HANOVER, 300, {"turns_in_hex": 1}),
            ("d-estrees", Army.FRANCE, 1800, {"marched": True}),
            ("contades", Army.FRANCE, 600, {"marched": True}),
        ],
        [("Hameln", Army.HANOVER, 150)],
        [],
        {"prussian": [], "austrian": [1, 6]},
        ("austrian",),
    ),
    "three-armies": (
        "Three armies: Rossbach",
        "4732",
        15,
        [
            ("frederick", Army.PRUSSIA, 900, {"turns_in_hex": 1}),
            ("henry", Army.PRUSSIA, 300, {"turns_in_hex": 1}),
            ("soubise", Army.FRANCE, 1100, {"marched": True}),
            ("saxe", Army.EMPIRE, 700, {"marched": True}),
        ],
        [],
        [],
        {"prussian": [], "austrian": [3, 4]},
        ("austrian", "prussian"),
    ),
}
KEYS = tuple(_SPECS)


def table_request(
    setup: dict[str, Any],
    came_from: dict[str, list[int]],
    seed: str,
    roads: tuple[int, ...] = (),
    waters: tuple[WaterSide, ...] = (),
) -> TableRequest:
    """The table of a set-up, as the web side makes it (``services.battles.table_request``),
    with the sides named by the armies that fight."""
    terrain = Terrain[setup["terrain"].upper()]
    rivers = tuple(
        RiverSide(int(r["side"]), River(r["class"]), bool(r.get("bridge")))
        for r in setup.get("rivers", [])
    )
    near = setup.get("city") or {}
    city = (
        TableCity(near["name"], CitySize.parse(near["size"]), bool(near.get("fortress")))
        if near.get("hexes_away") == 0
        else None
    )
    sides = tuple(
        TableSide(
            fighting_name(setup["sides"][s]),
            tuple(came_from.get(s, [])),
            int(setup["sides"][s].get("field_works", {}).get("inches", 0)),
        )
        for s in ("prussian", "austrian")
    )
    return TableRequest(terrain, sides, rivers, city, (6, 4), seed, roads, waters)  # type: ignore[arg-type]


def _garrison_reported(state: State, setup: dict[str, Any], hexmap: HexMap) -> dict[str, int]:
    """Per side, the garrison's points as the engine's reconnaissance phase (8, 8.2) reports
    them to every army of the side that fights in the hex, as a campaign's sheet reads them."""
    reports = reconnaissance_phase(state, Orders(), Dice("examples"), hexmap, DEFAULT_SETTINGS)
    out = {}
    for side, data in setup["sides"].items():
        told = {
            r.to.value: r.points
            for r in reports.reports
            if r.garrison and r.hex == setup["hex"] and state.alliance_of(r.army).value != side
        }
        armies = list(data.get("points_by_country", {}))
        if told and all(a in told for a in armies):
            out[side] = told[armies[0]]
    return out


def example(key: str, hexmap: HexMap) -> Example:
    title, hex_id, turn, leaders, garrisons, trains, came_from, wished = _SPECS[key]
    state = State(
        turn=turn,
        phase=Phase.BATTLE,
        leaders=tuple(_leader(k, a, hex_id, p, **kw) for k, a, p, kw in leaders),
        garrisons=tuple(Garrison(c, a, p) for c, a, p in garrisons),
        siege_trains=tuple(SiegeTrain(i, a, hex_id) for i, a in trains),
        control={c: a.value for c, a, _ in garrisons},
    )
    sides = sides_at(state, hex_id)
    assert set(sides) == {Alliance.PRUSSIAN, Alliance.AUSTRIAN}, key
    setup = battle_setup(state, hex_id, sides, hexmap, DEFAULT_SETTINGS)
    side_of = {a: state.alliance_of(a).value for a in Army}
    inside = [
        x for x in state.leaders if garrisons and x.inside and x.army is garrisons[0][1]
    ]  # the leaders behind the walls, counted with the garrison (8.2)
    facts = Facts(
        siege_trains={side_of[a]: [i for i, b in trains if b is a] for _, a in trains},
        garrison_city=garrisons[0][0] if garrisons else "",
        garrison_army=garrisons[0][1].value if garrisons else "",
        garrison_points=garrisons[0][2] if garrisons else 0,
        garrison_side=side_of[garrisons[0][1]] if garrisons else "",
        garrison_leaders=tuple((x.table.name, x.points) for x in inside),
        garrison_reported=_garrison_reported(state, setup, hexmap),
    )
    h = parse_hex_id(hex_id)
    request = table_request(
        setup, came_from, f"example:{key}", road_sides(hexmap, h), water_sides(hexmap, h)
    )
    layout = generate(request)
    return Example(key, title, setup, came_from, layout, facts, wished)
