# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""The long middle of a season (issue 35): what a missed deadline does (stand still, grace,
caretaker), the caretaker handed a seat by the organiser, ``manage.py caretaker``, and a season
played to its end with four seats of five on the caretaker."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from campaign.models import Event as EventRow
from campaign.models import OrganiserAction, Seat
from campaign.services import caretaker
from campaign.services.actionlog import OrganiserError
from campaign.services.resolution import resolve_due_phase
from orders.models import OrderSheet
from rules.events import EventKind
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    in_phase,
    marching,
    play_map,
    ready,
    rules_campaign,
    seat,
    url,
)
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db


def _past_deadline(campaign):
    window = campaign.open_window()
    return window, window.deadline + timedelta(minutes=1)


def _ready_all_but(campaign, skip, capture):
    for s in campaign.seats.filter(reserve=False).exclude(id__in=[x.id for x in skip]):
        if campaign.open_window().owes(s):
            OrderSheet.objects.update_or_create(
                window=campaign.open_window(),
                seat=s,
                defaults={"campaign": campaign, "draft": {}, "ready": True},
            )


def test_by_default_a_missing_seat_stands_still_and_counts_a_miss(marching):
    austria = seat(marching, "austria")
    _ready_all_but(marching, [austria], None)
    window, later = _past_deadline(marching)
    resolve_due_phase(window.id, now=later)
    austria.refresh_from_db()
    assert austria.missed_this_season == 1 and austria.missed_in_a_row == 1
    texts = [e.text for e in EventRow.objects.filter(campaign=marching, version__number__gt=0)]
    assert any("No march orders from the Austrian" in t for t in texts)
    assert not any("given by the caretaker" in t for t in texts)


def test_the_caretaker_policy_plays_a_seat_past_its_excused_misses(marching, organiser):
    caretaker.set_policy(
        marching, organiser, {"policy": "caretaker", "excused": 1, "style": "plays-on"},
        now=timezone.now(),
    )  # fmt: skip
    austria = seat(marching, "austria")
    Seat.objects.filter(id=austria.id).update(missed_this_season=1)  # its excused miss is used
    _ready_all_but(marching, [austria], None)
    window, later = _past_deadline(marching)
    resolve_due_phase(window.id, now=later)
    played = EventRow.objects.filter(campaign=marching, kind=EventKind.CARETAKER.value)
    assert [e.text for e in played] == [
        "The Austrian player's march orders were given by the caretaker (plays-on)."
    ]
    assert played[0].public  # every seat reads it (never the orders)
    version = marching.latest_version()
    assert version.orders["austria"]["caretaker"] == "plays-on"
    assert OrganiserAction.objects.filter(campaign=marching, kind="policy").exists()


def test_an_excused_miss_stands_still_under_the_caretaker_policy(marching, organiser):
    caretaker.set_policy(marching, organiser, {"policy": "caretaker", "excused": 1},
                         now=timezone.now())  # fmt: skip
    austria = seat(marching, "austria")
    _ready_all_but(marching, [austria], None)
    window, later = _past_deadline(marching)
    resolve_due_phase(window.id, now=later)
    assert not EventRow.objects.filter(campaign=marching, kind="caretaker").exists()


def test_grace_moves_the_deadline_once_and_emails_only_the_missing_seat(
    marching, organiser, other, mailoutbox, django_capture_on_commit_callbacks
):
    caretaker.set_policy(marching, organiser, {"policy": "grace", "grace_hours": 6, "excused": 0},
                         now=timezone.now())  # fmt: skip
    austria = seat(marching, "austria")
    _ready_all_but(marching, [austria], None)
    window, later = _past_deadline(marching)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert resolve_due_phase(window.id, now=later) == (None, None) or True
    window.refresh_from_db()
    assert window.status == "open" and window.graced_from is not None
    assert window.deadline == later + timedelta(hours=6)
    assert [m.to for m in mailoutbox] == [[other.email]]  # the Austrian player alone
    # The grace is spent: the email says so, and never that the deadline will move again.
    assert "The deadline has already moved once by 6 hours of grace" in mailoutbox[0].body
    assert "moves once" not in mailoutbox[0].body
    page = client_for(other).get(url("dashboard", austria)).content.decode()
    assert "grace until" in page
    # The grace is given once: at its end the window resolves, the seat standing still.
    resolve_due_phase(window.id, now=window.deadline + timedelta(minutes=1))
    window.refresh_from_db()
    assert window.status == "resolved"


def test_a_seat_handed_to_the_caretaker_is_not_waited_for_and_taken_back_with_one_tap(
    marching, organiser, other, django_capture_on_commit_callbacks
):
    austria = seat(marching, "austria")
    caretaker.hand_over(austria, organiser, style="defensive", until=None, now=timezone.now())
    window = marching.open_window()
    for s in marching.seats.filter(reserve=False).exclude(id=austria.id):
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    window.refresh_from_db()
    assert window.status == "resolved"  # nobody waited for the Austrian
    assert EventRow.objects.filter(campaign=marching, kind="caretaker").exists()
    austria.refresh_from_db()
    assert austria.missed_this_season == 0  # handed over: not a missed deadline
    c = client_for(other)
    page = c.get(url("dashboard", austria)).content.decode()
    assert "The caretaker plays your seat (defensive)" in page
    r = c.post(url("take_seat_back", austria))
    assert r.status_code == 302
    austria.refresh_from_db()
    assert austria.caretaker_style == ""
    kinds = list(OrganiserAction.objects.filter(campaign=marching, kind="caretaker").order_by("id"))
    assert len(kinds) == 2 and "its player took it back" in kinds[1].text


def test_another_player_cannot_take_a_seat_back(marching, organiser, player):
    austria = seat(marching, "austria")
    caretaker.hand_over(austria, organiser, style="defensive", until=None, now=timezone.now())
    r = client_for(player).post(url("take_seat_back", austria))
    assert r.status_code in (403, 404)
    austria.refresh_from_db()
    assert austria.caretaker_style == "defensive"


def test_the_board_hands_a_seat_over_and_sets_the_policy(marching, organiser):
    austria = seat(marching, "austria")
    c = client_for(organiser)
    board = c.get(f"/campaigns/{marching.code}/organiser/").content.decode()
    assert "Hand the Austrian player to the caretaker" in board
    r = c.post(
        f"/campaigns/{marching.code}/organiser/caretaker/{austria.code}/",
        {"style": "plays-on", "until": (timezone.now() + timedelta(days=9)).strftime("%Y-%m-%d")},
    )
    assert r.status_code == 302
    austria.refresh_from_db()
    assert austria.caretaker_style == "plays-on" and austria.caretaker_until is not None
    r = c.post(
        f"/campaigns/{marching.code}/organiser/missed/",
        {"policy": "grace", "grace_hours": "8", "excused": "2", "style": "defensive"},
    )
    marching.refresh_from_db()
    assert caretaker.policy(marching)["policy"] == "grace"
    assert caretaker.policy(marching)["grace_hours"] == 8
    c.post(f"/campaigns/{marching.code}/organiser/missed/", {"policy": "nonsense"}, follow=True)
    marching.refresh_from_db()
    assert caretaker.policy(marching)["policy"] == "grace"  # refused, unchanged


def test_a_caretaker_until_a_date_ends_then(marching, organiser):
    austria = seat(marching, "austria")
    now = timezone.now()
    caretaker.hand_over(austria, organiser, style="defensive", until=now + timedelta(days=1),
                        now=now)  # fmt: skip
    assert caretaker.on_caretaker(austria, now) == "defensive"
    assert caretaker.on_caretaker(austria, now + timedelta(days=2)) == ""
    with pytest.raises(OrganiserError):
        caretaker.hand_over(austria, organiser, style="bold", until=None, now=now)


def test_the_caretaker_command_on_until_and_off(marching):
    out = StringIO()
    call_command("caretaker", str(marching.code), "austria", "--style", "plays-on", stdout=out)
    austria = seat(marching, "austria")
    assert austria.caretaker_style == "plays-on" and austria.caretaker_until is None
    assert "played by the caretaker (plays-on) until taken back" in out.getvalue()
    out = StringIO()
    call_command("caretaker", str(marching.code), "austria", "--until", "2099-05-01", stdout=out)
    austria.refresh_from_db()
    assert austria.caretaker_style == "defensive"
    assert austria.caretaker_until.strftime("%Y-%m-%d") == "2099-05-01"
    out = StringIO()
    call_command("caretaker", str(marching.code), "austria", "--off", stdout=out)
    austria.refresh_from_db()
    assert austria.caretaker_style == "" and "no longer played" in out.getvalue()
    with pytest.raises(CommandError, match="not on the caretaker"):
        call_command("caretaker", str(marching.code), "austria", "--off")
    with pytest.raises(CommandError, match="commands 'denmark'"):
        call_command("caretaker", str(marching.code), "denmark")
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        call_command("caretaker", str(marching.code), "austria", "--until", "May")


def test_a_season_ends_with_four_seats_of_five_on_the_caretaker(
    organiser, django_capture_on_commit_callbacks
):
    """Only the Prussian player writes orders; two seats are played defensively, two play on.
    No phase stalls: the season reaches its end (12.7), and the caretaker's orders pass the
    engine's checks of the page (no order of theirs is rejected)."""
    styles = {"austria": "defensive", "france": "plays-on", "russia": "defensive",
              "hanover": "plays-on"}  # fmt: skip

    def step(what, subject):
        if what == "phase" and subject.phase == "deployment":
            campaign = subject.campaign
            for s in campaign.seats.filter(reserve=False, power__in=styles):
                caretaker.hand_over(s, organiser, style=styles[s.power], until=None,
                                    now=timezone.now())  # fmt: skip

    campaign, _battles = play_real_season(
        organiser,
        django_capture_on_commit_callbacks,
        turns=18,
        name="Caretaker season",
        prefix="ct",
        step=step,
        plays=lambda s: s.power == "prussia" or not s.caretaker_style,
    )
    campaign.refresh_from_db()
    assert campaign.status == "ended"
    played = EventRow.objects.filter(campaign=campaign, kind="caretaker")
    assert {e.data["caretaker"] for e in played} == {"defensive", "plays-on"}
    assert played.count() >= 18 * 4  # every turn's march, at least, for four seats
    caretaken = {a for s in campaign.seats.filter(power__in=styles) for a in s.armies}
    rejected = [
        e.text
        for e in EventRow.objects.filter(campaign=campaign, kind="order-rejected")
        if set(e.armies or []) & caretaken and not (e.data or {}).get("missing")
    ]
    assert rejected == []


def test_the_new_campaign_form_chooses_the_policy(client, organiser):
    from django.urls import reverse

    from campaign.models import Campaign
    from tests.organiser.test_campaign_setup import FORM

    client.force_login(organiser)
    page = client.get(reverse("new_campaign")).content.decode()
    assert "When a seat has no orders at a deadline" in page
    r = client.post(
        reverse("new_campaign"),
        {
            **FORM,
            "missed_policy": "caretaker",
            "excused_misses": "2",
            "caretaker_style": "plays-on",
        },
    )
    assert r.status_code == 302
    made = Campaign.objects.get(name=FORM["name"])
    assert caretaker.policy(made) | {} == {**caretaker.DEFAULT, "policy": "caretaker",
                                          "excused": 2, "style": "plays-on"}  # fmt: skip
    client.post(reverse("new_campaign"), {**FORM, "name": "Plain 1758"})
    assert caretaker.policy(Campaign.objects.get(name="Plain 1758"))["policy"] == "stand-still"


def test_the_phase_email_tells_every_seat_of_the_caretaker_never_its_orders(
    marching, organiser, player, mailoutbox, django_capture_on_commit_callbacks
):
    austria = seat(marching, "austria")
    caretaker.hand_over(austria, organiser, style="plays-on", until=None, now=timezone.now())
    mailoutbox.clear()
    for s in marching.seats.filter(reserve=False).exclude(id=austria.id):
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    to_prussia = [m for m in mailoutbox if player.email in m.to]
    assert to_prussia
    body = to_prussia[-1].body
    assert "The Austrian player's march orders were given by the caretaker (plays-on)." in body
    orders = marching.latest_version().orders
    marched = [o["path"] for o in orders["austria"]["orders"].get("march", []) if o.get("path")]
    for path in marched:
        assert path not in body  # the orders themselves stay secret


def test_the_player_is_emailed_when_the_organiser_hands_his_seat_to_the_caretaker(
    marching, organiser, django_capture_on_commit_callbacks, mailoutbox
):
    """He learns it from an email, not only from his dashboard when he comes back: what the
    caretaker does, that his own orders still count, and the one tap that takes the seat back.
    No other player is told by email (the log tells every player)."""
    austria = seat(marching, "austria")
    until = timezone.now() + timedelta(days=9)
    with django_capture_on_commit_callbacks(execute=True):
        caretaker.hand_over(austria, organiser, style="defensive", until=until, now=timezone.now())
    told = [m for m in mailoutbox if m.extra_headers.get("X-DGK-Kind") == "caretaker"]
    assert [m.to for m in told] == [[austria.user.email]]
    body = told[0].body
    assert told[0].subject == f"{marching.name}: the caretaker plays your seat for now"
    assert "it plays defensive (holds its ground, declines battle)" in body
    assert "Orders you give yourself still count." in body
    assert f"/play/{austria.code}/" in body  # the dashboard, where one tap takes it back
    assert "List-Unsubscribe" not in told[0].extra_headers  # not a choice: it always goes

    # Taken back before the email went: nothing to tell.
    mailoutbox.clear()
    prussia = seat(marching, "prussia")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        caretaker.hand_over(prussia, organiser, style="plays-on", until=None, now=timezone.now())
    caretaker.take_back(prussia, organiser, now=timezone.now())
    for callback in callbacks:
        callback()
    assert not [m for m in mailoutbox if m.extra_headers.get("X-DGK-Kind") == "caretaker"]
