# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""The forced march phase's email says what a forced march is and that none is a fine answer
(the playthrough: "Send your orders ... Without them your forces stand still" left a newcomer
with no march in mind wondering what was owed)."""

import pytest

from mail.services import email
from tests.orders.test_contact import _phase_with
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    play_map,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db


def test_the_forced_march_email_says_what_it_is(
    rules_campaign, mailoutbox, django_capture_on_commit_callbacks
):
    prussia, _austria, _where = _phase_with(
        rules_campaign, django_capture_on_commit_callbacks, phase="forced-march"
    )
    mailoutbox.clear()
    email.deliver("phase-opened", seat_id=prussia.id, since=0)
    (message,) = mailoutbox
    assert "the forced-march phase is open. A forced march is one more march" in message.body
    assert "strategic IR (6.3); with none to give, press Ready with no orders." in message.body
