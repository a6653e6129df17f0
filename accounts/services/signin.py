"""Sign-in throttling (issues 27 and 36) and what a campaign sees of it.

Two locks, both for ``AXES_COOLOFF_TIME`` after the wrong password that set them:

- **A name from one address.** django-axes (``AXES_LOCKOUT_PARAMETERS``) locks the *pair* of
  name and address after ``AXES_FAILURE_LIMIT`` wrong passwords: the other people behind that
  address (a club on one Wi-Fi) sign in as ever, and nobody elsewhere can lock a player out.
  The player is told by email.
- **An address guessing names.** An address with wrong passwords for
  ``SIGNIN_ADDRESS_NAMES_LIMIT`` different names within the cool-off is locked for every name
  (``AddressGuard``, django-axes's database handler with that rule more). A name that then
  signs in with the right password from there stops counting (django-axes resets the pair).

Guesses for one name from several addresses (a spread attack) slow that name down instead of
locking it: after ``AXES_FAILURE_LIMIT`` wrong passwords from two or more addresses, a try from
an address the player has never signed in from waits a growing delay after the last wrong
password (``delay_seconds``, at most ``SIGNIN_SLOW_MAX_SECONDS``); the player is told by email,
once per spell. A spell ends ``AXES_COOLOFF_TIME`` after its last wrong password.

Also here: which of a campaign's players are locked out, and the organiser's unlock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt, AccessLog
from axes.signals import user_locked_out
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


def _since(now: datetime) -> datetime:
    """The oldest wrong password still remembered (django-axes forgets older ones)."""
    return now - settings.AXES_COOLOFF_TIME


def spell(username: str, *, now: datetime) -> Spell:
    rows = AccessAttempt.objects.filter(username=username, attempt_time__gte=_since(now)).aggregate(
        failures=Sum("failures_since_start"),
        addresses=Count("ip_address", distinct=True),
        last=Max("attempt_time"),
    )
    return Spell(rows["failures"] or 0, rows["addresses"] or 0, rows["last"])


def name_locked_from(username: str, address: str | None, *, now: datetime) -> bool:
    """django-axes's lock of the pair: ``AXES_FAILURE_LIMIT`` wrong passwords for ``username``
    from ``address`` within the cool-off (summed over browsers, as django-axes does)."""
    failures = AccessAttempt.objects.filter(
        username=username, ip_address=address, attempt_time__gte=_since(now)
    ).aggregate(n=Sum("failures_since_start"))["n"]
    return (failures or 0) >= settings.AXES_FAILURE_LIMIT


def guessed_names(address: str | None, *, now: datetime) -> int:
    """The different names with wrong passwords from ``address`` within the cool-off."""
    if not address:
        return 0
    return (
        AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=_since(now))
        .values("username")
        .distinct()
        .count()
    )


def address_locked(address: str | None, *, now: datetime) -> bool:
    """The address guesses names: every name is refused from there.

    With the limit at 3: wrong passwords for anna, bert and carl from the club's Wi-Fi within
    15 minutes lock it; anna's five typos alone lock only anna there; anna's one typo followed by
    her right password counts no more (django-axes forgets the pair's wrong passwords).
    """
    return guessed_names(address, now=now) >= settings.SIGNIN_ADDRESS_NAMES_LIMIT


def locked_addresses(*, now: datetime) -> set[str]:
    """Every address locked now for guessing names (``address_locked``)."""
    rows = (
        AccessAttempt.objects.filter(attempt_time__gte=_since(now), ip_address__isnull=False)
        .values("ip_address")
        .annotate(names=Count("username", distinct=True))
        .filter(names__gte=settings.SIGNIN_ADDRESS_NAMES_LIMIT)
    )
    return {row["ip_address"] for row in rows}


class AddressGuard(AxesDatabaseHandler):
    """django-axes's database handler (settings ``AXES_HANDLER``) with one rule more: an
    address guessing names (``address_locked``) is locked for every name, as django-axes locks
    a name from an address (same cool-off, same page, same signal)."""

    def is_locked(self, request, credentials=None) -> bool:
        return super().is_locked(request, credentials) or address_locked(
            request.axes_ip_address, now=request.axes_attempt_time
        )

    def user_login_failed(self, sender, credentials, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        if request is None or request.axes_locked_out or self.is_whitelisted(request, credentials):
            return
        if address_locked(request.axes_ip_address, now=request.axes_attempt_time):
            request.axes_locked_out = True
            request.axes_credentials = credentials
            user_locked_out.send(
                "axes",
                request=request,
                username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,
            )


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


def after_wrong_password(username: str, address: str | None, *, now: datetime) -> bool:
    """After a wrong password for ``username`` from ``address``: when the spell is a spread one,
    or the name is locked from that address, tell the player by email unless they were told in
    this spell already. True when an email was queued."""
    current = spell(username, now=now)
    if current.spread:
        addresses = current.addresses
    elif name_locked_from(username, address, now=now):
        addresses = 1  # the email says: locked from one address, not slowed everywhere
    else:
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
    outgoing.queue_signin_slowed(user.pk, addresses)
    return True


@dataclass(frozen=True)
class LockedSeat:
    """A seat whose player cannot sign in somewhere; ``address``: (also) because an address
    they sign in from guessed several names, so unlocking frees that address too."""

    seat: Seat
    address: bool


def _locked_places(names: list[str], *, now: datetime) -> dict[str, set[str]]:
    """For each of ``names``, the locked addresses it had wrong passwords from or signed in
    from before (django-axes's access log): where the player is shut out with everyone else."""
    blocked = locked_addresses(now=now)
    places: dict[str, set[str]] = {}
    if not blocked:
        return places
    tried = AccessAttempt.objects.filter(
        username__in=names, ip_address__in=blocked, attempt_time__gte=_since(now)
    ).values_list("username", "ip_address")
    signed_in = AccessLog.objects.filter(username__in=names, ip_address__in=blocked).values_list(
        "username", "ip_address"
    )
    for name, address in [*tried, *signed_in]:
        places.setdefault(name, set()).add(address)
    return places


def locked_seats(campaign: Campaign, *, now: datetime) -> list[LockedSeat]:
    """The campaign's seated players locked out now: their name from an address, or an address
    they sign in from."""
    seats = list(campaign.seats.filter(user__isnull=False).select_related("user"))
    names = {s.user.get_username(): s for s in seats}
    pairs = (
        AccessAttempt.objects.filter(username__in=list(names), attempt_time__gte=_since(now))
        .values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"))
        .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
    )
    by_name = {row["username"] for row in pairs}
    places = _locked_places(list(names), now=now)
    return [LockedSeat(names[name], name in places) for name in sorted(by_name | set(places))]


def unlock(campaign: Campaign, actor, seat: Seat, *, now: datetime) -> int:
    """Clear the wrong passwords for the player of ``seat``, and of every locked address they
    tried or signed in from (every name from there may try again): logged, as every organiser
    tool. Returns the number of django-axes records cleared."""
    if seat.campaign_id != campaign.id or seat.user is None:
        raise OrganiserError("That seat has no player in this campaign.")
    name = seat.user.get_username()
    places = sorted(_locked_places([name], now=now).get(name, ()))
    cleared = sum(reset(ip=address) for address in places) + reset(username=name)
    where = " and of the address they sign in from" if places else ""
    log(
        campaign,
        actor,
        OrganiserActionKind.UNLOCKED,
        f"Unlocked the sign-in of the {seat.label}{where} after repeated wrong passwords.",
        now=now,
        seat=str(seat.code),
    )
    return cleared
