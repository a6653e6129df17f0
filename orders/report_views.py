"""What a seat has learnt: the turn report, the history of earlier phases, the handover page for a
reserve player and the view as JSON; each shows the seat's ``View`` of a version (``orders.pages``).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.models import StateVersion
from campaign.projection import event_items, view_to_dict
from orders.access import _access, _version, _view, _window, context_of
from orders.pages import page_context
from rules.armies import Army


@login_required
@require_GET
def report(request: HttpRequest, code, number: int | None = None) -> HttpResponse:
    """The turn report of a version (the latest by default): events in plain sentences."""
    access = _access(request, code)
    version = _version(access.campaign, number)
    if version is None:
        return render(
            request, "play/report.html", page_context(context_of(access, None)), status=404
        )
    ctx = page_context(context_of(access, version))
    view = ctx["view"]
    ctx["turns"] = [
        (
            turn,
            event_items(e for e in view.events if e.turn == turn and e.kind != "reconnaissance"),
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
                                       "campaign": access.campaign, "versions": versions,
                                       "window": _window(access.campaign)},  # (the nav's tab)
    )  # fmt: skip


def _turn_asked(request: HttpRequest, latest: int) -> int | None:
    """The earlier turn asked for by ``?turn=N`` (1 to two turns before ``latest``); None for
    the recent turns (no number, a number out of range or not a number)."""
    try:
        turn = int(request.GET.get("turn", ""))
    except ValueError:
        return None
    return turn if 1 <= turn <= latest - 2 else None


def _by_turn(view, turns) -> list[tuple]:
    """(turn, events as report lines, reconnaissance reports) of each of ``turns`` with an
    event, newest first."""
    present = {e.turn for e in view.events if e.turn}
    return [
        (
            t,
            event_items(e for e in view.events if e.turn == t),
            [r for r in view.reports if r.turn == t],
        )
        for t in sorted(present & set(turns), reverse=True)
    ]


@login_required
@require_GET
def handover(request: HttpRequest, code) -> HttpResponse:
    """Everything the seat knows, for a reserve player taking it over: its forces now and the
    reports of this turn and the last; every earlier turn on a page of its own (``?turn=N``),
    so that the page costs the same in the last turn as in the first."""
    access = _access(request, code)
    version = _version(access.campaign)
    ctx = page_context(context_of(access, version))
    if version is not None:
        latest = ctx["view"].turn
        turn = _turn_asked(request, latest)
        if turn is None:
            ctx["by_turn"] = _by_turn(ctx["view"], (latest, latest - 1))
        else:
            ctx["by_turn"] = _by_turn(_view(access, version, turn=turn), (turn,))
        ctx["page_turn"] = turn
        ctx["earliest"] = 1 if latest > 2 else None  # the first of the earlier turns, if any
        ctx["last_earlier"] = latest - 2
        ctx["older"] = turn - 1 if turn is not None and turn > 1 else None
        ctx["newer"] = turn + 1 if turn is not None and turn + 1 <= latest - 2 else None
        ctx["control"] = control_by_city(ctx["view"].control)
    return render(request, "play/handover.html", ctx)


def control_by_city(control: dict[str, str]) -> list[tuple[str, str]]:
    """Fortress control (2.3) as the page lists it: by city, each army by its name."""
    labels = {a.value: a.label for a in Army}
    return sorted((city, labels.get(army, army)) for city, army in control.items())


@login_required
@require_GET
def view_json(request: HttpRequest, code, number: int) -> HttpResponse:
    """The seat's view of one version as JSON (the same projection as every page)."""
    access = _access(request, code)
    version = _version(access.campaign, number)
    if version is None:
        return JsonResponse({"error": "no such version"}, status=404)
    return JsonResponse(view_to_dict(_view(access, version)))
