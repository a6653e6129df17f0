"""The seat's layer of the map widget: the document ``overlay.json`` answers and the pages embed
(docs/map-widget.md). Not a view: the views (``widget_views``) and the ``seatmap`` template tag
both read it from here.

One small document per (state version, seat, draft): the counters of the seat's view, its supply
sources, its orders of this phase as arrows, and, for a chosen unit, the hexes it can still reach
with their MP cost. Everything comes from the seat's ``View`` (``campaign.projection``) and its
own draft, through ``maps.overlay``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest

from campaign.models import PhaseWindow, StateVersion
from campaign.projection import Relation
from campaign.services import viewcache
from dgk import jsontext
from maps import overlay
from maps.core.hexgrid import hex_id, parse_hex_id
from maps.core.tiles import grid_of, map_stamp
from maps.core.wording import hex_in_words
from orders.access import Access, _hexmap, _settings, _sheet, _version, _view, _window
from orders.deploy_pages import deployment_context
from orders.forms import enemy_hexes, march_preview
from orders.models import OrderSheet
from orders.pages import (
    ORDER_PHASES,
    battle_hexes,
    draft_items,
    line_in_words,
    own_units,
    unit_position,
)
from rules.armies import Army
from rules.deployment import may_deploy_in, read_deployment
from rules.orders import unit_army
from rules.state import Phase


@dataclass(frozen=True)
class Layer:
    """The seat's layer now: its ETag, and ``make()`` to build the document."""

    etag: str
    make: Callable[[], dict]
    version: StateVersion
    cacheable: bool  # made from the view, the draft and the ETag's inputs alone


def inline_layer(request: HttpRequest, access, loaded: tuple | None = None) -> str | None:
    """The seat's layer as the page that shows the widget embeds it (``seatmap`` tag): the same
    document as ``overlay.json`` for the page's own ``?unit=``, so the map draws the seat's
    forces without a second round trip (docs/map-widget.md, "Figures"), as a ``<script
    type="application/json">`` block. ``loaded``: the (version, window, sheet) the page has read
    already in this request, if it has.

    The block is kept beside the seat's view (``viewcache.derived``) under the layer's ETag,
    which names everything else it shows (the phase, the unit asked for, the draft, Ready,
    whether the seat may write): a page shown again with nothing changed is not built or
    encoded again, and the worker that resolved the phase draws the block of each seat's blank
    draft first (``warm_inline``). The deployment layer reads more of the request and is built
    each time."""
    layer = seat_layer(request, access, request.GET.get("unit", ""), loaded=loaded)
    if layer is None:
        return None
    return _script(access.seat, layer)


def _script(seat, layer: Layer) -> str:
    if not layer.cacheable:
        return jsontext.script(layer.make(), "mapwidget-data")
    return viewcache.derived(
        seat, layer.version, f"layer-script:{layer.etag}",
        lambda: jsontext.script(layer.make(), "mapwidget-data"), timeout=DRAFT_TIMEOUT,
    )  # fmt: skip


def warm_inline(
    seat,
    version: StateVersion,
    view,
    hexmap,
    window: PhaseWindow | None,
    *,
    sheets: dict[int, OrderSheet] | None = None,
) -> None:
    """Draw and keep the block a page embeds for the seat's own player, with no unit chosen and
    the draft as it is now (blank just after a resolution: the sheet the page makes is blank),
    as ``inline_layer`` would (``orders.warmup``). ``view``: the seat's view of ``version``;
    ``sheets``: the window's sheets by seat, read once for every seat (the worker's)."""
    access = Access(seat, seat.campaign, own=True, views={(version.number, None): view})
    if sheets is None or window is None or not window.owes(seat):
        sheet = _sheet(access, window, make=False)
    else:  # as ``_sheet(make=False)``: the seat's, else a blank one not saved
        sheet = sheets.get(seat.id) or OrderSheet(campaign=seat.campaign, window=window, seat=seat)
    layer = layer_of(access, version, hexmap, window, sheet, "")
    if layer.cacheable:  # (the deployment's is drawn for each request, from its query string)
        _script(seat, layer)


# An hour: a block named by a draft is of use until the draft changes.
DRAFT_TIMEOUT = 3600


def seat_layer(request: HttpRequest, access, unit: str, *, loaded: tuple | None = None):
    """The seat's ``Layer`` now, or None when the campaign has no map or state yet."""
    if loaded is not None:
        version, window, sheet = loaded
    else:
        version = _version(access.campaign)
        window = sheet = None
    hexmap = _hexmap(access.campaign)
    if version is None or hexmap is None:
        return None
    if loaded is None:
        window = _window(access.campaign)
        sheet = _sheet(access, window)
    return layer_of(access, version, hexmap, window, sheet, unit, request=request)


def layer_of(access, version, hexmap, window, sheet, unit: str, *, request=None) -> Layer:
    """The ``Layer`` of these rows. The ETag is keyed by (map, version, seat, phase, unit, the
    draft's content, Ready), so a reload after a swap that changed nothing is a ``304``, and a
    blank draft has the same ETag whenever it was made (the worker's warm-up draws it).
    ``request``: the deployment layer's (the only one that reads it)."""
    phase = window.phase if window is not None and sheet is not None else ""
    phase = phase if phase in ORDER_PHASES else ""
    unit = unit[:40]
    stamp = (
        f"{access.campaign.code}:{version.id}:{access.seat.code}:{access.own}:{phase}:"
        f"{unit}:{draft_digest(sheet)}:{sheet is not None and sheet.ready}:{map_stamp(hexmap)}"
    )
    etag = '"' + hashlib.sha256(stamp.encode()).hexdigest()[:32] + '"'
    deploying = window is not None and window.phase == "deployment" and sheet is not None

    def make() -> dict:
        return _layer(request, access, version, hexmap, window, sheet, phase, unit)

    return Layer(etag, make, version, cacheable=not deploying)


def draft_digest(sheet: OrderSheet | None) -> str:
    """A short digest of the sheet's draft ("" when blank or no sheet)."""
    draft = sheet.draft if sheet is not None else None
    if not draft:
        return ""
    text = json.dumps(draft, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _layer(request, access, version, hexmap, window, sheet, phase, unit) -> dict:
    forced = phase == Phase.FORCED_MARCH.value
    kind = "forced_march" if forced else "march"
    view = _view(access, version)
    grid = grid_of(hexmap)
    settings = _settings(access.campaign)
    marching = phase in (Phase.MARCH.value, Phase.FORCED_MARCH.value)
    units = own_units(view, leaders_only=forced) if marching else {}
    seen = seen_layer(access.seat, version, view, hexmap, phase)
    draft = sheet.draft if sheet is not None and isinstance(sheet.draft, dict) else {}
    orders = [
        {**o, "name": units.get(str(o.get("unit")), o.get("unit"))}
        for o in draft_items(draft, kind)
    ] if marching else []  # fmt: skip
    positions, previews = {}, {}
    for o in orders:
        key = str(o.get("unit", ""))
        pos = unit_position(view, key)
        if pos is None:
            continue
        positions[key] = pos[0]
        marches = o.get("marches") if isinstance(o.get("marches"), int) else 1
        previews[key] = march_preview(
            view, hexmap, settings, pos[0], str(o.get("path", "")), marches=marches,
            supplied=pos[1], forced=forced,
        )  # fmt: skip
    locked = sheet is None or sheet.ready or not access.own
    data = {
        "version": version.number,
        "turn": view.turn,
        "phase": phase,
        "locked": locked,
        "counters": seen["counters"],
        "colours": overlay.ARMY_COLOURS,
        "supply": seen["supply"],
        "orders": overlay.drawn_orders(orders, positions, previews, grid),
        "focus": seen["focus"],
        "names": seen["names"],
    }
    if marching and units:
        data["focus"] = _march_focus(view, grid, units, orders, pooled=not forced)
        data["frame"] = True
    elif phase == Phase.BATTLE.value:
        data["focus"], data["frame"] = _battle_focus(view, grid, draft), True
        data["battles"] = [{"xy": overlay.hex_xy(grid, b["hex"])} for b in battle_hexes(view)]
    if unit in units:
        pos = unit_position(view, unit)
        data["chosen"] = {"unit": unit, "xy": overlay.hex_xy(grid, pos[0])}
    if unit in units and not locked:
        pos = unit_position(view, unit)
        order = next((o for o in orders if o.get("unit") == unit), {})
        marches = order.get("marches") if isinstance(order.get("marches"), int) else 1
        path = str(order.get("path", ""))
        p = march_preview(
            view, hexmap, settings, pos[0], path, marches=marches, supplied=pos[1], forced=forced
        )
        enemies, forts = enemy_hexes(view, hexmap)
        # Tapping a unit that has an order starts its line anew from where it stands (issue
        # 43: never added to the saved line). A wrong saved order is said in words.
        fresh = march_preview(
            view, hexmap, settings, pos[0], "", marches=marches, supplied=pos[1], forced=forced
        )
        data["reach"] = {
            "unit": unit,
            "name": units[unit],
            "path": "",
            "saved": path if order else None,
            # the saved line and where the unit stands, said as the list of orders says them
            "said": line_in_words(view, hexmap, unit, path) if order else None,
            "at": hex_in_words(hexmap, parse_hex_id(pos[0])),
            "marches": marches,
            "from": pos[0],
            "spent": 0,
            "allowance": fresh.allowance,
            "problem": "" if p.valid else p.message,
            "hexes": overlay.reach(view, hexmap, grid, enemies, forts, pos[0], fresh.allowance),
        }
    if window is not None and window.phase == "deployment" and sheet is not None:
        data["deploy"] = _deploy_layer(request, access, hexmap, grid, sheet)
        data["phase"] = "deployment"
        data["focus"] = [overlay.hex_xy(grid, h) for h in _deploy_focus(data["deploy"])]
    return data


def seen_layer(seat, version: StateVersion, view, hexmap, phase: str) -> dict:
    """What the view alone decides of the layer (and the units ``phase`` lets the seat order:
    "" when it orders nothing), once per (version, seat) beside the view (``viewcache``): the
    orders and the reach depend on the draft and the request. The worker makes it for every
    seat when a phase resolves (``orders.warmup``)."""
    forced = phase == Phase.FORCED_MARCH.value
    marching = phase in (Phase.MARCH.value, Phase.FORCED_MARCH.value)
    units = own_units(view, leaders_only=forced) if marching else {}
    kind = ("forced_march" if forced else "march") if marching else ""
    grid = grid_of(hexmap)
    return viewcache.derived(
        seat, version, f"layer:{map_stamp(hexmap)}:{kind}", lambda: _seen(view, hexmap, grid, units)
    )


def _seen(view, hexmap, grid, units: dict[str, str]) -> dict:
    """The layer's counters, supply sources, focus and the names of the places near them: the
    view's alone."""
    # the seat's forces, the strongest first: the widget opens on all of them or on the first
    own = sorted((f for f in view.forces if f.relation is Relation.OWNER), key=strength)
    counters = overlay.counters(view, hexmap, grid, units)
    return {
        "counters": counters,
        "supply": overlay.supply_sources(view, hexmap, grid),
        "focus": [overlay.hex_xy(grid, f.hex) for f in own],
        "names": overlay.names_near(counters, hexmap, grid),
    }


def _march_focus(view, grid, units: dict[str, str], orders: list[dict], *, pooled: bool) -> list:
    """Where the orders map opens in a march or forced march phase: the seat's forces that still
    have a march (no order yet and, in the march phase, their march pool not spent: 6.2,
    6.2.1); when none has, every force it may order. The hexes come strongest force first: the
    widget opens on the most of them one view holds, and between as many, on the strongest."""
    given: dict[str, int] = {}
    for o in orders:
        army = unit_army(str(o.get("unit", "")))
        if army is not None:
            pool = army.march_pool.value
            given[pool] = given.get(pool, 0) + (o["marches"] if o.get("marches") == 2 else 1)
    ordered = {str(o.get("unit", "")) for o in orders}

    def has_a_march(key: str) -> bool:
        army = unit_army(key)
        if army is None or key in ordered:
            return False
        pool = army.march_pool.value
        return not pooled or view.marches.get(pool, 0) > given.get(pool, 0)

    keys = [k for k in units if has_a_march(k)] or list(units)
    hexes = [pos[0] for k in keys if (pos := unit_position(view, k)) is not None]
    first: dict[str, int] = {}  # hex -> the strength of the strongest force there
    for f in view.own_forces():
        first[f.hex] = min(first.get(f.hex, 0), strength(f))
    hexes = sorted(dict.fromkeys(hexes), key=lambda h: first.get(h, 0))
    return [overlay.hex_xy(grid, h) for h in hexes]


def _battle_focus(view, grid, draft: dict) -> list:
    """Where the battle-decision page's map opens: the first battle that still needs one of
    this seat's decisions (9), else the first of its battles."""
    battles = battle_hexes(view)
    decided = {(o.get("hex"), o.get("army")) for o in draft_items(draft, "battle")}
    waiting = [b for b in battles if any((b["hex"], a) not in decided for a in b["armies"])]
    first = (waiting or battles)[:1]
    return [overlay.hex_xy(grid, b["hex"]) for b in first]


def _deploy_layer(request, access, hexmap, grid, sheet) -> dict:
    """The deploy mode's layer: the deployment page's own reading of the draft (with the engine's
    validator), and where each of the seat's armies may deploy (3.2.1, 3.2.4, 3.2.5)."""
    ctx = deployment_context(request, access)
    draft = sheet.draft if isinstance(sheet.draft, dict) else {}
    dep = draft.get("deployment") if isinstance(draft.get("deployment"), dict) else {}
    allowed = {}
    for value in access.seat.armies:
        army = Army.parse(value)
        others = {}
        for other in access.seat.armies:
            if other != value and isinstance(dep.get(other), dict):
                others[Army.parse(other)], _ = read_deployment(Army.parse(other), dep[other])
        allowed[value] = [
            hex_id(h)
            for h in hexmap.hexes
            if may_deploy_in(army, h, hexmap, others=others, fortress=hexmap.fortress_at(h))
        ]
    return overlay.deployment(ctx["armies"], allowed, hexmap, grid)


def _deploy_focus(layer: dict) -> list[str]:
    """Open on what is placed already, else on the middle of where the first army may go."""
    placed = [c["hex"] for c in layer["placed"]]
    if placed:
        return placed
    for hexes in layer["allowed"].values():
        if hexes:
            return [hexes[len(hexes) // 2]]
    return []


def strength(force) -> int:
    """Sort key: the strongest of the seat's forces first (the widget opens on it)."""
    return -(force.points or 0)
