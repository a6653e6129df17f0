"""The reply address of a call for orders (issue 29): one address per seat and phase window, so
that a player can answer the call from his mail client.

``orders+w<window>s<seat>-<mac>@<domain>``: the window and the seat by number, and an HMAC of
both under the site's secret key (Django's ``salted_hmac``, 64 bits shown: every guess costs a
mail, and the whole address stays within the 64 characters a mail address's local part may
have). The address names the window, so it dies with it: a reply after the phase has resolved
changes nothing. The domain is ``ORDERS_MAIL_DOMAIN``; ``ORDERS_MAILBOX`` (an address with
plus-addressing, e.g. ``club@example.org``) puts the token after its ``+`` instead. With neither
set, calls for orders carry no reply address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "dgk.orders-by-mail"
_TOKEN = re.compile(r"w(\d{1,10})s(\d{1,10})-([0-9a-z]{16})")


@dataclass(frozen=True)
class ReplyToken:
    window_id: int
    seat_id: int


def _mac(window_id: int, seat_id: int) -> str:
    return salted_hmac(SALT, f"{window_id}:{seat_id}", algorithm="sha256").hexdigest()[:16]


def token(window_id: int, seat_id: int) -> str:
    return f"w{window_id}s{seat_id}-{_mac(window_id, seat_id)}"


def enabled() -> bool:
    return bool(settings.ORDERS_MAIL_DOMAIN or settings.ORDERS_MAILBOX)


def address(window_id: int, seat_id: int) -> str:
    """The reply address for one seat in one window; ``""`` when orders by mail are off."""
    if settings.ORDERS_MAILBOX:
        user, _, domain = settings.ORDERS_MAILBOX.partition("@")
        return f"{user}+{token(window_id, seat_id)}@{domain}"
    if settings.ORDERS_MAIL_DOMAIN:
        return f"orders+{token(window_id, seat_id)}@{settings.ORDERS_MAIL_DOMAIN}"
    return ""


def read(addresses: list[str]) -> ReplyToken | None:
    """The first genuine token among ``addresses`` (To, Cc, Delivered-To…), or None. The HMAC
    is compared in constant time."""
    for addr in addresses:
        local = addr.rsplit("@", 1)[0].lower()
        found = _TOKEN.search(local.partition("+")[2] or "")
        if not found:
            continue
        window_id, seat_id, mac = int(found[1]), int(found[2]), found[3]
        if constant_time_compare(mac, _mac(window_id, seat_id)):
            return ReplyToken(window_id, seat_id)
    return None
