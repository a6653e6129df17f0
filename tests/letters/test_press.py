# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Letters between seats (press): open, by courier, off, moderated; secret to sender and
addressees, carried by the phase email, refused with the letter kept."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from campaign.models import OrganiserAction
from letters.models import Letter
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_everyone,
    play_map,
    ready,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db

SECRET = "Meet me at Kolin when the moon is full"


def letters_url(s) -> str:
    return reverse("letters", args=[s.code])


def write(s, to, body=SECRET):
    return client_for(s.user).post(letters_url(s), {"to": [t.id for t in to], "body": body})


def page(s) -> str:
    r = client_for(s.user).get(letters_url(s))
    assert r.status_code == 200
    return r.content.decode()


def set_options(campaign, **options) -> None:
    campaign.options = {**campaign.options, **options}
    campaign.save(update_fields=["options"])


def latest(campaign) -> int:
    return campaign.versions.order_by("-number").first().number


def resolve_march(campaign, capture) -> None:
    """Everyone ready with no orders: the open phase resolves (and any that follow at once)."""
    window = campaign.open_window()
    for s in campaign.seats.filter(reserve=False):
        ready(s, client_for(s.user), capture)
    assert campaign.open_window() != window


def test_an_open_letter_arrives_at_once_and_only_to_its_addressees(
    rules_campaign, django_capture_on_commit_callbacks
):
    prussia, hanover, austria = (seat(rules_campaign, p) for p in ("prussia", "hanover", "austria"))
    r = write(prussia, [hanover])
    assert r.status_code == 302
    assert SECRET in page(hanover)
    assert SECRET in page(prussia)  # the sender's copy
    assert SECRET not in page(austria)
    # The page says where "at once" is: the dashboard now, the email with the next news.
    assert "their emails carry them with the next phase" in page(prussia)
    # nobody else opens another seat's letters, not even the umpire who sees everything else
    assert client_for(austria.user).get(letters_url(hanover)).status_code == 403
    assert client_for(rules_campaign.organiser).get(letters_url(hanover)).status_code == 403
    r = client_for(rules_campaign.organiser).get(reverse("all_letters", args=[rules_campaign.code]))
    assert r.status_code == 403 and SECRET not in r.content.decode()

    # the next phase email carries it to Hanover, and to nobody else
    mail.outbox.clear()
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    carrying = [m for m in mail.outbox if SECRET in m.body]
    assert [m.to for m in carrying] == [[hanover.user.email]], [m.to for m in mail.outbox]
    assert "Letters that reached you" in carrying[0].body
    assert "From the " + prussia.label in carrying[0].body
    # and only once: the next phase's email does not carry it again
    mail.outbox.clear()
    resolve_march(rules_campaign, django_capture_on_commit_callbacks)
    assert not [m for m in mail.outbox if SECRET in m.body]


def test_a_letter_by_courier_arrives_n_phases_later_and_never_to_a_third_seat(
    rules_campaign, django_capture_on_commit_callbacks
):
    set_options(rules_campaign, press="courier", courier_phases=2)
    prussia, hanover, austria = (seat(rules_campaign, p) for p in ("prussia", "hanover", "austria"))
    written_at = latest(rules_campaign)
    r = client_for(prussia.user).post(
        letters_url(prussia), {"to": [hanover.id], "body": SECRET}, follow=True
    )
    assert "given to the courier: it arrives in 2 phases" in r.content.decode()
    letter = Letter.objects.get()
    assert (letter.arrives_version, letter.mailed_version) == (written_at + 2, written_at + 2)
    text = page(hanover)
    assert SECRET not in text and "1 letter on the way to you" in text
    assert prussia.label not in text.split("Received")[1].split("Sent")[0]  # not who writes
    assert "arrives in 2 phases" in page(prussia)

    emails = []
    while latest(rules_campaign) < written_at + 2:
        mail.outbox.clear()
        before = latest(rules_campaign)
        if rules_campaign.open_window().phase == "deployment":
            deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
        else:
            resolve_march(rules_campaign, django_capture_on_commit_callbacks)
        emails += [(m.to, SECRET in m.body) for m in mail.outbox]
        if latest(rules_campaign) < written_at + 2:
            assert before < latest(rules_campaign)
            assert SECRET not in page(hanover), "arrived early"
            assert not any(has for _to, has in emails)
    assert SECRET in page(hanover)
    assert SECRET not in page(austria)
    assert [to for to, has in emails if has] == [[hanover.user.email]]


def test_letters_off_are_refused_and_the_letter_is_kept(rules_campaign):
    set_options(rules_campaign, press="off")
    prussia, hanover = seat(rules_campaign, "prussia"), seat(rules_campaign, "hanover")
    r = write(prussia, [hanover])
    assert r.status_code == 400
    text = r.content.decode()
    assert "Letters are off in this campaign" in text
    assert SECRET in text  # what was written is still in the form
    assert not Letter.objects.exists()
    # the page says so and offers no form; the nav offers no letters
    assert "<textarea" not in page(prussia)
    nav = client_for(prussia.user).get(reverse("orders:dashboard", args=[prussia.code]))
    assert letters_url(prussia) not in nav.content.decode()


def test_bad_letters_say_why_and_keep_the_text(rules_campaign):
    prussia, hanover = seat(rules_campaign, "prussia"), seat(rules_campaign, "hanover")
    r = client_for(prussia.user).post(letters_url(prussia), {"body": SECRET})
    assert r.status_code == 400 and "Choose at least one seat" in r.content.decode()
    assert SECRET in r.content.decode()
    r = client_for(prussia.user).post(letters_url(prussia), {"to": [prussia.id], "body": SECRET})
    assert r.status_code == 400 and SECRET in r.content.decode()  # not to oneself
    r = client_for(prussia.user).post(
        letters_url(prussia), {"to": [hanover.id], "body": "x" * 4001}
    )
    assert r.status_code == 400 and "4000" in r.content.decode().replace(",", "")
    assert not Letter.objects.exists()


def test_a_moderated_campaign_lets_the_organiser_read_and_tells_the_players(rules_campaign):
    set_options(rules_campaign, press_moderated=True)
    prussia, hanover = seat(rules_campaign, "prussia"), seat(rules_campaign, "hanover")
    assert "The organiser can read every letter" in page(prussia)
    write(prussia, [hanover])
    r = client_for(rules_campaign.organiser).get(reverse("all_letters", args=[rules_campaign.code]))
    assert r.status_code == 200 and SECRET in r.content.decode()
    # a player is never the moderator
    r = client_for(prussia.user).get(reverse("all_letters", args=[rules_campaign.code]))
    assert r.status_code == 403
    # nor the organiser once he plays a seat himself: the others' letters are their secrets
    austria = seat(rules_campaign, "austria")
    austria.user = rules_campaign.organiser
    austria.save()
    r = client_for(rules_campaign.organiser).get(reverse("all_letters", args=[rules_campaign.code]))
    assert r.status_code == 403 and SECRET not in r.content.decode()
    assert "You play a seat in this campaign" in r.content.decode()
    board = client_for(rules_campaign.organiser).get(
        reverse("organiser_board", args=[rules_campaign.code])
    )
    assert "You play a seat, so you do not read them." in board.content.decode()
    assert reverse("all_letters", args=[rules_campaign.code]) not in board.content.decode()


def test_the_organiser_changes_the_channel_and_the_log_says_so(rules_campaign):
    organiser = client_for(rules_campaign.organiser)
    r = organiser.post(
        reverse("options", args=[rules_campaign.code]),
        {"press": "courier", "courier_phases": 3},
    )
    assert r.status_code == 302
    rules_campaign.refresh_from_db()
    assert rules_campaign.options["press"] == "courier"
    assert rules_campaign.options["courier_phases"] == 3
    logged = OrganiserAction.objects.filter(campaign=rules_campaign, kind="options").get()
    assert "courier" in logged.text and "3 phases" in logged.text
    prussia = seat(rules_campaign, "prussia")
    assert "one arrives 3 phases after it is written" in page(prussia)
