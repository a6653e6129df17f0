"""Secret deployment (3): the deployment page, its tap map and its one form endpoint.

Access and loading as for every player page (``orders.access``); the draft is written through
the orders pages' own sheet helpers (``orders.sheets``), so a deployment is saved, locked and
submitted like any other orders; what the page shows is built by ``orders.deploy_pages``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from campaign.services import viewcache
from orders.access import Access, _access, _hexmap, _settings, _version, seat_context
from orders.deploy_pages import deployment_context
from orders.deploy_shortcuts import SHORTCUTS, apply_shortcut
from orders.forms import DeployGarrisonForm, DeployLeaderForm, DeploySiegeTrainForm
from orders.sheets import (
    player_is_back,
    posted_phase,
    save_draft,
    sheet_locked,
    writable_sheet,
    writes_orders,
)
from rules.armies import Army
from rules.deployment import placed_by_opening


@login_required
@writes_orders
def deploy(request: HttpRequest, code) -> HttpResponse:
    """Secret deployment (3): place leaders, points and siege trains; the draft is kept as it
    grows and the engine's validator speaks after every change."""
    if request.method == "GET":
        access = _access(request, code)
        player_is_back(access)  # (a hold of the caretaker ends: issue 43)
        template = "orders/deploy.html#swap" if request.htmx else "orders/deploy.html"
        return render(request, template, deployment_context(request, access))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    seat_ctx = seat_context(request, code, write=True)
    access = seat_ctx.access
    url = reverse("orders:deploy", args=[code])
    errors: list[str] = []
    with transaction.atomic():
        sheet = writable_sheet(seat_ctx, ("deployment",), posted_phase(request))
        if not sheet_locked(request, sheet):
            draft = dict(sheet.draft) if isinstance(sheet.draft, dict) else {}
            action = request.POST.get("action", "")
            if action in SHORTCUTS:
                errors = _apply_shortcut(request, access, action, draft)
            else:
                errors = _apply_deploy_post(request, access, draft)
            if not errors:
                save_draft(sheet, draft, access)
                messages.success(request, SAVED.get(action, "Deployment saved."))
    ctx = deployment_context(request, access, errors=errors)
    if request.htmx:
        return render(request, "orders/deploy.html#swap", ctx)
    if errors:
        return render(request, "orders/deploy.html", ctx, status=400)
    return redirect(url)


SAVED = {
    "garrisons": "Every fortress has at least its minimum garrison (3.2.3); deployment saved.",
    "suggest": "A legal deployment is suggested and saved: adjust it as you like.",
}


def _apply_shortcut(request: HttpRequest, access: Access, action: str, draft: dict) -> list[str]:
    """One of the page's shortcuts for every army of the seat; what it could not do is said
    with the rest saved (an army whose points cannot deploy at all is the set-up's to fix)."""
    hexmap = _hexmap(access.campaign)
    version = _version(access.campaign)
    if hexmap is None or version is None:
        return ["The campaign's map could not be loaded: place your forces one by one."]
    state = viewcache.version_state(version)
    notes = apply_shortcut(
        action,
        access.seat.armies,
        access.seat.leaders or {},
        draft,
        state,
        hexmap,
        _settings(access.campaign),
    )
    for note in notes:
        messages.warning(request, note)
    return []


def _apply_deploy_post(request: HttpRequest, access: Access, draft: dict) -> list[str]:
    """Change ``draft`` by one deployment action; the messages when the input is malformed."""
    army_value = request.POST.get("army", "")
    if army_value not in access.seat.armies:
        return ["Choose one of your own armies."]
    dep = draft.get("deployment") if isinstance(draft.get("deployment"), dict) else {}
    version = _version(access.campaign)
    army = Army.parse(army_value)
    if version is not None and placed_by_opening(army, dep, viewcache.version_state(version)):
        return [f"{army.label} stands where the campaign's historical opening placed it."]
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
