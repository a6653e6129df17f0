"""What the player pages show: the context every seat page shares (``page_context``) and the
orders page's own (``orders_context``), built from a ``campaign.projection.View`` of one state
version for one seat, never from the state itself: fog of war is decided there and nowhere else.
Used by the orders, deployment, report and map widget views.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe

from campaign.models import PhaseWindow, StateVersion
from campaign.projection import Relation, View
from campaign.services import gameplay, viewcache
from maps.core.hexgrid import HexIdError, parse_hex_id
from maps.core.tiles import map_stamp
from maps.core.wording import hex_in_words, march_in_words
from maps.tapmap import map_svg
from orders.access import Access, SeatContext, _sheet, _view
from orders.checks import TRANSFERS, order_problems, problem_lines
from orders.dashboard import allied_forces, places
from orders.deploy_checks import deployment_problems
from orders.forms import BattleDecisionForm, march_preview, next_steps
from orders.models import OrderSheet
from rules.allocation import march_reason
from rules.armies import ADJECTIVES, Army, siege_train_name
from rules.leaders import UnknownLeader, leader
from rules.movers import marches_allowed
from rules.orders import unit_army
from rules.rulesettings import RuleSettings
from rules.state import LeaderState, Phase

# Phases in which a seat writes orders on the orders page, and the draft kinds of each.
ORDER_PHASES = {
    Phase.MARCH.value: ("march", "transfers"),
    Phase.FORCED_MARCH.value: ("forced_march",),
    Phase.BATTLE.value: ("battle",),
    Phase.SIEGE.value: ("honors",),
}


def own_units(view: View, *, leaders_only: bool = False) -> dict[str, str]:
    """The seat's own leaders and siege trains on the map: key -> name. Siege trains cannot
    force march (6.3.3)."""
    units = {x.key: x.name for f in view.own_forces() for x in f.leaders}
    if not leaders_only:
        units.update(
            {t.id: siege_train_name(t.id) for t in view.siege_trains if t.army in view.armies}
        )
    return units


def unit_position(view: View, unit: str) -> tuple[str, bool, bool] | None:
    """(hex, supplied, inside) of one of the seat's units."""
    x = view.leader(unit)
    if x is not None:
        return x.hex, x.supplied is not False, x.inside
    for t in view.siege_trains:
        if t.id == unit:
            return t.hex, True, t.inside
    return None


def line_in_words(view: View, hexmap, unit: str, path) -> str:
    """A saved line of march as the player reads it, walked from where ``unit`` stands: "3
    hexes E to Dresden (hex 0912), via Pirna" (``maps.core.wording``), never only its direction
    codes; "stands" for none; the codes themselves when they cannot be walked (a unit not on
    the map, a code out of 1-6)."""
    position = unit_position(view, unit)
    if not path:
        return "stands"
    if position is None:
        return str(path)
    return march_in_words(hexmap, position[0], str(path))


def drops_in_words(drop, units: dict[str, str], hexmap) -> list[str]:
    """The leaders an order drops off (6.2.6), each as "Ziethen at Breslau (hex 6933)": the
    leader by his name, the hex as the map names it (``maps.core.wording.hex_in_words``)."""
    out = []
    for key, at in (drop if isinstance(drop, dict) else {}).items():
        try:
            where = hex_in_words(hexmap, parse_hex_id(str(at)))
        except HexIdError:
            where = str(at)
        out.append(f"{units.get(str(key), key)} at {where}")
    return out


def subordinates(view: View, unit: str) -> list[str]:
    """The keys of the leaders who march with ``unit`` and so may be dropped off along his
    line (6.2.6): the other leaders of his force when he commands it; none otherwise (a
    subordinate's own order moves him alone, a siege train has no leader)."""
    for force in view.own_forces():
        if force.commander.key == unit:
            return [x.key for x in force.leaders[1:]]
    return []


def battle_hexes(view: View) -> list[dict]:
    """Hexes where one of the seat's forces stands outside the walls with an enemy force (9):
    each needs a decision per army of the seat there."""
    out = []
    by_hex: dict[str, list] = {}
    for f in view.forces:
        if not f.inside:
            by_hex.setdefault(f.hex, []).append(f)
    for hex_, forces in sorted(by_hex.items()):
        mine = sorted({f.army for f in forces if f.relation is Relation.OWNER}, key=str)
        if not mine:
            continue
        # Friend or enemy as the projection says (the alliance of now, 13.8), not the book's 1.2.
        enemies = [f for f in forces if f.relation is Relation.ENEMY]
        if enemies:
            out.append(
                {
                    "hex": hex_,
                    "armies": [a.value for a in mine],
                    "enemies": [_facing(view, f) for f in enemies],
                    # The seat's own points here, which it keeps (3.1.2): what it decides on.
                    "own_points": sum(
                        f.points or 0 for f in forces if f.relation is Relation.OWNER
                    ),
                }
            )
    return out


def _facing(view: View, force) -> str:
    """An enemy force of a battle hex as the seat knows it: its leaders (public, 3.1.1) and its
    points only as this turn's reconnaissance reported them to the seat (8: forces in one hex
    tell each other their points), never from the state."""
    names = f"{force.army.label}: {', '.join(x.name for x in force.leaders)}"
    for r in view.reports:
        if (
            r.turn == view.turn
            and r.hex == force.hex
            and r.army is force.army
            and not r.inside
            and not r.garrison
        ):
            return f"{names}, {r.points} points by your reconnaissance this turn (8)"
    return names


def honors_roles(view: View, hexmap) -> dict[str, str]:
    """city -> "garrison" or "besieger" for the breached fortresses awaiting this seat (11.6)."""
    roles = {}
    for city in view.honors_pending:
        garrisons = [g for g in view.garrisons if g.city == city]
        if any(g.relation is Relation.OWNER for g in garrisons):
            roles[city] = "garrison"
            continue
        try:
            where = hexmap.city(city).hex_id if hexmap is not None else None
        except KeyError:
            where = None
        if any(f.hex == where and not f.inside for f in view.own_forces()):
            roles[city] = "besieger"
    return roles


def drafted_deployment(seat, sheet: OrderSheet | None, window: PhaseWindow | None) -> list[dict]:
    """The seat's deployment as drafted or submitted (3), army by army, while the deployment
    phase is open: its forces are on the map only once the phase resolves, so the dashboard
    shows them from the sheet until then."""
    if sheet is None or window is None or window.phase != Phase.DEPLOYMENT.value:
        return []
    draft = sheet.draft if isinstance(sheet.draft, dict) else {}
    dep = draft.get("deployment") if isinstance(draft.get("deployment"), dict) else {}
    out = []
    for value in seat.armies:
        spec = dep.get(value) if isinstance(dep.get(value), dict) else {}
        leaders = spec.get("leaders") if isinstance(spec.get("leaders"), dict) else {}
        garrisons = spec.get("garrisons") if isinstance(spec.get("garrisons"), dict) else {}
        placed = []
        for key, where in leaders.items():
            if not isinstance(where, dict):
                continue
            try:
                name = leader(key).name
            except UnknownLeader:
                name = str(key)
            placed.append({"name": name, "hex": where.get("hex"), "points": where.get("points")})
        if not placed and not garrisons:
            continue
        out.append(
            {
                "army": Army.parse(value),
                "leaders": placed,
                "garrisons": len(garrisons),
                "garrison_points": sum(p for p in garrisons.values() if isinstance(p, int)),
            }
        )
    return out


def page_context(ctx: SeatContext, sheet: OrderSheet | None = None, *, make: bool = True) -> dict:
    """What every seat page shows, from the request's ``SeatContext``; ``sheet``: the seat's
    sheet when the request has it already (a save), else read (made for its own player; with
    ``make=False``, a page that writes nothing, a blank one not saved: ``access._sheet``)."""
    window, version = ctx.window, ctx.version
    if sheet is None and version is not None:
        sheet = _sheet(ctx.access, window, make=make, found=ctx.found_sheet)
    view = ctx.view
    owed = ""
    if window is not None and window.owes(ctx.seat):
        owed = "ready" if sheet is not None and sheet.ready else window.phase
    return {
        "access": ctx.access,
        "seat": ctx.seat,
        "campaign": ctx.campaign,
        "version": version,
        "view": view,
        "window": window,
        "sheet": sheet,
        "owed": owed,
        "drafted": drafted_deployment(ctx.seat, sheet, window),
        "allied_forces": allied_forces(view),
        "places": SimpleLazyObject(lambda: places(ctx.hexmap)),  # (a kept part reads none)
        "marches_named": march_counts(
            view,
            ctx.settings,
            draft_items(sheet.draft, "march")
            if sheet is not None and window is not None and window.phase == Phase.MARCH.value
            else None,
        )
        if view is not None
        else [],
    }


def ready_problems(ctx: SeatContext, sheet: OrderSheet) -> list[str]:
    """What keeps the seat's orders from Ready in the window ``ctx.window`` (checked against
    the version it was opened from), without building the whole orders page."""
    window = ctx.window
    draft = sheet.draft if isinstance(sheet.draft, dict) else {}
    if window.phase == Phase.DEPLOYMENT.value:
        state = viewcache.version_state(window.version)
        return deployment_problems(ctx.seat.armies, draft, state, ctx.hexmap, ctx.settings)
    view = _view(ctx.access, window.version)
    problems = march_problems(window.version, view, ctx.hexmap, ctx.settings, draft, window.phase)
    forced = window.phase == Phase.FORCED_MARCH.value
    return problem_lines(problems, own_units(view, leaders_only=forced))


def march_problems(
    version, view, hexmap, settings, draft: dict, phase: str
) -> dict[str, list[str]]:
    """What is wrong with the march or forced march orders of the draft (orders.checks)."""
    if phase not in (Phase.MARCH.value, Phase.FORCED_MARCH.value):
        return {}
    kind = "forced_march" if phase == Phase.FORCED_MARCH.value else "march"
    if not draft.get(kind) and not draft.get(TRANSFERS):
        return {}  # no order to check: the state is not decoded (a first load's blank draft)
    state = viewcache.version_state(version)
    return order_problems(state, view, hexmap, settings, draft, kind, unit_position)


def sheet_context(ctx: SeatContext, sheet: OrderSheet | None = None, **extra) -> dict:
    """What the orders page's sheet shows (the partial ``orders.html#sheet``: the orders
    given, their problems, the decisions of a battle or a siege, Ready), from the request's
    ``SeatContext``; ``sheet`` when the request has it already. No map, no march preview: a
    refused save answers with this part alone (``orders.views``)."""
    if ctx.version is None:
        raise PermissionDenied("The campaign has not started.")
    page = page_context(ctx, sheet)
    view: View = page["view"]
    sheet = page["sheet"]
    draft = sheet.draft if sheet is not None and isinstance(sheet.draft, dict) else {}
    phase = ctx.window.phase if ctx.window is not None else ""
    phase = phase if phase in ORDER_PHASES and sheet is not None else ""
    forced = phase == Phase.FORCED_MARCH.value
    units = own_units(view, leaders_only=forced)
    kind = "forced_march" if forced else "march"
    problems = march_problems(ctx.version, view, ctx.hexmap, ctx.settings, draft, phase)
    decided = {(o.get("hex"), o.get("army")): o.get("choice") for o in draft_items(draft, "battle")}
    page.update(
        {
            "battles": [
                {
                    **b,
                    "decisions": [
                        (
                            a,
                            decided.get((b["hex"], a), ""),
                            gameplay.retire_refusal(ctx.campaign, ctx.state, b["hex"], a),
                        )
                        for a in b["armies"]
                    ],
                }
                for b in (battle_hexes(view) if phase == Phase.BATTLE.value else [])
            ],
            "choices": BattleDecisionForm.base_fields["choice"].choices,
            "honors": honors_roles(view, ctx.hexmap) if phase == Phase.SIEGE.value else {},
            "honors_given": {
                o.get("city"): o.get("besieger") or o.get("garrison")
                for o in draft_items(draft, "honors")
            },
            "phase": phase,
            "kind": kind,
            "draft": draft,
            "orders": [
                {
                    **o,
                    "name": units.get(str(o.get("unit")), o.get("unit")),
                    "words": line_in_words(view, ctx.hexmap, str(o.get("unit")), o.get("path")),
                    "drops": drops_in_words(o.get("drop"), units, ctx.hexmap),
                    "problems": problems.get(str(o.get("unit")), []),
                }
                for o in draft_items(draft, kind)
            ],
            "problems": problem_lines(problems, units),
            "transfer_problems": problems.get(TRANSFERS, []),
            "marches_given": march_counts(view, ctx.settings, draft_items(draft, "march")),
            "rules": ctx.settings,  # (the numbers the page says: the campaign's, 1.4)
            "transfers": draft_items(draft, "transfers"),
            "units": units,
            "marches": view.marches,
            "locked": sheet is None or sheet.ready or not ctx.access.own,
            "form": extra.pop("form", None),
            "transfer_form": extra.pop("transfer_form", None),
            **extra,
        }
    )
    return page


def orders_context(
    request: HttpRequest, ctx: SeatContext, sheet: OrderSheet | None = None, **extra
) -> dict:
    """The whole orders page: its sheet (``sheet_context``) and the builder of an order (the
    unit chosen, its line of march and preview, the tap map)."""
    unit = extra.pop("unit", None) or request.GET.get("unit", "")
    path = extra.pop("path", None)
    page = sheet_context(ctx, sheet, **extra)
    view: View = page["view"]
    units, kind, draft = page["units"], page["kind"], page["draft"]
    if path is None:
        # A unit tapped again starts its line of march anew from where it stands: its saved
        # order is listed (and stands) until a new one is saved, never added to (issue 43).
        path = request.GET.get("path", "")
    saved = next((o for o in draft_items(draft, kind) if o.get("unit") == unit), None)
    saved_path = saved.get("path") if saved else ""
    marches = 1
    for o in draft_items(draft, kind):
        if o.get("unit") == unit and isinstance(o.get("marches"), int):
            marches = o["marches"]
    hexmap, settings = ctx.hexmap, ctx.settings
    preview = steps = None
    position = unit_position(view, unit) if unit in units else None
    if position is not None and hexmap is not None:
        start, supplied, _inside = position
        preview = march_preview(
            view, hexmap, settings, start, str(path), marches=marches, supplied=supplied,
            forced=kind == "forced_march",
        )  # fmt: skip
        steps = next_steps(hexmap, preview.end, preview, view)
    version = ctx.version
    page.update(
        {
            "marches_chosen": marches,
            "marches_allowed": unit_marches_allowed(view, unit, settings),
            "unit": unit if unit in units else "",
            "path": path,
            "saved_line": (
                f"{units[unit]}'s order: {line_in_words(view, hexmap, unit, saved_path)}. "
                "Tapping it starts its line of march anew from where it stands, and the new "
                "line replaces the old when saved."
                if saved and unit in units
                else ""
            ),
            "preview": preview,
            "steps": steps,
            # The drop-off's example names the player's own leaders, never another army's.
            "subordinates": subordinates(view, unit) if unit in units else [],
        }
    )
    # Drawn only if the page shows it (the tap map is shown with a unit chosen). The map of a
    # unit just picked, or of the line its order has, is kept: the flow of picking a unit and
    # saving its march draws the same two maps again and again; a line being typed is drawn
    # afresh (each is of use once).
    kept = path == "" or (saved is not None and path == saved.get("path"))
    numbers = functools.partial(tap_map, ctx.access, version, view, hexmap, preview, steps)
    page["tap_map"] = SimpleLazyObject(
        lambda: tap_map_markup(ctx, numbers, page, marches, kept=kept) if hexmap else ""
    )
    return page


def tap_map(access: Access, version: StateVersion, view: View, hexmap, preview, steps):
    """The tap map's numbers (``maps.tapmap.map_svg``). With no march being written they are
    the view's alone, made once per (version, seat); a march's line and next steps are drawn
    afresh."""
    if hexmap is None:
        return None
    if preview is not None or steps:
        return map_svg(view, hexmap, preview, steps)
    return viewcache.derived(
        access.seat, version, f"tapmap:{map_stamp(hexmap)}", lambda: map_svg(view, hexmap, None)
    )


# An hour, as the map layer's blocks: a unit's map is of use while its player writes orders.
TAP_MAP_TIMEOUT = 3600


def tap_map_markup(
    ctx: SeatContext, numbers: Callable[[], dict], page: dict, marches: int, *, kept: bool
) -> SafeString:
    """The tap map of the orders page, drawn (``play/_map.html``) from its ``numbers``; with
    ``kept``, once per (version, seat) and what else draws it: the map, the unit, its line, its
    marches, the kind of march and the phase the links post, the rule settings (the line's
    costs). The seat's code, in the links, is the view's key's."""
    unit, path, phase, kind = page["unit"], page["path"], page["phase"], page["kind"]

    def draw() -> SafeString:
        context = {"map_svg": numbers(), "unit": unit, "seat": ctx.seat, "phase": phase,
                   "marches_chosen": marches}  # fmt: skip
        return mark_safe(render_to_string("play/_map.html", context))

    if not kept:
        return draw()
    inputs = json.dumps([unit, str(path), marches, kind, phase, ctx.campaign.rule_settings])
    what = hashlib.sha256(inputs.encode()).hexdigest()[:24]
    return viewcache.derived(
        ctx.seat, ctx.version, f"tapmap-svg:{map_stamp(ctx.hexmap)}:{what}", draw,
        timeout=TAP_MAP_TIMEOUT,
    )  # fmt: skip


def unit_marches_allowed(view: View, unit: str, settings: RuleSettings) -> int:
    """How many marches the unit may be given (6.2.2, 6.2.5), by the engine's rule."""
    x = view.leader(unit)
    if x is None:
        return settings.marches_per_siege_train
    return marches_allowed(
        LeaderState(x.key, x.army, x.hex, demoralized=bool(x.demoralized)), settings
    )


def march_counts(
    view: View, settings: RuleSettings, orders: list[dict] | None = None
) -> list[dict]:
    """Per march pool (6.2.1), the marches of this turn and why they are what they are: the
    dice and the modifier of the March Allocation Table (6.1) the total came from, and, with the
    draft's march ``orders``, how many are given and how many are left.

    ``rolled`` is the dice's total (None when the modifier took the total below 0: "2 or less");
    ``why`` says it in words: "6 rolled −2, 6.1"."""
    given: dict[str, int] = {}
    for o in orders or ():
        army = unit_army(str(o.get("unit", "")))
        marches = o.get("marches", 1)
        if army is not None and isinstance(marches, int):
            pool = army.march_pool.value
            given[pool] = given.get(pool, 0) + marches
    out = []
    for a, n in sorted(view.marches.items()):
        modifier = settings.march_modifier.get(a, 0)
        reason = march_reason(n, modifier)
        out.append(
            {
                "name": ADJECTIVES[Army.parse(a)],
                "marches": n,
                "rolled": n - modifier if n > 0 else None,
                "modifier": modifier,
                "why": f"{reason}, 6.1" if reason else "",
                "given": given.get(a, 0) if orders is not None else None,
                "left": n - given.get(a, 0),
            }
        )
    return out


def draft_items(draft: dict, kind: str) -> list[dict]:
    items = draft.get(kind) if isinstance(draft, dict) else None
    return [o for o in items if isinstance(o, dict)] if isinstance(items, list) else []
