"""The link in every email to choose which emails come (``List-Unsubscribe``): a signed token
names the seat, so a player changes it without signing in, and a mail client's one-click
unsubscribe (RFC 8058) works. And the organiser's local outbox, on a run with no mail server."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from campaign.access import organiser_campaign
from mail.forms import EmailChoiceForm
from mail.services import email, outbox


@csrf_exempt  # the signed token in the address is the authority; mail clients post no token
@require_http_methods(["GET", "POST"])
def email_preferences(request: HttpRequest, token: str) -> HttpResponse:
    seat = email.seat_of_token(token)
    if seat is None:
        raise Http404("This link is not valid.")
    done = ""
    if request.method == "POST":
        if request.POST.get("List-Unsubscribe") == "One-Click" or "stop" in request.POST:
            email.unsubscribe(seat)
            done = "No more of these emails will come."
        else:
            form = EmailChoiceForm(request.POST)
            if form.is_valid():
                type(seat).objects.filter(id=seat.id).update(
                    email_kinds=form.cleaned_data["email_kinds"],
                    email_mode=form.cleaned_data["email_mode"] or seat.email_mode,
                )
                done = "Saved."
        seat.refresh_from_db()
    form = EmailChoiceForm(initial={"email_kinds": seat.email_kinds, "email_mode": seat.email_mode})
    return render(
        request, "mail/email_preferences.html", {"seat": seat, "form": form, "done": done}
    )


@login_required
@require_GET
def campaign_outbox(request: HttpRequest, code) -> HttpResponse:
    """The campaign's emails in the local outbox (only with no mail server; organisers only)."""
    campaign = organiser_campaign(request, code)
    if not outbox.enabled():
        raise Http404("Emails go to a mail server on this site: there is no local outbox.")
    return render(
        request,
        "mail/outbox.html",
        {
            "campaign": campaign,
            # a seat's emails tell its forces and reports: an organiser who plays a seat reads
            # only the invitations, the organiser's own and those sent to him
            "mails": outbox.campaign_mail(
                campaign, everything=campaign.umpire_sees_all, own=request.user.email
            ),
        },
    )
