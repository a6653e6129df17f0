"""The words of a push (push/services/messages.py)."""

from campaign.models import Campaign, Seat
from push.services import messages


def test_an_old_name_with_a_line_break_is_pushed_on_one_line():
    """A name written before the forms refused line breaks (docs/security.md)."""
    seat = Seat(code="8d8f7f3e-58a1-4d6e-9c3b-1f1f2b7e0a11", campaign=Campaign(name="A\r\nB\u202e"))
    body = messages.payload({"seat": 1, "event": "orders-due"}, seat)["body"]
    assert body == "Orders are due in A B."
