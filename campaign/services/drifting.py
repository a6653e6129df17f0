"""When players drift away: escalating reminders, missed deadlines, absences.

- Reminders go at the steps of the campaign's ``reminders["hours_before"]`` (default 24 h and
  2 h before the deadline) to every awaited seat that is not ready; the last step also goes to
  the organiser, naming the seats still missing (the escalation). A Reminder row claims each
  (window, seat, step), so a step is sent once whatever the retries.
- A seat that misses ``flag_after_missed`` deadlines in a row (counted in resolution) is flagged
  on the organiser's board, and the organiser is emailed once when it happens.
- A player may declare an absence: until it ends, the seat's forces stand still without it
  counting as missed, and the phase does not wait for the seat. Under the caretaker policy
  the caretaker holds the seat from the start of the absence until its player is back
  (``caretaker.hold``, issue 43).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction

from campaign.models import (
    CampaignStatus,
    PhaseWindow,
    Reminder,
    Seat,
    WindowStatus,
)
from campaign.services import caretaker, deadlines, outgoing

MAX_ABSENCE_DAYS = 60


class AbsenceError(ValueError):
    pass


def declare_absence(seat: Seat, until: datetime | None, *, now: datetime) -> None:
    """Away until ``until`` (None: back now)."""
    if until is not None:
        if until <= now:
            raise AbsenceError("The end of the absence must be in the future.")
        if until - now > timedelta(days=MAX_ABSENCE_DAYS):
            raise AbsenceError(f"An absence lasts at most {MAX_ABSENCE_DAYS} days.")
    seat.absent_until = until
    seat.save(update_fields=["absent_until"])
    if until is None:  # (his own settings, saved: he is back)
        caretaker.player_back(seat, seat.user, now=now)
    # An away seat is not waited for from now on (``resolution.is_due``), and under the
    # caretaker policy the first phase resolved without its orders holds it (``holds``). It is
    # not held here: the hold is logged for every player, and an absence is the seat's own
    # business until a phase shows the caretaker playing it (issue 42's fog).


def send_reminders(*, now: datetime) -> int:
    """Send the reminders due now; the number of reminder emails queued."""
    sent = 0
    windows = PhaseWindow.objects.filter(
        status=WindowStatus.OPEN,
        deadline__gt=now,
        campaign__status=CampaignStatus.RUNNING,
        campaign__paused=False,
    ).select_related("campaign")
    for window in windows:
        step = deadlines.due_reminder(
            window.campaign.reminders, window.deadline, now, window.opened_at
        )
        if step is None:
            continue
        ready = set(window.order_sheets.filter(ready=True).values_list("seat_id", flat=True))
        missing = [
            seat
            for seat in window.campaign.seats.filter(reserve=False)
            if window.owes(seat) and seat.id not in ready and not seat.is_absent(now)
        ]
        claimed = []
        for seat in missing:
            try:
                with transaction.atomic():
                    Reminder.objects.create(
                        window=window, seat=seat, hours_before=step, sent_at=now
                    )
            except IntegrityError:
                continue  # already sent for this step
            claimed.append(seat)
            lead = deadlines.lead_hours(step, window.opened_at, window.deadline)
            outgoing.queue_reminder(seat.id, window.id, lead, step=step)
            sent += 1
        if claimed and deadlines.is_last_step(window.campaign.reminders, step):
            lead = deadlines.lead_hours(step, window.opened_at, window.deadline)
            outgoing.queue_organiser_missing(window.id, [s.id for s in claimed], lead)
    return sent
