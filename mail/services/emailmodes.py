"""Which emails a seat's mode lets through (``Seat.email_mode``); the daily digest itself is
sent by ``mail.services.digest``."""

from __future__ import annotations

from campaign.models import EmailMode, Seat

# The kinds each mode leaves out (the others come as chosen in ``Seat.email_kinds``).
LEFT_OUT = {
    EmailMode.EVERY: frozenset(),
    EmailMode.DUE: frozenset({"phase-resolved"}),
    EmailMode.DIGEST: frozenset({"phase-opened", "phase-resolved", "battle-pending", "reminder"}),
}


def allows(seat: Seat, kind: str, *, last_call: bool = False, letters: bool = False) -> bool:
    """Whether the seat's mode lets an email of ``kind`` go. In "due" mode a "phase resolved"
    email goes only when it carries letters; the last reminder goes in every mode."""
    mode = seat.email_mode if seat.email_mode in LEFT_OUT else EmailMode.EVERY
    if kind == "reminder" and last_call:
        return True
    if kind == "phase-resolved" and mode == EmailMode.DUE and letters:
        return True
    return kind not in LEFT_OUT[mode]
