"""The club's roster (docs/club.md): a player's record after a played season, and who may
read it (the player, the organiser of a campaign he is in or invited to; nobody else)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import StateVersion, organisers_group
from campaign.services import caretaker, drifting, setup
from campaign.services import organiser as tools
from campaign.services.resolution import resolve_due_phase
from club.services import roster
from orders.models import OrderSheet
from tests.standing import make_user

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ready(campaign, seat, now):
    OrderSheet.objects.create(
        campaign=campaign, window=campaign.open_window(), seat=seat, ready=True, submitted_at=now
    )


@pytest.fixture
def played(campaign, prussia, austria, hanover, organiser, now, django_capture_on_commit_callbacks):
    """Two phases with deadlines, then the end: the Prussian gives his orders both times; the
    Austrian is away; the Hanoverian misses the deployment and is handed to the caretaker for
    the march. Final VPs: Prussia 9, Hanover 9, Austria 4."""
    drifting.declare_absence(austria, now + timedelta(days=30), now=now)
    ready(campaign, prussia, now)
    window = campaign.open_window()
    with django_capture_on_commit_callbacks(execute=True):
        resolve_due_phase(window.id, now=window.deadline)
    window = campaign.open_window()
    assert window.phase == "march"
    ready(campaign, prussia, now)
    caretaker.hand_over(hanover, organiser, style="defensive", until=None, now=now)
    with django_capture_on_commit_callbacks(execute=True):
        resolve_due_phase(window.id, now=window.deadline)
    latest = campaign.latest_version()
    state = dict(latest.state, victory_points={"prussia": 9, "hanover": 9, "austria": 4})
    StateVersion.objects.filter(id=latest.id).update(state=state)
    with django_capture_on_commit_callbacks(execute=True):
        tools.end_campaign(campaign, organiser, now=window.deadline + timedelta(hours=1))
    campaign.refresh_from_db()
    return campaign


def record_of(user):
    (record,) = roster.roster(user).records
    return record


def test_the_figures_after_a_played_season(played, player, other, ally):
    prussian, austrian, hanoverian = record_of(player), record_of(other), record_of(ally)
    assert (prussian.deadlines, prussian.met, prussian.missed, prussian.away) == (2, 2, 0, 0)
    assert (prussian.vps, prussian.standing, prussian.seats_in_campaign) == (9, 1, 5)
    assert (austrian.deadlines, austrian.met, austrian.missed, austrian.away) == (2, 0, 0, 2)
    assert (austrian.vps, austrian.standing) == (4, 3)
    # Missed the deployment (the campaign's one excused miss), then on the caretaker.
    assert (hanoverian.met, hanoverian.missed, hanoverian.excused) == (0, 1, 1)
    assert hanoverian.caretaker_turns == 1 and prussian.caretaker_turns == 0
    assert (hanoverian.vps, hanoverian.standing) == (9, 1)
    whole = roster.roster(player)
    assert (whole.seasons, whole.finished, whole.met, whole.deadlines) == (1, 1, 2, 2)


def test_a_running_campaign_counts_but_has_no_result(campaign, player):
    record = record_of(player)
    assert record.status == "running" and record.vps is None and record.deadlines == 0


def test_an_account_with_no_season_has_an_empty_record(outsider):
    assert roster.roster(outsider).records == ()


def test_the_player_reads_his_own_record_linked_from_his_dashboard(played, player, prussia):
    client = client_for(player)
    page = client.get(reverse("club:record")).content.decode()
    assert "Bohemia 1757</strong>, Prussian player: met 2 of 2" in page
    assert "final 9 VP, 1st of 5" in page
    assert "Austrian player" not in page
    dashboard = client.get(reverse("orders:dashboard", args=[prussia.code])).content.decode()
    assert reverse("club:record") in dashboard


def test_the_record_page_wants_a_signed_in_person(client):
    r = client.get(reverse("club:record"))
    assert r.status_code == 302 and "/login" in r["Location"]


def test_the_organiser_reads_his_players_records_on_the_invitation_page(played, organiser):
    client = client_for(organiser)
    page = client.get(reverse("campaign_setup", args=[played.code])).content.decode()
    assert "Your players' records" in page
    assert "<h3>fritz</h3>" in page and "<h3>maria</h3>" in page
    roster_page = client.get(reverse("club:roster", args=[played.code])).content.decode()
    assert "away 2" in roster_page


def test_players_outsiders_and_other_organisers_may_not_read_the_roster(campaign, player, outsider):
    stranger = make_user("otto")
    stranger.groups.add(organisers_group())
    for user in (player, outsider, stranger):
        r = client_for(user).get(reverse("club:roster", args=[campaign.code]))
        assert r.status_code == 403
    anonymous = Client().get(reverse("club:roster", args=[campaign.code]))
    assert anonymous.status_code == 302
    missing = "00000000-0000-0000-0000-000000000000"
    assert client_for(player).get(f"/campaigns/{missing}/club/roster/").status_code == 404
    assert client_for(player).post(reverse("club:record")).status_code == 405


def test_an_invited_account_is_on_the_roster_and_a_stranger_is_not(
    campaign, organiser, outsider, now
):
    stranger = make_user("otto")
    assert outsider not in roster.campaign_people(campaign)
    assert not roster.may_read(organiser, outsider)
    setup.add_reserve(campaign, outsider.email.upper(), now=now)
    people = roster.campaign_people(campaign)
    assert outsider in people and stranger not in people
    assert roster.may_read(organiser, outsider)
    assert roster.may_read(outsider, outsider)
    assert not roster.may_read(stranger, outsider)
    assert not roster.may_read(outsider, organiser)
