"""Invitations: the emailed link seats the invitee, once, on any device."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Invitation
from campaign.services import setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def invitation(new_campaign, now, mailoutbox, django_capture_on_commit_callbacks):
    seat = new_campaign.seats.get(power="france")
    with django_capture_on_commit_callbacks(execute=True):
        return setup.invite(seat, "Louis@Example.org", now=now)


def test_it_emails_the_link(invitation, mailoutbox):
    assert mailoutbox[-1].to == ["louis@example.org"]
    assert reverse("accept_invitation", args=[invitation.token]) in mailoutbox[-1].body
    assert "the French player" in mailoutbox[-1].body


def test_a_newcomer_makes_an_account_and_joins(client, invitation):
    url = reverse("accept_invitation", args=[invitation.token])
    page = client.get(url)
    assert page.status_code == 200 and "French player" in page.content.decode()
    r = client.post(
        url, {"username": "louis", "password1": "Rossbach-1757!", "password2": "Rossbach-1757!"}
    )
    assert r.status_code == 302 and r.url == reverse("campaigns")
    user = get_user_model().objects.get(username="louis")
    assert user.email == "louis@example.org"
    invitation.refresh_from_db()
    assert invitation.seat.user == user and invitation.accepted_at is not None
    listing = client.get(reverse("campaigns")).content.decode()  # signed in
    # what comes next, where the link lands (the playthrough: "Welcome", and nothing more)
    assert "Not started yet: when the organiser starts it, an email asks for your secret" in (
        listing
    )


def test_the_sign_up_form_reads_on_a_phone(client, invitation):
    """One field a block, its label above a box as wide as the phone; the password rules inside
    the password's help (no list let loose from a paragraph by ``as_p``); the main button."""
    page = client.get(reverse("accept_invitation", args=[invitation.token])).content.decode()
    for name in ("username", "password1", "password2"):
        assert f'<div class="field"><label for="id_{name}">' in page
        box = re.search(f'<input [^>]*name="{name}"[^>]*>', page).group(0)
        assert 'class="wide"' in box
    assert '<div class="helptext" id="id_password1_helptext"><ul>' in page
    assert "<p>\n    <label" not in page
    assert '<button type="submit" class="primary">Join the campaign</button>' in page


def test_a_bad_password_keeps_the_invitation_open(client, invitation):
    url = reverse("accept_invitation", args=[invitation.token])
    r = client.post(url, {"username": "louis", "password1": "1", "password2": "2"})
    assert r.status_code == 200
    invitation.refresh_from_db()
    assert invitation.accepted_at is None


def test_a_signed_in_player_joins_with_one_tap(client, invitation, player):
    client.force_login(player)
    r = client.post(reverse("accept_invitation", args=[invitation.token]))
    assert r.status_code == 302
    invitation.seat.refresh_from_db()
    assert invitation.seat.user == player


def test_the_link_works_once(client, invitation, player, other):
    client.force_login(player)
    client.post(reverse("accept_invitation", args=[invitation.token]))
    client.force_login(other)
    r = client.post(reverse("accept_invitation", args=[invitation.token]), follow=True)
    assert "already been used" in r.content.decode()
    invitation.seat.refresh_from_db()
    assert invitation.seat.user == player


def test_an_unknown_token_is_not_found(client):
    assert client.get(reverse("accept_invitation", args=["nope"])).status_code == 404


def test_a_reserve_player_is_invited(
    client, new_campaign, organiser, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(reverse("invite", args=[new_campaign.code]), {"email": "res@example.org"})
    assert r.status_code == 302
    reserve = new_campaign.seats.get(reserve=True)
    assert reserve.armies == [] and reserve.power == ""
    assert "as a reserve player" in mailoutbox[-1].body
    assert Invitation.objects.get(seat=reserve).email == "res@example.org"


def test_only_the_organiser_invites(client, new_campaign, player):
    client.force_login(player)
    r = client.post(reverse("invite", args=[new_campaign.code]), {"email": "x@example.org"})
    assert r.status_code == 403


def test_the_login_page_works(client, player):
    assert client.get(reverse("login")).status_code == 200
    r = client.post(reverse("login"), {"username": "fritz", "password": "pw-fritz"})
    assert r.status_code == 302
