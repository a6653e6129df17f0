"""The new text of a reply as Gmail, Outlook, Apple Mail and Thunderbird send it
(orders.mailbody), read back into orders by the grammar (orders.textorders)."""

from email import message_from_bytes, policy
from pathlib import Path

import pytest

from orders.mailbody import html_text, new_text, reply_text, unflow

pytestmark = pytest.mark.pure

MAIL = Path(__file__).resolve().parent.parent / "fixtures" / "mail"


def load(name: str):
    return message_from_bytes((MAIL / name).read_bytes(), policy=policy.default)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("gmail.eml", "Frederick march to Schweidnitz\nSeydlitz 4 4 drop Ziethen\nREADY"),
        ("outlook.eml", "Frederick to 0104 via 0401\ntransfer 100 from Frederick to Seydlitz"),
        ("apple.eml", "D\u2019Estr\u00e9es 4 4\nFrederick stands\nnot ready"),
        ("thunderbird.eml", "Frederick 2 marches 4 4 4 4 enter fortress works\n Seydlitz 4\nREADY"),
        ("html-only.eml", "fight at Kolin\nREADY"),
    ],
)
def test_it_reads_only_the_players_new_text(name, text):
    assert reply_text(load(name)) == text


def test_an_attachment_is_never_read():
    assert "Daun" not in reply_text(load("apple.eml"))


def test_outlooks_html_stops_at_its_reply_block():
    msg = load("outlook.eml")
    html = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    text = html_text(html.get_content())
    assert text == "Frederick to 0104 via 0401\ntransfer 100 from Frederick to Seydlitz"


def test_format_flowed_joins_soft_breaks_and_keeps_quote_depths_apart():
    assert unflow("one \ntwo\n> three \n> four\nfive") == "one two\n> three four\nfive"
    assert unflow("Fre\nderick", delsp=False) == "Fre\nderick"
    assert unflow("Fre \nderick 4", delsp=True) == "Frederick 4"
    assert unflow(" From the west 4") == "From the west 4"  # space-stuffing undone
    assert unflow("-- \nsig") == "-- \nsig"  # the signature separator is not a soft break


def test_quoted_lines_and_signatures_are_left_out():
    text = "Frederick 4\n> old order\nSeydlitz 4\n-- \nFritz\nSeydlitz 1"
    assert new_text(text) == "Frederick 4\nSeydlitz 4"
    wrapped = "Frederick 4\n\nOn Fri, 27 Nov 2026 at 08:00, Umpire\n<u@example.org> wrote:\n> x"
    assert new_text(wrapped) == "Frederick 4"
