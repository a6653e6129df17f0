"""The dashboard opens with "Since you last looked" (``orders.services.catchup``): the phases
resolved, the seat's forces' losses and gains, its battles, letters to it and the organiser's
acts since its last visit, at most ten lines, each a link; only what the seat may know."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.models import EmailMode, Event, PhaseWindow, Seat
from campaign.services import organiser as organiser_tools
from campaign.services.resolution import resolve_due_phase
from letters.services import press
from mail.services.digest import send_digests
from orders.models import SeatVisit
from orders.services import catchup
from tests.orders.test_play_fixtures import client_for, url

pytestmark = pytest.mark.django_db

PRUSSIA_LOSS = "Frederick loses 160 points: 5% siege + 10% winter"
AUSTRIA_LOSS = "Daun loses 240 points to attrition at 0507"
AUSTRIA_REFUSED = "The march of Daun to Kolin is refused: 7 marches given, 5 allowed"


def resolve(campaign) -> None:
    """The open phase resolved at its deadline, and those that follow it without players."""
    window = campaign.open_window()
    assert resolve_due_phase(window.id, now=window.deadline) is not None


def told(version, kind: str, text: str, *, armies=(), public=False, data=None) -> Event:
    """An event of the campaign's log, as the engine's would be stored for that version."""
    seq = 100 + Event.objects.filter(version=version).count()
    return Event.objects.create(
        campaign=version.campaign, version=version, seq=seq, rule="7.1", kind=kind, text=text,
        public=public, armies=list(armies), data=data or {},
    )  # fmt: skip


def lines_of(page: str) -> str:
    """The catch-up block of a dashboard page."""
    start = page.index('class="catch-up"')
    return page[start : page.index("</section>", start)]


def two_turns_away(campaign):
    """Deployment and turn 1 resolved while Prussia's player stays away: each with a loss for
    Prussia and, secret from it, one for Austria and an order of Austria's refused."""
    resolve(campaign)
    turn1 = campaign.latest_version()
    told(turn1, "attrition", PRUSSIA_LOSS, armies=["prussia"])
    told(turn1, "attrition", AUSTRIA_LOSS, armies=["austria"])
    resolve(campaign)
    turn2 = campaign.latest_version()
    told(turn2, "order-rejected", AUSTRIA_REFUSED, armies=["austria"])
    told(turn2, "leader-killed", "Schwerin is killed leading the charge", armies=["prussia"])
    return turn1, turn2


def test_it_shows_two_turns_away_then_nothing_new(campaign, prussia, player):
    c = client_for(player)
    first = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert "Your first visit" in first
    # a first visit to a campaign just started: nothing "new" to a player who saw nothing yet
    assert "Nothing has happened yet." in first and "Nothing new." not in first
    assert SeatVisit.objects.get(seat=prussia).seen_version == campaign.latest_version().number

    turn1, turn2 = two_turns_away(campaign)
    page = c.get(url("dashboard", prussia)).content.decode()
    block = lines_of(page)
    assert "Your last visit" in block
    assert "Turn 1: 10 phases resolved, deployment to retreat and rally" in block
    assert "Turn 2" in block
    assert PRUSSIA_LOSS in block and "Schwerin is killed" in block
    # each line a link to the report of the version that told it
    assert f'href="{url("report_version", prussia, turn1.number)}">{PRUSSIA_LOSS}' in block
    assert url("report_version", prussia, turn2.number) in block
    assert block.count("<li>") <= catchup.MAX_LINES
    # the block comes first, before the phase
    assert page.index('class="catch-up"') < page.index('class="phase"')

    again = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert "Nothing new." in again
    assert "Turn 1" not in again and PRUSSIA_LOSS not in again


def test_nothing_of_another_seats_secrets_appears(campaign, prussia, austria, player, other):
    client_for(player).get(url("dashboard", prussia))
    client_for(other).get(url("dashboard", austria))
    two_turns_away(campaign)
    prussian = lines_of(client_for(player).get(url("dashboard", prussia)).content.decode())
    assert PRUSSIA_LOSS in prussian
    assert AUSTRIA_LOSS not in prussian and AUSTRIA_REFUSED not in prussian
    assert "Daun" not in prussian
    # and the other way round: Austria reads its own, never Prussia's
    austrian = lines_of(client_for(other).get(url("dashboard", austria)).content.decode())
    assert AUSTRIA_LOSS in austrian and AUSTRIA_REFUSED in austrian
    assert PRUSSIA_LOSS not in austrian and "Schwerin" not in austrian


def test_a_public_event_counts_when_it_names_his_army(campaign, prussia, player):
    """Public news is in the reports; the catch-up keeps the public events about his forces."""
    c = client_for(player)
    c.get(url("dashboard", prussia))
    resolve(campaign)
    version = campaign.latest_version()
    told(
        version, "prisoners", "Austria takes 120 points of Prussia prisoner at Kolin (9).",
        public=True, data={"army": "prussia", "by": "austria", "points": 120},
    )  # fmt: skip
    told(
        version, "prisoners", "Hanover takes 80 points of France prisoner at Minden (9).",
        public=True, data={"army": "france", "by": "hanover", "points": 80},
    )  # fmt: skip
    block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert "120 points of Prussia prisoner" in block
    assert "Minden" not in block


def test_letters_to_him_appear_and_letters_between_others_do_not(
    campaign, prussia, austria, hanover, player
):
    c = client_for(player)
    c.get(url("dashboard", prussia))
    later = timezone.now()  # after the visit
    press.send(hanover, [prussia.id], "Meet me at Minden.", now=later)
    press.send(austria, [hanover.id], "A separate peace, Hanover?", now=later)
    block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert f"A letter from the {hanover.label}" in block
    assert reverse("letters", args=[prussia.code]) in block
    assert f"A letter from the {austria.label}" not in block
    assert "separate peace" not in block and "Minden" not in block  # named, never quoted


def test_the_organisers_acts_and_a_moved_deadline_appear(campaign, prussia, player, organiser):
    c = client_for(player)
    c.get(url("dashboard", prussia))
    organiser_tools.extend_deadline(campaign, organiser, 24, now=timezone.now())
    block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert "Extended the deployment deadline of turn 1 by 24 hours." in block
    assert reverse("action_log", args=[campaign.code]) in block


def test_more_than_ten_lines_end_with_a_link_to_the_history(campaign, prussia, player):
    c = client_for(player)
    c.get(url("dashboard", prussia))
    resolve(campaign)
    version = campaign.latest_version()
    for i in range(14):
        told(version, "attrition", f"Loss number {i} of Frederick", armies=["prussia"])
    block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert block.count("<li>") == catchup.MAX_LINES
    assert "Turn 1: " in block  # a phase outranks the forces' events
    # 16 lines (the turn, Prussia not deployed, 14 losses): 9 shown, 7 more
    assert "and 7 more in the history" in block
    assert f'href="{url("history", prussia)}">and 7 more' in block


def test_the_umpire_sees_no_catch_up_and_records_no_visit(campaign, prussia, organiser):
    page = client_for(organiser).get(url("dashboard", prussia)).content.decode()
    assert 'class="catch-up"' not in page
    assert not SeatVisit.objects.filter(seat=prussia).exists()


def test_the_visit_is_one_statement(campaign, prussia, django_assert_num_queries):
    latest = campaign.latest_version()
    catchup.record_visit(prussia, latest, now=timezone.now())
    with django_assert_num_queries(1):
        catchup.record_visit(prussia, latest, now=timezone.now())
    assert SeatVisit.objects.filter(seat=prussia).count() == 1


def test_the_digest_begins_with_the_same_lines(
    campaign, prussia, player, django_capture_on_commit_callbacks
):
    c = client_for(player)
    c.get(url("dashboard", prussia))
    prussia.email_mode = EmailMode.DIGEST
    prussia.save(update_fields=["email_mode"])
    two_turns_away(campaign)
    prussia.refresh_from_db()
    expected = catchup.catch_up(
        prussia,
        catchup.last_visit(prussia),
        latest=campaign.latest_version(),
        window=campaign.open_window(),
    )
    assert expected.lines
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert send_digests(now=timezone.now()) >= 1
    (digest,) = [m for m in mail.outbox if player.email in m.to]
    body = digest.body
    head = body[: body.index("Your daily digest")]
    assert "Since you last looked" in head
    for line in expected.lines:
        assert f"- {line.text}: " in head and line.url in head
    assert PRUSSIA_LOSS in head and AUSTRIA_LOSS not in body and AUSTRIA_REFUSED not in body
    # the digest does not count as a visit: the dashboard still shows the same lines
    block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert PRUSSIA_LOSS in block


def test_a_phase_rolled_back_and_resolved_again_is_new(campaign, prussia, player, organiser):
    """The versions made anew after a roll back carry numbers the seat has seen already: they
    count by their row ids, which are never reused."""
    resolve(campaign)
    c = client_for(player)
    c.get(url("dashboard", prussia))
    seen = SeatVisit.objects.get(seat=prussia).seen_version
    organiser_tools.roll_back(campaign, organiser, now=timezone.now(), reason="a lost order")
    window = campaign.open_window()
    assert window.phase == "deployment"
    assert resolve_due_phase(window.id, now=timezone.now(), force=True) is not None
    assert campaign.latest_version().number == seen  # the same number, made anew
    block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert "Rolled back to the deployment phase of turn 1" in block
    assert "Turn 1: " in block and "phases resolved" in block
    assert "Nothing new." in lines_of(c.get(url("dashboard", prussia)).content.decode())


def test_a_player_who_takes_the_seat_over_starts_afresh(campaign, prussia, player, outsider):
    client_for(player).get(url("dashboard", prussia))
    Seat.objects.filter(id=prussia.id).update(user=outsider)  # the seat handed to another
    block = lines_of(client_for(outsider).get(url("dashboard", prussia)).content.decode())
    assert "Your first visit" in block
    assert SeatVisit.objects.get(seat=prussia).user_id == outsider.id


def test_a_deadline_moved_by_grace_appears(campaign, prussia, player):
    c = client_for(player)
    c.get(url("dashboard", prussia))
    moment = timezone.now()  # the deadline passed after the visit, and the grace moved it
    PhaseWindow.objects.filter(id=campaign.open_window().id).update(
        graced_from=moment, deadline=moment + timedelta(hours=24)
    )  # as caretaker.give_grace leaves it
    block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert "The deployment deadline moved by 24 hours of grace, to" in block
    assert "for the seats missing" in block
    assert "Nothing new." in lines_of(c.get(url("dashboard", prussia)).content.decode())


def test_a_dashboard_with_nothing_new_reads_no_letters_nor_log_and_writes_no_visit(
    campaign, prussia, hanover, player
):
    """``Campaign.news_at``: once seen, the letters and the organiser's log are read again
    only when a letter was written or the organiser acted after the visit."""
    c = client_for(player)
    c.get(url("dashboard", prussia))  # the first visit: everything read, the visit written
    c.get(url("dashboard", prussia))  # (the news before it, now behind the visit)
    with CaptureQueriesContext(connection) as reload:
        page = c.get(url("dashboard", prussia)).content.decode()
    sql = " ".join(q["sql"] for q in reload.captured_queries)
    assert "Nothing new" in lines_of(page)
    assert "press_letter" not in sql and "campaign_organiseraction" not in sql
    assert "INSERT INTO" not in sql and "UPDATE" not in sql  # no visit written
    press.send(hanover, [prussia.id], "Meet me at Minden.", now=timezone.now())
    with CaptureQueriesContext(connection) as after_letter:
        block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert f"A letter from the {hanover.label}" in block
    assert "INSERT INTO" in " ".join(q["sql"] for q in after_letter.captured_queries)
    assert "Nothing new" in lines_of(c.get(url("dashboard", prussia)).content.decode())


def test_the_worker_makes_the_list_and_a_letter_after_it_still_counts(
    campaign, prussia, hanover, player, django_capture_on_commit_callbacks
):
    """When a phase resolves, the worker's warm-up makes each seat's list from its last visit
    (``kept_catch_up``); a letter written after it moves the campaign's news moment, so the
    list kept before it is not the one served."""
    c = client_for(player)
    c.get(url("dashboard", prussia))
    with django_capture_on_commit_callbacks(execute=True):
        resolve(campaign)
    latest = campaign.latest_version()
    kept = [  # (local memory in the tests)
        k
        for k in cache._cache
        if ":catchup:" in k
        and f":v{latest.id}.{latest.created.timestamp():.6f}:s{prussia.id}:" in k
    ]
    assert len(kept) == 1
    press.send(hanover, [prussia.id], "Meet me at Minden.", now=timezone.now())
    block = lines_of(c.get(url("dashboard", prussia)).content.decode())
    assert "Turn 1:" in block and f"A letter from the {hanover.label}" in block


def test_a_reload_writes_no_visit_in_a_campaign_with_no_news_yet(campaign, prussia, player):
    """The deadline hour (issue 44): a campaign whose news moment is not set yet (no letter,
    no act of the organiser) writes no visit on a reload that changes nothing."""
    campaign.__class__.objects.filter(id=campaign.id).update(news_at=None)
    c = client_for(player)
    c.get(url("dashboard", prussia))  # the first visit: written
    c.get(url("dashboard", prussia))
    with CaptureQueriesContext(connection) as reload:
        page = c.get(url("dashboard", prussia)).content.decode()
    assert "Nothing new" in lines_of(page)
    sql = " ".join(q["sql"] for q in reload.captured_queries)
    assert "INSERT INTO" not in sql and "UPDATE" not in sql
