"""A name already in the database with a line break in it (written before the forms refused
one, or straight to the database): the emails whose subject holds it are still sent, the
subject on one line, no header forged (docs/security.md, "Names on one line")."""

from __future__ import annotations

from datetime import timedelta

import pytest

from battles.services import dates
from campaign.models import Campaign, Seat
from mail.services import email
from tests.feeds.test_feed import make_battle

pytestmark = pytest.mark.django_db

INJECTED = "Bohemia 1757\r\nX-Evil: 1"


@pytest.fixture
def spoiled(campaign):
    Campaign.objects.filter(id=campaign.id).update(name=INJECTED)
    Seat.objects.filter(campaign=campaign, power="prussia").update(label="Prussia\nX-Evil: 2")
    campaign.refresh_from_db()
    return campaign


def test_the_emails_of_a_campaign_with_a_line_break_in_its_name_are_sent(
    spoiled, organiser, now, mailoutbox
):
    prussia = spoiled.seats.get(power="prussia")
    battle = make_battle(
        spoiled, "t1-1010", {"prussian": ["prussia"], "austrian": ["austria"]}, "Kolin"
    )
    dates.set_date(battle, organiser, now + timedelta(days=3), now=now)
    mailoutbox.clear()
    assert email.deliver("phase-opened", seat_id=prussia.id, since=0)
    assert email.deliver("handover", seat_id=prussia.id)
    assert email.deliver("battle", battle_id=battle.id, battle_kind="date-set", seat_id=prussia.id)
    subjects = [m.subject for m in mailoutbox]
    assert subjects[0] == "Bohemia 1757 X-Evil: 1: turn 1, deployment orders are due"
    assert subjects[1] == "Bohemia 1757 X-Evil: 1: you now command the Prussia X-Evil: 2"
    assert subjects[2].startswith("Bohemia 1757 X-Evil: 1: the battle of Kolin is fought on ")
    for message in mailoutbox:
        raw = message.message().as_bytes()
        head = raw.split(b"\n\n", 1)[0]
        assert b"\nX-Evil" not in head and not head.startswith(b"X-Evil"), head
        assert "X-Evil" not in message.message()  # no such header
