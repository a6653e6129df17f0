"""The words of a battle's emails (issue 7), read when the ``send_email`` task sends them
(``mail.services.email``); they are queued by ``battle_results.notify``.

One email per player: a battle's news is queued once (``notify``: one notice for the other
channels too, the club's post of a date for one), and the mail app sends it as one email per
seat of the battle (``seat_ids_to_tell``; ``mail.services.email.deliver``), each to that
player's address alone, with the greeting of the other emails and a footer of its own (one
click does not stop it, so it offers no ``List-Unsubscribe``). No player sees
another's address. ``build_mail`` only builds: it queues nothing.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.conf import settings as django_settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import capfirst

from battles.models import Battle, BattleStatus
from battles.services.briefing import describe_result, turn_label
from battles.services.records import seats_in, side_of_seat
from campaign.models import Seat

_SUBJECTS = {
    "result-entered": "{campaign}: the result of {short} waits for you",
    "result-replaced": "{campaign}: the result of {short} was entered again",
    "result-disputed": "{campaign}: the result of {short} is disputed",
    "result-contested": "{campaign}: the result you entered of {short} is disputed",
    "result-applied": "{campaign}: {short} is decided; the turn goes on",
    "date-set": "{campaign}: {short} is fought on {date}",
    "reminder": "{campaign}: {short} is fought tomorrow",
    "overdue": "{campaign}: {short} has no result yet",
    "to-date": "{campaign}: {short} waits for its date",
}


_BODIES = {
    "result-replaced": "The result of {battle}, {when}, was entered again; the"
    " earlier entry is void, and any answer you gave to it no longer counts. Now: {result}\n"
    "Confirm it or dispute it on the battle page: {link}",
    "result-entered": "The result of {battle}, {when}, was entered: {result}\n"
    "Confirm it on the battle page if it is what happened on the table, and the turn goes on;"
    " else dispute it there, saying what is wrong, and the organiser settles it: {link}",
    "result-contested": "The result you entered of {battle}, {when}, is disputed: {dispute}\n"
    "The organiser settles it; nothing is owed from you, and the turn goes on once he has."
    " Battle page: {link}",
    "result-disputed": "The result of {battle}, {when}, is disputed: {dispute}\n"
    "Settle it on the battle page: {link}",
    "result-applied": "{Battle}, {when}, is decided and applied to the campaign."
    "\n{result}\nThe turn goes on. Battle page: {link}",
    "date-set": "{Battle}, {when}, is to be fought on {date}. Battle page: {link}\n"
    "Your briefing, to print and play from: {briefing}",
    "reminder": "{Battle}, {when}, is fought on {date}. Print your briefing: {briefing}"
    "\nBattle page: {link}",
    "overdue": "{Battle}, {when}, was due on {date} and has no final result."
    " Extend its date, settle it, or use the quick resolution: {link}",
    "to-date": "{Battle}, {when}, goes to the tabletop, and the campaign waits for its result"
    " (9). Set the date it is fought (the club night) on the battle page; its players are"
    " emailed the date and their briefings: {link}\n"
    "After the battle one side enters the result and the other confirms it; the turn then"
    " goes on. If it cannot be fought, settle the result yourself or use the quick resolution,"
    " on the same page.",
}


def seats_to_tell(battle: Battle, exclude_side: str | None = None) -> list[Seat]:
    """The seats whose armies fought (but ``exclude_side``) with a player who has an address,
    one for each address."""
    chosen: dict[str, Seat] = {}
    for side, seats in seats_in(battle).items():
        for seat in seats:
            if side != exclude_side and seat.user_id and seat.user.email:
                chosen.setdefault(seat.user.email, seat)
    return list(chosen.values())


def seat_ids_to_tell(battle_id: int, exclude_side: str | None = None) -> list[int]:
    """The seats to send one battle's news to, one email each (``seats_to_tell``); none when
    the battle is gone."""
    battle = Battle.objects.select_related("campaign").filter(id=battle_id).first()
    return [seat.id for seat in seats_to_tell(battle, exclude_side)] if battle else []


def build_mail(
    battle_id: int,
    kind: str,
    *,
    seat_id: int | None = None,
    exclude_side: str | None = None,
    organiser: bool = False,
) -> tuple[list[str], str, str, dict] | None:
    """(recipients, subject, body, context) of one battle email, read when it is sent (by the
    ``send_email`` task): to the player of ``seat_id`` alone, or to the organiser; None when
    there is no one to tell (the news for every player is one email per seat,
    ``seat_ids_to_tell``)."""
    battle = Battle.objects.select_related("campaign__organiser").filter(id=battle_id).first()
    if battle is None or kind not in _SUBJECTS:
        return None
    if kind == "to-date" and (battle.fight_on or battle.status != BattleStatus.PENDING):
        return None  # dated, entered or settled before it went: nothing left to ask
    seat = side = None
    if organiser:
        email = battle.campaign.organiser.email
        to = [email] if email else []
    elif seat_id is None:
        return None
    else:
        seat = (
            Seat.objects.select_related("user")
            .filter(id=seat_id, campaign=battle.campaign, reserve=False)
            .first()
        )
        side = side_of_seat(battle, seat) if seat is not None else None
        if side is None or side == exclude_side or not (seat.user_id and seat.user.email):
            return None
        to = [seat.user.email]
    if not to:
        return None
    link = django_settings.SITE_URL + reverse(
        "battles:battle", args=[battle.campaign.code, battle.code]
    )
    briefing = link
    if side is not None:
        briefing = (
            django_settings.SITE_URL
            + reverse("battles:briefing", args=[battle.campaign.code, battle.code, side])
            + "?paper=a4"
        )
    zone = ZoneInfo(battle.campaign.time_zone)
    values = {
        "campaign": battle.campaign.name,
        "hex": battle.hex,
        "battle": battle.named,
        "short": battle.short,
        "Battle": capfirst(battle.named),
        "when": turn_label(battle.turn),
        "date": (_day(battle.fight_on.astimezone(zone)) if battle.fight_on else ""),
        "link": link,
        "briefing": briefing,
        "dispute": battle.dispute,
        "result": " ".join(describe_result(battle, battle.result)),
    }
    # Greeted and signed off as every email to a seat (its settings: the emails it gets).
    text = render_to_string(
        "email/battle-news.txt",
        {
            "seat": seat,
            "body": _BODIES[kind].format(**values),
            "settings_link": (
                django_settings.SITE_URL + reverse("seat_settings", args=[seat.code])
                if seat is not None
                else ""
            ),
        },
    )
    context = {"campaign": battle.campaign, "link": link}
    return to, _SUBJECTS[kind].format(**values), text, context


def _day(moment) -> str:
    """ "Thursday 3 December 2026, 19:30 GMT": the day as the battle page writes it (no
    leading zero)."""
    return f"{moment:%A} {moment.day} {moment:%B %Y, %H:%M %Z}"
