"""A name already in the database with a line break in it (written before the forms refused
one, or straight to the database) still gives a calendar: 200, every text on its own line, no
line forged (docs/security.md, "Names on one line")."""

from __future__ import annotations

import unicodedata
from datetime import timedelta

import pytest
from django.conf import settings
from icalendar import Calendar

from battles.services import dates
from campaign.models import Campaign, Seat
from feeds.services import tokens
from tests.feeds.test_feed import make_battle

pytestmark = pytest.mark.django_db

INJECTED = "Bohemia 1757\r\nX-Evil: 1"


@pytest.fixture
def spoiled(campaign, organiser, now):
    """The campaign's name, Prussia's label and a battle's city each hold a forged line."""
    Campaign.objects.filter(id=campaign.id).update(name=INJECTED)
    # (no NUL: PostgreSQL stores none, and the import refuses it in any text)
    Seat.objects.filter(campaign=campaign, power="prussia").update(label="Prussia\nX-Evil: 2\x1b\t")
    battle = make_battle(
        campaign, "t1-1010", {"prussian": ["prussia"], "austrian": ["austria"]}, "Kolin\rX-Evil: 3"
    )
    dates.set_date(battle, organiser, now + timedelta(days=3, hours=10), now=now)
    campaign.refresh_from_db()
    return campaign


def served(client, feed) -> bytes:
    response = client.get(tokens.links(feed).https.removeprefix(settings.SITE_URL))
    assert response.status_code == 200
    return response.content


def assert_one_line_each(body: bytes) -> None:
    lines = body.decode().split("\r\n")
    assert not [x for x in lines if x.upper().startswith("X-EVIL")], lines
    # no line break but the content lines' own CRLF, and no other control character
    assert not [c for c in "".join(lines) if unicodedata.category(c) == "Cc"], lines


def test_a_seats_calendar_writes_the_names_on_one_line(client, spoiled, player):
    prussia = spoiled.seats.get(power="prussia")
    body = served(client, tokens.renew_seat(prussia, player))
    assert_one_line_each(body)
    cal = Calendar.from_ical(body)
    assert str(cal["X-WR-CALNAME"]) == "Bohemia 1757 X-Evil: 1: Prussia X-Evil: 2"
    summaries = sorted(str(e["SUMMARY"]) for e in cal.events)
    assert summaries[0].startswith("Bohemia 1757 X-Evil: 1: ") and len(summaries) == 2
    [night] = [e for e in cal.events if "LOCATION" in e]
    assert str(night["LOCATION"]) == "Kolin X-Evil: 3 (hex 1010), on the tabletop"
    assert str(night["DESCRIPTION"]).startswith("The Prussia X-Evil: 2 fights this battle")


def test_the_organisers_calendar_writes_the_names_on_one_line(client, spoiled):
    body = served(client, tokens.renew_organiser(spoiled))
    assert_one_line_each(body)
    cal = Calendar.from_ical(body)
    assert str(cal["NAME"]) == "Bohemia 1757 X-Evil: 1 (organiser)"
    [deadline] = [e for e in cal.events if "deadline" in str(e["SUMMARY"])]
    assert "Prussia X-Evil: 2" in str(deadline["DESCRIPTION"])


def test_a_plain_calendar_is_written_as_before(client, campaign, player):
    """The cleaning changes nothing of a name without controls."""
    prussia = campaign.seats.get(power="prussia")
    cal = Calendar.from_ical(served(client, tokens.renew_seat(prussia, player)))
    assert (
        str(cal["X-WR-CALNAME"])
        == f"Bohemia 1757: {prussia.label}"
        == "Bohemia 1757: Prussian player"
    )


def test_a_backslash_n_in_a_name_is_written_as_text(client, campaign, player):
    """icalendar writes a calendar's NAME and X-WR-CALNAME as they are: a name holding the two
    characters "\\n" showed a line break in the player's calendar app; now escaped as text."""
    Campaign.objects.filter(id=campaign.id).update(name="Bohemia\\nX, y; z")
    prussia = campaign.seats.get(power="prussia")
    body = served(client, tokens.renew_seat(prussia, player))
    assert b"X-WR-CALNAME:Bohemia\\\\nX\\, y\\; z: Prussian player" in body
    assert b"\nNAME:Bohemia\\\\nX\\, y\\; z: Prussian player" in body.replace(b"\r\n", b"\n")
