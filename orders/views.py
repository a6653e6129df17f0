"""What a player does: the list of seats, the dashboard, the orders page and the changes to the
orders (march, transfer, battle and honors decisions, Ready and taking it back).

Views stay thin: load and check access (``orders.access``), read a form, change the seat's
draft (``orders.sheets``) or mark it ready, render (``orders.pages``). Reports and history are in
``orders.report_views``, the umpire's page in ``orders.umpire_views``, deployment in
``orders.deploy_views``, the map widget's layers in ``orders.widget_views``, the map pictures in
``orders.picture_views``.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from battles.services.records import battles_for_seat
from campaign.models import PhaseWindow, Seat, WindowStatus
from campaign.services import caretaker, gameplay
from campaign.services.organiser import BEHALF_SESSION_KEY, mark_entered
from campaign.services.resolution import queue_resolution_when_due
from orders import dashboard as dashboard_parts
from orders.access import SeatContext, _access, _window, seat_context
from orders.forms import (
    BattleDecisionForm,
    ForcedMarchForm,
    HonorsForm,
    MarchForm,
    TransferForm,
    pool_problem,
)
from orders.models import OrderSheet
from orders.pages import (
    battle_hexes,
    draft_items,
    honors_roles,
    line_in_words,
    orders_context,
    own_units,
    page_context,
    ready_problems,
    sheet_context,
)
from orders.services import catchup
from orders.sheets import (
    Closed,
    check_phase,
    decline_forced_march,
    player_is_back,
    posted_phase,
    save_draft,
    sheet_locked,
    writable_sheet,
    writes_orders,
)
from rules.state import Phase


@login_required
def index(request: HttpRequest) -> HttpResponse:
    """Every seat of the signed-in person, in every campaign."""
    seats = Seat.objects.filter(user=request.user).select_related("campaign")
    return render(request, "play/index.html", {"seats": seats})


@login_required
@require_GET
def dashboard(request: HttpRequest, code) -> HttpResponse:
    seat_ctx = seat_context(request, code, sheet=True)
    version = seat_ctx.version
    ctx = page_context(seat_ctx, make=False)  # (it shows the sheet: the orders page makes it)
    ctx["battles"] = battles_for_seat(seat_ctx.seat, version) if version is not None else []
    access = seat_ctx.access
    if version is not None and access.own and not access.behalf:
        # "Since you last looked": drawn from the last visit, then this visit is the last.
        since = catchup.last_visit(seat_ctx.seat)
        told = catchup.kept_catch_up(seat_ctx.seat, since, latest=version, window=seat_ctx.window)
        ctx["catch_up"] = told
        catchup.record_visit(seat_ctx.seat, version, now=timezone.now(), since=since, told=told)
    if version is not None:
        # Called by the template only when it draws the reports (they are kept rendered).
        ctx["reports"] = functools.partial(dashboard_parts.reports, ctx["view"])
    return render(request, "play/dashboard.html", ctx)


@login_required
@require_GET
def orders(request: HttpRequest, code) -> HttpResponse:
    seat_ctx = seat_context(request, code, sheet=True)
    player_is_back(seat_ctx.access)  # (a hold of the caretaker ends: issue 43)
    ctx = orders_context(request, seat_ctx)
    if request.htmx:
        return render(request, "orders/orders.html#play", ctx)
    return render(request, "orders/orders.html", ctx)


def _saved(request: HttpRequest, seat_ctx: SeatContext, sheet: OrderSheet, url: str, **extra):
    """After a change of the draft: under htmx the page's play area as it now is (its sheet
    and the builder), else back to the page (nothing is built for a redirect)."""
    if request.htmx:
        ctx = orders_context(request, seat_ctx, sheet, **extra)
        return render(request, "orders/orders.html#play", ctx)
    return redirect(url)


def _refused(request: HttpRequest, seat_ctx: SeatContext, sheet: OrderSheet, **extra):
    """A form refused: nothing was saved, the draft is as it was. Under htmx only the sheet
    (the orders list, the problems and the form's errors) is sent, in place of the sheet: the
    builder, with what the player typed, stays on the page as it is. Without htmx the whole
    page again, the typed order in its fields (400)."""
    if request.htmx:
        response = render(
            request, "orders/orders.html#sheet", sheet_context(seat_ctx, sheet, **extra)
        )
        return reswap(retarget(response, "#sheet"), "outerHTML")
    ctx = orders_context(request, seat_ctx, sheet, **extra)
    return render(request, "orders/orders.html", ctx, status=400)


def _locked(request: HttpRequest, seat_ctx: SeatContext, sheet: OrderSheet, url: str):
    """The sheet is submitted (or its window no longer open): said, nothing changed."""
    if request.htmx:
        response = render(request, "orders/orders.html#sheet", sheet_context(seat_ctx, sheet))
        return reswap(retarget(response, "#sheet"), "outerHTML")
    return redirect(url)


@login_required
@require_POST
@writes_orders
def save_march(request: HttpRequest, code) -> HttpResponse:
    """Save (or replace) one march or forced march order in the draft."""
    seat_ctx = seat_context(request, code, write=True)
    url = reverse("orders:orders", args=[code])
    with transaction.atomic():
        sheet = writable_sheet(seat_ctx, ("march", "forced_march"), posted_phase(request))
        if sheet_locked(request, sheet):
            return _locked(request, seat_ctx, sheet, url)
        kind = "forced_march" if sheet.window.phase == Phase.FORCED_MARCH.value else "march"
        units = own_units(seat_ctx.view, leaders_only=kind == "forced_march")
        form_class = ForcedMarchForm if kind == "forced_march" else MarchForm
        form = form_class(request.POST, units=units)
        if not form.is_valid():
            return _refused(
                request, seat_ctx, sheet, form=form, unit=request.POST.get("unit", "")[:40],
                path=request.POST.get("path", "")[:200],
            )  # fmt: skip
        order = form.order()
        draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
        full = (
            pool_problem(seat_ctx.view, draft_items(draft, kind), order) if kind == "march" else ""
        )
        if full:  # the army's marches of this turn are all given (6.2, 6.2.1)
            form.add_error(None, full)
            return _refused(
                request, seat_ctx, sheet, form=form, unit=order["unit"], path=order["path"]
            )
        items = [o for o in draft_items(draft, kind) if o.get("unit") != order["unit"]]
        draft[kind] = [*items, order]
        save_draft(sheet, draft, seat_ctx.access)
    words = line_in_words(seat_ctx.view, seat_ctx.hexmap, order["unit"], order["path"])
    messages.success(request, f"Order saved: {units[order['unit']]}, {words}.")
    return _saved(
        request, seat_ctx, sheet, f"{url}?unit={order['unit']}", unit=order["unit"],
        path=order["path"],
    )  # fmt: skip


@login_required
@require_POST
@writes_orders
def remove_order(request: HttpRequest, code) -> HttpResponse:
    seat_ctx = seat_context(request, code, write=True)
    url = reverse("orders:orders", args=[code])
    kind = request.POST.get("kind", "march")
    if kind not in ("march", "forced_march", "transfers"):
        messages.error(request, "Unknown kind of order.")
        return redirect(url)
    with transaction.atomic():
        sheet = writable_sheet(seat_ctx, (kind,), posted_phase(request))
        if not sheet_locked(request, sheet):
            draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
            items = draft_items(draft, kind)
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
                save_draft(sheet, draft, seat_ctx.access)
                messages.success(request, "Order removed.")
    return _saved(request, seat_ctx, sheet, url)


@login_required
@require_POST
@writes_orders
def save_transfer(request: HttpRequest, code) -> HttpResponse:
    """Points handed over at the start of the turn (6.4.2, 6.4.3)."""
    seat_ctx = seat_context(request, code, write=True)
    url = reverse("orders:orders", args=[code])
    with transaction.atomic():
        sheet = writable_sheet(seat_ctx, ("transfers",), posted_phase(request))
        if sheet_locked(request, sheet):
            return _locked(request, seat_ctx, sheet, url)
        form = TransferForm(request.POST, units=own_units(seat_ctx.view))
        if not form.is_valid():
            return _refused(request, seat_ctx, sheet, transfer_form=form)
        draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
        draft["transfers"] = [*draft_items(draft, "transfers"), form.order()]
        save_draft(sheet, draft, seat_ctx.access)
    messages.success(request, "Transfer saved.")
    return _saved(request, seat_ctx, sheet, url)


@login_required
@require_POST
@writes_orders
def decide(request: HttpRequest, code) -> HttpResponse:
    """Fight / do not fight / retire (9, 10.1), or an answer on honors of war (11.6)."""
    seat_ctx = seat_context(request, code, write=True)
    url = reverse("orders:orders", args=[code])
    kind = request.POST.get("kind", "")
    if kind not in ("battle", "honors"):
        messages.error(request, "Unknown kind of decision.")
        return redirect(url)
    with transaction.atomic():
        sheet = writable_sheet(seat_ctx, (kind,), posted_phase(request))
        if sheet_locked(request, sheet):
            return _locked(request, seat_ctx, sheet, url)
        view = seat_ctx.view
        if kind == "battle":
            allowed = {(b["hex"], a) for b in battle_hexes(view) for a in b["armies"]}
            form = BattleDecisionForm(request.POST, allowed=allowed)
            key = ("hex", "army")
        else:
            roles = honors_roles(view, seat_ctx.hexmap)
            form = HonorsForm(request.POST, roles=roles)
            key = ("city",)
        if not form.is_valid():
            return _refused(request, seat_ctx, sheet, form=form)
        order = form.order()
        refused = (
            gameplay.retire_refusal(seat_ctx.campaign, seat_ctx.state, order["hex"], order["army"])
            if kind == "battle" and order["choice"] == "retire"
            else None
        )
        if refused:
            form.add_error("choice", f"The {order['army']} force may not retire: {refused}.")
            return _refused(request, seat_ctx, sheet, form=form)
        draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
        items = [
            o
            for o in draft_items(draft, kind)
            if [o.get(k) for k in key] != [order[k] for k in key]
        ]
        draft[kind] = [*items, order]
        save_draft(sheet, draft, seat_ctx.access)
    messages.success(request, "Decision saved.")
    return _saved(request, seat_ctx, sheet, url)


@login_required
@require_POST
@writes_orders
def ready(request: HttpRequest, code) -> HttpResponse:
    """The player is done: the sheet is submitted and locks (the phase may then resolve)."""
    # (the sheet read with the window; Ready itself is the conditional update below)
    seat_ctx = seat_context(request, code, write=True, sheet=True)
    access, window = seat_ctx.access, seat_ctx.window
    if window is None or not window.owes(access.seat):
        raise Closed("No orders are owed now: the phase has resolved or waits for others.")
    check_phase(window, posted_phase(request))
    player_is_back(access)
    sheet = seat_ctx.found_sheet
    if sheet is None:
        sheet, _ = OrderSheet.objects.get_or_create(
            window=window, seat=access.seat, defaults={"campaign": access.campaign}
        )
    checked = (Phase.DEPLOYMENT.value, Phase.MARCH.value, Phase.FORCED_MARCH.value)
    if window.phase in checked:
        wrong = ready_problems(seat_ctx, sheet)
        if wrong:
            # One problem is said here; several are counted, and read where the page lists
            # them each by its order or army (run together here they made a wall of text).
            messages.error(
                request,
                f"Not submitted: put this right (or remove the order) first. {wrong[0]}"
                if len(wrong) == 1
                else f"Not submitted: {len(wrong)} things to put right (or remove) first, each "
                "listed on this page with what is wrong.",
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
        request.session[BEHALF_SESSION_KEY] = [
            c for c in request.session.get(BEHALF_SESSION_KEY, []) if c != str(access.seat.code)
        ]
        target = reverse("organiser_board", args=[access.campaign.code])
        _after_ready(window)
        then = " The phase has resolved." if _resolved(window) else ""
        messages.success(request, f"The orders of the {access.seat.label} are submitted.{then}")
    elif changed:
        _after_ready(window)
        if _resolved(window):
            said = "Your orders are submitted, and everyone was ready: the phase has resolved."
        else:
            said = "Your orders are submitted. They are secret until resolution."
        messages.success(request, said)
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
    check_phase(window, posted_phase(request))
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


def _resolved(window: PhaseWindow) -> bool:
    """Whether Ready resolved the phase at once (the last awaited seat, and no broker between:
    the task ran in this request), so the player is not told it waits. With a broker the
    worker resolves it after this request (not read: it could only be the worker winning a
    race with this line)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    return PhaseWindow.objects.filter(id=window.id, status=WindowStatus.RESOLVED).exists()


def _after_ready(window: PhaseWindow) -> None:
    """Once this commits, ask for the phase to resolve if it is now due: every awaited seat
    ready (or the deadline passed); the service looks again before it resolves."""
    queue_resolution_when_due(window.id)


@login_required
@require_POST
@writes_orders
def no_forced_march(request: HttpRequest, code) -> HttpResponse:
    """On the march page: "no forced march this turn" (``decline=1``), or taken back."""
    access = _access(request, code, write=True)
    window = _window(access.campaign)
    if window is not None:
        check_phase(window, posted_phase(request))
    decline = request.POST.get("decline") == "1"
    decline_forced_march(access, window, decline)
    player_is_back(access)
    if decline:
        messages.success(
            request,
            "Noted: no forced march for you this turn. The forced march phase will not wait "
            "for you.",
        )
    else:
        messages.success(request, "Taken back: the forced march phase will ask you as usual.")
    target = reverse("orders:orders", args=[code])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@require_POST
def take_seat_back(request: HttpRequest, code) -> HttpResponse:
    """The player takes his seat back from the caretaker, with one tap (issue 35)."""
    access = _access(request, code, write=True)
    if not access.own:
        raise PermissionDenied
    if caretaker.take_back(
        access.seat, request.user, now=timezone.now(), why=": its player took it back"
    ):
        messages.success(request, "Your seat is yours again: the caretaker gives no more orders.")
    return redirect(reverse("orders:dashboard", args=[code]))
