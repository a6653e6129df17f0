# ruff: noqa: F811 (pytest fixtures imported from tests.orders.test_play_fixtures)
"""Orders that came by email and were not sent (no READY) are a draft like one saved on the
page: nobody else can tell which, or whether. The log every member reads said "The orders of
the Prussian player came by email." for the mailed draft alone (found by a secrecy review);
now a player reads only his own seat's lines of that kind, and the umpire who plays no seat
all of them.
Control: the observer's own draft mailed or saved on the page: his own line is his to read.

The answer to the observer's own mail (secrecy audit of 30 November 2026, second): a mail read
once is dropped when it comes again (its Message-ID), and the check looked at every seat's
mails, so a mail from A carrying the Message-ID of one B had sent was dropped unanswered: A
could tell that B had mailed orders. Now it is a seat's own mails that are looked at. Control:
A's own mail with that Message-ID, read before, drops A's."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from django.urls import reverse
from django.utils import timezone

from orders import replyaddress
from orders.mailorders import receive
from orders.models import OrderSheet
from tests.fog.channels import MAIL_ORDER_ID, SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    marching,
    play_map,
    rules_campaign,
    seat,
)
from tests.standing import ally, other, player  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def _mail(window, player_seat, text: str, message_id="<fog-mail-log@mail.example.com>") -> None:
    msg = EmailMessage()
    msg["From"] = f"{player_seat.label} <{player_seat.user.email}>"
    msg["To"] = replyaddress.address(window.id, player_seat.id)
    msg["Subject"] = "Re: your orders"
    msg["Message-ID"] = message_id
    msg.set_content(text)
    assert receive(msg.as_bytes()).status == "read"


def test_a_mailed_draft_looks_like_a_draft_saved_on_the_page(marching, settings, organiser):
    settings.ORDERS_MAIL_DOMAIN, settings.ORDERS_MAILBOX = "dgk.example.org", ""
    window, prussia = marching.open_window(), seat(marching, "prussia")
    observe = SeatObserver(marching, "austria")
    observe.pictures = False  # (drafts are on no map)
    draft = {"march": [{"unit": "frederick", "path": "4"}]}

    def world(which: str) -> None:
        if which == "one":  # saved on the page, not sent
            OrderSheet.objects.update_or_create(
                window=window, seat=prussia, defaults={"campaign": marching, "draft": draft}
            )
        else:  # the same by email, no READY
            _mail(window, prussia, "Frederick 4\n")
            assert not OrderSheet.objects.get(window=window, seat=prussia).ready

    at = timezone.now()
    one, two = two_worlds(world, observe, at=at)
    assert any(name.endswith("/log/") for name in one), "the crawl reads the log"
    assert_same(one, two, label="B's draft by email or on the page × 5 seats × march")

    austria = seat(marching, "austria")
    lead = austria.leaders["austria"][0]

    def own(which: str) -> None:  # control: the observer's own draft mailed, or saved
        if which == "one":
            OrderSheet.objects.update_or_create(
                window=window, seat=austria,
                defaults={"campaign": marching, "draft": {"march": [{"unit": lead, "path": "4"}]}},
            )  # fmt: skip
        else:
            _mail(window, austria, f"{lead} 4\n")

    one, two = two_worlds(own, observe, at=at)
    assert_differs(one, two, label="control: A's own draft by email or on the page × march")
    # the player himself, and the umpire who plays no seat, read the line
    _mail(window, prussia, "Frederick 4\n")
    log = reverse("action_log", args=[marching.code])
    line = "The orders of the Prussian player came by email."
    assert line in client_for(prussia.user).get(log).content.decode()
    assert line in client_for(organiser).get(log).content.decode()
    assert line not in client_for(seat(marching, "austria").user).get(log).content.decode()


def test_a_mail_order_is_answered_whatever_another_seat_mailed(marching, settings):
    settings.ORDERS_MAIL_DOMAIN, settings.ORDERS_MAILBOX = "dgk.example.org", ""
    window, prussia, austria = (
        marching.open_window(),
        seat(marching, "prussia"),
        seat(marching, "austria"),
    )
    lead = austria.leaders["austria"][0]
    observe = SeatObserver(marching, "austria", mail_order=f"{lead} 4\n")
    observe.pictures = False

    def world(which: str) -> None:
        if which == "one":  # B's draft saved on the page
            OrderSheet.objects.update_or_create(
                window=window, seat=prussia,
                defaults={"campaign": marching, "draft": {"march": [{"unit": "frederick",
                                                                     "path": "4"}]}},
            )  # fmt: skip
        else:  # the same by email, whose Message-ID A's mail happens to carry
            _mail(window, prussia, "Frederick 4\n", message_id=MAIL_ORDER_ID)

    at = timezone.now()
    one, two = two_worlds(world, observe, at=at)
    assert one["mail-order answer"].startswith(b"read"), one["mail-order answer"]
    assert_same(one, two, label="B's mail with A's Message-ID × 5 seats × march → A's answer")

    def own(which: str) -> None:  # control: A's own mail with that Message-ID, read before
        if which == "two":
            _mail(window, austria, f"{lead} 1\n", message_id=MAIL_ORDER_ID)

    one, two = two_worlds(own, observe, at=at)
    assert_differs(one, two, label="control: A's own mail read before × march → A's answer")
