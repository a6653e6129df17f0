"""The calendar a feed serves (RFC 5545, built with ``icalendar``; docs/calendar.md).

A seat's calendar holds the deadlines it owes (the open phase windows whose ``owing`` names it)
and the battle nights of the battles its armies fight, nothing else: another seat's battle is
not in it, even once the gazette tells of it. The organiser's holds every open deadline, with
the seats that owe it, and every dated battle.

Every event has a UID of its own per audience that never changes (the window or battle and the
seat or the organiser), and ``FeedEntry`` remembers what was last served under it: a deadline
extended, a battle moved, goes out under the same UID with a higher SEQUENCE and a new
LAST-MODIFIED (and DTSTAMP, as a published feed's is the time of the last revision), so
calendar apps move the event instead of adding another. Time is passed in (``now=``).

Every text is written through ``plaintext.one_line``: a name holding a line break or another
control character (a row older than the forms' check, docs/security.md, "Names on one line")
is written with a space instead, so the feed never fails on it (icalendar refuses a line break
in the calendar's NAME) nor carries a forged line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils.text import capfirst
from icalendar import Calendar, Event, vDuration, vText

from battles.models import Battle
from battles.services.briefing import turn_label
from battles.services.records import seats_in, side_of_seat
from battles.services.sheet import heading
from campaign.models import Campaign, PhaseWindow, Seat, WindowStatus
from campaign.services.plaintext import one_line
from feeds.models import CalendarFeed, FeedEntry

PRODID = "-//Der Grosse Koenig//campaign calendar//EN"
# How often a calendar app should read the feed again (most read it on their own schedule).
REFRESH = timedelta(hours=1)
# A battle night's length in the calendar: the site keeps only when it starts.
BATTLE_NIGHT = timedelta(hours=4)


@dataclass(frozen=True)
class Item:
    """One event as this feed tells it, before its SEQUENCE is known."""

    uid: str
    summary: str
    start: datetime
    url: str
    description: str
    end: datetime | None = None
    location: str = ""

    def fingerprint(self) -> str:
        """What a calendar app shows of the event: when it changes, the SEQUENCE goes up."""
        end = self.end.isoformat() if self.end else ""
        text = "\n".join(
            (self.summary, self.start.isoformat(), end, self.url, self.description, self.location)
        )
        return hashlib.sha256(text.encode()).hexdigest()


def _absolute(name: str, *args) -> str:
    return settings.SITE_URL + reverse(name, args=args)


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def _phase(window: PhaseWindow) -> str:
    return window.phase.replace("_", " ").replace("-", " ")


def _open_windows(campaign: Campaign):
    return campaign.windows.filter(status=WindowStatus.OPEN, deadline__isnull=False).order_by(
        "deadline", "id"
    )


def _dated_battles(campaign: Campaign):
    return Battle.objects.filter(campaign=campaign, fight_on__isnull=False).select_related(
        "campaign"
    )


def _place(battle: Battle) -> str:
    """Where the battle stands on the campaign map (the site keeps no club address)."""
    return f"{capfirst(battle.where)}, on the tabletop"


def _battle_item(battle: Battle, uid: str, description: str) -> Item:
    return Item(
        uid=uid,
        summary=f"{battle.campaign.name}: {heading(battle).replace(chr(0xA0), ' ')}",
        start=battle.fight_on,
        end=battle.fight_on + BATTLE_NIGHT,
        url=_absolute("battles:battle", battle.campaign.code, battle.code),
        description=description,
        location=_place(battle),
    )


def seat_items(seat: Seat) -> list[Item]:
    """The seat's own deadlines and battle nights, and nothing of another seat."""
    campaign = seat.campaign
    host = _host()
    items = []
    for window in _open_windows(campaign):
        if not window.owes(seat):
            continue
        phase = _phase(window)
        items.append(
            Item(
                uid=f"deadline-{window.id}-{seat.code}@{host}",
                summary=f"{campaign.name}: {phase} orders due",
                start=window.deadline,
                url=_absolute("orders:dashboard", seat.code),
                description=f"The deadline of the {seat.label}'s {phase} orders, turn "
                f"{window.turn} ({turn_label(window.turn)}).",
            )
        )
    for battle in _dated_battles(campaign):
        side = side_of_seat(battle, seat)
        if side is None:
            continue
        items.append(
            _battle_item(
                battle,
                f"battle-{battle.code}-{seat.code}@{host}",
                f"The {seat.label} fights this battle on the tabletop "
                f"({battle.get_status_display().lower()}).",
            )
        )
    return items


def organiser_items(campaign: Campaign) -> list[Item]:
    """Every open deadline with the seats that owe it, and every dated battle."""
    host = _host()
    labels = {str(s.code): s.label for s in campaign.seats.all()}
    items = []
    for window in _open_windows(campaign):
        phase = _phase(window)
        owing = sorted(labels[c] for c in window.owing if c in labels)
        items.append(
            Item(
                uid=f"deadline-{window.id}-organiser@{host}",
                summary=f"{campaign.name}: {phase} deadline",
                start=window.deadline,
                url=_absolute("organiser_board", campaign.code),
                description=f"Turn {window.turn} ({turn_label(window.turn)}), the {phase} "
                f"phase. Owed by: {', '.join(owing) or 'nobody'}.",
            )
        )
    # An organiser who plays a seat is a player: his board lists every battle, but who fights
    # one he is not in is not told here (docs/architecture.md, "Fog of war").
    sees_all = campaign.umpire_sees_all
    for battle in _dated_battles(campaign):
        status = battle.get_status_display().lower()
        if sees_all:
            fighting = sorted(s.label for seats in seats_in(battle).values() for s in seats)
            text = f"Fought by {', '.join(fighting) or 'nobody seated'} ({status})."
        else:
            text = f"A battle on the tabletop ({status})."
        items.append(_battle_item(battle, f"battle-{battle.code}-organiser@{host}", text))
    return items


def _remember(item: Item, now: datetime) -> FeedEntry:
    """The entry of ``item``'s UID, its SEQUENCE one up if what it says has changed since it was
    last served. A conditional update: of two readers at once, one moves it on."""
    mark = item.fingerprint()
    try:
        with transaction.atomic():
            entry, created = FeedEntry.objects.get_or_create(
                uid=item.uid, defaults={"fingerprint": mark, "created": now, "modified": now}
            )
    except IntegrityError:  # another reader made it first
        entry, created = FeedEntry.objects.get(uid=item.uid), False
    if created or entry.fingerprint == mark:
        return entry
    FeedEntry.objects.filter(id=entry.id, fingerprint=entry.fingerprint).update(
        fingerprint=mark, sequence=F("sequence") + 1, modified=now
    )
    entry.refresh_from_db()
    return entry


def _event(item: Item, entry: FeedEntry) -> Event:
    event = Event()
    event.add("uid", item.uid)
    event.add("dtstamp", entry.modified)
    event.add("created", entry.created)
    event.add("last-modified", entry.modified)
    event.add("sequence", entry.sequence)
    event.add("summary", one_line(item.summary))
    event.add("dtstart", item.start)
    if item.end is not None:
        event.add("dtend", item.end)
    if item.location:
        event.add("location", one_line(item.location))
    event.add("description", f"{one_line(item.description)}\n{item.url}")
    event.add("url", item.url)
    event.add("transp", "TRANSPARENT" if item.end is None else "OPAQUE")
    return event


def calendar(feed: CalendarFeed, *, now: datetime) -> bytes:
    """The feed's calendar, as bytes of ``text/calendar``."""
    campaign = feed.campaign
    if feed.seat_id is None:
        items, name = organiser_items(campaign), f"{campaign.name} (organiser)"
    else:
        items, name = seat_items(feed.seat), f"{campaign.name}: {feed.seat.label}"
    name = one_line(name)
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    # As text, escaped: icalendar writes these two as they are ("Bohemia\\nX" would show a
    # line break in the player's calendar app).
    cal.add("name", vText(name))
    cal.add("x-wr-calname", vText(name))
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", vDuration(REFRESH))
    for item in items:
        cal.add_component(_event(item, _remember(item, now)))
    return cal.to_ical()
