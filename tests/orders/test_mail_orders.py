# ruff: noqa: F811 (the fixtures are imported)
"""Orders by email (orders.mailorders): a reply read onto the draft and confirmed, READY
submitting it, and every mail that must change nothing (forged, replayed, closed window, another
seat's token, oversized, automatic) dropped or answered with nothing changed."""

from email.message import EmailMessage

import pytest
from django.core import mail

from campaign.models import OrganiserAction
from mail.services import email
from orders import replyaddress
from orders.mailorders import receive
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401
    client_for,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def orders_domain(settings):
    settings.ORDERS_MAIL_DOMAIN = "dgk.example.org"
    settings.ORDERS_MAILBOX = ""


def a_mail(s, window, body: str, *, sender=None, to=None, **headers) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender or f"Player <{s.user.email}>"
    msg["To"] = to or replyaddress.address(window.id, s.id)
    msg["Subject"] = "Re: Silesia 1757: your march orders"
    msg["Message-ID"] = headers.pop("message_id", f"<{abs(hash(body))}@mail.example.com>")
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    msg.set_content(body)
    return msg.as_bytes()


def draft_of(s, window) -> dict:
    sheet = OrderSheet.objects.filter(seat=s, window=window).first()
    return sheet.draft if sheet else {}


def test_the_address_names_seat_and_window_and_cannot_be_forged(marching):
    w = marching.open_window()
    s = seat(marching, "prussia")
    address = replyaddress.address(w.id, s.id)
    local = address.split("@")[0]
    assert address.endswith("@dgk.example.org") and len(local) <= 64
    assert replyaddress.read([address]) == replyaddress.ReplyToken(w.id, s.id)
    other = seat(marching, "austria")
    forged = address.replace(f"s{s.id}-", f"s{other.id}-")
    assert replyaddress.read([forged]) is None
    assert replyaddress.read(["orders@dgk.example.org", address.upper()]) is not None


def test_a_reply_goes_onto_the_draft_and_is_confirmed(marching):
    w = marching.open_window()
    s = seat(marching, "prussia")
    mail.outbox.clear()
    out = receive(a_mail(s, w, "Frederick 4 4\nDaun 1\n\n> Frederick 1\n"))
    assert out.status == "read"
    assert draft_of(s, w)["march"] == [{"unit": "frederick", "path": "4-4"}]
    sheet = OrderSheet.objects.get(seat=s, window=w)
    assert sheet.mailed_at is not None and not sheet.ready
    (answer,) = mail.outbox
    assert answer.to == [s.user.email]
    assert answer.reply_to == [replyaddress.address(w.id, s.id)]
    assert answer.extra_headers["Auto-Submitted"] == "auto-replied"
    body = answer.body
    # the march said back in words, where it goes, and the codes read (issue: raw codes)
    assert "1. Frederick 4 4" in body and "-> Frederick: 2 hexes E to " in body
    assert "(codes 4-4)." in body
    assert "2. Daun 1" in body and "NOT UNDERSTOOD: 'daun' is not one of your leaders" in body
    assert "Frederick: 2 hexes E to " in body.split("as the site now holds them")[1]
    assert "NOT SUBMITTED" in body
    log = OrganiserAction.objects.get(kind="mail-orders")
    assert "came by email" in log.text and "4-4" not in log.text  # the log shows no order


def test_ready_submits_as_the_button_does_and_the_page_says_so(marching):
    w = marching.open_window()
    s = seat(marching, "prussia")
    out = receive(a_mail(s, w, "Frederick 4\nREADY"))
    assert out.ready and OrderSheet.objects.get(seat=s, window=w).ready
    assert "SUBMITTED: your orders are ready" in mail.outbox[-1].body
    page = client_for(s.user).get(url("orders", s)).content.decode()
    assert "received by email at" in page
    # a second mail without NOT READY changes nothing; with it, the orders are a draft again
    receive(a_mail(s, w, "Frederick 1", message_id="<two@x>"))
    assert draft_of(s, w)["march"] == [{"unit": "frederick", "path": "4"}]
    assert "already submitted" in mail.outbox[-1].body
    receive(a_mail(s, w, "NOT READY\nFrederick 1", message_id="<three@x>"))
    assert draft_of(s, w)["march"] == [{"unit": "frederick", "path": "1"}]
    assert not OrderSheet.objects.get(seat=s, window=w).ready


def test_an_order_the_rules_refuse_keeps_ready_from_submitting(marching):
    w = marching.open_window()
    s = seat(marching, "prussia")
    receive(a_mail(s, w, "Frederick 4 4 4 4 4 4 4 4\nREADY"))
    sheet = OrderSheet.objects.get(seat=s, window=w)
    assert not sheet.ready and sheet.draft["march"][0]["path"] == "4-4-4-4-4-4-4-4"
    body = mail.outbox[-1].body
    assert "To put right" in body and "(6.4.5)" in body and "NOT SUBMITTED" in body


def test_a_bad_mail_never_loses_the_draft(marching):
    w = marching.open_window()
    s = seat(marching, "prussia")
    receive(a_mail(s, w, "Frederick 4"))
    receive(a_mail(s, w, "gibberish\nmore gibberish", message_id="<g@x>"))
    assert draft_of(s, w)["march"] == [{"unit": "frederick", "path": "4"}]


@pytest.mark.parametrize(
    "case", ["forged sender", "other seat's token", "no token", "oversized", "auto-reply",
             "bounce", "bulk", "replayed", "our own mail"],
)  # fmt: skip
def test_it_drops_without_an_answer_and_changes_nothing(marching, case):
    w = marching.open_window()
    s = seat(marching, "prussia")
    receive(a_mail(s, w, "Frederick 4", message_id="<first@x>"))
    before = draft_of(s, w)
    mail.outbox.clear()
    other = seat(marching, "austria")
    body = "Frederick 1"
    raw = {
        "forged sender": lambda: a_mail(s, w, body, sender="Spy <spy@example.net>"),
        "other seat's token": lambda: a_mail(s, w, body, sender=other.user.email,
                                             to=replyaddress.address(w.id, s.id)),
        "no token": lambda: a_mail(s, w, body, to="orders@dgk.example.org"),
        "oversized": lambda: a_mail(s, w, body + "\n" + "x" * 120_000),
        "auto-reply": lambda: a_mail(s, w, body, Auto_Submitted="auto-replied"),
        "bounce": lambda: a_mail(s, w, body, Return_Path="<>"),
        "bulk": lambda: a_mail(s, w, body, Precedence="bulk"),
        "replayed": lambda: a_mail(s, w, body, message_id="<first@x>"),
        "our own mail": lambda: a_mail(s, w, body, X_DGK_Kind="orders-by-mail"),
    }[case]()  # fmt: skip
    out = receive(raw)
    assert out.status == "dropped", out
    assert mail.outbox == []
    assert draft_of(s, w) == before


def test_a_reply_after_the_resolution_is_answered_and_changes_nothing(
    marching, django_capture_on_commit_callbacks
):
    w = marching.open_window()
    s = seat(marching, "prussia")
    with django_capture_on_commit_callbacks(execute=True):
        for other in marching.seats.filter(reserve=False):
            client_for(other.user).post(url("ready", other), {"phase": w.phase})
    assert marching.open_window().id != w.id
    mail.outbox.clear()
    out = receive(a_mail(s, w, "Frederick 4"))
    assert out.status == "closed"
    assert "which has resolved: nothing was changed" in mail.outbox[-1].body
    assert draft_of(s, w) == {}


def test_the_call_for_orders_carries_the_reply_address_forces_grammar_and_example(marching):
    w = marching.open_window()
    s = seat(marching, "prussia")
    calls = [m for m in mail.outbox if m.to == [s.user.email] and "march" in m.subject.lower()]
    call = calls[-1]
    assert call.reply_to == [replyaddress.address(w.id, s.id)]
    text = call.body
    assert f"reply to this mail (it goes to {replyaddress.address(w.id, s.id)})" in text
    assert "Frederick: 31017 points at 0302" in text and "MP a march" in text
    assert "Prussian siege train 1 at" in text
    assert "direction codes (1 W, 2 NW, 3 NE, 4 E, 5 SE, 6 SW)" in text
    example = text.split("For example:")[1]
    assert "Frederick " in example and "READY" in example
    html = call.alternatives[0][0]
    assert replyaddress.address(w.id, s.id) in html
    # another seat's call names only its own forces: never Frederick's points
    other = seat(marching, "austria")
    theirs = [m for m in mail.outbox if m.to == [other.user.email]][-1]
    assert "31017" not in theirs.body and "Frederick" not in theirs.body.split("Your forces:")[1]
    # the Austrian marches say why they are not the dice's total (6.1: 2 dice -2)
    n = w.version.state["marches"]["austria"]
    rolled = f"{n + 2} rolled" if n > 0 else "2 or less rolled"  # (a low roll: march_reason)
    assert f"Austria's marches this turn: {n} ({rolled} \u22122; 6.1, 6.2.1)" in theirs.body
    # the example is read by the grammar as an order of this seat
    first = example.strip().splitlines()[0]
    out = receive(a_mail(s, w, first))
    assert out.status == "read" and not out.problems, out


def test_without_a_domain_there_is_no_reply_address(marching, settings):
    settings.ORDERS_MAIL_DOMAIN = ""
    s = seat(marching, "prussia")
    msg = email.compose("reminder", seat_id=s.id, window_id=marching.open_window().id, hours=2)
    assert msg is not None and msg.reply_to == [] and "Answer by email" not in msg.body
