"""What a push says: that something happened, in which campaign, and the page to open. Never
what happened in it (no strengths, positions, orders, letter text): the push service and the
phone's lock screen see it (docs/push.md).

A push is a plain dict, queued as it is: ``{"seat": 7, "event": "reminder", "hours": 24}``.
Each event belongs to one kind a seat may turn off (``PushKind``).
"""

from __future__ import annotations

from django.urls import reverse

from campaign.models import Seat
from campaign.services.deadlines import due_in
from campaign.services.plaintext import one_line
from push.models import PushKind

# The events the campaign's notices become, and the kind of each.
EVENT_KIND: dict[str, PushKind] = {
    "orders-due": PushKind.ORDERS,
    "battle-pending": PushKind.ORDERS,
    "reminder": PushKind.REMINDER,
    "resolved": PushKind.RESOLVED,
    "campaign-over": PushKind.RESOLVED,
    "letter": PushKind.LETTER,
    "battle-dated": PushKind.BATTLE,
}

# The email kinds (``campaign.services.outgoing``) that are pushed too, and their event.
NOTICE_EVENT: dict[str, str] = {
    "phase-opened": "orders-due",
    "battle-pending": "battle-pending",
    "reminder": "reminder",
    "phase-resolved": "resolved",
    "campaign-over": "campaign-over",
}
# The battle emails that are pushed (``battle_kind``), and their event.
BATTLE_EVENT: dict[str, str] = {"date-set": "battle-dated"}


def payload(push: dict, seat: Seat) -> dict:
    """The notification for ``push`` to ``seat``'s player: ``title``, ``body``, ``url`` (a
    path on this site), ``tag`` (a newer push of the same tag replaces the older).

    >>> from campaign.models import Campaign
    >>> club = Campaign(name="Club 1757")
    >>> seat = Seat(code="8d8f7f3e-58a1-4d6e-9c3b-1f1f2b7e0a11", campaign=club)
    >>> payload({"seat": 1, "event": "reminder", "hours": 2}, seat)["body"]
    'Orders are due in 2 hours in Club 1757.'
    """
    name = one_line(seat.campaign.name)  # a name from before the check (docs/security.md)
    dashboard = reverse("orders:dashboard", args=[seat.code])
    event = push["event"]
    title, body, url = {
        "orders-due": ("Orders are due", f"Orders are due in {name}.", dashboard),
        "battle-pending": ("A battle is pending", f"A battle is pending in {name}.", dashboard),
        "reminder": (
            "The deadline is near",
            f"Orders are due {due_in(int(push.get('hours', 0)))} in {name}.",
            dashboard,
        ),
        "resolved": ("The phase resolved", f"The phase resolved in {name}.", dashboard),
        "campaign-over": ("The campaign is over", f"{name} is over.", dashboard),
        "letter": (
            "A letter for you",
            f"A letter for you in {name}.",
            reverse("letters", args=[seat.code]),
        ),
        "battle-dated": (
            "Your battle is dated",
            f"Your battle is dated in {name}.",
            reverse("battles:battle", args=[seat.campaign.code, push["battle"]])
            if push.get("battle")
            else reverse("battles:chronicle", args=[seat.campaign.code]),
        ),
    }[event]
    return {"title": title, "body": body, "url": url, "tag": f"dgk-{seat.code}-{event}"}
