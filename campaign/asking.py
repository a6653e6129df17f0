"""The page that asks the organiser before a tool acts: what will happen, a reason for the
log the players read, and the tool's own fields carried through the question; and the tool run
after it (``confirmed_tool``, ``run_tool``), back to the organiser's board with its message."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from campaign.access import organiser_campaign
from campaign.models import Campaign
from campaign.services.actionlog import OrganiserError
from campaign.services.plaintext import without_bidi


def said_yes(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("confirmed") == "yes"


def reason(request: HttpRequest) -> str:
    """The organiser's reason, as the log keeps it."""
    return without_bidi(request.POST.get("reason", "")).strip()[:300]


def posted_fields(request: HttpRequest) -> list[tuple[str, str]]:
    """The tool's own posted fields, to carry through the question (``ask(hidden=...)``): all
    but the CSRF token and the question's own answer and reason."""
    return [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "confirmed", "reason")
        for value in values
    ]


def ask(
    request: HttpRequest,
    campaign,
    question: str,
    effects: list[str],
    post_url: str,
    *,
    hidden: Iterable[tuple[str, object]] = (),
    back_url: str = "",
) -> HttpResponse:
    return render(
        request,
        "campaign/confirm.html",
        {
            "campaign": campaign,
            "question": question,
            "effects": effects,
            "post_url": post_url,
            "hidden": list(hidden),
            "back_url": back_url,
        },
    )


def to_board(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    return redirect("organiser_board", campaign.code)


def confirmed_tool(
    request: HttpRequest,
    code,
    name: str,
    question: str,
    effects: list[str],
    action,
    success: str,
    *,
    args: tuple = (),
    hidden: dict | None = None,
) -> HttpResponse:
    """An organiser's tool, asked first: a page that says what will happen, then, posted with
    ``confirmed=yes`` and a reason (for the log the players read), the tool itself. ``hidden``
    carries the tool's own fields (hours, the new player...) through the question."""
    campaign = organiser_campaign(request, code)
    if said_yes(request):
        why = reason(request)
        return run_tool(request, code, lambda c: action(c, why), success)
    return ask(
        request,
        campaign,
        question,
        effects,
        reverse(name, args=[campaign.code, *args]),
        hidden=sorted((hidden or {}).items()),
    )


def run_tool(request: HttpRequest, code, action, success: str) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    try:
        action(campaign)
    except OrganiserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, success)
    return to_board(request, campaign)
