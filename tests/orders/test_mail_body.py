"""The new text of a reply as Gmail, Outlook, Apple Mail and Thunderbird send it
(orders.mailbody), read back into orders by the grammar (orders.textorders)."""

from email import message_from_bytes, policy
from pathlib import Path

import pytest

from orders.mailbody import HTML_READ, html_text, new_text, reply_text, unflow

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


def test_only_the_head_of_an_html_body_is_read_from_its_body_tag():
    """A client's long head of styles is skipped; of the body the first HTML_READ characters
    are read (a run of tags never closed, "<a <a ...", costs the parser the square of its
    length: 77 KB of it held the worker 50 s)."""
    styles = "<style>" + "p.x { margin: 0 }\n" * 2000 + "</style>"
    assert len(styles) > HTML_READ
    mail = f"<html><head>{styles}</head><body><div>Frederick 4 4</div><div>READY</div></body>"
    assert html_text(mail) == "Frederick 4 4\nREADY"
    long = "<div>Frederick 4</div><div>" + "x" * HTML_READ + "</div><p>READY</p>"
    assert html_text(long).startswith("Frederick 4\nxxx") and "READY" not in html_text(long)
    # (what is left unclosed comes out as text, cut: read at once, the order first)
    assert html_text("<div>Frederick 4</div>" + "<a " * 25_000).split("\n")[0] == "Frederick 4"


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
