"""The receivers of what the campaign tells (``campaign.signals``) and of the letters'
addressees: each turns what happened into pushes (``messages``) for the seats that have a
device and want that kind, and queues them, by name, when the transaction commits.

They run inside the transaction that made the change, so they read little: one query for the
seats that may receive anything (none at all when no one has a device).
"""

from __future__ import annotations

from battles.models import Battle
from battles.services.records import seats_in
from campaign.models import Seat
from campaign.services import queue
from letters.models import Letter
from push.models import PushDevice, PushKind
from push.services.messages import BATTLE_EVENT, EVENT_KIND, NOTICE_EVENT

SEND_PUSHES = "push.tasks.send_pushes"


def pushes_of(kind: str, ids: dict) -> list[dict]:
    """The pushes one notice (an email's kind and ids) stands for, before anyone's choice.

    >>> pushes_of("reminder", {"seat_id": 3, "window_id": 9, "hours": 24})
    [{'seat': 3, 'event': 'reminder', 'hours': 24}]
    >>> pushes_of("invitation", {"invitation_id": 1})
    []
    """
    if kind in NOTICE_EVENT and "seat_id" in ids:
        push = {"seat": ids["seat_id"], "event": NOTICE_EVENT[kind]}
        if kind == "reminder":
            push["hours"] = ids.get("hours", 0)
        return [push]
    if kind == "battle" and ids.get("battle_kind") in BATTLE_EVENT and not ids.get("organiser"):
        battle = Battle.objects.select_related("campaign").filter(id=ids["battle_id"]).first()
        if battle is None:
            return []
        return [
            {"seat": seat.id, "event": BATTLE_EVENT[ids["battle_kind"]], "battle": str(battle.code)}
            for side, seats in seats_in(battle).items()
            if side != ids.get("exclude_side")
            for seat in seats
        ]
    return []


def wanted(pushes: list[dict]) -> list[dict]:
    """The pushes whose seat has a player with a device and wants their kind."""
    seat_ids = {push["seat"] for push in pushes}
    if not seat_ids or not PushDevice.objects.exists():
        return []
    rows = (
        Seat.objects.filter(id__in=seat_ids, user__push_devices__isnull=False)
        .values_list("id", "push_setting__kinds")
        .distinct()
    )
    kinds = {seat_id: set(PushKind.values if k is None else k) for seat_id, k in rows}
    return [p for p in pushes if EVENT_KIND[p["event"]] in kinds.get(p["seat"], ())]


def queue_pushes(pushes: list[dict]) -> None:
    """Queue the wanted ``pushes`` on commit; robust: a broker that is down costs the pushes,
    never the change that told them (the email has its outbox)."""
    pushes = wanted(pushes)
    if pushes:
        queue.on_commit(SEND_PUSHES, pushes, robust=True)


def on_told(sender, *, notices, campaign_id=None, **kwargs) -> None:
    """``campaign.signals.told``: the notices the campaign queued as emails."""
    if not PushDevice.objects.exists():  # no one to push to: read no battle
        return
    queue_pushes([push for kind, ids in notices for push in pushes_of(kind, ids)])


def on_letter_addressed(sender, *, instance, action, pk_set, reverse, **kwargs) -> None:
    """A letter's addressees set (``letters.services.press.send``): a letter that arrives at
    once (the open channel) is pushed to them now; a courier's when it arrives."""
    if action != "post_add" or reverse or not pk_set:
        return
    if instance.arrives_version <= instance.sent_version:
        queue_pushes([{"seat": seat_id, "event": "letter"} for seat_id in sorted(pk_set)])


def on_version_stored(sender, *, campaign, latest, seats=None, **kwargs) -> None:
    """A new state version: the couriers' letters that arrive with it are pushed."""
    if latest is None or not PushDevice.objects.exists():
        return
    arrived = Letter.recipients.through.objects.filter(
        letter__campaign=campaign,
        letter__arrives_version=latest.number,
        letter__sent_version__lt=latest.number,
    ).values_list("seat_id", flat=True)
    queue_pushes([{"seat": seat_id, "event": "letter"} for seat_id in sorted(set(arrived))])
