"""The book of the season (issue 28, docs/season-end.md): printed by Debian's chromium once the
campaign is over, read back with pypdfium2 (each page's text and size).

A season on the bundled map is played by the automatic players (battles by the quick
resolution), then ended by the organiser. Before the end no member reaches the book and
``printseason`` refuses; the end leaves the worker's note (no broker in the tests), the periodic
task prints both papers, and every seat, and the public link while it is on, downloads it. The
committed sample ``docs/season/demo-season-a4.pdf`` has its cover, its 18 turns, the battles,
the charts and the dice.
"""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.services.printing import chromium
from campaign.models import CampaignStatus, Event
from campaign.services import fairdice
from campaign.services import organiser as organiser_service
from seasons.services import bookfiles, seasonbook, war
from tests.orders.test_play_fixtures import client_for
from tests.seasons.real_season import play_real_season
from tests.standing import make_user

pdfium = pytest.importorskip("pypdfium2")
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SAMPLE = Path(__file__).resolve().parents[2] / "docs" / "season" / "demo-season-a4.pdf"
A4, LETTER = [595, 842], [612, 792]


def needs_chromium() -> None:
    if chromium() is None:
        pytest.skip("chromium is needed (apt-get install chromium)")


def pages_of(data: bytes) -> list[str]:
    return [
        re.sub(r"\s+", " ", p.get_textpage().get_text_range()).strip()
        for p in pdfium.PdfDocument(data)
    ]


def size_of(data: bytes) -> list[int]:
    return [round(x) for x in pdfium.PdfDocument(data)[0].get_size()]


def urls(campaign) -> list[str]:
    return [reverse("war_book", args=[campaign.code, paper]) for paper in bookfiles.PAPERS]


def test_the_book_is_printed_at_the_end_for_every_seat(
    organiser, django_capture_on_commit_callbacks
):
    needs_chromium()
    campaign, battles = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=4, name="Book", prefix="book"
    )
    assert battles >= 1
    campaign.refresh_from_db()
    assert campaign.status != CampaignStatus.ENDED
    prussian = client_for(campaign.seats.get(power="prussia").user)
    outsider = client_for(make_user("book-outsider"))
    for url in urls(campaign):  # before the end: not for any member, not for an outsider
        assert prussian.get(url).status_code == 404
        assert client_for(organiser).get(url).status_code == 404
        assert outsider.get(url).status_code == 403
    with pytest.raises(CommandError, match="not over"):
        call_command("printseason", str(campaign.code), "-o", "/dev/null")
    assert not bookfiles.wanted_ids()

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    # the end asks the worker for the book (a note, with no broker) and tells every seat
    assert bookfiles.wanted_ids() == [campaign.id]
    over = [m for m in mail.outbox if "is over" in m.subject]
    assert len(over) == 5 and all(urls(campaign)[0] in m.body for m in over)
    # not printed yet: the download asks again and says so
    waiting = prussian.get(urls(campaign)[0])
    assert waiting.status_code == 202 and b"being printed" in waiting.content

    assert seasonbook.draw_wanted() == 1  # the periodic task of runperiodic
    assert not bookfiles.wanted_ids()
    for paper, size in (("a4", A4), ("letter", LETTER)):
        for who in [s.user for s in campaign.seats.filter(reserve=False)] + [organiser]:
            r = client_for(who).get(reverse("war_book", args=[campaign.code, paper]))
            assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
        data = b"".join(r.streaming_content)
        assert size_of(data) == size, paper
    pages = pages_of(data)
    text = " ".join(pages)
    # the cover: the name, the turns, the final victory points of every player
    # (the automatic players stopped at turn 5's first orders: its automatic phases were played)
    last = campaign.versions.order_by("-number").first().turn
    assert last == 5
    assert "Book" in pages[0] and "5 turns, April I to June I" in pages[0]
    assert "The organiser ended the campaign after turn 5" in pages[0]
    for series in war.figures(campaign).vps.series:
        assert f"{series.label} {series.last}" in pages[0]
    # a page (at least) per turn, in order, each starting with its heading
    headings = [m.group(0) for p in pages if (m := re.match(r"Turn \d+: \w+ I+\b", p))]
    assert headings == [
        "Turn 1: April I",
        "Turn 2: April II",
        "Turn 3: May I",
        "Turn 4: May II",
        "Turn 5: June I",
    ]
    # every battle, with its table code and entered result; the charts; every roll checked
    assert text.count("table code ") == battles and "Result:" in text
    assert "Each army's points by turn" in text and "Victory points by player by turn" in text
    check = fairdice.verify(campaign)
    assert check.ok and f"Every roll matches its seed: {check.checked} rolls recomputed" in text
    rolls = sum(len(p.rolls) for p in war.phase_records(campaign))
    assert rolls > 0 and len(re.findall(r"T\d+ [\w:-]+: [\d,=]+ ✓", text)) == rolls
    # the chronicle tells what the armies never told each other: the enemy's exact losses
    loss = Event.objects.filter(campaign=campaign, kind="battle", public=False).first()
    assert loss is not None and loss.text[:60] in text


def test_the_public_link_serves_the_book_while_it_is_on(
    organiser, django_capture_on_commit_callbacks, tmp_path
):
    needs_chromium()
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=1, name="Public", prefix="pub"
    )
    with django_capture_on_commit_callbacks(execute=True):
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    out = StringIO()
    call_command("printseason", str(campaign.code), "-o", str(tmp_path / "b.pdf"), stdout=out)
    assert "Public, a4" in out.getvalue()
    assert pages_of((tmp_path / "b.pdf").read_bytes())[0].startswith("Public")
    seasonbook.draw_book(campaign.id)
    token = war.set_public_link(campaign, organiser, on=True, now=timezone.now())
    anonymous = Client()
    url = reverse("war_public_book", args=[token, "letter"])
    r = anonymous.get(url)
    assert r.status_code == 200 and size_of(b"".join(r.streaming_content)) == LETTER
    page = anonymous.get(reverse("war_public", args=[token])).content.decode()
    assert url in page
    war.set_public_link(campaign, organiser, on=False, now=timezone.now())
    assert anonymous.get(url).status_code == 404
    with pytest.raises(CommandError, match="No campaign"):
        call_command("printseason", "not-a-code", "-o", str(tmp_path / "x.pdf"))


def test_the_committed_sample_book_has_every_part():
    """docs/season/demo-season-a4.pdf: ``manage.py playseason`` then ``printseason``."""
    data = SAMPLE.read_bytes()
    assert size_of(data) == A4
    pages = pages_of(data)
    assert "The book of the season" in pages[0] and "18 turns, April I to December II" in pages[0]
    assert "Winner:" in pages[0]
    headings = [p.split(" ", 3)[:3] for p in pages if re.match(r"Turn \d+: ", p)]
    assert [int(h[1].rstrip(":")) for h in headings] == list(range(1, 19))
    text = " ".join(pages)
    for part in ("The battles", "table code", "The charts", "The dice", "Every roll matches"):
        assert part in text, part
