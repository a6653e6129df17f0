"""Sign-in throttling (issue 27) and what a campaign sees of it.

django-axes locks a name *from one address* (settings ``AXES_LOCKOUT_PARAMETERS``) after
``AXES_FAILURE_LIMIT`` wrong passwords, and an address guessing many names: neither can be
turned against a player by someone elsewhere. Guesses for one name from several addresses (a
spread attack) slow that name down instead of locking it: after ``AXES_FAILURE_LIMIT`` wrong
passwords from two or more addresses, a try from an address the player has never signed in from
waits a growing delay after the last wrong password (``delay_seconds``, at most
``SIGNIN_SLOW_MAX_SECONDS``); the player is told by email, once per spell. A spell ends
``AXES_COOLOFF_TIME`` after its last wrong password.

Also here: which of a campaign's players are locked out, and the organiser's unlock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.models import AccessAttempt, AccessLog
from axes.utils import reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Sum

from campaign.models import Campaign, OrganiserActionKind, Seat, SigninWarning
from campaign.services import outgoing
from campaign.services.actionlog import OrganiserError, log


@dataclass(frozen=True)
class Spell:
    """The wrong passwords for one name still remembered (within the cool-off time)."""

    failures: int
    addresses: int
    last: datetime | None

    @property
    def spread(self) -> bool:
        """Enough wrong passwords, from more than one address, to slow the name down."""
        return self.addresses >= 2 and self.failures >= settings.AXES_FAILURE_LIMIT


def spell(username: str, *, now: datetime) -> Spell:
    rows = AccessAttempt.objects.filter(
        username=username, attempt_time__gte=now - settings.AXES_COOLOFF_TIME
    ).aggregate(
        failures=Sum("failures_since_start"),
        addresses=Count("ip_address", distinct=True),
        last=Max("attempt_time"),
    )
    return Spell(rows["failures"] or 0, rows["addresses"] or 0, rows["last"])


def delay_seconds(failures: int) -> int:
    """The wait after the last wrong password of a spread spell: one second at the limit,
    doubling with each wrong password after it, at most ``SIGNIN_SLOW_MAX_SECONDS``.

    With the limit at 5 and the most 60: 5 wrong passwords wait 1 s, 6 wait 2 s, 9 wait 16 s,
    11 and more wait 60 s (a guesser gets about one try a minute, however many addresses).
    """
    over = max(failures - settings.AXES_FAILURE_LIMIT, 0)
    return min(2 ** min(over, 30), settings.SIGNIN_SLOW_MAX_SECONDS)


def known_address(username: str, address: str | None) -> bool:
    """The player has signed in from ``address`` before (django-axes's access log)."""
    return (
        bool(address) and AccessLog.objects.filter(username=username, ip_address=address).exists()
    )


def wait_seconds(username: str, address: str | None, *, now: datetime) -> int:
    """Seconds a try for ``username`` from ``address`` must still wait; 0: it may try now."""
    if not username:
        return 0
    current = spell(username, now=now)
    if not current.spread or current.last is None or known_address(username, address):
        return 0
    until = current.last + timedelta(seconds=delay_seconds(current.failures))
    return max(0, math.ceil((until - now).total_seconds()))


def after_wrong_password(username: str, *, now: datetime) -> bool:
    """After a wrong password for ``username``: when the spell is a spread one, tell the player
    by email unless they were told in this spell already. True when an email was queued."""
    current = spell(username, now=now)
    if not current.spread:
        return False
    user_model = get_user_model()
    user = user_model.objects.filter(
        **{user_model.USERNAME_FIELD: username, "is_active": True}
    ).first()
    if user is None or not user.email:
        return False
    # A new spell: the last one seen ended (no wrong password for the cool-off time).
    told = SigninWarning.objects.filter(
        username=username, last_seen__lt=now - settings.AXES_COOLOFF_TIME
    ).update(sent_at=now, last_seen=now)
    if not told:
        _, created = SigninWarning.objects.get_or_create(
            username=username, defaults={"sent_at": now, "last_seen": now}
        )
        if not created:  # told in this spell already (or by a request racing this one)
            SigninWarning.objects.filter(username=username).update(last_seen=now)
            return False
    outgoing.queue_signin_slowed(user.pk, current.addresses)
    return True


def locked_seats(campaign: Campaign) -> list[Seat]:
    """The campaign's seated players whose account is locked out now."""
    seats = list(campaign.seats.filter(user__isnull=False).select_related("user"))
    names = {s.user.get_username(): s for s in seats}
    locked = AccessAttempt.objects.filter(
        username__in=list(names), failures_since_start__gte=settings.AXES_FAILURE_LIMIT
    ).values_list("username", flat=True)
    return [names[name] for name in sorted(set(locked))]


def unlock(campaign: Campaign, actor, seat: Seat, *, now: datetime) -> int:
    """Clear the failed sign-ins of the player of ``seat`` (logged, as every organiser tool)."""
    if seat.campaign_id != campaign.id or seat.user is None:
        raise OrganiserError("That seat has no player in this campaign.")
    cleared = reset(username=seat.user.get_username())
    log(
        campaign,
        actor,
        OrganiserActionKind.UNLOCKED,
        f"Unlocked the sign-in of the {seat.label} after repeated wrong passwords.",
        now=now,
        seat=str(seat.code),
    )
    return cleared
