"""The campaign set-up and organiser pages, and the members' list of campaigns.

Access is checked in the private helpers ``organiser_campaign``, ``member_campaign`` and
``_own_seat``, which raise PermissionDenied; the player's own pages are in ``orders`` (who may
open them: ``orders.access``). The tools on the campaign's clock (pause, resume, extend,
resolve now, roll back, end) are in ``organiser.clock_views``.
"""

from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.services import signin
from battles.services import records as battle_service
from campaign import asking
from campaign.access import member_campaign, organiser_campaign
from campaign.asking import confirmed_tool, to_board
from campaign.models import (
    Campaign,
    CampaignStatus,
    Invitation,
    LeaderSelection,
    Seat,
    is_organiser,
)
from campaign.services import (
    actionlog,
    caretaker,
    drifting,
    gameplay,
    openings,
    organiser,
    outgoing,
    reopen,
    setup,
)
from campaign.services.actionlog import OrganiserError
from club.forms import HookForm
from club.services import channel, roster
from letters.services import press
from organiser.forms import (
    ArmiesForm,
    CampaignForm,
    EnterOrdersForm,
    ExtendForm,
    InviteForm,
    JoinForm,
    OptionsForm,
    ReplaceForm,
    SeatSettingsForm,
)
from rules.armies import Army
from rules.leaders import UnknownLeader, leader, leaders_of
from rules.rulesettings import settings_from_dict

# --- campaigns: set-up, invitations, the organiser's board and tools (issue 6) -------------


def _own_seat(request: HttpRequest, code) -> Seat:
    seat = get_object_or_404(Seat.objects.select_related("campaign"), code=code)
    if seat.user_id != request.user.id:
        raise PermissionDenied
    return seat


def _options_form(campaign: Campaign) -> OptionsForm:
    options = campaign.options or {}
    return OptionsForm(
        initial={
            "allies_share": bool(options.get("allies_share")),
            "press": press.channel(campaign),
            "courier_phases": press.courier_phases(campaign),
        }
    )


@login_required
@require_GET
def my_campaigns(request: HttpRequest) -> HttpResponse:
    organised = Campaign.objects.filter(organiser=request.user).order_by("-created")
    seats = Seat.objects.filter(user=request.user).select_related("campaign")
    return render(
        request,
        "organiser/list.html",
        {"organised": organised, "seats": seats, "may_organise": is_organiser(request.user)},
    )


def _size(form: CampaignForm):
    """The armies' points at the form's size against 3.2 (the initial size when unbound)."""
    if form.is_bound:
        return form.size
    base, points = form.fields["base_army"].initial, form.fields["base_points"].initial
    return setup.size_check(
        gameplay.army_points_from_base(base, points, settings_from_dict({})), {}, base_army=base
    )


@login_required
def new_campaign(request: HttpRequest) -> HttpResponse:
    if not is_organiser(request.user):
        raise PermissionDenied
    if request.method == "GET" and request.GET.get("room"):
        # The form's table of the armies' points, redrawn as the size changes (htmx).
        form = CampaignForm(request.GET)
        form.is_valid()
        return render(request, "organiser/new.html#room", {"form": form, "size": form.size})
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            campaign = setup.create_campaign(
                request.user,
                name=data["name"],
                players=data["players"],
                now=timezone.now(),
                army_points=form.army_points(),
                leader_selection=data["leader_selection"],
                rule_settings=data["rule_settings"],
                options={
                    "allies_share": data["allies_share"],
                    "optional_rules": data["optional_rules"],
                    "press": data["press"] or "open",
                    "courier_phases": data["courier_phases"] or 2,
                    "press_moderated": data["press_moderated"],
                    # the fog held between years (13): asked, or implied by the Clock of Fate
                    "linked": bool(data["linked"] or data["fate"]),
                    "opening": data["opening"] or "",
                    "fate": openings.fate_option(
                        data["fate"], data["fate_from_year"], data["fate_less_extreme"]
                    ),
                    "missed": caretaker.check_policy(
                        {
                            key: value
                            for key, value in (
                                ("policy", data["missed_policy"]),
                                ("grace_hours", data["grace_hours"]),
                                ("excused", data["excused_misses"]),
                                ("style", data["caretaker_style"]),
                                ("absent", data["caretaker_absent"]),
                            )
                            if value not in (None, "")
                        }
                    ),
                },
                deadline_policy=form.deadline_policy(),
                time_zone=data["time_zone"],
                reminders={
                    "hours_before": data["reminder_hours"],
                    "flag_after_missed": data["flag_after_missed"],
                },
                umpire_plays=data["umpire_plays"],
                organiser_seat=data["organiser_seat"],
                emails=form.emails(),
            )
        except setup.SetupError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{campaign.name} is set up: check the seats, then start.")
            return redirect("campaign_setup", campaign.code)
    return render(request, "organiser/new.html", {"form": form, "size": _size(form)})


def _leader_name(key: str) -> str:
    try:
        return leader(key).name
    except UnknownLeader:
        return key


def _seat_rows(campaign: Campaign, seats: list[Seat]) -> list[dict]:
    """Each seat of the set-up page: its armies and leaders by name (14), its player or its
    waiting invitation."""
    waiting = {}
    for invitation in Invitation.objects.filter(
        seat__campaign=campaign, accepted_at__isnull=True
    ).order_by("created"):
        waiting[invitation.seat_id] = invitation
    return [
        {
            "seat": seat,
            "armies": [Army(a).label for a in seat.armies],
            "leaders": [
                (Army(army).label, [_leader_name(k) for k in keys])
                for army, keys in (seat.leaders or {}).items()
            ],
            "leader_count": sum(len(keys) for keys in (seat.leaders or {}).values()),
            "invitation": waiting.get(seat.id),
        }
        for seat in seats
    ]


@login_required
def campaign_setup(request: HttpRequest, code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    seats = list(campaign.seats.filter(reserve=False).select_related("user"))
    armies_form = ArmiesForm(request.POST or None, seats=seats)
    if request.method == "POST" and armies_form.is_valid():
        try:
            setup.assign_armies(campaign, armies_form.cleaned_data)
        except setup.SetupError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, "Armies assigned.")
            return redirect("campaign_setup", campaign.code)
    reserves = list(campaign.seats.filter(reserve=True).select_related("user"))
    return render(
        request,
        "organiser/setup.html",
        {
            "campaign": campaign,
            "seats": _seat_rows(campaign, seats),
            "reserves": _seat_rows(campaign, reserves),
            "armies_form": armies_form,
            "invite_form": InviteForm(),
            "options_form": _options_form(campaign),
            "outbox": outgoing.outbox_enabled(),
            "club_rosters": roster.campaign_roster(campaign),
        },
    )


@login_required
@require_POST
def invite(request: HttpRequest, code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    form = InviteForm(request.POST)
    if not form.is_valid():
        problems = " ".join(e for errors in form.errors.values() for e in errors)
        messages.error(request, f"The invitation was not sent: {problems}")
        return redirect("campaign_setup", campaign.code)
    now = timezone.now()
    seat_code = form.cleaned_data["seat"]
    with transaction.atomic():
        if seat_code:
            seat = get_object_or_404(Seat, campaign=campaign, code=seat_code, reserve=False)
            if seat.user_id is not None:
                messages.error(request, f"The {seat.label} has a player already.")
                return redirect("campaign_setup", campaign.code)
            # A seat has one waiting invitation: a new address replaces the one before.
            seat.invitations.filter(accepted_at__isnull=True).delete()
            setup.invite(seat, form.cleaned_data["email"], now=now)
        else:
            setup.add_reserve(campaign, form.cleaned_data["email"], now=now)
    messages.success(request, f"Invitation sent to {form.cleaned_data['email']}.")
    return redirect("campaign_setup", campaign.code)


@login_required
@require_POST
def invitation(request: HttpRequest, code, token: str) -> HttpResponse:
    """Resend (``action=resend``) or withdraw (``action=withdraw``) a waiting invitation."""
    campaign = organiser_campaign(request, code)
    invitation = get_object_or_404(
        Invitation.objects.select_related("seat"), seat__campaign=campaign, token=token
    )
    action = request.POST.get("action")
    try:
        with transaction.atomic():
            if action == "resend":
                setup.resend_invitation(invitation)
                messages.success(request, f"Invitation sent again to {invitation.email}.")
            elif action == "withdraw":
                setup.withdraw_invitation(invitation)
                messages.success(request, f"The invitation of {invitation.email} is withdrawn.")
            else:
                messages.error(request, "Resend or withdraw the invitation.")
    except setup.SetupError as exc:
        messages.error(request, str(exc))
    return redirect("campaign_setup", campaign.code)


@login_required
@require_POST
def start(request: HttpRequest, code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    try:
        setup.start_campaign(campaign, request.user, now=timezone.now())
    except setup.SetupError as exc:
        messages.error(request, str(exc))
        return redirect("campaign_setup", campaign.code)
    messages.success(request, "The campaign has started: deployment is open.")
    return to_board(request, campaign)


def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link: signed in, join at once; otherwise create an account (or sign in)."""
    invitation = get_object_or_404(Invitation.objects.select_related("seat__campaign"), token=token)
    form = JoinForm(request.POST or None) if not request.user.is_authenticated else None
    if request.method == "POST" and invitation.accepted_at is None:
        if form is not None and not form.is_valid():
            return render(
                request, "organiser/accept.html", {"invitation": invitation, "form": form}
            )
        try:
            if form is not None:
                account = form.save(commit=False)
                account.email = invitation.email
                seat = setup.join_with_new_account(token, account, now=timezone.now())
                login(request, account, backend="django.contrib.auth.backends.ModelBackend")
            else:
                seat = setup.accept_invitation(token, request.user, now=timezone.now())
        except setup.InvitationError as exc:
            messages.error(request, str(exc))
            return redirect("campaigns" if request.user.is_authenticated else "home")
        messages.success(request, f"Welcome to {seat.campaign.name}.")
        return redirect("campaigns")
    return render(request, "organiser/accept.html", {"invitation": invitation, "form": form})


@login_required
def organiser_board(request: HttpRequest, code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    board = organiser.status_board(campaign, now=timezone.now())
    template = "organiser/board.html#board" if request.htmx else "organiser/board.html"
    return render(
        request,
        template,
        {
            "campaign": campaign,
            "board": board,
            "extend_form": ExtendForm(time_zone=campaign.time_zone),
            "replace_form": ReplaceForm(reserves=board.reserves),
            "options_form": _options_form(campaign),
            "locked_seats": signin.locked_seats(campaign, now=timezone.now()),
            "may_reopen": reopen.may_reopen(campaign, now=timezone.now()),
            "battles": battle_service.waiting(campaign),
            "outbox": outgoing.outbox_enabled(),
            "missed": caretaker.policy(campaign),
            "missed_policies": list(caretaker.POLICIES.items()),
            "caretaker_styles": list(caretaker.STYLES.items()),
            "hook_form": HookForm(initial={"hook": channel.hook(campaign)}),
            "club_posts": channel.recent(campaign),
        },
    )


@login_required
@require_POST
def club_hook(request: HttpRequest, code) -> HttpResponse:
    """The club's channel: the webhook the campaign's public news is posted to (docs/club.md)."""
    campaign = organiser_campaign(request, code)
    form = HookForm(request.POST)
    if form.is_valid():
        on = channel.set_hook(campaign, request.user, form.cleaned_data["hook"], now=timezone.now())
        messages.success(request, "The club's channel is set." if on else "No club's channel.")
    else:
        messages.error(request, "Not changed: " + " ".join(form.errors.get("hook", [])))
    return redirect(reverse("organiser_board", args=[campaign.code]) + "#club-hook")


@login_required
@require_POST
def missed_policy(request: HttpRequest, code) -> HttpResponse:
    """What a missed deadline does in this campaign (issue 35), changed on the board."""
    campaign = organiser_campaign(request, code)
    data = {k: request.POST.get(k, "") for k in ("policy", "grace_hours", "excused", "style")}
    data["absent"] = request.POST.get("absent") == "1"
    try:
        caretaker.set_policy(campaign, request.user, data, now=timezone.now())
    except OrganiserError as exc:
        messages.error(request, f"Not changed: {exc}")
    else:
        messages.success(request, "Saved: every player can read the change in the log.")
    return redirect(reverse("organiser_board", args=[campaign.code]) + "#missed-policy")


@login_required
@require_POST
def caretaker_seat(request: HttpRequest, code, seat_code) -> HttpResponse:
    """Hand a seat to the caretaker, or take it back (issue 35)."""
    campaign = organiser_campaign(request, code)
    seat = get_object_or_404(Seat, campaign=campaign, code=seat_code)
    now = timezone.now()
    try:
        if request.POST.get("off") == "1":
            caretaker.take_back(seat, request.user, now=now, why=" (the organiser took it back)")
            messages.success(request, f"The {seat.label} is no longer played by the caretaker.")
        else:
            until = None
            if request.POST.get("until"):
                try:
                    day = datetime.strptime(request.POST["until"], "%Y-%m-%d")
                except ValueError:
                    raise OrganiserError("The last day is a date (YYYY-MM-DD).") from None
                until = day.replace(hour=23, minute=59, tzinfo=ZoneInfo(campaign.time_zone))
            caretaker.hand_over(
                seat, request.user, style=request.POST.get("style", ""), until=until, now=now
            )
            messages.success(request, f"The {seat.label} is played by the caretaker.")
    except OrganiserError as exc:
        messages.error(request, f"Not done: {exc}")
    return redirect(reverse("organiser_board", args=[campaign.code]) + f"#board-{seat.code}")


@login_required
@require_POST
def campaign_options(request: HttpRequest, code) -> HttpResponse:
    """The organiser's settings of a campaign, from its set-up page or its board."""
    campaign = organiser_campaign(request, code)
    form = OptionsForm(request.POST)
    if form.is_valid():
        data, now = form.cleaned_data, timezone.now()
        changed = organiser.set_allies_share(campaign, request.user, data["allies_share"], now=now)
        phases = data["courier_phases"] or press.courier_phases(campaign)
        channel = data["press"] or press.channel(campaign)
        changed |= organiser.set_press(campaign, request.user, channel, phases, now=now)
        if changed:
            messages.success(request, "Settings saved; the players are told in the log.")
    back = "campaign_setup" if request.POST.get("next") == "setup" else "organiser_board"
    if request.htmx:
        return HttpResponseClientRedirect(reverse(back, args=[campaign.code]))
    return redirect(back, campaign.code)


@login_required
def enter_orders(request: HttpRequest, code, seat_code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    seat = get_object_or_404(Seat, campaign=campaign, code=seat_code, reserve=False)
    window = campaign.open_window()
    form = EnterOrdersForm(request.POST or None, initial={"phase": window.phase if window else ""})
    if request.method == "POST" and form.is_valid():
        try:
            organiser.enter_orders(
                campaign,
                request.user,
                seat,
                form.cleaned_data["orders"],
                now=timezone.now(),
                phase=form.cleaned_data["phase"],
                how=form.cleaned_data["how"],
            )
        except OrganiserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Orders of the {seat.label} entered.")
            return to_board(request, campaign)
    return render(
        request, "organiser/enter_orders.html", {"campaign": campaign, "seat": seat, "form": form}
    )


@login_required
@require_POST
def enter_orders_on_behalf(request: HttpRequest, code, seat_code) -> HttpResponse:
    """Open (or, with ``stop``, close) a seat's own order pages to the organiser, to enter the
    orders its player sent by email or on paper. Kept in the organiser's session."""
    campaign = organiser_campaign(request, code)
    seat = get_object_or_404(Seat, campaign=campaign, code=seat_code, reserve=False)
    seats = [
        c for c in request.session.get(organiser.BEHALF_SESSION_KEY, []) if c != str(seat.code)
    ]
    if request.POST.get("stop"):
        request.session[organiser.BEHALF_SESSION_KEY] = seats
        target = reverse("organiser_board", args=[campaign.code])
    elif not asking.said_yes(request):
        return asking.ask(
            request,
            campaign,
            f"Enter the orders of the {seat.label} on its player's behalf?",
            [
                f"You open the {seat.label}'s own order pages and see what its forces know.",
                "Every sheet you save is marked as entered by the organiser.",
                "The log tells every player, with your reason (say who sent the orders, and how).",
            ],
            reverse("enter_orders_on_behalf", args=[campaign.code, seat.code]),
        )
    else:
        why = asking.reason(request)
        try:
            window = organiser.begin_on_behalf(
                campaign, request.user, seat, now=timezone.now(), reason=why
            )
        except OrganiserError as exc:
            messages.error(request, str(exc))
            target = reverse("organiser_board", args=[campaign.code])
        else:
            request.session[organiser.BEHALF_SESSION_KEY] = [*seats, str(seat.code)]
            page = "orders:deploy" if window.phase == "deployment" else "orders:orders"
            target = reverse(page, args=[seat.code])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@require_POST
def replace(request: HttpRequest, code, seat_code) -> HttpResponse:
    campaign = organiser_campaign(request, code)
    seat = get_object_or_404(Seat, campaign=campaign, code=seat_code, reserve=False)
    reserves = list(campaign.seats.filter(reserve=True).select_related("user"))
    form = ReplaceForm(request.POST, reserves=reserves)
    if not form.is_valid():
        messages.error(request, " ".join(form.non_field_errors()) or "Check the form.")
        return to_board(request, campaign)
    reserve = next((s for s in reserves if str(s.code) == form.cleaned_data["reserve"]), None)
    email = form.cleaned_data["email"] if reserve is None else ""
    who = reserve.user.get_username() if reserve is not None and reserve.user else email
    now_playing = seat.user.get_username() if seat.user else "nobody"
    return confirmed_tool(
        request,
        code,
        "replace_player",
        f"Give the {seat.label} to {who}?",
        [
            f"{now_playing} no longer commands the {seat.label}; its pages are closed to them.",
            (
                f"{who} takes the seat at once and is emailed its handover page."
                if reserve is not None
                else f"{who} is invited by email and takes the seat on accepting."
            ),
            "The orders drafted so far stay with the seat.",
            "The log tells every player, with your reason.",
        ],
        lambda c, why: organiser.replace_player(
            c, request.user, seat, now=timezone.now(), reserve=reserve, email=email, reason=why
        ),
        f"The {seat.label} has a new player.",
        args=(seat.code,),
        hidden={"reserve": form.cleaned_data["reserve"] or "", "email": email},
    )


@login_required
@require_GET
def action_log(request: HttpRequest, code) -> HttpResponse:
    """Everything the organiser did: visible to every player of the campaign."""
    campaign = member_campaign(request, code)
    # Back where the reader came from: his own seat's page, or the organiser's board.
    own = campaign.seats.filter(user=request.user, reserve=False).first()
    if own is not None:
        back = (reverse("orders:dashboard", args=[own.code]), "Back to your dashboard")
    elif campaign.organiser_id == request.user.id:
        back = (reverse("organiser_board", args=[campaign.code]), "Back to the status board")
    else:
        back = (reverse("home"), "Back to your campaigns")
    return render(
        request,
        "organiser/log.html",
        {"campaign": campaign, "actions": actionlog.readable(campaign, request.user), "back": back},
    )


@login_required
def seat_settings(request: HttpRequest, code) -> HttpResponse:
    """A player's emails and absences."""
    seat = _own_seat(request, code)
    initial = {
        "email_kinds": seat.email_kinds,
        "email_mode": seat.email_mode,
        "absent_until": seat.absent_until,
    }
    form = SeatSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        seat.email_kinds = form.cleaned_data["email_kinds"]
        seat.email_mode = form.cleaned_data["email_mode"] or seat.email_mode
        seat.save(update_fields=["email_kinds", "email_mode"])
        until = form.cleaned_data["absent_until"]
        try:
            drifting.declare_absence(seat, until, now=timezone.now())
        except drifting.AbsenceError as exc:
            form.add_error("absent_until", str(exc))
        else:
            messages.success(request, "Saved.")
            return redirect("seat_settings", seat.code)
    return render(request, "organiser/seat_settings.html", {"seat": seat, "form": form})


@login_required
def pick_leaders(request: HttpRequest, code) -> HttpResponse:
    """A player picks the leaders of each army the seat commands (3.1.1, 14), before the start,
    when the campaign lets each player pick."""
    seat = _own_seat(request, code)
    campaign = seat.campaign
    may_pick = (
        campaign.status == CampaignStatus.SETUP
        and campaign.leader_selection == LeaderSelection.PICK
    )
    if request.method == "POST":
        if not may_pick:
            raise PermissionDenied("Leaders are not picked by the players in this campaign.")
        army = request.POST.get("army", "")
        problems = setup.pick_leaders(seat, army, request.POST.getlist("leaders"))
        for problem in problems:
            messages.error(request, problem)
        if not problems:
            messages.success(request, "Leaders chosen.")
        return redirect("pick_leaders", seat.code)
    rules = gameplay.rule_settings(campaign)
    armies = [
        {
            "army": army,
            "label": Army(army).label,
            "wanted": rules.leaders[army],
            "leaders": leaders_of(Army(army)),
            "chosen": set(seat.leaders.get(army, [])),
        }
        for army in seat.armies
    ]
    context = {"seat": seat, "armies": armies, "may_pick": may_pick}
    return render(request, "organiser/pick_leaders.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def reopen_campaign(request: HttpRequest, code) -> HttpResponse:
    """Within a day of ending it: a page that says what will happen, then the reopening."""
    return confirmed_tool(
        request,
        code,
        "reopen_campaign",
        "Reopen the campaign?",
        [
            "The phase that was open when you ended it opens again, with a fresh deadline.",
            "The dice seeds were revealed when it ended: from now on the dice roll with a new "
            "secret seed, whose commitment every player is emailed.",
            "The log records it, with your reason.",
        ],
        lambda c, why: reopen.reopen_campaign(c, request.user, now=timezone.now(), reason=why),
        "The campaign runs again; the players are told.",
    )
