"""The page that asks the organiser before a tool acts: what will happen, a reason for the
log the players read, and the tool's own fields carried through the question."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def said_yes(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("confirmed") == "yes"


def reason(request: HttpRequest) -> str:
    """The organiser's reason, as the log keeps it."""
    return request.POST.get("reason", "").strip()[:300]


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
