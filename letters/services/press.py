"""Letters between seats (press), by the channel the campaign chose.

Channels (``Campaign.options["press"]``): ``open`` delivers at once; ``courier`` delivers a
letter ``courier_phases`` resolved phases after it was written; ``off`` refuses letters. Who
may read a letter: its sender and its addressees (once it has arrived), and the organiser only
when the campaign said so at its start (``press_moderated``), which every player is told.

A letter is carried by the phase email of ``mailed_version``: for the open channel the email
after the phase in which it was written, by courier the email of the phase in which it arrives.
Rolling a phase back does not recall a letter: what was read cannot be unread
(docs/rules-interpretations.md, "Letters").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Q, QuerySet

from campaign.models import Campaign, CampaignStatus, Seat, StateVersion
from letters.models import Channel, Letter

MAX_LENGTH = 4000
MAX_COURIER_PHASES = 12
DEFAULT_COURIER_PHASES = 2


class LetterRefused(Exception):
    """A letter that cannot be sent; the message says why, in the player's words."""


def channel(campaign: Campaign) -> str:
    value = (campaign.options or {}).get("press", Channel.OPEN)
    return value if value in Channel.values else Channel.OPEN


def courier_phases(campaign: Campaign) -> int:
    try:
        n = int((campaign.options or {}).get("courier_phases", DEFAULT_COURIER_PHASES))
    except (TypeError, ValueError):
        return DEFAULT_COURIER_PHASES
    return min(max(n, 1), MAX_COURIER_PHASES)


def moderated(campaign: Campaign) -> bool:
    return bool((campaign.options or {}).get("press_moderated", False))


def channel_words(campaign: Campaign) -> str:
    """How letters travel in this campaign, as the letters page says it."""
    kind = channel(campaign)
    if kind == Channel.OFF:
        return "Letters are off in this campaign."
    if kind == Channel.OPEN:
        words = (
            "Letters are delivered at once: on the addressees' dashboards now (and to their "
            "phones if they asked for notifications); their emails carry them with the next "
            "phase's news."
        )
    else:
        n = courier_phases(campaign)
        words = (
            f"Letters go by courier: one arrives {n} phase{'s' if n != 1 else ''} after it "
            "is written (a phase is resolved about every few days)."
        )
    if moderated(campaign):
        words += " The organiser can read every letter (the campaign said so at its start)."
    return words


def addressees(seat: Seat) -> QuerySet[Seat]:
    """The seats a seat may write to: the other playing seats of its campaign."""
    return Seat.objects.filter(campaign_id=seat.campaign_id, reserve=False).exclude(id=seat.id)


def latest_number(campaign: Campaign) -> int | None:
    """The number of the campaign's latest state version: letters arrive by it."""
    return _latest_number(campaign)


def _latest_number(campaign: Campaign) -> int | None:
    return (
        StateVersion.objects.filter(campaign=campaign)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


@dataclass(frozen=True)
class Sent:
    letter: Letter
    arrives_now: bool


def send(sender: Seat, recipient_ids, body: str, *, now: datetime) -> Sent:
    """Write a letter from ``sender`` to the seats ``recipient_ids``; LetterRefused says why
    not (the channel is off, the campaign has not started or is over, no addressee...)."""
    campaign = sender.campaign
    kind = channel(campaign)
    if kind == Channel.OFF:
        raise LetterRefused("Letters are off in this campaign (the organiser's choice).")
    if sender.reserve:
        raise LetterRefused("A reserve player writes no letters until taking a seat.")
    if campaign.status != CampaignStatus.RUNNING:
        raise LetterRefused(
            "Letters can be written while the campaign runs: it has not started yet."
            if campaign.status == CampaignStatus.SETUP
            else "The campaign is over: no more letters."
        )
    body = (body or "").strip()
    if not body:
        raise LetterRefused("The letter is empty: write something before sending it.")
    if len(body) > MAX_LENGTH:
        raise LetterRefused(
            f"The letter is {len(body):,} characters long; at most {MAX_LENGTH:,} fit."
        )
    wanted = {int(i) for i in recipient_ids}
    if not wanted:
        raise LetterRefused("Choose at least one seat to write to.")
    seats = list(addressees(sender).filter(id__in=wanted))
    if len(seats) != len(wanted):
        raise LetterRefused("Write only to the other seats of this campaign.")
    with transaction.atomic():
        number = _latest_number(campaign)
        if number is None:
            raise LetterRefused("Letters can be written once the campaign has started.")
        delay = courier_phases(campaign) if kind == Channel.COURIER else 0
        letter = Letter.objects.create(
            campaign=campaign,
            sender=sender,
            body=body,
            channel=kind,
            sent=now,
            sent_version=number,
            arrives_version=number + delay,
            mailed_version=number + max(delay, 1),
        )
        letter.recipients.set(seats)
    return Sent(letter, arrives_now=delay == 0)


def _arrived(number: int | None) -> Q:
    return Q(arrives_version__lte=-1 if number is None else number)


def received(seat: Seat, number: int | None) -> QuerySet[Letter]:
    """The letters that have reached the seat by version ``number``, newest first."""
    return (
        Letter.objects.filter(recipients=seat)
        .filter(_arrived(number))
        .select_related("sender")
        .prefetch_related("recipients")
    )


def sent_by(seat: Seat) -> QuerySet[Letter]:
    return Letter.objects.filter(sender=seat).prefetch_related("recipients")


def in_transit_to(seat: Seat, number: int | None) -> int:
    """How many letters are on their way to the seat: never who wrote them or what."""
    return Letter.objects.filter(recipients=seat).exclude(_arrived(number)).count()


def all_letters(campaign: Campaign) -> QuerySet[Letter]:
    """Every letter of the campaign: for the organiser of a moderated campaign only."""
    return (
        Letter.objects.filter(campaign=campaign)
        .select_related("sender")
        .prefetch_related("recipients")
    )


def mailed_with(seat: Seat, since_version: int | None, latest: int) -> list[Letter]:
    """The letters to this seat that the phase email for the versions after ``since_version``
    up to ``latest`` carries (oldest first)."""
    rows = Letter.objects.filter(recipients=seat, mailed_version__lte=latest).filter(
        arrives_version__lte=latest
    )
    if since_version is not None:
        rows = rows.filter(mailed_version__gt=since_version)
    return list(rows.select_related("sender").order_by("sent", "id"))


def mailed_with_seats(campaign: Campaign, since_version: int | None, latest: int) -> dict:
    """``mailed_with`` for every seat of the campaign at once: seat id to its letters (oldest
    first). One query when none was mailed, the usual case of a resolution's emails (their
    ids alone: a query with the letters and their senders costs twice as much to build), three
    when some were."""
    rows = Letter.objects.filter(
        campaign=campaign, mailed_version__lte=latest, arrives_version__lte=latest
    )
    if since_version is not None:
        rows = rows.filter(mailed_version__gt=since_version)
    ids = list(rows.order_by().values_list("id", flat=True))
    out: dict[int, list[Letter]] = {}
    if ids:
        letters = Letter.objects.filter(id__in=ids).select_related("sender").in_bulk()
        pairs = Letter.recipients.through.objects.filter(letter_id__in=ids)
        for letter_id, seat_id in pairs.order_by().values_list("letter_id", "seat_id"):
            out.setdefault(seat_id, []).append(letters[letter_id])
    for listed in out.values():
        listed.sort(key=lambda x: (x.sent, x.id))
    return out


def phases_left(letter: Letter, number: int | None) -> int:
    """Phases until a letter arrives, at version ``number`` (0 when it has)."""
    return max(letter.arrives_version - (number or 0), 0)
