# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C) in what a person
types that others read are removed where it comes in: letters, campaign names, the organiser's
reasons; player names (usernames) are refused with them. A right-to-left override would
otherwise reorder what the reader sees."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Campaign, OrganiserAction
from campaign.services import setup
from campaign.services.plaintext import BIDI_CONTROLS, without_bidi
from letters.models import Letter
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    play_map,
    rules_campaign,
    seat,
)
from tests.organiser.test_campaign_setup import FORM

pytestmark = pytest.mark.django_db

# "Retreat to Glatz" written so that an override makes it read otherwise
SPOOF = (
    "Retreat to \u202eztalG\u202c now \u2066\u2067\u2068\u2069\u200e\u200f\u061c\u202a\u202b\u202d"
)


def test_every_control_named_in_the_issue_is_removed():
    assert set(BIDI_CONTROLS) == {
        *map(chr, range(0x202A, 0x202F)),
        *map(chr, range(0x2066, 0x206A)),
        "\u200e",
        "\u200f",
        "\u061c",
    }
    assert without_bidi(SPOOF) == "Retreat to ztalG now "
    assert without_bidi("Fr\u00e9d\u00e9ric \u05e9\u05dc\u05d5\u05dd") == (
        "Fr\u00e9d\u00e9ric \u05e9\u05dc\u05d5\u05dd"  # letters of any script stay
    )


def test_a_letter_loses_its_bidi_controls(rules_campaign):
    prussia, hanover = seat(rules_campaign, "prussia"), seat(rules_campaign, "hanover")
    r = client_for(prussia.user).post(
        reverse("letters", args=[prussia.code]), {"to": [hanover.id], "body": SPOOF}
    )
    assert r.status_code == 302
    assert Letter.objects.get().body == "Retreat to ztalG now"
    page = client_for(hanover.user).get(reverse("letters", args=[hanover.code])).content.decode()
    assert "Retreat to ztalG now" in page
    assert not set(BIDI_CONTROLS) & set(page)


def test_a_letter_of_nothing_but_controls_is_refused_and_kept_out(rules_campaign):
    prussia, hanover = seat(rules_campaign, "prussia"), seat(rules_campaign, "hanover")
    r = client_for(prussia.user).post(
        reverse("letters", args=[prussia.code]), {"to": [hanover.id], "body": "\u202e\u202c"}
    )
    assert r.status_code == 400 and not Letter.objects.exists()


def test_a_campaign_name_loses_its_bidi_controls(client, organiser):
    client.force_login(organiser)
    r = client.post(reverse("new_campaign"), {**FORM, "name": "\u202eSaxony 1757\u202c"})
    assert r.status_code == 302
    assert Campaign.objects.filter(name="Saxony 1757").exists()


def test_the_organisers_reason_loses_its_bidi_controls(rules_campaign):
    client = client_for(rules_campaign.organiser)
    r = client.post(reverse("reseed", args=[rules_campaign.code]), {"reason": SPOOF})
    assert r.status_code == 302
    text = OrganiserAction.objects.get(campaign=rules_campaign, kind="reseeded").text
    assert "Retreat to ztalG now" in text and not set(BIDI_CONTROLS) & set(text)
    r = client.post(
        reverse("pause", args=[rules_campaign.code]), {"confirmed": "yes", "reason": SPOOF}
    )
    assert r.status_code == 302
    logged = OrganiserAction.objects.filter(campaign=rules_campaign).exclude(kind="reseeded")
    assert any("Retreat to ztalG now" in a.text for a in logged)
    assert not any(set(BIDI_CONTROLS) & set(a.text) for a in logged)


def test_a_player_name_with_bidi_controls_is_refused(client, new_campaign, now):
    invitation = setup.invite(new_campaign.seats.get(power="france"), "louis@example.org", now=now)
    r = client.post(
        reverse("accept_invitation", args=[invitation.token]),
        {"username": "louis\u202e", "password1": "Rossbach-1757!", "password2": "Rossbach-1757!"},
    )
    assert r.status_code == 200
    assert not get_user_model().objects.filter(username__startswith="louis").exists()
