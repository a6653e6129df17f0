"""What a player sees and does: dashboard, orders, deployment, reports, history, handover, map.

Every page shows a ``campaign.projection.View`` of one state version for one seat, never the
state itself: fog of war is decided there and nowhere else. Views stay thin: load and check
access, read a form, change the seat's draft (or mark it ready), render.

URLs carry the seat's public ``code``. Who may open them (``_access``):
- the seat's own player: everything, and may write orders while the phase is open;
- the campaign's organiser when a non-playing umpire: every seat's pages, read-only;
- the campaign's organiser entering a seat's orders on its player's behalf (orders sent by
  email or on paper; begun from the status board, kept in the session): that seat's pages,
  writing as the player would; every sheet so saved is marked and logged as such;
- anyone else (another seat, an ally, an outsider): 403; anonymous visitors go to the login.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.engine.armies import ADJECTIVES, Army
from campaign.engine.events import EventKind
from campaign.engine.leaders import leader
from campaign.engine.orders import Deployment
from campaign.engine.rulesettings import RuleSettings, settings_from_dict
from campaign.engine.state import Phase, state_from_dict
from campaign.models import Campaign, Event, PhaseWindow, Seat, StateVersion, WindowStatus
from campaign.projection import (
    Relation,
    View,
    Viewer,
    map_counters,
    project,
    report_lines,
    view_to_dict,
)
from campaign.services import gameplay
from campaign.services.organiser import replaced_on
from maps.core.hexgrid import HexIdError, hex_corners, hex_to_pixel, parse_hex_id
from orders.checks import TRANSFERS, order_problems, problem_lines
from orders.forms import (
    BattleDecisionForm,
    DeployGarrisonForm,
    DeployLeaderForm,
    DeploySiegeTrainForm,
    ForcedMarchForm,
    HonorsForm,
    MarchForm,
    TransferForm,
    march_preview,
    next_steps,
)
from orders.models import OrderSheet

# Phases in which a seat writes orders on the orders page, and the draft kinds of each.
ORDER_PHASES = {
    Phase.MARCH.value: ("march", "transfers"),
    Phase.FORCED_MARCH.value: ("forced_march",),
    Phase.BATTLE.value: ("battle",),
    Phase.SIEGE.value: ("honors",),
}


# --- access -----------------------------------------------------------------------------------


@dataclass
class Access:
    seat: Seat
    campaign: Campaign
    own: bool  # may write: the seat's own player, or the organiser on the player's behalf
    views: dict = field(default_factory=dict)  # the views made in this request
    behalf: bool = False  # the organiser entering the orders on the player's behalf
    user: object = None


def on_behalf(request: HttpRequest, seat: Seat) -> bool:
    """Whether the signed-in organiser is entering this seat's orders on its player's behalf:
    begun from the board (kept in the session) for the phase open now, not yet submitted."""
    from campaign.services.organiser import BEHALF_SESSION_KEY, behalf_open

    return (
        seat.campaign.organiser_id == request.user.id
        and str(seat.code) in request.session.get(BEHALF_SESSION_KEY, [])
        and behalf_open(seat)
    )


def _access(request: HttpRequest, code, *, write: bool = False) -> Access:
    seat = get_object_or_404(Seat.objects.select_related("campaign"), code=code)
    campaign = seat.campaign
    if seat.user_id is not None and seat.user_id == request.user.id:
        return Access(seat, campaign, own=True, user=request.user)
    if on_behalf(request, seat):
        return Access(seat, campaign, own=True, behalf=True, user=request.user)
    if campaign.organiser_id == request.user.id and campaign.umpire_sees_all and not write:
        return Access(seat, campaign, own=False)
    replaced = replaced_on(seat, request.user)
    if replaced is not None:
        raise PermissionDenied(
            f"The organiser gave the {seat.label} of {campaign.name} to another player on "
            f"{replaced:%d %B %Y}: its pages are theirs now. Ask the organiser if this is wrong."
        )
    raise PermissionDenied("These are another player's pages.")


# --- loading what a page shows ----------------------------------------------------------------


def _viewer(access: Access) -> Viewer:
    c = access.campaign
    return Viewer.for_armies(
        access.seat.armies,
        allies_share=bool((c.options or {}).get("allies_share", False)),
        label=access.seat.label,
    )


def _version(campaign: Campaign, number: int | None = None) -> StateVersion | None:
    versions = StateVersion.objects.filter(campaign=campaign)
    if number is None:
        return versions.order_by("-number").first()
    return versions.filter(number=number).first()


def _view(access: Access, version: StateVersion, *, all_turns: bool = False) -> View:
    """The seat's view of ``version``: its state, the events up to it (with the reports they
    carry) and this turn's dice. Three queries whatever the number of forces.

    Pages read the events of this turn and the last (and every reconnaissance report, for the
    map); ``all_turns`` reads the whole campaign (the handover page). Made once per request."""
    key = (version.number, all_turns)
    if key in access.views:
        return access.views[key]
    events = Event.objects.filter(campaign=access.campaign, version__number__lte=version.number)
    if not all_turns:
        events = events.filter(
            Q(version__turn__gte=version.turn - 1) | Q(kind=EventKind.RECONNAISSANCE.value)
        )
    events = (
        events.select_related("version")
        .only("rule", "kind", "text", "public", "armies", "data", "version__turn")
        .order_by("version__number", "seq")
    )
    rolls = []
    for v in StateVersion.objects.filter(
        campaign=access.campaign, turn=version.turn, number__lte=version.number
    ).only("rolls"):
        rolls.extend(v.rolls or [])
    view = project(state_from_dict(version.state), _viewer(access), events=events, rolls=rolls)
    access.views[key] = view
    return view


def _settings(campaign: Campaign) -> RuleSettings:
    return settings_from_dict(campaign.rule_settings)


def _hexmap(campaign: Campaign):
    from maps.core.loader import DEFAULT_MAP, MapError, load_map

    try:
        return load_map(campaign.map_name or DEFAULT_MAP)
    except (MapError, OSError):
        return None


def _window(campaign: Campaign) -> PhaseWindow | None:
    return (
        PhaseWindow.objects.filter(campaign=campaign, status=WindowStatus.OPEN)
        .order_by("-id")
        .first()
    )


def _sheet(access: Access, window: PhaseWindow | None) -> OrderSheet | None:
    if window is None or not window.owes(access.seat):
        return None
    if not access.own:
        return OrderSheet.objects.filter(window=window, seat=access.seat).first()
    sheet, _ = OrderSheet.objects.get_or_create(
        window=window, seat=access.seat, defaults={"campaign": access.campaign}
    )
    return sheet


def _units(view: View, *, leaders_only: bool = False) -> dict[str, str]:
    """The seat's own leaders and siege trains on the map: key -> name. Siege trains cannot
    force march (6.3.3)."""
    units = {x.key: x.name for f in view.own_forces() for x in f.leaders}
    if not leaders_only:
        units.update(
            {t.id: f"Siege train {t.id}" for t in view.siege_trains if t.army in view.armies}
        )
    return units


def _unit_position(view: View, unit: str) -> tuple[str, bool, bool] | None:
    """(hex, supplied, inside) of one of the seat's units."""
    x = view.leader(unit)
    if x is not None:
        return x.hex, x.supplied is not False, x.inside
    for t in view.siege_trains:
        if t.id == unit:
            return t.hex, True, t.inside
    return None


def _battles(view: View) -> list[dict]:
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
                    "enemies": [
                        f"{f.army.label}: {', '.join(x.name for x in f.leaders)}" for f in enemies
                    ],
                }
            )
    return out


def _honors_roles(view: View, hexmap) -> dict[str, str]:
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


# --- the dashboard ----------------------------------------------------------------------------


@login_required
def index(request: HttpRequest) -> HttpResponse:
    """Every seat of the signed-in person, in every campaign."""
    seats = Seat.objects.filter(user=request.user).select_related("campaign")
    return render(request, "play/index.html", {"seats": seats})


@login_required
@require_GET
def dashboard(request: HttpRequest, code) -> HttpResponse:
    from campaign.services.battles import battles_for_seat

    access = _access(request, code)
    version = _version(access.campaign)
    ctx = _common(access, version)
    ctx["battles"] = battles_for_seat(access.seat) if version is not None else []
    if version is not None:
        view = ctx["view"]
        ctx["reports"] = [
            (turn, report_lines(view, turn))
            for turn in (view.turn, view.turn - 1)
            if turn >= 1 and (turn < view.turn or any(e.turn == turn for e in view.events))
        ]
    return render(request, "play/dashboard.html", ctx)


def _common(access: Access, version: StateVersion | None, *, all_turns: bool = False) -> dict:
    window = _window(access.campaign)
    sheet = _sheet(access, window) if version is not None else None
    view = _view(access, version, all_turns=all_turns) if version is not None else None
    owed = ""
    if window is not None and window.owes(access.seat):
        owed = "ready" if sheet is not None and sheet.ready else window.phase
    return {
        "access": access,
        "seat": access.seat,
        "campaign": access.campaign,
        "version": version,
        "view": view,
        "window": window,
        "sheet": sheet,
        "owed": owed,
        "allied_forces": [
            f
            for f in (view.forces if view else ())
            if f.relation is Relation.ALLY and f.points is not None
        ],
        "marches_named": [
            (ADJECTIVES[Army.parse(a)], n) for a, n in (view.marches.items() if view else ())
        ],
    }


# --- orders -----------------------------------------------------------------------------------


def _ready_problems(access: Access, window: PhaseWindow, sheet: OrderSheet) -> list[str]:
    """What keeps the seat's orders from Ready, without building the whole orders page."""
    version = window.version
    view = _view(access, version)
    draft = sheet.draft if isinstance(sheet.draft, dict) else {}
    problems = _problems(
        version, view, _hexmap(access.campaign), _settings(access.campaign), draft, window.phase
    )
    forced = window.phase == Phase.FORCED_MARCH.value
    return problem_lines(problems, _units(view, leaders_only=forced))


def _problems(version, view, hexmap, settings, draft: dict, phase: str) -> dict[str, list[str]]:
    """What is wrong with the march or forced march orders of the draft (orders.checks)."""
    if phase not in (Phase.MARCH.value, Phase.FORCED_MARCH.value):
        return {}
    kind = "forced_march" if phase == Phase.FORCED_MARCH.value else "march"
    state = state_from_dict(version.state)
    return order_problems(state, view, hexmap, settings, draft, kind, _unit_position)


def _orders_context(request: HttpRequest, access: Access, **extra) -> dict:
    version = _version(access.campaign)
    if version is None:
        raise PermissionDenied("The campaign has not started.")
    ctx = _common(access, version)
    view: View = ctx["view"]
    hexmap = _hexmap(access.campaign)
    settings = _settings(access.campaign)
    sheet: OrderSheet | None = ctx["sheet"]
    draft = sheet.draft if sheet is not None and isinstance(sheet.draft, dict) else {}
    phase = ctx["window"].phase if ctx["window"] is not None else ""
    phase = phase if phase in ORDER_PHASES and sheet is not None else ""
    forced = phase == Phase.FORCED_MARCH.value
    units = _units(view, leaders_only=forced)
    kind = "forced_march" if forced else "march"
    unit = extra.pop("unit", None) or request.GET.get("unit", "")
    path = extra.pop("path", None)
    if path is None:
        path = request.GET.get("path", "")
        if not path and unit:
            path = next(
                (o.get("path", "") for o in _items(draft, kind) if o.get("unit") == unit), ""
            )
    marches = 1
    for o in _items(draft, kind):
        if o.get("unit") == unit and isinstance(o.get("marches"), int):
            marches = o["marches"]
    problems = _problems(version, view, hexmap, settings, draft, phase)
    preview = steps = None
    position = _unit_position(view, unit) if unit in units else None
    if position is not None and hexmap is not None:
        start, supplied, _inside = position
        preview = march_preview(
            view, hexmap, settings, start, str(path), marches=marches, supplied=supplied,
            forced=forced,
        )  # fmt: skip
        steps = next_steps(hexmap, preview.end)
    decided = {(o.get("hex"), o.get("army")): o.get("choice") for o in _items(draft, "battle")}
    ctx.update(
        {
            "battles": [
                {
                    **b,
                    "decisions": [
                        (
                            a,
                            decided.get((b["hex"], a), ""),
                            gameplay.retire_refusal(access.campaign, version, b["hex"], a),
                        )
                        for a in b["armies"]
                    ],
                }
                for b in (_battles(view) if phase == Phase.BATTLE.value else [])
            ],
            "choices": BattleDecisionForm.base_fields["choice"].choices,
            "honors": _honors_roles(view, hexmap) if phase == Phase.SIEGE.value else {},
            "honors_given": {
                o.get("city"): o.get("besieger") or o.get("garrison")
                for o in _items(draft, "honors")
            },
            "phase": phase,
            "kind": kind,
            "draft": draft,
            "orders": [
                {
                    **o,
                    "name": units.get(str(o.get("unit")), o.get("unit")),
                    "problems": problems.get(str(o.get("unit")), []),
                }
                for o in _items(draft, kind)
            ],
            "problems": problem_lines(problems, units),
            "transfer_problems": problems.get(TRANSFERS, []),
            "marches_chosen": marches,
            "marches_allowed": _marches_allowed(view, unit, settings),
            "marches_given": _marches_given(view, _items(draft, "march")),
            "transfers": _items(draft, "transfers"),
            "units": units,
            "unit": unit if unit in units else "",
            "path": path,
            "preview": preview,
            "steps": steps,
            "marches": view.marches,
            "locked": sheet is None or sheet.ready or not access.own,
            "map_svg": _map_svg(view, hexmap, preview, steps) if hexmap is not None else None,
            "form": extra.pop("form", None),
            "transfer_form": extra.pop("transfer_form", None),
            **extra,
        }
    )
    return ctx


def _marches_allowed(view: View, unit: str, settings: RuleSettings) -> int:
    """How many marches the unit may be given (6.2.2, 6.2.5), by the engine's rule."""
    from campaign.engine.marches import marches_allowed
    from campaign.engine.state import LeaderState

    x = view.leader(unit)
    if x is None:
        return settings.marches_per_siege_train
    return marches_allowed(
        LeaderState(x.key, x.army, x.hex, demoralized=bool(x.demoralized)), settings
    )


def _marches_given(view: View, orders: list[dict]) -> list[tuple[str, int, int]]:
    """Per march pool (6.2.1): (army, marches allocated this turn, marches given in the draft)."""
    from campaign.engine.orders import unit_army

    given: dict[str, int] = {}
    for o in orders:
        army = unit_army(str(o.get("unit", "")))
        marches = o.get("marches", 1)
        if army is not None and isinstance(marches, int):
            pool = army.march_pool.value
            given[pool] = given.get(pool, 0) + marches
    return [
        (ADJECTIVES[Army.parse(a)], n, given.get(a, 0)) for a, n in sorted(view.marches.items())
    ]


def _items(draft: dict, kind: str) -> list[dict]:
    items = draft.get(kind) if isinstance(draft, dict) else None
    return [o for o in items if isinstance(o, dict)] if isinstance(items, list) else []


@login_required
@require_GET
def orders(request: HttpRequest, code) -> HttpResponse:
    access = _access(request, code)
    ctx = _orders_context(request, access)
    if request.htmx:
        return render(request, "orders/orders.html#play", ctx)
    return render(request, "orders/orders.html", ctx)


class Closed(Exception):
    """No sheet can be written now (the phase resolved, or none is owed)."""


def _writable_sheet(access: Access, kinds: tuple[str, ...], phase: str | None = None) -> OrderSheet:
    """The seat's open sheet for this phase, locked for update; ``Closed`` otherwise.

    ``phase`` is the phase the form was written for: a page left open while its phase resolved
    must not write into the next phase's orders."""
    window = _window(access.campaign)
    if window is None or not window.owes(access.seat):
        raise Closed("No orders are owed now: the phase has resolved or waits for others.")
    if phase and phase != window.phase:
        raise Closed(
            f"The {phase} phase has resolved: your orders for it are locked. "
            f"Now: the {window.phase} phase."
        )
    wanted = ORDER_PHASES.get(window.phase, ("deployment",))
    if not set(kinds) & set(wanted):
        raise Closed(f"These orders are not given in the {window.phase} phase.")
    OrderSheet.objects.get_or_create(
        window=window, seat=access.seat, defaults={"campaign": access.campaign}
    )
    return OrderSheet.objects.select_for_update().get(window=window, seat=access.seat)


def writes_orders(view):
    """A view that writes the draft: when the sheet is closed, say so and go to the dashboard
    (never a server error, never a changed draft)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, code, *args, **kwargs):
        try:
            return view(request, code, *args, **kwargs)
        except Closed as exc:
            messages.error(request, str(exc))
            target = reverse("orders:dashboard", args=[code])
            if request.htmx:
                return HttpResponseClientRedirect(target)
            return redirect(target)

    return wrapper


def _respond(request: HttpRequest, access: Access, ctx: dict, name: str, url: str) -> HttpResponse:
    if request.htmx:
        return render(request, f"orders/{name}.html#play", ctx)
    return redirect(url)


def _save_draft(sheet: OrderSheet, draft: dict, access: Access) -> None:
    sheet.draft = draft
    sheet.updated = timezone.now()
    sheet.save(update_fields=["draft", "updated"])
    if access.behalf:
        from campaign.services.organiser import mark_entered

        mark_entered(sheet, access.user, now=sheet.updated)


def _locked(request: HttpRequest, sheet: OrderSheet) -> bool:
    if sheet.ready or sheet.window.status != WindowStatus.OPEN:
        messages.error(request, "Your orders are submitted and locked for this phase.")
        return True
    return False


@login_required
@require_POST
@writes_orders
def save_march(request: HttpRequest, code) -> HttpResponse:
    """Save (or replace) one march or forced march order in the draft."""
    access = _access(request, code, write=True)
    url = reverse("orders:orders", args=[code])
    with transaction.atomic():
        sheet = _writable_sheet(
            access, ("march", "forced_march"), request.POST.get("phase", "")[:20]
        )
        if _locked(request, sheet):
            return _respond(request, access, _orders_context(request, access), "orders", url)
        kind = "forced_march" if sheet.window.phase == Phase.FORCED_MARCH.value else "march"
        version = _version(access.campaign)
        units = _units(_view(access, version), leaders_only=kind == "forced_march")
        form_class = ForcedMarchForm if kind == "forced_march" else MarchForm
        form = form_class(request.POST, units=units)
        if not form.is_valid():
            ctx = _orders_context(
                request, access, form=form, unit=request.POST.get("unit", "")[:40],
                path=request.POST.get("path", "")[:200],
            )  # fmt: skip
            if request.htmx:
                return render(request, "orders/orders.html#play", ctx)
            return render(request, "orders/orders.html", ctx, status=400)
        order = form.order()
        draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
        items = [o for o in _items(draft, kind) if o.get("unit") != order["unit"]]
        draft[kind] = [*items, order]
        _save_draft(sheet, draft, access)
    messages.success(request, f"Order saved: {units[order['unit']]} {order['path'] or 'stands'}.")
    ctx = _orders_context(request, access, unit=order["unit"], path=order["path"])
    return _respond(request, access, ctx, "orders", f"{url}?unit={order['unit']}")


@login_required
@require_POST
@writes_orders
def remove_order(request: HttpRequest, code) -> HttpResponse:
    access = _access(request, code, write=True)
    url = reverse("orders:orders", args=[code])
    kind = request.POST.get("kind", "march")
    if kind not in ("march", "forced_march", "transfers"):
        messages.error(request, "Unknown kind of order.")
        return redirect(url)
    with transaction.atomic():
        sheet = _writable_sheet(access, (kind,), request.POST.get("phase", "")[:20])
        if not _locked(request, sheet):
            draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
            items = _items(draft, kind)
            try:
                index = int(request.POST.get("index", ""))
            except ValueError:
                index = -1
            unit = request.POST.get("unit", "")
            kept = [
                o
                for i, o in enumerate(items)
                if not (o.get("unit") == unit if unit else i == index)
            ]
            if kept != items:
                draft[kind] = kept
                _save_draft(sheet, draft, access)
                messages.success(request, "Order removed.")
    return _respond(request, access, _orders_context(request, access), "orders", url)


@login_required
@require_POST
@writes_orders
def save_transfer(request: HttpRequest, code) -> HttpResponse:
    """Points handed over at the start of the turn (6.4.2, 6.4.3)."""
    access = _access(request, code, write=True)
    url = reverse("orders:orders", args=[code])
    with transaction.atomic():
        sheet = _writable_sheet(access, ("transfers",), request.POST.get("phase", "")[:20])
        if _locked(request, sheet):
            return _respond(request, access, _orders_context(request, access), "orders", url)
        units = _units(_view(access, _version(access.campaign)))
        form = TransferForm(request.POST, units=units)
        if not form.is_valid():
            ctx = _orders_context(request, access, transfer_form=form)
            if request.htmx:
                return render(request, "orders/orders.html#play", ctx)
            return render(request, "orders/orders.html", ctx, status=400)
        draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
        draft["transfers"] = [*_items(draft, "transfers"), form.order()]
        _save_draft(sheet, draft, access)
    messages.success(request, "Transfer saved.")
    return _respond(request, access, _orders_context(request, access), "orders", url)


@login_required
@require_POST
@writes_orders
def decide(request: HttpRequest, code) -> HttpResponse:
    """Fight / do not fight / retire (9, 10.1), or an answer on honors of war (11.6)."""
    access = _access(request, code, write=True)
    url = reverse("orders:orders", args=[code])
    kind = request.POST.get("kind", "")
    if kind not in ("battle", "honors"):
        messages.error(request, "Unknown kind of decision.")
        return redirect(url)
    with transaction.atomic():
        sheet = _writable_sheet(access, (kind,), request.POST.get("phase", "")[:20])
        if _locked(request, sheet):
            return _respond(request, access, _orders_context(request, access), "orders", url)
        view = _view(access, _version(access.campaign))
        if kind == "battle":
            allowed = {(b["hex"], a) for b in _battles(view) for a in b["armies"]}
            form = BattleDecisionForm(request.POST, allowed=allowed)
            key = ("hex", "army")
        else:
            roles = _honors_roles(view, _hexmap(access.campaign))
            form = HonorsForm(request.POST, roles=roles)
            key = ("city",)
        if not form.is_valid():
            ctx = _orders_context(request, access, form=form)
            if request.htmx:
                return render(request, "orders/orders.html#play", ctx)
            return render(request, "orders/orders.html", ctx, status=400)
        order = form.order()
        refused = (
            gameplay.retire_refusal(
                access.campaign, _version(access.campaign), order["hex"], order["army"]
            )
            if kind == "battle" and order["choice"] == "retire"
            else None
        )
        if refused:
            form.add_error("choice", f"The {order['army']} force may not retire: {refused}.")
            ctx = _orders_context(request, access, form=form)
            if request.htmx:
                return render(request, "orders/orders.html#play", ctx)
            return render(request, "orders/orders.html", ctx, status=400)
        draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
        items = [
            o for o in _items(draft, kind) if [o.get(k) for k in key] != [order[k] for k in key]
        ]
        draft[kind] = [*items, order]
        _save_draft(sheet, draft, access)
    messages.success(request, "Decision saved.")
    return _respond(request, access, _orders_context(request, access), "orders", url)


@login_required
@require_POST
@writes_orders
def ready(request: HttpRequest, code) -> HttpResponse:
    """The player is done: the sheet is submitted and locks (the phase may then resolve)."""
    access = _access(request, code, write=True)
    window = _window(access.campaign)
    if window is None or not window.owes(access.seat):
        raise Closed("No orders are owed now: the phase has resolved or waits for others.")
    phase = request.POST.get("phase", "")[:20]
    if phase and phase != window.phase:
        raise Closed(f"The {phase} phase has resolved: your orders for it are locked.")
    sheet, _ = OrderSheet.objects.get_or_create(
        window=window, seat=access.seat, defaults={"campaign": access.campaign}
    )
    if window.phase in (Phase.MARCH.value, Phase.FORCED_MARCH.value):
        wrong = _ready_problems(access, window, sheet)
        if wrong:
            messages.error(
                request,
                "Not submitted: put these orders right (or remove them) first. " + " ".join(wrong),
            )
            target = reverse("orders:orders", args=[code])
            if request.htmx:
                return HttpResponseClientRedirect(target)
            return redirect(target)
    changed = OrderSheet.objects.filter(id=sheet.id, ready=False).update(
        ready=True, submitted_at=timezone.now(), updated=timezone.now()
    )
    target = reverse("orders:dashboard", args=[code])
    if changed and access.behalf:
        from campaign.services.organiser import BEHALF_SESSION_KEY, mark_entered

        mark_entered(sheet, access.user, now=timezone.now(), submitted=True)
        messages.success(request, f"The orders of the {access.seat.label} are submitted.")
        request.session[BEHALF_SESSION_KEY] = [
            c for c in request.session.get(BEHALF_SESSION_KEY, []) if c != str(access.seat.code)
        ]
        target = reverse("organiser_board", args=[access.campaign.code])
        _after_ready(window)
    elif changed:
        messages.success(request, "Your orders are submitted. They are secret until resolution.")
        _after_ready(window)
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@require_POST
@writes_orders
def unready(request: HttpRequest, code) -> HttpResponse:
    """Take back Ready: the orders become a draft again, until the deadline or until the phase
    resolves (whichever comes first: a phase that resolved used the orders as submitted)."""
    access = _access(request, code, write=True)
    window = _window(access.campaign)
    if window is None or window.status != "open" or not window.owes(access.seat):
        raise Closed("The phase has resolved: your orders were used as you submitted them.")
    taken_back = OrderSheet.objects.filter(
        window=window, seat=access.seat, ready=True, window__status="open"
    ).update(ready=False, submitted_at=None, updated=timezone.now())
    if taken_back:
        messages.success(request, "Your orders are a draft again: change them, then press Ready.")
    target = reverse(
        "orders:deploy" if window.phase == "deployment" else "orders:orders", args=[code]
    )
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


def _after_ready(window: PhaseWindow) -> None:
    """Ask for the phase to resolve once this commits; the service resolves it only when every
    awaited seat is ready (or the deadline has passed)."""
    from campaign.services.resolution import queue_resolution

    queue_resolution(window.id)


# --- deployment -------------------------------------------------------------------------------


def _deployment_context(request: HttpRequest, access: Access, **extra) -> dict:
    version = _version(access.campaign)
    if version is None:
        raise PermissionDenied("The campaign has not started.")
    ctx = _common(access, version)
    sheet: OrderSheet | None = ctx["sheet"]
    draft = sheet.draft if sheet is not None and isinstance(sheet.draft, dict) else {}
    dep = draft.get("deployment") if isinstance(draft.get("deployment"), dict) else {}
    hexmap = _hexmap(access.campaign)
    settings = _settings(access.campaign)
    state = state_from_dict(version.state)
    chosen = access.seat.leaders or {}
    armies = []
    for army_value in access.seat.armies:
        army = Army.parse(army_value)
        spec = dep.get(army.value) if isinstance(dep.get(army.value), dict) else {}
        deployment, problems = _read_deployment(army, spec)
        if hexmap is not None and not problems:
            from campaign.engine.deployment import check_deployment

            others = {}
            for other in access.seat.armies:
                if other != army.value and isinstance(dep.get(other), dict):
                    others[Army.parse(other)], _ = _read_deployment(Army.parse(other), dep[other])
            problems = [
                f"({v.rule}) {v.text}"
                for v in check_deployment(
                    deployment, hexmap, settings, state.army_points.get(army.value), others
                )
            ]
        placed_points = sum(p for _k, _h, p, _i in deployment.leaders) + sum(
            p for _c, p in deployment.garrisons
        )
        leaders = spec.get("leaders") if isinstance(spec.get("leaders"), dict) else {}
        armies.append(
            {
                "army": army,
                "label": army.label,
                "points": state.army_points.get(army.value, 0),
                "placed": placed_points,
                "leaders": [
                    {"key": k, "name": leader(k).name, **(leaders.get(k) or {})}
                    for k in chosen.get(army.value, [])
                ],
                "garrisons": spec.get("garrisons") or {},
                "siege_trains": [
                    {"id": f"{army.value}-{i}", **_train_spec(spec, f"{army.value}-{i}")}
                    for i in range(1, settings.siege_trains.get(army.value, 0) + 1)
                ],
                "problems": problems,
            }
        )
    locked = sheet is None or sheet.ready or not access.own
    tap = None if locked else _deploy_tap(request, access, armies)
    ctx.update(
        {
            "armies": armies,
            "locked": locked,
            "errors": extra.pop("errors", []),
            "tap": tap,
            "map_svg": (
                _deploy_map_svg(request, access, ctx["view"], hexmap, dep, armies, tap)
                if hexmap is not None
                else None
            ),
        }
    )
    return ctx


def _deploy_tap(request: HttpRequest, access: Access, armies: list[dict]) -> dict | None:
    """What the player is placing by tapping the map, from the query string:
    ``?army=prussia&place=leader:frederick`` (or ``train:prussia-1``, or ``garrison``), with
    ``hex`` (or ``city``) once a hex is tapped without JavaScript (it fills the form)."""
    army_value = request.GET.get("army", "")
    kind, _, key = request.GET.get("place", "").partition(":")
    entry = next((a for a in armies if a["army"].value == army_value), None)
    if entry is None:
        return None
    if kind == "leader":
        item = next((x for x in entry["leaders"] if x["key"] == key), None)
    elif kind == "train":
        item = next((t for t in entry["siege_trains"] if t["id"] == key), None)
    elif kind == "garrison":
        item, key = {}, ""
    else:
        item = None
    if item is None:
        return None
    name = item.get("name") or (f"Siege train {key}" if kind == "train" else "a garrison")
    return {
        "army": army_value,
        "kind": kind,
        "key": key,
        "place": f"{kind}:{key}" if key else kind,
        "name": name,
        "hex": request.GET.get("hex", "")[:8] or item.get("hex", ""),
        "city": request.GET.get("city", "")[:60],
        "points": item.get("points") or 0,
        "inside": bool(item.get("inside")),
    }


def _deploy_map_svg(
    request: HttpRequest, access: Access, view: View, hexmap, dep: dict, armies: list, tap
) -> dict:
    """The deployment map: the hexes around the unit being placed (or ``centre``), the hexes
    where its army may deploy tappable (3.2.1, 3.2.4, 3.2.5; fortresses only for a garrison),
    the units already placed in the draft, and links to look further in each direction."""
    import json

    from campaign.engine.deployment import may_deploy_in
    from maps.core.hexgrid import axial_to_offset, hex_id, offset_to_axial

    if not access.seat.armies:  # a reserve seat: nothing to deploy
        return _map_svg(view, hexmap, None)
    army = Army.parse(tap["army"] if tap else access.seat.armies[0])
    others = {}
    for other in access.seat.armies:
        if other != army.value and isinstance(dep.get(other), dict):
            others[Army.parse(other)], _ = _read_deployment(Army.parse(other), dep[other])

    def allowed(h) -> bool:
        return may_deploy_in(army, h, hexmap, others=others, fortress=hexmap.fortress_at(h))

    centre = None
    for text in (request.GET.get("centre", ""), (tap or {}).get("hex", "")):
        try:
            h = parse_hex_id(text)
        except HexIdError:
            continue
        if h in hexmap:
            centre = h
            break
    if centre is None:  # the allowed hex nearest the middle of the army's areas
        spots = [h for h in hexmap.hexes if allowed(h)]
        if spots:
            cols, rows = zip(*(axial_to_offset(h) for h in spots), strict=True)
            middle = offset_to_axial(sum(cols) // len(cols), sum(rows) // len(rows))
            from maps.core.hexgrid import distance

            centre = min(spots, key=lambda h: distance(h, middle))
    svg = _map_svg(view, hexmap, None, focus=[hex_id(centre)] if centre else [], radius=5)
    shown = {c["id"] for c in svg["cells"]}
    cells = {c["id"]: c for c in svg["cells"]}
    url = reverse("orders:deploy", args=[access.seat.code])
    taps = []
    if tap is not None:
        query = f"army={tap['army']}&place={tap['place']}"
        for text in sorted(shown):
            h = parse_hex_id(text)
            fortress = hexmap.fortress_at(h)
            if not allowed(h) or (tap["kind"] == "garrison" and fortress is None):
                continue
            if tap["kind"] == "garrison":
                vals = None  # the points are typed: a tap fills the fortress in
                href = f"?{query}&city={fortress.name}&centre={text}"
            else:
                vals = {"phase": "deployment", "army": tap["army"], "action": tap["kind"],
                        "unit": tap["key"], "hex": text}  # fmt: skip
                if tap["kind"] == "leader":
                    vals["points"] = tap["points"]
                if tap["inside"] and fortress is not None:
                    vals["inside"] = "on"
                href = f"?{query}&hex={text}"
            taps.append(
                {
                    "hex": text,
                    "points": cells[text]["points"],
                    "href": href,
                    "post": f"{url}?{query}" if vals else "",
                    "vals": json.dumps(vals) if vals else "",
                    "name": fortress.name if fortress else "",
                }
            )
    placed = []
    for a in armies:
        for x in a["leaders"]:
            if x.get("hex") in cells:
                placed.append({**cells[x["hex"]], "short": x["name"][:3], "label": x["name"]})
        for t in a["siege_trains"]:
            if t.get("hex") in cells:
                placed.append({**cells[t["hex"]], "short": "ST", "label": f"Siege train {t['id']}"})
    pans = []
    if centre is not None:
        col, row = axial_to_offset(centre)
        query = f"army={tap['army']}&place={tap['place']}&" if tap else ""
        for label, dc, dr in (("North", 0, -1), ("West", -1, 0), ("East", 1, 0), ("South", 0, 1)):
            for step in (8, 4, 2):  # as far as the map goes, up to 8 hexes
                h = offset_to_axial(col + dc * step, row + dr * step)
                if h in hexmap:
                    pans.append((label, f"?{query}centre={hex_id(h)}"))
                    break
    return {**svg, "taps": taps, "placed": placed, "pans": pans, "fill": ARMY_FILL.get(army.value)}


def _train_spec(spec: dict, tid: str) -> dict:
    trains = spec.get("siege_trains") if isinstance(spec.get("siege_trains"), dict) else {}
    value = trains.get(tid)
    if isinstance(value, str):
        return {"hex": value}
    return value if isinstance(value, dict) else {}


def _read_deployment(army: Army, spec: dict) -> tuple[Deployment, list[str]]:
    from campaign.engine.orders import OrderError, deployment_from_dict

    try:
        return deployment_from_dict(army.value, spec), []
    except (OrderError, ValueError, KeyError, TypeError) as exc:
        return Deployment(army), [f"The draft cannot be read: {exc}"]


@login_required
@writes_orders
def deploy(request: HttpRequest, code) -> HttpResponse:
    """Secret deployment (3): place leaders, points and siege trains; the draft is kept as it
    grows and the engine's validator speaks after every change."""
    if request.method == "GET":
        access = _access(request, code)
        template = "orders/deploy.html#sheet" if request.htmx else "orders/deploy.html"
        return render(request, template, _deployment_context(request, access))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    access = _access(request, code, write=True)
    url = reverse("orders:deploy", args=[code])
    errors: list[str] = []
    with transaction.atomic():
        sheet = _writable_sheet(access, ("deployment",), request.POST.get("phase", "")[:20])
        if not _locked(request, sheet):
            draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
            errors = _apply_deploy_post(request, access, draft)
            if not errors:
                _save_draft(sheet, draft, access)
                messages.success(request, "Deployment saved.")
    ctx = _deployment_context(request, access, errors=errors)
    if request.htmx:
        return render(request, "orders/deploy.html#sheet", ctx)
    if errors:
        return render(request, "orders/deploy.html", ctx, status=400)
    return redirect(url)


def _apply_deploy_post(request: HttpRequest, access: Access, draft: dict) -> list[str]:
    """Change ``draft`` by one deployment action; the messages when the input is malformed."""
    army_value = request.POST.get("army", "")
    if army_value not in access.seat.armies:
        return ["Choose one of your own armies."]
    dep = draft.get("deployment") if isinstance(draft.get("deployment"), dict) else {}
    spec = dep.get(army_value) if isinstance(dep.get(army_value), dict) else {}
    spec = {k: dict(v) if isinstance(v, dict) else {} for k, v in spec.items()}
    action = request.POST.get("action", "")
    chosen = (access.seat.leaders or {}).get(army_value, [])
    if action == "leader":
        form = DeployLeaderForm(request.POST)
        if not form.is_valid():
            return _form_errors(form)
        d = form.cleaned_data
        if chosen and d["unit"] not in chosen:
            return [f"{d['unit']!r} is not one of your chosen leaders."]
        spec.setdefault("leaders", {})[d["unit"]] = {
            "hex": d["hex"], "points": d["points"], "inside": d["inside"],
        }  # fmt: skip
    elif action == "garrison":
        form = DeployGarrisonForm(request.POST)
        if not form.is_valid():
            return _form_errors(form)
        d = form.cleaned_data
        garrisons = spec.setdefault("garrisons", {})
        if d["points"]:
            garrisons[d["city"]] = d["points"]
        else:
            garrisons.pop(d["city"], None)
    elif action == "train":
        form = DeploySiegeTrainForm(request.POST)
        if not form.is_valid():
            return _form_errors(form)
        d = form.cleaned_data
        if not d["unit"].startswith(f"{army_value}-"):
            return [f"{d['unit']!r} is not a siege train of {army_value}."]
        spec.setdefault("siege_trains", {})[d["unit"]] = {"hex": d["hex"], "inside": d["inside"]}
    elif action == "remove":
        what, key = request.POST.get("what", ""), request.POST.get("key", "")
        if what in ("leaders", "garrisons", "siege_trains"):
            spec.setdefault(what, {}).pop(key, None)
    else:
        return ["Unknown deployment action."]
    dep = dict(dep)
    dep[army_value] = spec
    draft["deployment"] = dep
    return []


def _form_errors(form) -> list[str]:
    return [f"{field}: {' '.join(errs)}" for field, errs in form.errors.items()]


# --- reports, history, handover ----------------------------------------------------------------


@login_required
@require_GET
def report(request: HttpRequest, code, number: int | None = None) -> HttpResponse:
    """The turn report of a version (the latest by default): events in plain sentences."""
    access = _access(request, code)
    version = _version(access.campaign, number)
    if version is None:
        return render(request, "play/report.html", _common(access, None), status=404)
    ctx = _common(access, version)
    view = ctx["view"]
    ctx["turns"] = [
        (
            turn,
            [e for e in view.events if e.turn == turn and e.kind != "reconnaissance"],
            [r for r in view.reports if r.turn == turn],
        )
        for turn in (view.turn, view.turn - 1)
        if turn >= 1
    ]
    ctx["history_version"] = version
    return render(request, "play/report.html", ctx)


@login_required
@require_GET
def history(request: HttpRequest, code) -> HttpResponse:
    """Every earlier phase, with the map and report as this seat saw them then."""
    access = _access(request, code)
    versions = (
        StateVersion.objects.filter(campaign=access.campaign)
        .only("number", "turn", "phase", "resolved_phase", "created")
        .order_by("-number")
    )
    return render(
        request, "play/history.html", {"access": access, "seat": access.seat,
                                       "campaign": access.campaign, "versions": versions},
    )  # fmt: skip


@login_required
@require_GET
def handover(request: HttpRequest, code) -> HttpResponse:
    """Everything the seat knows in one place, for a reserve player taking it over."""
    access = _access(request, code)
    version = _version(access.campaign)
    ctx = _common(access, version, all_turns=True)
    if version is not None:
        view = ctx["view"]
        turns = sorted({e.turn for e in view.events if e.turn}, reverse=True)
        ctx["by_turn"] = [
            (t, [e for e in view.events if e.turn == t], [r for r in view.reports if r.turn == t])
            for t in turns
        ]
    return render(request, "play/handover.html", ctx)


@login_required
@require_GET
def view_json(request: HttpRequest, code, number: int) -> HttpResponse:
    """The seat's view of one version as JSON (the same projection as every page)."""
    access = _access(request, code)
    version = _version(access.campaign, number)
    if version is None:
        return JsonResponse({"error": "no such version"}, status=404)
    return JsonResponse(view_to_dict(_view(access, version)))


# --- the map ----------------------------------------------------------------------------------

HEX_SIZE = 18.0
TERRAIN_FILL = {"c": "#e9e2c9", "m": "#b9d3b0", "r": "#c8b49a", "s": "#9cc0de", "l": "#9cc0de"}
ARMY_FILL = {
    "austria": "#f4f4f4",
    "empire": "#e8d34a",
    "france": "#3b5bb5",
    "hanover": "#c0392b",
    "prussia": "#1c2f5a",
    "russia": "#2e7d32",
    "sweden": "#f2c230",
}
ARMY_TEXT = {"austria": "#111", "empire": "#111", "sweden": "#111"}


def version_cache_headers(request: HttpRequest, version, stamp: str) -> dict[str, str]:
    """Cache headers for a document drawn from one state version. A roll back deletes version
    N and a later resolution makes a new one with the same number, so the ETag holds the
    version's own id, and only a URL that names that id (``?v=<id>``) is cached as immutable;
    any other is revalidated."""
    etag = '"' + hashlib.sha256(f"{version.id}:{stamp}".encode()).hexdigest()[:32] + '"'
    fixed = request.GET.get("v") == str(version.id)
    cache = "private, max-age=31536000, immutable" if fixed else "private, no-cache"
    return {"ETag": etag, "Cache-Control": cache}


@login_required
@require_GET
def map_image(request: HttpRequest, code, number: int) -> HttpResponse:
    """The seat's map of one version as a PNG, drawn only from the seat's view. Versions never
    change, so the image is cached by (version, seat) for as long as the browser likes."""
    access = _access(request, code)
    version = _version(access.campaign, number)
    if version is None:
        return HttpResponse(status=404)
    headers = version_cache_headers(
        request,
        version,
        f"{access.seat.code}:{access.seat.armies}:"
        f"{(access.campaign.options or {}).get('allies_share')}",
    )
    if request.headers.get("If-None-Match") == headers["ETag"]:
        return HttpResponseNotModified(headers=headers)
    hexmap = _hexmap(access.campaign)
    if hexmap is None:
        return HttpResponse("The campaign map could not be loaded.", status=503)
    png = render_png(_view(access, version), hexmap)
    return HttpResponse(png, content_type="image/png", headers=headers)


def render_png(view: View, hexmap) -> bytes:
    """Draw the view on the map with the map core's renderer. Its overlays are made only from
    ``map_counters(view)``, so the image holds nothing the view does not."""
    from maps.core import render

    overlays = []
    stacks: dict[str, int] = {}
    hexes = []
    for c in map_counters(view, hexmap):
        try:
            h = parse_hex_id(c.hex)
        except HexIdError:
            continue
        hexes.append(h)
        if c.kind == "report":
            overlays.append(render.Note(h, c.label))
            continue
        stack = stacks.get(c.hex, 0)
        stacks[c.hex] = stack + 1
        overlays.append(
            render.Counter(
                h, c.name or c.label, ARMY_FILL.get(c.army.value, "#888888"),
                ARMY_TEXT.get(c.army.value, "#ffffff"), stack,
            )
        )  # fmt: skip
        if c.points is not None or c.flags:
            known = " ".join(x for x in (str(c.points or ""), "".join(c.flags)) if x)
            overlays.append(render.Note(h, known))
    region = None
    if hexes:
        from maps.core.hexgrid import axial_to_offset

        cols, rows = zip(*(axial_to_offset(h) for h in hexes), strict=True)
        region = render.Region(min(cols) - 3, min(rows) - 3, max(cols) + 5, max(rows) + 5)
    return render.render_png(hexmap, region=region, overlays=overlays)


def _map_svg(
    view: View, hexmap, preview, steps=None, *, focus: list[str] | None = None, radius: int = 4
) -> dict:
    """The tappable map of the orders page: the hexes around the seat's forces (or the march
    being written, or ``focus``), the counters of the view, the line of march and the next
    steps."""
    if focus is None and preview is not None:
        focus = [preview.start, *(s.hex for s in preview.steps if s.hex[:1].isdigit())]
    elif focus is None:
        focus = [f.hex for f in view.own_forces()]
    centre_hexes = []
    for text in focus:
        try:
            centre_hexes.append(parse_hex_id(text))
        except HexIdError:
            continue
    shown = _hexes_near(hexmap, tuple(centre_hexes), radius)
    if not shown:
        shown = list(hexmap.hexes)[:200]
    pixels = {h: hex_to_pixel(h, HEX_SIZE) for h in shown}
    min_x = min(x for x, _ in pixels.values()) - HEX_SIZE
    min_y = min(y for _, y in pixels.values()) - HEX_SIZE
    max_x = max(x for x, _ in pixels.values()) + HEX_SIZE
    max_y = max(y for _, y in pixels.values()) + HEX_SIZE
    from maps.core.hexgrid import hex_id

    cells = []
    for h in shown:
        corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in hex_corners(h, HEX_SIZE))
        x, y = pixels[h]
        cells.append(
            {
                "id": hex_id(h),
                "points": corners,
                "x": round(x, 1),
                "y": round(y, 1),
                "fill": TERRAIN_FILL.get(hexmap.terrain(h).value, "#ddd"),
            }
        )
    shown_ids = {c["id"] for c in cells}
    counters = []
    for c in map_counters(view, hexmap):
        if c.hex not in shown_ids:
            continue
        x, y = hex_to_pixel(parse_hex_id(c.hex), HEX_SIZE)
        counters.append(
            {
                "x": round(x, 1),
                "y": round(y, 1),
                "kind": c.kind,
                "label": c.label,
                "fill": ARMY_FILL.get(c.army.value, "#888"),
                "text": ARMY_TEXT.get(c.army.value, "#fff"),
                "own": c.relation is Relation.OWNER,
                "short": (c.name or c.label)[:3],
                "flags": "".join(c.flags),
            }
        )
    line = []
    if preview is not None:
        for text in [preview.start, *(s.hex for s in preview.steps if s.hex[:1].isdigit())]:
            x, y = hex_to_pixel(parse_hex_id(text), HEX_SIZE)
            line.append(f"{x:.1f},{y:.1f}")
    cities = [
        {"x": round(hex_to_pixel(c.hex, HEX_SIZE)[0], 1),
         "y": round(hex_to_pixel(c.hex, HEX_SIZE)[1], 1), "name": c.name, "fortress": c.fortress}
        for c in hexmap.cities if hex_id(c.hex) in shown_ids
    ]  # fmt: skip
    targets = []
    for code, name, target in steps or []:
        h = parse_hex_id(target)
        x, y = hex_to_pixel(h, HEX_SIZE)
        corners = " ".join(f"{px:.1f},{py:.1f}" for px, py in hex_corners(h, HEX_SIZE))
        path = "-".join(str(s.code) for s in preview.steps) if preview is not None else ""
        targets.append(
            {
                "code": code,
                "name": name,
                "hex": target,
                "x": round(x, 1),
                "y": round(y, 1),
                "points": corners,
                "path": f"{path}-{code}" if path else str(code),
            }
        )
    return {
        "targets": targets,
        "viewbox": f"{min_x:.1f} {min_y:.1f} {max_x - min_x:.1f} {max_y - min_y:.1f}",
        "cells": cells,
        "counters": counters,
        "line": " ".join(line),
        "cities": cities,
    }


def _hexes_near(hexmap, centres: tuple, radius: int = 4) -> list:
    from maps.core.hexgrid import within

    out = []
    seen = set()
    for c in centres:
        for h in within(c, radius):
            if h in hexmap and h not in seen:
                seen.add(h)
                out.append(h)
    return out


# --- the umpire -------------------------------------------------------------------------------


def _umpire_access(request: HttpRequest, code) -> Access:
    """Only a non-playing organiser is the umpire, who sees everything."""
    campaign = get_object_or_404(Campaign, code=code)
    if campaign.organiser_id != request.user.id or not campaign.umpire_sees_all:
        raise PermissionDenied("Only the campaign's non-playing umpire sees everything.")
    seat = Seat(campaign=campaign, label="umpire", armies=[a.value for a in Army])
    return Access(seat, campaign, own=False)


def _umpire_view(access: Access, version: StateVersion) -> View:
    events = (
        Event.objects.filter(
            campaign=access.campaign,
            version__number__lte=version.number,
            version__turn__gte=version.turn - 1,
        )
        .select_related("version")
        .only("rule", "kind", "text", "public", "armies", "data", "version__turn")
        .order_by("version__number", "seq")
    )
    return project(
        state_from_dict(version.state), Viewer.umpire_view(), events=events,
        rolls=version.rolls or [],
    )  # fmt: skip


@login_required
@require_GET
def umpire(request: HttpRequest, code) -> HttpResponse:
    """Everything, for the non-playing umpire: every force with its points, every garrison and
    siege train, every event and roll of this turn and the last."""
    access = _umpire_access(request, code)
    version = _version(access.campaign)
    view = _umpire_view(access, version) if version is not None else None
    seats = Seat.objects.filter(campaign=access.campaign, reserve=False)
    return render(
        request, "play/umpire.html",
        {"campaign": access.campaign, "version": version, "view": view, "seats": seats},
    )  # fmt: skip


@login_required
@require_GET
def umpire_map(request: HttpRequest, code, number: int) -> HttpResponse:
    access = _umpire_access(request, code)
    version = _version(access.campaign, number)
    hexmap = _hexmap(access.campaign)
    if version is None or hexmap is None:
        return HttpResponse(status=404)
    headers = version_cache_headers(request, version, "umpire")
    png = render_png(_umpire_view(access, version), hexmap)
    return HttpResponse(png, content_type="image/png", headers=headers)
