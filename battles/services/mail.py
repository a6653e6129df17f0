"""The words of a battle's emails (issue 7), read when the ``send_email`` task sends them
(``mail.services.email``); they are queued by ``battle_results.notify``.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.conf import settings as django_settings
from django.urls import reverse

from battles.models import Battle
from battles.services.briefing import describe_result, turn_label
from battles.services.records import seats_in

_SUBJECTS = {
    "result-entered": "{campaign}: the result of the battle at {hex} waits for you",
    "result-replaced": "{campaign}: the result of the battle at {hex} was entered again",
    "result-disputed": "{campaign}: the result of the battle at {hex} is disputed",
    "result-applied": "{campaign}: the battle at {hex} is decided; the turn goes on",
    "date-set": "{campaign}: the battle at {hex} is fought on {date}",
    "reminder": "{campaign}: the battle at {hex} is fought tomorrow",
    "overdue": "{campaign}: the battle at {hex} has no result yet",
}


_BODIES = {
    "result-replaced": "The result of the battle at {hex} ({when}) was entered again; the"
    " earlier entry is void, and any answer you gave to it no longer counts. Now: {result}\n"
    "Confirm it or dispute it on the battle page: {link}",
    "result-entered": "The result of the battle at {hex} ({when}) was entered. Confirm it or"
    " dispute it on the battle page: {link}",
    "result-disputed": "The result of the battle at {hex} ({when}) is disputed: {dispute}\n"
    "Settle it on the battle page: {link}",
    "result-applied": "The battle at {hex} ({when}) is decided and applied to the campaign."
    "\n{result}\nThe turn goes on. Battle page: {link}",
    "date-set": "The battle at {hex} ({when}) is to be fought on {date}. Briefings: {link}",
    "reminder": "The battle at {hex} ({when}) is fought on {date}. Print your briefing: {link}",
    "overdue": "The battle at {hex} ({when}) was due on {date} and has no final result."
    " Extend its date, settle it, or use the quick resolution: {link}",
}


def build_mail(
    battle_id: int, kind: str, *, exclude_side: str | None = None, organiser: bool = False
) -> tuple[list[str], str, str, dict] | None:
    """(recipients, subject, body, context) of one battle email, read when it is sent (by the
    ``send_email`` task): the seated players whose armies fought (but ``exclude_side``), or
    the organiser. None when there is no one to tell."""
    battle = Battle.objects.select_related("campaign__organiser").filter(id=battle_id).first()
    if battle is None or kind not in _SUBJECTS:
        return None
    if organiser:
        email = battle.campaign.organiser.email
        to = [email] if email else []
    else:
        to = sorted(
            {
                seat.user.email
                for side, seats in seats_in(battle).items()
                if side != exclude_side
                for seat in seats
                if seat.user_id and seat.user.email
            }
        )
    if not to:
        return None
    link = django_settings.SITE_URL + reverse(
        "battles:battle", args=[battle.campaign.code, battle.code]
    )
    zone = ZoneInfo(battle.campaign.time_zone)
    values = {
        "campaign": battle.campaign.name,
        "hex": battle.hex,
        "when": turn_label(battle.turn),
        "date": (
            f"{battle.fight_on.astimezone(zone):%A %d %B %Y, %H:%M %Z}" if battle.fight_on else ""
        ),
        "link": link,
        "dispute": battle.dispute,
        "result": " ".join(describe_result(battle, battle.result)),
    }
    context = {"campaign": battle.campaign, "link": link}
    return to, _SUBJECTS[kind].format(**values), _BODIES[kind].format(**values), context
