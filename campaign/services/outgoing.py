"""What the campaign tells its people, queued when the transaction commits: every email is
named here by its kind and the ids it is built from, and written to the outbox
(``OutboxEmail``) when a resolution sends it; the ``mail`` app builds and sends it
(``mail.services.email``, the ``send_email`` and ``send_emails`` tasks, queued by name).

The services of the campaign, the battles and the seasons call these; none of them imports the
mail app, which sits above them (docs/architecture.md, "The apps").
"""

from __future__ import annotations

import functools
from collections import OrderedDict

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from campaign import signals
from campaign.models import Campaign, OutboxEmail, Seat
from campaign.services import queue


def _tell(notices: list[tuple[str, dict]], campaign_id: int | None = None) -> None:
    """Tell the other channels (``campaign.signals.told``) what the emails tell."""
    if notices:
        signals.told.send(Campaign, notices=notices, campaign_id=campaign_id)


def outbox_enabled() -> bool:
    """Whether emails go to the local outbox (files) rather than a mail server."""
    return settings.EMAIL_BACKEND == "django.core.mail.backends.filebased.EmailBackend"


def _queue(kind: str, **ids) -> None:
    queue.on_commit(queue.SEND_EMAIL, kind, **ids)
    _tell([(kind, ids)])


def _queue_batch(batch: list[tuple[str, dict]], campaign_id: int | None = None) -> None:
    if batch:
        queue.on_commit(queue.SEND_EMAILS, [[k, ids] for k, ids in batch])
        _tell(batch, campaign_id)


def queue_after_resolution(campaign_id: int, notices) -> None:
    """One email per seat per resolution: the new phase's call for orders to the seats that
    owe them, the resolved report to the others, and "campaign over" at the end. They go as
    one task (``deliver_many``), which reads what they share once."""
    if notices is None:
        return
    if notices.seats is not None:  # the seats the resolution read
        seated = {s.id for s in notices.seats if s.user_id is not None}
    else:
        seated = set(
            Seat.objects.filter(campaign_id=campaign_id, user__isnull=False).values_list(
                "id", flat=True
            )
        )
    notices.opened = [(kind, seat_id) for kind, seat_id in notices.opened if seat_id in seated]
    notices.resolved = [seat_id for seat_id in notices.resolved if seat_id in seated]
    told = set()
    batch: list[tuple[str, dict]] = []
    # Resolved early by the organiser: every seat is told, and told that it was no deadline.
    early = {"early": notices.early} if getattr(notices, "early", "") else {}
    for kind, seat_id in notices.opened:
        batch.append((kind, {"seat_id": seat_id, "since": notices.since_version, **early}))
        told.add(seat_id)
    for seat_id in notices.resolved:
        if seat_id not in told:
            batch.append(
                ("phase-resolved", {"seat_id": seat_id, "since": notices.since_version, **early})
            )
    if notices.over:
        batch += [("campaign-over", {"seat_id": seat_id}) for seat_id in _over_seats(campaign_id)]
    if batch and notices.written is not None:  # (a resolution: its seats and versions known)
        key = f"{campaign_id}:{notices.latest.id}:{notices.since_version}"
        rows = _into_outbox(key, batch)
        transaction.on_commit(functools.partial(_hand_off, key, notices))
        # Robust: with the broker down the emails wait in the outbox for the worker's sweep.
        queue.on_commit(
            queue.SEND_EMAILS,
            [[k, ids] for k, ids in batch],
            handoff=key,
            outbox=[row.id for row in rows],
            robust=True,
        )
        _tell(batch, campaign_id)
    else:
        _queue_batch(batch, campaign_id)


# --- the outbox (issue 27): a resolution's emails, written with it, each sent once -----------


def _into_outbox(key: str, batch: list[tuple[str, dict]]) -> list[OutboxEmail]:
    """The resolution's emails as rows of its own transaction: if it commits, they are sent
    (by its task, or else by ``send_pending``), whatever happens to the broker or the worker."""
    now = timezone.now()
    return OutboxEmail.objects.bulk_create(
        OutboxEmail(batch=key, kind=kind, ids=ids, created=now) for kind, ids in batch
    )


# What a resolution hands to its own emails when they are built in the process that resolved
# it (with no broker, or when the worker that resolved takes the emails' task too): the seats
# with their users, the version and window it made and the events it wrote, by the key its
# emails' task names. Committed data only (kept when the transaction commits), never changed
# after, so an email built from it says what one built from the database would
# (``tests/mail/test_email_handoff.py``); elsewhere the task reads them (``Shared``).
_HANDOFFS: OrderedDict[str, object] = OrderedDict()
HANDOFFS_KEPT = 8


def _hand_off(key: str, notices) -> None:
    _HANDOFFS[key] = notices
    while len(_HANDOFFS) > HANDOFFS_KEPT:
        _HANDOFFS.popitem(last=False)


def taken(key: str | None):
    return _HANDOFFS.pop(key, None) if key else None


def queue_invitation(invitation_id: int) -> None:
    _queue("invitation", invitation_id=invitation_id)


def queue_reminder(seat_id: int, window_id: int, hours: int, *, step: int | None = None) -> None:
    """``hours``: how long before the deadline it goes (what it says); ``step``: the
    campaign's reminder step it stands for, when scaled to a short phase (the last step is the
    last call)."""
    extra = {"step": step} if step is not None and step != hours else {}
    _queue("reminder", seat_id=seat_id, window_id=window_id, hours=hours, **extra)


def queue_organiser_missing(window_id: int, seat_ids: list[int], hours: int) -> None:
    """``hours``: how long before the deadline it goes (what it says)."""
    _queue("organiser-missing", window_id=window_id, seat_ids=seat_ids, hours=hours)


def queue_organiser_flag(seat_id: int) -> None:
    _queue("organiser-flag", seat_id=seat_id)


def queue_handover(seat_id: int) -> None:
    _queue("handover", seat_id=seat_id)


def queue_caretaker(seat_id: int) -> None:
    """The player of a seat the organiser handed to the caretaker is told, with his way back."""
    _queue("caretaker", seat_id=seat_id)


def queue_battle(battle_id: int, battle_kind: str, **options) -> None:
    """A battle's email (``battles.services.records``: result entered, disputed, applied, date
    set, reminder, overdue); its recipients are read when it is sent."""
    _queue("battle", battle_id=battle_id, battle_kind=battle_kind, **options)


def queue_digest(seat_id: int, since: int | None) -> None:
    _queue("digest", seat_id=seat_id, since=since)


def queue_password_reset(user_id: int) -> None:
    _queue("password-reset", user_id=user_id)


def queue_signin_slowed(user_id: int, addresses: int) -> None:
    """Robust: a sign-in page answers even with the broker down."""
    queue.on_commit(queue.SEND_EMAIL, "signin-slowed", user_id=user_id, addresses=addresses,
                    robust=True)  # fmt: skip


def queue_rolled_back(seat_id: int, window_id: int) -> None:
    _queue("rolled-back", seat_id=seat_id, window_id=window_id)


def queue_reseeded(seat_id: int) -> None:
    _queue("reseeded", seat_id=seat_id)


def _over_seats(campaign_id: int) -> list[int]:
    return list(
        Seat.objects.filter(campaign_id=campaign_id, reserve=False, user__isnull=False)
        .order_by("id")
        .values_list("id", flat=True)
    )


def queue_campaign_over(campaign_id: int) -> None:
    for seat_id in _over_seats(campaign_id):
        _queue("campaign-over", seat_id=seat_id)
