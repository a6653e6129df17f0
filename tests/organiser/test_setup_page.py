"""The set-up page (issue 26): an invited seat shows its invitation (resend, withdraw), leaders
by name as section 14 prints them."""

import pytest
from django.urls import reverse

from campaign.models import Invitation, Seat
from campaign.services import setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def invited(new_campaign, now, django_capture_on_commit_callbacks):
    seat = new_campaign.seats.get(power="france")
    with django_capture_on_commit_callbacks(execute=True):
        return setup.invite(seat, "louis@example.org", now=now)


def page(client, campaign) -> str:
    return client.get(reverse("campaign_setup", args=[campaign.code])).content.decode()


def test_an_invited_seat_shows_its_invitation_not_an_empty_box(client, organiser, invited):
    client.force_login(organiser)
    body = page(client, invited.seat.campaign)
    card = body[body.index(f'id="seat-{invited.seat.code}"') :]
    card = card[: card.index("</article>")]
    assert 'Invited: <strong class="address">louis@example.org</strong>' in card
    assert ">Resend</button>" in card and ">Withdraw</button>" in card
    assert 'name="email"' not in card
    # a seat not invited keeps its box
    other = invited.seat.campaign.seats.get(power="russia")
    card = body[body.index(f'id="seat-{other.code}"') :]
    assert 'name="email"' in card[: card.index("</article>")]


def test_leaders_are_listed_by_name(client, organiser, invited):
    client.force_login(organiser)
    body = page(client, invited.seat.campaign)
    assert "D&#x27;Estrees" in body and "Zweibrucken" in body and "Karl Wilhelm" in body
    assert "d-estrees" not in body and "zweibrucken" not in body and "karl-wilhelm" not in body


def test_resend_sends_the_same_link_again(
    client, organiser, invited, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    mailoutbox.clear()
    url = reverse("invitation", args=[invited.seat.campaign.code, invited.token])
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(url, {"action": "resend"}, follow=True)
    assert "Invitation sent again to louis@example.org." in r.content.decode()
    assert [m.to for m in mailoutbox] == [["louis@example.org"]]
    assert reverse("accept_invitation", args=[invited.token]) in mailoutbox[0].body


def test_withdraw_ends_the_link_and_gives_the_box_back(client, organiser, invited):
    client.force_login(organiser)
    url = reverse("invitation", args=[invited.seat.campaign.code, invited.token])
    r = client.post(url, {"action": "withdraw"}, follow=True)
    assert "The invitation of louis@example.org is withdrawn." in r.content.decode()
    assert not Invitation.objects.exists()
    assert client.get(reverse("accept_invitation", args=[invited.token])).status_code == 404
    body = page(client, invited.seat.campaign)
    card = body[body.index(f'id="seat-{invited.seat.code}"') :]
    assert 'name="email"' in card[: card.index("</article>")]


def test_a_new_address_replaces_the_waiting_invitation(client, organiser, invited):
    client.force_login(organiser)
    client.post(
        reverse("invite", args=[invited.seat.campaign.code]),
        {"email": "louis2@example.org", "seat": invited.seat.code},
    )
    assert list(Invitation.objects.values_list("email", flat=True)) == ["louis2@example.org"]


def test_withdrawing_a_reserve_invitation_removes_its_seat(client, organiser, new_campaign, now):
    reserve = setup.add_reserve(new_campaign, "res@example.org", now=now)
    client.force_login(organiser)
    client.post(
        reverse("invitation", args=[new_campaign.code, reserve.token]), {"action": "withdraw"}
    )
    assert not Seat.objects.filter(campaign=new_campaign, reserve=True).exists()


def test_an_accepted_invitation_cannot_be_withdrawn(client, organiser, invited, player, now):
    setup.accept_invitation(invited.token, player, now=now)
    client.force_login(organiser)
    url = reverse("invitation", args=[invited.seat.campaign.code, invited.token])
    r = client.post(url, {"action": "withdraw"}, follow=True)
    assert "has already joined" in r.content.decode()
    assert Invitation.objects.count() == 1


def test_only_the_organiser_resends_or_withdraws(client, player, invited):
    client.force_login(player)
    url = reverse("invitation", args=[invited.seat.campaign.code, invited.token])
    assert client.post(url, {"action": "withdraw"}).status_code == 403
    assert Invitation.objects.count() == 1


def test_it_rejects_get(client, organiser, invited):
    client.force_login(organiser)
    url = reverse("invitation", args=[invited.seat.campaign.code, invited.token])
    assert client.get(url).status_code == 405


def test_the_start_button_says_what_starting_does(client, organiser, invited):
    """A seat not joined yet may join after the start; the deadline runs from the start."""
    client.force_login(organiser)
    body = page(client, invited.seat.campaign)
    note = body[body.index('<p id="start-note">') :]
    assert note.index("</p>") < note.index("Start the campaign (deployment opens)")
    assert "its deadline runs from now" in note and "can join after the start" in note
    assert 'aria-describedby="start-note"' in body


def test_the_form_says_what_flagging_a_seat_and_sharing_allies_mean(client, organiser):
    client.force_login(organiser)
    body = client.get(reverse("new_campaign")).content.decode()
    assert "Flag a seat after missed deadlines" in body
    assert "the board flags the seat and you get an email" in body
    share = body[body.index('id="id_allies_share_helptext"') :]
    assert share[: share.index("</div>")].endswith("Off: an ally sees only what an enemy sees.")
