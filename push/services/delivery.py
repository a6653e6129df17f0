"""Sending the pushes: each to every device of the seat's player, encrypted for that device
(RFC 8291, aes128gcm) and signed with the site's VAPID key (RFC 8292) by ``pywebpush``, through
the site's guard for the addresses users give it (``dgk.outbound``: the endpoint checked and its
address pinned, no redirect, ``PUSH_TIMEOUT_SECONDS`` in all). A device whose push service
answers 404 or 410 has gone (unsubscribed, the browser's data wiped): it is forgotten, as is one
whose endpoint the guard refuses (it can never be called). One device's failure, of any kind, is
logged and counted and never stops the other devices nor the later seats of the batch.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from pywebpush import WebPushException, webpush

from campaign.models import Seat
from dgk import outbound
from push.models import PushDevice
from push.services import keys, messages

log = logging.getLogger(__name__)

# How long a push service keeps a push for a device that is off (seconds): a day, as a call
# for orders is stale after that.
TTL = 24 * 60 * 60
GONE = (404, 410)


class TooManyDevices(Exception):
    """The player has ``PUSH_DEVICES_PER_USER`` devices already."""


def send_to_device(device: PushDevice, payload: dict, *, now: datetime) -> str:
    """Push ``payload`` to ``device``: "sent", "forgotten" (the service says it is gone, or the
    guard refuses its endpoint: the device is deleted) or "failed" (logged; the next push tries
    again). Never raises."""
    try:
        with outbound.Session(settings.PUSH_TIMEOUT_SECONDS) as session:
            webpush(
                subscription_info={
                    "endpoint": device.endpoint,
                    "keys": {"p256dh": device.p256dh, "auth": device.auth},
                },
                data=json.dumps(payload),
                vapid_private_key=keys.vapid(),
                vapid_claims={"sub": keys.subject()},  # a new dict: webpush adds aud and exp
                ttl=TTL,
                timeout=settings.PUSH_TIMEOUT_SECONDS,
                requests_session=session,
            )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in GONE:
            PushDevice.objects.filter(id=device.id).delete()
            log.info("push: device %s is gone (%s), forgotten", device.code, status)
            return "forgotten"
        log.warning("push: device %s refused (%s)", device.code, status)
        return "failed"
    except outbound.Refused as exc:
        if _endpoint_refused(device.endpoint):  # for good: the address itself
            PushDevice.objects.filter(id=device.id).delete()
            log.warning("push: device %s's endpoint is refused (%s), forgotten", device.code, exc)
            return "forgotten"
        # What its host resolves to here (a DNS64 network's NAT64 prefix, say) is the server's
        # network, not the player's doing: kept, tried again at the next push.
        log.warning("push: device %s's host refused here (%s)", device.code, exc)
        return "failed"
    except Exception as exc:  # a bad key, an unreachable service, ...: this device only
        # The exception's kind, not its text or traceback: requests' errors name the endpoint,
        # the device's own address at its push service, which anyone could push to.
        log.warning(
            "push: device %s failed: %s (%s)",
            device.code,
            outbound.outcome(exc),
            type(exc).__name__,
        )
        return "failed"
    PushDevice.objects.filter(id=device.id).update(last_sent=now)
    return "sent"


def _endpoint_refused(endpoint: str) -> bool:
    """Whether the address itself is refused (read by the sender's parser), not what it
    resolves to."""
    try:
        outbound.parse(endpoint)
    except outbound.Refused:
        return True
    return False


def send_pushes(pushes: list[dict], *, now: datetime) -> dict[str, int]:
    """Send each push to its seat's player's devices; the counts of each outcome."""
    counts = {"sent": 0, "forgotten": 0, "failed": 0}
    seats = Seat.objects.select_related("campaign").in_bulk({p["seat"] for p in pushes})
    for push in pushes:
        seat = seats.get(push["seat"])
        if seat is None or seat.user_id is None:
            continue
        try:
            payload = messages.payload(push, seat)
        except Exception:  # a push the worker cannot word: this push only
            log.exception("push: no payload for %s", push)
            counts["failed"] += 1
            continue
        for device in PushDevice.objects.filter(user_id=seat.user_id):
            counts[send_to_device(device, payload, now=now)] += 1
    return counts


def remember(user, endpoint: str, p256dh: str, auth: str, name: str, *, now: datetime):
    """Keep this browser's subscription for ``user`` (a browser subscribed again, or by
    someone else on a shared computer, has one row: the last user's). Raises
    ``TooManyDevices`` past ``PUSH_DEVICES_PER_USER``: counted with the user's row locked, so
    two posts at once cannot both pass the count."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(id=user.id).first()
        known = PushDevice.objects.filter(user=user)
        if (
            known.count() >= settings.PUSH_DEVICES_PER_USER
            and not known.filter(endpoint=endpoint).exists()
        ):
            raise TooManyDevices(
                f"At most {settings.PUSH_DEVICES_PER_USER} devices: remove one first."
            )
        device, _ = PushDevice.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "name": name[:100]},
            create_defaults={
                "user": user,
                "p256dh": p256dh,
                "auth": auth,
                "name": name[:100],
                "created": now,
            },
        )
    return device
