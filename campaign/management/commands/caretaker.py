"""``manage.py caretaker CODE ARMY_OR_SEAT [--style defensive|plays-on] [--until YYYY-MM-DD]
[--off]``: hand a seat to the caretaker, or take it back (issue 35; docs/operations.md,
"Players who go quiet").

CODE is the campaign's code (the UUID in its addresses). ARMY_OR_SEAT names the seat by one of
its armies (``austria``) or its seat code. ``--until`` ends it at midnight (UTC) of that day;
``--off`` takes the seat back. Logged as the organiser's action, which every player reads.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from campaign.models import Campaign, Seat
from campaign.services import caretaker
from campaign.services.actionlog import OrganiserError


def _seat(campaign: Campaign, name: str) -> Seat:
    try:
        return campaign.seats.get(code=uuid.UUID(name))
    except (ValueError, Seat.DoesNotExist):
        pass
    key = name.strip().lower()
    for seat in campaign.seats.filter(reserve=False):
        if key in seat.armies or key == seat.power:
            return seat
    armies = sorted(a for s in campaign.seats.filter(reserve=False) for a in s.armies)
    raise CommandError(
        f"No seat of this campaign commands {name!r}; its armies: {', '.join(armies)}."
    )


class Command(BaseCommand):
    help = "Hand a seat to the caretaker (the automatic player), or take it back."

    def add_arguments(self, parser):
        parser.add_argument("campaign", help="the campaign's code (UUID)")
        parser.add_argument("seat", help="one of the seat's armies (e.g. austria) or its code")
        parser.add_argument("--style", choices=sorted(caretaker.STYLES), default="defensive")
        parser.add_argument("--until", help="the last day, YYYY-MM-DD (ends at its midnight, UTC)")
        parser.add_argument("--off", action="store_true", help="take the seat back")

    def handle(self, campaign: str, seat: str, style: str, until: str | None, off: bool, **_):
        try:
            found = Campaign.objects.get(code=uuid.UUID(campaign))
        except (ValueError, Campaign.DoesNotExist):
            raise CommandError(f"No campaign with the code {campaign!r}.") from None
        target = _seat(found, seat)
        now = timezone.now()
        if off:
            if not caretaker.take_back(target, None, now=now, why=" (manage.py caretaker --off)"):
                raise CommandError(f"The {target.label} is not on the caretaker.")
            self.stdout.write(f"The {target.label} is no longer played by the caretaker.")
            return
        end = None
        if until:
            try:
                day = datetime.strptime(until, "%Y-%m-%d").replace(tzinfo=UTC)
            except ValueError:
                raise CommandError(f"--until takes a date as YYYY-MM-DD, not {until!r}.") from None
            end = day.replace(hour=23, minute=59, second=59)
        try:
            caretaker.hand_over(target, None, style=style, until=end, now=now)
        except OrganiserError as exc:
            raise CommandError(str(exc)) from None
        till = f" until {end:%Y-%m-%d}" if end else " until taken back"
        self.stdout.write(f"The {target.label} is played by the caretaker ({style}){till}.")
