"""*The war* (issue 28, docs/season-end.md): once the campaign is over, every member sees the
whole war: the map of every phase, every seat's orders, every roll, the charts. Before the end
these URLs answer 404 to every member (``war_campaign``) and 403 to anyone else.

The organiser may switch on a public read-only link after the end (``/war/<token>/``, off by
default): the same page and map without signing in; switching it off breaks the link.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.services import photo_pages
from campaign import asking
from campaign.access import member_campaign, organiser_campaign
from campaign.models import Campaign
from campaign.services.actionlog import OrganiserError
from dgk import files, jsontext
from seasons.services import bookfiles, war


def war_campaign(request: HttpRequest, code) -> Campaign:
    """The campaign, for *The war* (docs/season-end.md): a member's, once it is over. Before
    the end it is not found, for every member alike (the playing organiser too; a non-playing
    umpire has his own page)."""
    campaign = member_campaign(request, code)
    if not war.war_shown(campaign):
        raise Http404("The war is shown when the campaign is over.")
    return campaign


def _page(request: HttpRequest, campaign: Campaign, *, public: bool) -> HttpResponse:
    figures = war.figures(campaign)
    history = (
        reverse("war_public_history", args=[campaign.war_token])
        if public
        else reverse("war_history", args=[campaign.code])
    )
    organiser = not public and campaign.organiser_id == request.user.id
    return render(
        request,
        "seasons/war.html",
        {
            "campaign": campaign,
            "public": public,
            "history_url": history,
            "is_organiser": organiser,
            "public_link": (
                request.build_absolute_uri(reverse("war_public", args=[campaign.war_token]))
                if organiser and campaign.war_token
                else ""
            ),
            "figures": figures,
            "charts": war.charts(figures),
            "losses": war.loss_rows(figures),
            "causes": war.warseries.CAUSES,
            "phases": war.phase_records(campaign),
            "book_urls": (
                []
                if public and not photo_pages.public_book_allowed(campaign, now=timezone.now())
                else _book_urls(campaign, public=public)
            ),
            # the battles' photos and accounts as may_see_photos allows; the gazette's on the link
            "battle_photos": photo_pages.for_war(
                campaign, request.user, public=public, now=timezone.now()
            ),
        },
    )


def _book_urls(campaign: Campaign, *, public: bool) -> list[tuple[str, str]]:
    if public:
        return [(paper, reverse("war_public_book", args=[campaign.war_token, paper]))
                for paper in bookfiles.PAPERS]  # fmt: skip
    return [(paper, reverse("war_book", args=[campaign.code, paper])) for paper in bookfiles.PAPERS]


def _book(request: HttpRequest, campaign: Campaign, paper: str, *, back: str) -> HttpResponse:
    """The book of the season as the worker printed it; not stored yet: asked for again, and a
    page that says so and looks again in a while (202)."""
    if paper not in bookfiles.PAPERS:
        raise Http404("The book is printed on A4 or Letter paper.")
    response = files.file_response(
        bookfiles.KIND,
        bookfiles.book_key(campaign, paper),
        content_type="application/pdf",
        headers={"Cache-Control": "private, no-cache"},
        filename=f"book-of-the-season-{paper}.pdf",
    )
    if response is not None:
        return response
    bookfiles.ask_for_book(campaign)
    return render(
        request,
        "seasons/book_wait.html",
        {"campaign": campaign, "paper": bookfiles.PAPERS[paper], "back": back},
        status=202,
    )


def _history(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    try:
        number = int(request.GET["version"]) if "version" in request.GET else None
    except ValueError:
        number = None
    data = war.war_layer(campaign, number)
    if data is None:
        return JsonResponse({"error": "the campaign has no map yet"}, status=404)
    body = jsontext.dumps(data)
    return HttpResponse(
        body, content_type="application/json", headers={"Cache-Control": "private, no-cache"}
    )


@login_required
@require_GET
def war_page(request: HttpRequest, code) -> HttpResponse:
    return _page(request, war_campaign(request, code), public=False)


@login_required
@require_GET
def war_history(request: HttpRequest, code) -> HttpResponse:
    """The map widget's document of one phase (``?version=N``), all-seeing."""
    return _history(request, war_campaign(request, code))


def _public(token: str) -> Campaign:
    campaign = war.public_campaign(token)
    if campaign is None:
        raise Http404("No such page.")
    return campaign


@require_GET
def war_public(request: HttpRequest, token: str) -> HttpResponse:
    """*The war* for anyone with the link, read-only, while the organiser keeps it on."""
    return _page(request, _public(token), public=True)


@require_GET
def war_public_history(request: HttpRequest, token: str) -> HttpResponse:
    return _history(request, _public(token))


@login_required
@require_GET
def war_book(request: HttpRequest, code, paper: str) -> HttpResponse:
    """The book of the season (PDF), for every member once the campaign is over."""
    campaign = war_campaign(request, code)
    return _book(request, campaign, paper, back=reverse("war", args=[campaign.code]))


@require_GET
def war_public_book(request: HttpRequest, token: str, paper: str) -> HttpResponse:
    """The book on the public link, unless it prints what the sides kept to the club (an
    account, a photo they did not agree to show the public): the book is printed once, for the
    members (docs/season-end.md, "The battles' photos in the book")."""
    campaign = _public(token)
    if not photo_pages.public_book_allowed(campaign, now=timezone.now()):
        return render(
            request,
            "seasons/book_members.html",
            {"campaign": campaign, "back": reverse("war_public", args=[token])},
            status=403,
        )
    return _book(request, campaign, paper, back=reverse("war_public", args=[token]))


@login_required
@require_POST
def war_link(request: HttpRequest, code) -> HttpResponse:
    """The organiser switches the public link on (a new token) or off."""
    campaign = organiser_campaign(request, code)
    try:
        war.set_public_link(
            campaign, request.user, on=request.POST.get("public") == "on", now=timezone.now()
        )
    except OrganiserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, "The public link is on." if campaign.war_token else "The public link is off."
        )
    return redirect("war", campaign.code)


@login_required
@require_http_methods(["GET", "POST"])
def end_war(request: HttpRequest, code) -> HttpResponse:
    """Linked campaigns (13): the organiser ends the war from its latest year, asked first;
    the fog lifts on every year of it."""
    year, names = organiser_campaign(request, code), []
    while year is not None:
        names.append(year.name)
        year = year.previous
    years = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return asking.confirmed_tool(
        request,
        code,
        "end_war",
        "End the war and lift the fog?",
        [
            "No next year starts: the war is over.",
            f"The fog lifts on {years}: every seat sees the whole war, every order and every "
            "roll, and the book of each year.",
            "The dice seeds are revealed, so every roll can be checked.",
            "The log of each year records it, with your reason.",
        ],
        lambda c, why: war.end_war(c, request.user, now=timezone.now(), reason=why),
        "The war is over: the fog has lifted.",
    )
