"""The printed briefing of a battle as a scenario sheet (issue 14): the database side of
``tabletop.sheet``.

It reads what the battle record and the state at the battle phase hold (siege trains and the
garrison of the hex), what each side's reconnaissance reported of that garrison this turn (the
private reconnaissance events its report and map read, 8, 8.2), the campaign's tabletop
settings (the unit system of the club's tactical rules:
``options["tabletop"]["unit_system"]``, ``points_per_battalion``), draws the table with
the sides named by who fights, and hands everything to the pure ``sheet`` that decides what an
audience may read. The views call ``scenario`` and ``table_png``; nothing else here.
"""

from __future__ import annotations

import base64
from fractions import Fraction
from typing import Any

from django.template.loader import render_to_string

from battles.models import Battle, BattleStatus
from battles.services import briefing as battle_briefing
from battles.services import printing as battle_print
from battles.services import records as battles
from battles.services import results as battle_results
from campaign.models import Event, StateVersion
from campaign.services.knowledge import seat_viewer
from rules.armies import Army
from rules.events import EventKind
from rules.state import Garrison, Phase, State, state_from_dict
from tabletop import examples
from tabletop import sheet as sheets
from tabletop import units as unit_rules
from tabletop.render import render_png

UMPIRE = sheets.UMPIRE


UNIT_CHOICES = [(key, system.name) for key, system in unit_rules.SYSTEMS.items()]


def unit_settings(campaign) -> dict[str, Any]:
    """The settings page's initial values for the briefing's order of battle."""
    data = (campaign.options or {}).get("tabletop") or {}
    key = data.get("unit_system")
    return {
        "unit_system": key if key in unit_rules.SYSTEMS else unit_rules.DEFAULT_SYSTEM,
        "points_per_battalion": int(data.get("points_per_battalion", 50) or 50),
    }


def side_names(battle: Battle) -> dict[str, str]:
    """Each side (alliance value) named by the armies that fight in it (issue 14)."""
    return {side: sheets.fighting_name(data) for side, data in battle.setup["sides"].items()}


def status_for(battle: Battle, side: str | None) -> str:
    """The battle's status as ``side`` reads it: whose move it is. A result entered waits for
    the side that did not enter it, and that side is told it is his to confirm or dispute
    ("waiting for the other side" read, to that side, as though it waited on the enemy)."""
    entered = (
        battles.side_of_seat(battle, battle.entered_by)
        if battle.status == BattleStatus.ENTERED and battle.entered_by_id
        else None
    )
    if entered is None or side not in battle.setup["sides"]:
        return battle.get_status_display()
    names = side_names(battle)
    if side == entered:
        others = " and the ".join(n for s, n in names.items() if s != side)
        return f"Result entered by your side, waiting for the {others} to confirm or dispute it"
    return f"Result entered by the {names[entered]}: yours to confirm or dispute"


def page_brief(battle: Battle, audience: str) -> dict[str, Any]:
    """The battle page's briefing (``battle_briefing.briefing``, which decides what the audience may
    read) with each side named by who fights, as the printed sheet names it (its stakes too)."""
    brief = battle_briefing.briefing(battle, audience)
    names = side_names(battle)
    for side in brief["sides"]:
        side["name"] = names.get(side["side"], side["name"])
    brief["stakes"] = sheets.stake_lines(battle.setup, names)
    if audience in names:
        brief["audience_label"] = names[audience]
    return brief


def unit_system(battle: Battle, override: str | None = None) -> unit_rules.UnitSystem:
    """The club's tactical rules for the order of battle: the briefing option ``override`` if
    it names one, else the campaign setting, else the generic points per battalion."""
    data = (battle.campaign.options or {}).get("tabletop") or {}
    key = override if override in unit_rules.SYSTEMS else data.get("unit_system")
    return unit_rules.system(key, int(data.get("points_per_battalion", 50) or 50))


def table_png(battle: Battle) -> bytes:
    return render_png(battles.table_layout(battle), title=_title(battle))


def heading(battle: Battle) -> str:
    """The battle as the page names it, from what every member may read (the hex and its town,
    as the chronicle): "The battle of Prague, April I", "Battle near Breslau, December I"."""
    # "April I" kept on one line of a phone's heading (a no-break space).
    return f"{battle.title}, {sheets.turn_label(battle.turn).replace(' ', chr(0xA0))}"


def _title(battle: Battle) -> str:
    return f"{battle.title}, {sheets.turn_label(battle.turn)}"


def _at_battle(battle: Battle) -> tuple[StateVersion | None, State | None]:
    """The version of the battle phase of the battle's turn, and its state."""
    version = (
        StateVersion.objects.filter(
            campaign=battle.campaign, turn=battle.turn, phase=Phase.BATTLE.value
        )
        .order_by("-number")
        .only("state", "number", "turn")
        .first()
    )
    return version, (state_from_dict(version.state) if version else None)


def _garrison_of(state: State, setup: dict[str, Any]) -> Garrison | None:
    fortress = setup.get("fortress")
    return next((g for g in state.garrisons if g.city == fortress), None) if fortress else None


def _inside(state: State, setup: dict[str, Any], garrison: Garrison) -> list:
    """The leaders of the garrison's country inside the walls of the hex (11.3): reconnaissance
    counts their points with the garrison's (8.2)."""
    return [
        x
        for x in state.leaders
        if x.hex == setup["hex"] and x.inside and not x.sallied and x.army is garrison.army
    ]


def facts_of(
    state: State | None, setup: dict[str, Any], reported: dict[str, int] | None = None
) -> sheets.Facts:
    """Siege trains outside the walls in the hex, by side (9.1), and the garrison of the hex
    with the leaders inside its walls; ``reported``: per side, the garrison's points its
    reconnaissance told every player of it this turn (``garrison_reported``)."""
    if state is None:
        return sheets.Facts()
    hex_id = setup["hex"]
    trains: dict[str, list[str]] = {}
    for t in state.siege_trains:
        if t.hex == hex_id and not t.inside:
            trains.setdefault(state.alliance_of(t.army).value, []).append(t.id)
    garrison = _garrison_of(state, setup)
    return sheets.Facts(
        siege_trains=trains,
        garrison_city=garrison.city if garrison else "",
        garrison_army=garrison.army.value if garrison else "",
        garrison_points=garrison.points if garrison else 0,
        garrison_side=state.alliance_of(Army(garrison.army)).value if garrison else "",
        garrison_leaders=(
            tuple((x.table.name, x.points) for x in _inside(state, setup, garrison))
            if garrison
            else ()
        ),
        garrison_reported=dict(reported or {}),
    )


def garrison_reported(
    battle: Battle, version: StateVersion | None, state: State | None
) -> dict[str, int]:
    """Per side (alliance value), the points of the enemy garrison of the battle hex (its chits
    and the leaders inside its walls) as reconnaissance reported them this turn (8, 8.2): the
    private reconnaissance events of the battle's turn, up to the battle phase, that the seat's
    report and map read (``campaign.projection``). A side's printed sheet is one for all its
    players, so a side is given the number only when every one of its players was told it, by
    his own armies' report or, with ``allies_share``, an ally's; never more than he knows."""
    if version is None or state is None:
        return {}
    garrison = _garrison_of(state, battle.setup)
    if garrison is None:
        return {}
    inside = _inside(state, battle.setup, garrison)
    keys = {x.key for x in inside}
    points = garrison.points + sum(x.points for x in inside)
    told: set[str] = set()  # the armies the garrison's strength was reported to
    rows = Event.objects.filter(
        campaign=battle.campaign,
        kind=EventKind.RECONNAISSANCE.value,
        public=False,
        version__turn=battle.turn,
        version__number__lte=version.number,
    ).values_list("armies", "data")
    for armies, data in rows:
        data = data or {}
        commander = data.get("commander")
        if (
            data.get("hex") == battle.hex
            and data.get("army") == garrison.army.value
            and (commander in keys if inside else commander is None)
            and data.get("points") == points
        ):
            told.update(armies or ())
    if not told:
        return {}
    alliances = {a: state.alliance_of(a) for a in Army}
    out = {}
    garrison_side = state.alliance_of(garrison.army).value
    for side, seats in battles.seats_in(battle).items():
        if side == garrison_side or not seats:
            continue
        if all(
            any(a.value in told for a in seat_viewer(seat).with_alliances(alliances).informed())
            for seat in seats
        ):
            out[side] = points
    return out


def scenario(battle: Battle, audience: str, *, units: str | None = None) -> dict[str, Any]:
    """The scenario sheet of ``battle`` for ``audience``, with its table picture inline."""
    layout = battles.table_layout(battle)
    ratio = Fraction(battles.tabletop_settings(battle.campaign).scale.ratio)
    version, state = _at_battle(battle)
    out = sheets.sheet(
        battle.setup,
        battle.came_from or {},
        layout,
        audience,
        facts_of(state, battle.setup, garrison_reported(battle, version, state)),
        unit_system(battle, units),
        ratio,
        battle_results.wished_to_fight(battle),
    )
    png = render_png(layout, title=_title(battle))
    out["table_src"] = "data:image/png;base64," + base64.b64encode(png).decode()
    out["campaign_name"] = battle.campaign.name
    return out


# ---- the six printed examples (docs/briefings/, manage.py printbriefings) -----------------------

PrintError = battle_print.PrintError
PAPERS = {"a4": "A4", "letter": "Letter"}
EXAMPLE_UNITS = {
    "field-battle": "prussias-glory",
    "river-crossing": "per-battalion",
    "siege": "prussias-glory",
    "sortie": "per-battalion",
    "hanover-alone": "prussias-glory",
    "three-armies": "per-battalion",
}


def example_sheet(key: str, audience: str, hexmap, *, units: str = "") -> dict[str, Any]:
    ex = examples.example(key, hexmap)
    out = sheets.sheet(
        ex.setup,
        ex.came_from,
        ex.layout,
        audience,
        ex.facts,
        unit_rules.system(units or EXAMPLE_UNITS[key]),
        Fraction(1),
        ex.wished,
    )
    png = render_png(ex.layout, title=f"{ex.title}, {out['date']}")
    out["table_src"] = "data:image/png;base64," + base64.b64encode(png).decode()
    out["campaign_name"] = f"Example briefing: {ex.title}"
    return out


def example_html(key: str, audience: str, hexmap, *, paper: str = "a4", units: str = "") -> str:
    return render_to_string(
        "battles/briefing.html",
        {"s": example_sheet(key, audience, hexmap, units=units), "paper": PAPERS[paper]},
    )


def example_pdf(key: str, audience: str, hexmap, *, paper: str = "a4", units: str = "") -> bytes:
    return battle_print.html_to_pdf(example_html(key, audience, hexmap, paper=paper, units=units))
