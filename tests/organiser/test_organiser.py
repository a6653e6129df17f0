"""The organiser's board and tools: each works, each is logged, the log is the players' too."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import CampaignStatus, OrganiserAction, Reminder, WindowStatus
from campaign.services import deadlines
from campaign.services import organiser as tools
from campaign.services.resolution import resolve_due_phase
from campaign.services.setup import accept_invitation, add_reserve
from orders.models import OrderSheet

pytestmark = pytest.mark.django_db


def logged(campaign, kind):
    return OrganiserAction.objects.filter(campaign=campaign, kind=kind).exists()


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


def url(name, campaign, *more):
    return reverse(name, args=[campaign.code, *more])


def test_the_board_shows_who_is_ready_not_what_they_ordered(
    client, campaign, prussia, austria, organiser, now
):
    OrderSheet.objects.create(
        campaign=campaign, seat=prussia, window=campaign.open_window(), ready=True,
        draft={"deployment": {"prussia": {"leaders": {"frederick": {"hex": "SECRET-HEX"}}}}},
    )  # fmt: skip
    campaign.umpire_plays = True  # an organiser who plays must not see orders
    campaign.save()
    client.force_login(organiser)
    page = client.get(url("organiser_board", campaign)).content.decode()
    assert "ready" in page and "waiting" in page
    assert "SECRET-HEX" not in page


def test_a_non_playing_umpire_sees_everything(as_organiser, campaign, prussia):
    OrderSheet.objects.create(
        campaign=campaign, seat=prussia, window=campaign.open_window(), ready=True,
        draft={"deployment": {"prussia": {"leaders": {"frederick": {"hex": "UMPIRE-SEES"}}}}},
    )  # fmt: skip
    assert "UMPIRE-SEES" in as_organiser.get(url("organiser_board", campaign)).content.decode()


def test_the_board_answers_htmx_with_its_partial(as_organiser, campaign):
    r = as_organiser.get(url("organiser_board", campaign), HTTP_HX_REQUEST="true")
    body = r.content.decode()
    assert r.status_code == 200 and body.lstrip().startswith('<section id="board"')
    assert "<html" not in body


def test_it_pauses_and_resumes_keeping_the_time_left(as_organiser, campaign, now, monkeypatch):
    window = campaign.open_window()
    left = window.deadline - now
    tools.pause(campaign, None, now=now)
    window.refresh_from_db()
    assert window.status == WindowStatus.PAUSED and window.remaining == left
    assert resolve_due_phase(window.id, now=now + timedelta(days=30)) is None
    later = now + timedelta(days=2)
    tools.resume(campaign, None, now=later)
    window.refresh_from_db()
    assert window.status == WindowStatus.OPEN and window.deadline == later + left
    assert logged(campaign, "paused") and logged(campaign, "resumed")


def test_pause_and_resume_through_the_pages(as_organiser, campaign):
    # asked first: the board's button shows what will happen, and nothing happens yet
    r = as_organiser.post(url("pause", campaign))
    assert r.status_code == 200 and "Pause the campaign?" in r.content.decode()
    campaign.refresh_from_db()
    assert not campaign.paused
    r = as_organiser.post(url("pause", campaign), {**YES, "reason": "Easter holidays"})
    assert r.status_code == 302
    campaign.refresh_from_db()
    assert campaign.paused
    assert "Why: Easter holidays" in OrganiserAction.objects.get(kind="paused").text
    r = as_organiser.post(url("pause", campaign), YES, follow=True)
    assert "already paused" in r.content.decode()
    as_organiser.post(url("resume", campaign), YES)
    campaign.refresh_from_db()
    assert not campaign.paused


def test_it_extends_the_deadline(as_organiser, campaign):
    before = campaign.open_window().deadline
    r = as_organiser.post(url("extend", campaign), {"hours": "12"})
    assert "Extend the deadline by 12 hours?" in r.content.decode()
    assert 'name="hours" value="12"' in r.content.decode()  # carried through the question
    assert campaign.open_window().deadline == before
    as_organiser.post(url("extend", campaign), {"hours": "12", **YES})
    assert campaign.open_window().deadline == before + timedelta(hours=12)
    assert "by 12 hours" in OrganiserAction.objects.get(kind="extended").text
    r = as_organiser.post(url("extend", campaign), {"hours": "-3"}, follow=True)
    assert "whole number of hours" in r.content.decode()


def test_it_enters_orders_sent_by_email(
    as_organiser, campaign, prussia, django_capture_on_commit_callbacks
):
    page = url("enter_orders", campaign, prussia.code)
    assert as_organiser.get(page).status_code == 200
    r = as_organiser.post(page, {"how": "on paper", "orders": "not json", "phase": "deployment"})
    assert "Not valid JSON" in r.content.decode()
    for nasty in ("[" * 100_000, '{"march": NaN}', '{"n": 1' + "0" * 5000 + "}"):
        r = as_organiser.post(page, {"how": "on paper", "orders": nasty, "phase": "deployment"})
        assert r.status_code == 200 and "Not readable as orders" in r.content.decode()
    orders = '{"deployment": {"prussia": {"leaders": {}}}}'
    with django_capture_on_commit_callbacks(execute=True):
        r = as_organiser.post(page, {"how": "on paper", "orders": orders, "phase": "deployment"})
    assert r.status_code == 302
    sheet = OrderSheet.objects.get(seat=prussia)
    assert sheet.ready and sheet.entered_by_organiser and sheet.draft["deployment"]
    assert "(sent on paper)" in OrganiserAction.objects.get(kind="entered-orders").text


YES = {"confirmed": "yes"}


def test_it_rolls_back_the_last_phase(as_organiser, campaign, prussia, now):
    first = campaign.open_window()
    OrderSheet.objects.create(campaign=campaign, seat=prussia, window=first, ready=True)
    resolve_due_phase(first.id, now=first.deadline)
    assert campaign.versions.count() > 1 and campaign.open_window().phase == "march"
    r = as_organiser.post(url("roll_back", campaign), YES)
    assert r.status_code == 302
    assert campaign.versions.count() == 1
    window = campaign.open_window()
    assert window.id == first.id and window.status == WindowStatus.OPEN
    assert OrderSheet.objects.get(seat=prussia).ready is False  # a draft again, not lost
    assert logged(campaign, "rolled-back")
    again = resolve_due_phase(window.id, now=window.deadline)
    assert again.number == 1


def test_roll_back_with_nothing_resolved_says_so(as_organiser, campaign):
    r = as_organiser.post(url("roll_back", campaign), YES, follow=True)
    assert "No phase has been resolved yet." in r.content.decode()


def test_it_replaces_a_player_with_a_reserve(
    as_organiser, campaign, prussia, outsider, now, django_capture_on_commit_callbacks
):
    invitation = add_reserve(campaign, "reserve@example.org", now=now)
    accept_invitation(invitation.token, outsider, now=now)
    reserve = campaign.seats.get(reserve=True)
    prussia.missed_in_a_row = 3
    prussia.save()
    with django_capture_on_commit_callbacks(execute=True):
        r = as_organiser.post(
            url("replace_player", campaign, prussia.code), {"reserve": str(reserve.code)}
        )
        assert r.status_code == 200 and f"Give the {prussia.label} to" in r.content.decode()
        prussia.refresh_from_db()
        assert prussia.user != outsider
        r = as_organiser.post(
            url("replace_player", campaign, prussia.code),
            {"reserve": str(reserve.code), **YES, "reason": "Fritz moved to Potsdam"},
        )
    assert r.status_code == 302
    prussia.refresh_from_db()
    assert prussia.user == outsider and prussia.missed_in_a_row == 0
    assert not campaign.seats.filter(reserve=True).exists()
    replaced = OrganiserAction.objects.get(kind="replaced").text
    assert "fritz hands over to" in replaced and "Why: Fritz moved to Potsdam" in replaced


def test_it_replaces_a_player_by_invitation(
    as_organiser, campaign, prussia, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        as_organiser.post(
            url("replace_player", campaign, prussia.code), {"email": "new@example.org", **YES}
        )
    prussia.refresh_from_db()
    assert prussia.user is None
    assert mailoutbox[-1].to == ["new@example.org"]


def test_replace_needs_a_reserve_or_an_email(as_organiser, campaign, prussia):
    r = as_organiser.post(url("replace_player", campaign, prussia.code), {}, follow=True)
    assert "Choose a reserve player or give an email address." in r.content.decode()


def test_it_resolves_now(as_organiser, campaign):
    as_organiser.post(url("resolve_now", campaign), YES)
    assert campaign.versions.filter(number=1).exists()
    assert logged(campaign, "resolved-now")


def test_it_ends_the_campaign(
    as_organiser, campaign, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        as_organiser.post(url("end_campaign", campaign), YES)
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ENDED
    assert not campaign.windows.filter(status=WindowStatus.OPEN).exists()
    assert len([m for m in mailoutbox if "is over" in m.subject]) == 5
    r = as_organiser.post(url("end_campaign", campaign), YES, follow=True)
    assert "already ended" in r.content.decode()


def test_every_action_is_visible_to_the_players(client, campaign, player, now):
    tools.extend_deadline(campaign, campaign.organiser, 6, now=now)
    client.force_login(player)
    page = client.get(url("action_log", campaign)).content.decode()
    assert "Started the campaign" in page and "by 6 hours" in page


ORGANISER_PAGES = [
    ("organiser_board", "get"), ("campaign_setup", "get"), ("pause", "post"), ("resume", "post"),
    ("extend", "post"), ("resolve_now", "post"), ("roll_back", "post"), ("end_campaign", "post"),
    ("invite", "post"), ("start_campaign", "post"),
]  # fmt: skip


@pytest.mark.parametrize("who", ["own", "other", "ally", "outsider", "anonymous"])
@pytest.mark.parametrize(("name", "method"), ORGANISER_PAGES)
def test_organiser_pages_refuse_everyone_else(
    client, campaign, player, other, ally, outsider, who, name, method
):
    people = {"own": player, "other": other, "ally": ally, "outsider": outsider}
    if who in people:
        client.force_login(people[who])
    r = getattr(client, method)(url(name, campaign))
    if who == "anonymous":
        assert r.status_code == 302 and "login" in r.url
    else:
        assert r.status_code == 403
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.RUNNING and not campaign.paused


@pytest.mark.parametrize(
    ("phase", "said"),
    [
        ("", "did not say which phase"),
        ("march", "written for the march phase; the deployment phase is open"),
    ],
)
def test_orders_entered_for_another_phase_or_none_are_refused(
    as_organiser, campaign, prussia, phase, said
):
    page = url("enter_orders", campaign, prussia.code)
    orders = '{"deployment": {"prussia": {"leaders": {}}}}'
    r = as_organiser.post(page, {"how": "on paper", "orders": orders, "phase": phase})
    assert r.status_code == 200
    text = r.content.decode()
    assert said in text
    assert "{&quot;deployment&quot;" in text  # the pasted orders are kept in the form
    assert not OrderSheet.objects.filter(seat=prussia, ready=True).exists()


@pytest.mark.parametrize("name", ["enter_orders", "replace_player"])
@pytest.mark.parametrize("who", ["own", "other", "ally", "outsider"])
def test_seat_tools_refuse_everyone_else(
    client, campaign, prussia, player, other, ally, outsider, who, name
):
    client.force_login({"own": player, "other": other, "ally": ally, "outsider": outsider}[who])
    assert (
        client.post(url(name, campaign, prussia.code), {"email": "x@example.org"}).status_code
        == 403
    )


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("organiser", 200),
        ("own", 200),
        ("other", 200),
        ("ally", 200),
        ("outsider", 403),
        ("anonymous", 302),
    ],
)
def test_the_log_is_for_the_campaigns_people(
    client, campaign, organiser, player, other, ally, outsider, who, expected
):
    people = {
        "organiser": organiser,
        "own": player,
        "other": other,
        "ally": ally,
        "outsider": outsider,
    }
    if who in people:
        client.force_login(people[who])
    assert client.get(url("action_log", campaign)).status_code == expected


def test_the_boards_queries_do_not_grow_with_the_seats(client, organiser, now):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.services import gameplay, setup
    from rules.rulesettings import RuleSettings
    from tests.standing import NO_MAP, make_user

    counts = {}
    for players in (2, 5):
        campaign = setup.create_campaign(
            organiser, name=f"Q{players}", players=players, now=now, map_name=NO_MAP,
            army_points=gameplay.army_points_from_base("sweden", 200, RuleSettings()),
        )  # fmt: skip
        for seat in campaign.seats.all():
            seat.user = make_user(f"q{players}-{seat.power}")
            seat.save()
        setup.start_campaign(campaign, organiser, now=now)
        client.force_login(organiser)
        # The session's once-a-day renewal (accounts/middleware.py) falls on the first page of
        # the day: not the board's to count.
        client.get(url("organiser_board", campaign))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("organiser_board", campaign)).status_code == 200
        counts[players] = len(queries)
    assert counts[2] == counts[5], counts


@pytest.mark.parametrize("name", ["end_campaign", "roll_back", "resolve_now"])
def test_a_tool_that_cannot_be_taken_back_asks_first(as_organiser, campaign, name):
    page = as_organiser.get(url(name, campaign))
    assert page.status_code == 200 and "Yes, go on" in page.content.decode()
    unconfirmed = as_organiser.post(url(name, campaign))
    assert unconfirmed.status_code == 200  # the question again, nothing done
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.RUNNING and campaign.versions.count() == 1


def test_the_reason_goes_in_the_log(as_organiser, campaign):
    as_organiser.post(url("end_campaign", campaign), {**YES, "reason": "the club disbanded"})
    assert "Why: the club disbanded" in OrganiserAction.objects.get(kind="ended").text


def test_a_roll_back_keeps_the_extension_tells_everyone_and_sends_no_reminder_again(
    as_organiser, campaign, prussia, now, mailoutbox, django_capture_on_commit_callbacks
):
    first = campaign.open_window()
    tools.extend_deadline(campaign, campaign.organiser, 12, now=now)
    first.refresh_from_db()
    Reminder.objects.create(window=first, seat=prussia, hours_before=24, sent_at=now)
    resolve_due_phase(first.id, now=first.deadline)
    mailoutbox.clear()
    later = first.deadline + timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        tools.roll_back(campaign, campaign.organiser, now=later, reason="a wrong order")
    window = campaign.open_window()
    fresh = deadlines.deadline_for(
        campaign.deadline_policy, window.phase, later, campaign.time_zone
    )
    assert window.deadline == fresh + timedelta(hours=12)
    told = [m for m in mailoutbox if "rolled back" in m.subject]
    assert len(told) == 5 and all("a draft again" in m.body for m in told)
    assert Reminder.objects.filter(window=window, seat=prussia, hours_before=24).exists()
    assert "Why: a wrong order" in OrganiserAction.objects.get(kind="rolled-back").text


def test_an_ended_campaign_can_be_reopened_within_a_day_with_a_new_seed(
    as_organiser, campaign, now, mailoutbox, django_capture_on_commit_callbacks
):
    phase = campaign.open_window().phase
    old_seed = campaign.seed
    with django_capture_on_commit_callbacks(execute=True):
        tools.end_campaign(campaign, campaign.organiser, now=timezone.now())
    campaign.refresh_from_db()
    board = as_organiser.get(url("organiser_board", campaign)).content.decode()
    assert "Reopen the campaign" in board
    assert "Yes, go on" in as_organiser.get(url("reopen_campaign", campaign)).content.decode()
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        as_organiser.post(url("reopen_campaign", campaign), {**YES, "reason": "pressed by mistake"})
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.RUNNING and campaign.ended is None
    window = campaign.open_window()
    assert window is not None and window.phase == phase
    assert campaign.seed != old_seed and campaign.past_seeds[-1]["seed"] == old_seed
    assert len([m for m in mailoutbox if "dice seed" in m.subject]) == 5
    assert "pressed by mistake" in OrganiserAction.objects.get(kind="reopened").text


def test_a_campaign_ended_more_than_a_day_ago_stays_ended(as_organiser, campaign, now):
    tools.end_campaign(campaign, campaign.organiser, now=timezone.now() - timedelta(days=2))
    r = as_organiser.post(url("reopen_campaign", campaign), YES, follow=True)
    assert "less than a day ago" in r.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ENDED
