"""What a player sees and does: dashboard, orders, reports, history, handover, the umpire's page.

Every page shows a ``campaign.projection.View`` of one state version for one seat, never the
state itself: fog of war is decided there and nowhere else. Views stay thin: load and check
access (``orders.access``), read a form, change the seat's draft (or mark it ready), render.
Deployment is in ``orders.deploy_views``, the map widget's layers in ``orders.widget_views``,
the map pictures in ``orders.picture_views``.
"""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.engine.armies import ADJECTIVES, Army
from campaign.engine.marches import marches_allowed
from campaign.engine.orders import unit_army
from campaign.engine.rulesettings import RuleSettings
from campaign.engine.state import LeaderState, Phase
from campaign.models import PhaseWindow, Seat, StateVersion, WindowStatus
from campaign.projection import (
    Relation,
    View,
    report_lines,
    view_to_dict,
)
from campaign.services import gameplay, viewcache
from campaign.services.battles import battles_for_seat
from campaign.services.organiser import BEHALF_SESSION_KEY, mark_entered
from campaign.services.resolution import queue_resolution
from maps.tapmap import map_svg
from orders.access import (
    Access,
    _access,
    _hexmap,
    _settings,
    _sheet,
    _umpire_access,
    _umpire_view,
    _version,
    _view,
    _window,
)
from orders.checks import TRANSFERS, order_problems, problem_lines
from orders.deploy_checks import deployment_problems
from orders.forms import (
    BattleDecisionForm,
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
    draft = sheet.draft if isinstance(sheet.draft, dict) else {}
    if window.phase == Phase.DEPLOYMENT.value:
        state = viewcache.version_state(version)
        return deployment_problems(
            access.seat.armies, draft, state, _hexmap(access.campaign), _settings(access.campaign)
        )
    view = _view(access, version)
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
    state = viewcache.version_state(version)
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
            "map_svg": map_svg(view, hexmap, preview, steps) if hexmap is not None else None,
            "form": extra.pop("form", None),
            "transfer_form": extra.pop("transfer_form", None),
            **extra,
        }
    )
    return ctx


def _marches_allowed(view: View, unit: str, settings: RuleSettings) -> int:
    """How many marches the unit may be given (6.2.2, 6.2.5), by the engine's rule."""
    x = view.leader(unit)
    if x is None:
        return settings.marches_per_siege_train
    return marches_allowed(
        LeaderState(x.key, x.army, x.hex, demoralized=bool(x.demoralized)), settings
    )


def _marches_given(view: View, orders: list[dict]) -> list[tuple[str, int, int]]:
    """Per march pool (6.2.1): (army, marches allocated this turn, marches given in the draft)."""
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
    checked = (Phase.DEPLOYMENT.value, Phase.MARCH.value, Phase.FORCED_MARCH.value)
    if window.phase in checked:
        wrong = _ready_problems(access, window, sheet)
        if wrong:
            messages.error(
                request,
                "Not submitted: put these orders right (or remove them) first. " + " ".join(wrong),
            )
            page = "orders:deploy" if window.phase == Phase.DEPLOYMENT.value else "orders:orders"
            target = reverse(page, args=[code])
            if request.htmx:
                return HttpResponseClientRedirect(target)
            return redirect(target)
    changed = OrderSheet.objects.filter(id=sheet.id, ready=False).update(
        ready=True, submitted_at=timezone.now(), updated=timezone.now()
    )
    target = reverse("orders:dashboard", args=[code])
    if changed and access.behalf:
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
    queue_resolution(window.id)


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


# --- the umpire -------------------------------------------------------------------------------


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
