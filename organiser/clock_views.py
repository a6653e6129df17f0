"""The organiser's tools on the campaign's clock (issue 6): pause, resume, extend or bring
forward the deadline, resolve the open phase now, roll back the last phase, end the campaign.

Each asks first (``campaign.asking.confirmed_tool``: a page saying what will happen, a reason
for the log) and calls one ``campaign.services.organiser`` operation; access is the organiser's
(``organiser_campaign``, which raises PermissionDenied). The board they are on is in
``organiser.views``.
"""

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import organiser_campaign
from campaign.asking import confirmed_tool, to_board
from campaign.services import caretaker, organiser
from organiser.forms import ExtendForm


@login_required
@require_http_methods(["GET", "POST"])
def pause(request: HttpRequest, code) -> HttpResponse:
    return confirmed_tool(
        request,
        code,
        "pause",
        "Pause the campaign?",
        [
            "The clock stops: the open phase keeps the time it has left, and no reminder goes.",
            "Players can still write their orders; nothing resolves until you resume.",
            "The log tells every player, with your reason.",
        ],
        lambda c, why: organiser.pause(c, request.user, now=timezone.now(), reason=why),
        "Paused.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def resume(request: HttpRequest, code) -> HttpResponse:
    return confirmed_tool(
        request,
        code,
        "resume",
        "Resume the campaign?",
        [
            "The clock starts again: the deadline moves on by the time the campaign was paused.",
            "The log tells every player, with your reason.",
        ],
        lambda c, why: organiser.resume(c, request.user, now=timezone.now(), reason=why),
        "Resumed.",
    )


@login_required
@require_POST
def extend(request: HttpRequest, code) -> HttpResponse:
    """Extend the deadline by whole hours, or bring it forward to a time (issue 43)."""
    campaign = organiser_campaign(request, code)
    form = ExtendForm(request.POST, time_zone=campaign.time_zone)
    if not form.is_valid():
        messages.error(request, "Extend by a whole number of hours, or bring it to a time.")
        return to_board(request, campaign)
    hours, to = form.cleaned_data["hours"], form.cleaned_data["to"]
    if to is not None:
        when = f"{to.astimezone(ZoneInfo(campaign.time_zone)):%a %d %b, %H:%M}"
        return confirmed_tool(
            request,
            code,
            "extend",
            f"Bring the deadline forward to {when}?",
            [
                f"The open phase closes at {when} ({campaign.time_zone}), or as soon as every "
                "seat it waits for is ready.",
                "The seats it still waits for are emailed at once with the new deadline.",
                "The log tells every player, with your reason.",
            ],
            lambda c, why: organiser.bring_forward(
                c, request.user, to, now=timezone.now(), reason=why
            ),
            f"Deadline brought forward to {when}.",
            hidden={"to": form.data["to"]},
        )
    return confirmed_tool(
        request,
        code,
        "extend",
        f"Extend the deadline by {hours} hours?",
        [
            f"The open phase closes {hours} hours later than now set.",
            "Reminders start over for the new deadline.",
            "The log tells every player, with your reason.",
        ],
        lambda c, why: organiser.extend_deadline(
            c, request.user, hours, now=timezone.now(), reason=why
        ),
        f"Deadline extended by {hours} hours.",
        hidden={"hours": hours},
    )


@login_required
@require_http_methods(["GET", "POST"])
def roll_back(request: HttpRequest, code) -> HttpResponse:
    return confirmed_tool(
        request,
        code,
        "roll_back",
        "Roll back the last phase?",
        [
            "The last phase that waited for players is undone, with the automatic phases "
            "after it: their results, reports and battles go.",
            "Its orders open again as drafts (nobody's orders are lost), with a fresh deadline.",
            "Every player is told what was undone, by email and in the log.",
        ],
        lambda c, why: organiser.roll_back(c, request.user, now=timezone.now(), reason=why),
        "Rolled back: the last phase is open for orders again.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def end(request: HttpRequest, code) -> HttpResponse:
    return confirmed_tool(
        request,
        code,
        "end_campaign",
        "End the campaign now?",
        [
            "Open orders lock and no phase resolves any more.",
            "Every player is emailed that the campaign is over, and the dice seeds are "
            "revealed to all (fair dice).",
            "This cannot be undone.",
        ],
        lambda c, why: organiser.end_campaign(c, request.user, now=timezone.now(), reason=why),
        "The campaign has ended.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def resolve_now(request: HttpRequest, code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    window, chosen = campaign.open_window(), caretaker.policy(campaign)
    if window is not None and window.phase == "deployment":
        missing = [
            "Seats that have not pressed Ready: each army whose deployment is legal as drafted "
            "deploys from the draft; any other army stays undeployed and the deployment stays "
            "open for its seat, with the deadline as it stands now.",
        ]
    elif chosen["policy"] == "caretaker":
        missing = [
            f"Seats that have not pressed Ready: the caretaker gives their orders "
            f"({chosen['style']}), as the campaign's policy says.",
        ]
    else:
        missing = ["Seats that have not pressed Ready stand still, as at a deadline."]
    unsent = organiser.unsent_drafts(campaign)  # (none named to an organiser who plays)
    if unsent:
        who = " and the ".join([", the ".join(unsent[:-1]), unsent[-1]] if unsent[:-1] else unsent)
        missing.append(
            f"The {who} saved orders but did not press Ready: resolved now, those orders are not "
            "used. Ask first, if they are meant to count."
        )
    elif window is not None and window.phase != "deployment" and not campaign.umpire_sees_all:
        missing.append(
            "Orders a player saved without pressing Ready are not used. You play a seat, so whose "
            "are saved is not shown to you: ask the others first if they may still be writing."
        )
    return confirmed_tool(
        request,
        code,
        "resolve_now",
        "Resolve the open phase now?",
        [
            "The open phase resolves at once, before its deadline.",
            *missing,
            "It does not count as a missed deadline for anyone.",
            "Every player is emailed what happened (resolved by you, not by the deadline), "
            "and the log records it.",
        ],
        lambda c, why: organiser.resolve_now(c, request.user, now=timezone.now(), reason=why),
        "The phase is resolved.",
    )
