"""Where the calendar's address is given (docs/calendar.md): the player's dashboard, the
organiser's board, the invitation email; and its renewal, a POST that retires the old one."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from campaign.services import setup
from feeds.models import CalendarFeed
from feeds.services import tokens

pytestmark = pytest.mark.django_db


def dashboard(client, seat):
    return client.get(reverse("orders:dashboard", args=[seat.code]))


def local(url: str) -> str:
    return url.removeprefix(settings.SITE_URL)


def test_the_dashboard_offers_the_calendar_to_its_player(client, prussia, player):
    client.force_login(player)
    page = dashboard(client, prussia).content.decode()
    make = reverse("calendar_renew_seat", args=[prussia.code])
    assert "Make my calendar address" in page and make in page and "webcal:" not in page
    assert not CalendarFeed.objects.exists()  # a page read writes nothing

    response = client.post(make, follow=True)
    assert response.redirect_chain[-1][0].endswith("#calendar")
    page = response.content.decode()
    assert "address is ready" in page
    links = tokens.links(CalendarFeed.objects.get(seat=prussia))
    assert f'href="{links.webcal}"' in page and links.webcal.startswith("webcal://")
    assert links.https in page and links.https.startswith(settings.SITE_URL + "/calendar/")
    # read again, the same address
    assert links.https in dashboard(client, prussia).content.decode()
    assert CalendarFeed.objects.filter(seat=prussia).count() == 1


def test_the_umpire_reading_a_seat_is_offered_no_calendar_of_it(client, prussia, organiser):
    client.force_login(organiser)
    page = dashboard(client, prussia)
    assert page.status_code == 200
    assert "webcal:" not in page.content.decode()
    assert not CalendarFeed.objects.filter(seat=prussia).exists()


def test_renewing_retires_the_old_address(client, prussia, player):
    client.force_login(player)
    client.post(reverse("calendar_renew_seat", args=[prussia.code]))
    old = tokens.links(CalendarFeed.objects.get(seat=prussia)).https
    client.logout()
    assert client.get(local(old)).status_code == 200

    client.force_login(player)
    response = client.post(reverse("calendar_renew_seat", args=[prussia.code]), follow=True)
    assert response.redirect_chain[-1][0] == (
        reverse("orders:dashboard", args=[prussia.code]) + "#calendar"
    )
    assert "new address" in response.content.decode()
    new = tokens.links(CalendarFeed.objects.get(seat=prussia)).https
    assert new != old and new in response.content.decode()

    client.logout()  # calendar apps do not sign in
    assert client.get(local(old)).status_code == 404
    assert client.get(local(new)).status_code == 200


def test_renewing_asks_for_a_post(client, prussia, player):
    client.force_login(player)
    assert client.get(reverse("calendar_renew_seat", args=[prussia.code])).status_code == 405


def test_renewing_asks_for_the_csrf_token(prussia, player):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(reverse("calendar_renew_seat", args=[prussia.code])).status_code == 403


def test_only_the_seats_player_renews_its_calendar(client, prussia, player, other, organiser):
    feed = tokens.renew_seat(prussia, player)
    for someone in (other, organiser):
        client.force_login(someone)
        assert client.post(reverse("calendar_renew_seat", args=[prussia.code])).status_code == 403
    assert CalendarFeed.objects.filter(token=feed.token).exists()


def test_renewing_asks_to_sign_in(client, prussia):
    response = client.post(reverse("calendar_renew_seat", args=[prussia.code]))
    assert response.status_code == 302 and "login" in response.url


def test_the_board_offers_the_whole_campaign_and_renews_it(client, campaign, organiser, player):
    client.force_login(organiser)
    board = reverse("organiser_board", args=[campaign.code])
    renew = reverse("calendar_renew_organiser", args=[campaign.code])
    assert renew in client.get(board).content.decode()
    assert not CalendarFeed.objects.exists()
    client.post(renew)
    page = client.get(board).content.decode()
    old = tokens.links(CalendarFeed.objects.get(campaign=campaign, seat=None))
    assert old.webcal in page and old.https in page
    response = client.post(renew)
    assert response.status_code == 302
    assert client.get(local(old.https)).status_code == 404
    new = tokens.links(CalendarFeed.objects.get(campaign=campaign, seat=None))
    assert client.get(local(new.https)).status_code == 200

    client.force_login(player)
    assert client.post(reverse("calendar_renew_organiser", args=[campaign.code])).status_code == 403


@pytest.fixture
def invited(new_campaign, now, mailoutbox, django_capture_on_commit_callbacks):
    seat = new_campaign.seats.get(power="france")
    with django_capture_on_commit_callbacks(execute=True):
        invitation = setup.invite(seat, "louis@example.org", now=now)
    return invitation


def test_the_invitation_email_carries_the_seats_calendar(client, invited, mailoutbox, player):
    body = mailoutbox[-1].body
    feed = CalendarFeed.objects.get(invitation=invited)
    links = tokens.links(feed)
    assert links.webcal in body and links.https in body
    assert feed.seat == invited.seat
    assert client.get(local(links.https)).status_code == 200

    # the invitee joins: the same address goes on, and the dashboard gives that one
    client.force_login(player)
    client.post(reverse("accept_invitation", args=[invited.token]))
    assert client.get(local(links.https)).status_code == 200
    invited.seat.refresh_from_db()  # (the page reads the seat as it now is: the player's)
    assert tokens.held_feed(invited.seat, player) == feed
    page = dashboard(client, invited.seat)
    assert page.status_code == 200


def test_a_withdrawn_invitations_calendar_stops_answering(client, invited):
    url = local(tokens.links(CalendarFeed.objects.get(invitation=invited)).https)
    setup.withdraw_invitation(invited)
    assert client.get(url).status_code == 404


def test_an_invitation_to_a_reserve_seat_has_no_calendar(
    new_campaign, now, mailoutbox, django_capture_on_commit_callbacks
):
    reserve = new_campaign.seats.create(label="Reserve", reserve=True)
    with django_capture_on_commit_callbacks(execute=True):
        setup.invite(reserve, "spare@example.org", now=now)
    assert "webcal:" not in mailoutbox[-1].body
