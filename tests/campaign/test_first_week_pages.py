# ruff: noqa: F811 (pytest fixtures imported from other test modules)
"""The small ones of issue 26: the dashboard's forces after deployment, the board folded by
seat, the local outbox, the emails' wording, one name for the time zone."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from campaign.models import Campaign
from campaign.services import setup
from mail.services import email
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    ARMY_POINTS,
    POSITIONS,
    play_map,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db

FILE_BACKEND = "django.core.mail.backends.filebased.EmailBackend"


# --- the dashboard during deployment --------------------------------------------------------


def test_the_dashboard_shows_the_submitted_deployment_not_none(client, rules_campaign, other):
    austria = seat(rules_campaign, "austria")
    window = rules_campaign.open_window()
    draft = {
        "deployment": {
            "austria": {"leaders": {"charles": {"hex": POSITIONS["austria"], "points": 32000}}}
        }
    }
    OrderSheet.objects.create(
        window=window, seat=austria, campaign=rules_campaign, draft=draft, ready=True
    )
    client.force_login(other)
    body = client.get(reverse("orders:dashboard", args=[austria.code])).content.decode()
    assert "None on the map." not in body
    assert "Your deployment as submitted: on the map once the deployment phase resolves" in body
    assert "Charles: hex 1007 · <strong>32000</strong> points" in body


def test_the_dashboard_follows_the_draft_within_one_version(client, rules_campaign, other):
    """The draft changes while the state version stays: the dashboard's deployment is never a
    cached copy (the view's own parts are, orders/templatetags/seatcache.py)."""
    austria = seat(rules_campaign, "austria")
    client.force_login(other)
    page = reverse("orders:dashboard", args=[austria.code])
    assert "None on the map." in client.get(page).content.decode()
    sheet, _ = OrderSheet.objects.get_or_create(
        window=rules_campaign.open_window(), seat=austria, defaults={"campaign": rules_campaign}
    )
    for hexid, points in (("1007", 31000), ("1008", 32000)):
        sheet.draft = {
            "deployment": {"austria": {"leaders": {"charles": {"hex": hexid, "points": points}}}}
        }
        sheet.save()
        body = client.get(page).content.decode()
        assert f"Charles: hex {hexid} · <strong>{points}</strong> points" in body
        assert "as drafted so far" in body


def test_before_any_draft_the_dashboard_says_none_on_the_map(client, rules_campaign, other):
    client.force_login(other)
    austria = seat(rules_campaign, "austria")
    body = client.get(reverse("orders:dashboard", args=[austria.code])).content.decode()
    assert "None on the map." in body


# --- the organiser's board --------------------------------------------------------------------


def test_the_board_folds_each_seat_to_a_summary_line(client, organiser, campaign, prussia):
    client.force_login(organiser)
    body = client.get(reverse("organiser_board", args=[campaign.code])).content.decode()
    assert body.count('<details class="seat') == 5
    line = body[body.index(f'id="board-{prussia.code}"') :]
    summary = line[line.index("<summary>") : line.index("</summary>")]
    assert "Prussian player" in summary and "fritz" in summary and "waiting" in summary
    assert "<h3>Prussian player: " in line  # the seat's name above its orders when opened


def test_the_board_gives_the_deadline_in_the_campaigns_zone(client, organiser, campaign):
    # The campaign is in Europe/London; its deadline on 4 April 2026 is in summer time.
    client.force_login(organiser)
    body = client.get(reverse("organiser_board", args=[campaign.code])).content.decode()
    assert "until Sat 4 Apr, 10:00 BST" in body  # 09:00 UTC + 72 hours, in London
    assert "UTC" not in body.split("<h2>Tools</h2>")[0]
    assert "Europe/London" in body


# --- the local outbox ------------------------------------------------------------------------


@pytest.fixture
def outbox(settings, tmp_path):
    settings.EMAIL_BACKEND = FILE_BACKEND
    settings.EMAIL_FILE_PATH = str(tmp_path / "outbox")
    return tmp_path / "outbox"


def test_without_a_mail_server_the_organiser_reads_the_outbox(
    client, organiser, new_campaign, outbox, now, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        setup.invite(new_campaign.seats.get(power="france"), "louis@example.org", now=now)
    assert list(outbox.glob("*.log"))  # written to a file, not sent
    other = Campaign.objects.create(name="Another", organiser=organiser, created=now)
    with django_capture_on_commit_callbacks(execute=True):
        setup.add_reserve(other, "elsewhere@example.org", now=now)
    client.force_login(organiser)
    body = client.get(reverse("campaign_outbox", args=[new_campaign.code])).content.decode()
    assert "You are invited to the campaign Bohemia 1757" in body
    assert "to louis@example.org" in body and "elsewhere@example.org" not in body
    assert '<a href="http' in body  # the invitation's link, to copy or follow
    board = client.get(reverse("organiser_board", args=[new_campaign.code])).content.decode()
    assert reverse("campaign_outbox", args=[new_campaign.code]) in board


def test_the_outbox_shows_a_campaign_only_its_own_mail_whatever_the_names(
    client, organiser, new_campaign, outbox, now, django_capture_on_commit_callbacks
):
    """Mail is the campaign's by its code, not by a name that can stand inside another's."""
    bohemia = Campaign.objects.create(name="Bohemia", organiser=organiser, created=now)
    with django_capture_on_commit_callbacks(execute=True):
        setup.invite(new_campaign.seats.get(power="france"), "louis@example.org", now=now)
    client.force_login(organiser)
    body = client.get(reverse("campaign_outbox", args=[bohemia.code])).content.decode()
    assert "louis@example.org" not in body and "Bohemia 1757" not in body


def test_an_organiser_who_plays_reads_no_other_seats_mail(
    client, organiser, player, new_campaign, outbox, now, django_capture_on_commit_callbacks
):
    new_campaign.seats.filter(power="prussia").update(user=organiser)
    new_campaign.seats.filter(power="france").update(user=player)
    assert not new_campaign.umpire_sees_all
    with django_capture_on_commit_callbacks(execute=True):
        setup.invite(new_campaign.seats.get(power="russia"), "ivan@example.org", now=now)
        email.deliver("handover", seat_id=new_campaign.seats.get(power="france").id)
    assert player.email.encode() in b"".join(p.read_bytes() for p in outbox.glob("*.log"))
    client.force_login(organiser)
    body = client.get(reverse("campaign_outbox", args=[new_campaign.code])).content.decode()
    assert "ivan@example.org" in body  # an invitation: its link is the organiser's to pass on
    assert player.email not in body  # the French seat's own mail is the French player's


def test_the_outbox_is_the_organisers_only(client, player, new_campaign, outbox):
    client.force_login(player)
    assert client.get(reverse("campaign_outbox", args=[new_campaign.code])).status_code == 403


def test_with_a_mail_server_there_is_no_outbox(client, organiser, new_campaign):
    client.force_login(organiser)  # the tests' backend is Django's memory: not the file one
    assert client.get(reverse("campaign_outbox", args=[new_campaign.code])).status_code == 404
    board = client.get(reverse("organiser_board", args=[new_campaign.code])).content.decode()
    assert "Outbox" not in board


def test_the_outbox_rejects_post(client, organiser, new_campaign, outbox):
    client.force_login(organiser)
    assert client.post(reverse("campaign_outbox", args=[new_campaign.code])).status_code == 405


# --- the emails' wording --------------------------------------------------------------------


def test_the_invitation_names_the_seats_armies(new_campaign, now, mailoutbox):
    invitation = setup.invite(new_campaign.seats.get(power="austria"), "m@example.org", now=now)
    email.deliver("invitation", invitation_id=invitation.id)
    assert "the Austrian player" in mailoutbox[0].body
    assert "You command the armies of Austria and the Empire." in mailoutbox[0].body


def test_the_deployment_email_asks_for_a_deployment_not_standing_forces(
    campaign, prussia, mailoutbox
):
    email.deliver("phase-opened", seat_id=prussia.id, since=None)
    body = mailoutbox[0].body
    assert "stand still" not in body
    started = "The campaign has started: deploy your army (Prussia) by Saturday 4 April, 10:00"
    assert started + " BST" in body
    assert "Place its leaders, siege trains and points" in body  # one army: not "their"


def test_a_winter_deadline_says_gmt_in_the_email_and_on_the_board(
    client, organiser, campaign, prussia, mailoutbox
):
    window = campaign.open_window()
    window.deadline = datetime(2026, 12, 1, 18, tzinfo=UTC)
    window.save()
    email.deliver("phase-opened", seat_id=prussia.id, since=None)
    assert "Tuesday 1 December, 18:00 GMT" in mailoutbox[0].body
    client.force_login(organiser)
    body = client.get(reverse("organiser_board", args=[campaign.code])).content.decode()
    assert "until Tue 1 Dec, 18:00 GMT" in body
