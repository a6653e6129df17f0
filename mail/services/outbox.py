"""The local outbox (issue 26): with no mail server set, every email is written to a file in
``EMAIL_FILE_PATH`` by Django's file backend, and the organiser reads a campaign's emails on
its Outbox page, the way a developer's mail catcher shows them. Only on such a run: with a mail
server the page does not exist."""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import getaddresses
from pathlib import Path

from django.conf import settings

FILE_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
# Django's file backend ends each message with a line of 79 dashes.
SEPARATOR = b"\n" + b"-" * 79 + b"\n"
KEPT = 200  # the newest emails read


@dataclass(frozen=True)
class OutboxMail:
    written: datetime
    to: str
    subject: str
    body: str
    campaign: str = ""  # the campaign's code (X-DGK-Campaign), "" for mail of no campaign
    kind: str = ""  # X-DGK-Kind


def enabled() -> bool:
    return settings.EMAIL_BACKEND == FILE_BACKEND


def _read(path: Path) -> list[OutboxMail]:
    written = datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
    out = []
    for chunk in path.read_bytes().split(SEPARATOR):
        if not chunk.strip():
            continue
        message = email.message_from_bytes(chunk.lstrip(b"\n"), policy=email.policy.default)
        part = message.get_body(preferencelist=("plain",))
        out.append(
            OutboxMail(
                written=written,
                to=str(message.get("To", "")),
                subject=str(message.get("Subject", "")),
                body=part.get_content() if part is not None else "",
                campaign=str(message.get("X-DGK-Campaign", "")),
                kind=str(message.get("X-DGK-Kind", "")),
            )
        )
    return out


# What any organiser may read: no seat's secrets are in them.
OPEN_KINDS = frozenset({"invitation", "organiser-missing", "organiser-flag"})


def addressed_to(to: str, own: str) -> bool:
    """Whether the To header ``to`` names the address ``own`` itself (not merely holds it:
    "jimbob@example.org" is not "bob@example.org")."""
    own = own.strip().lower()
    return bool(own) and any(a.strip().lower() == own for _, a in getaddresses([to]))


def campaign_mail(campaign, *, everything: bool = True, own: str = "") -> list[OutboxMail]:
    """The emails of ``campaign`` in the outbox, newest first: those marked with its code (a
    name can stand inside another campaign's subject; a password reset has no campaign). Not
    ``everything``: only the invitations, the organiser's emails, and those to ``own``."""
    folder = Path(settings.EMAIL_FILE_PATH)
    if not enabled() or not folder.is_dir():
        return []
    files = sorted(folder.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True)
    found: list[OutboxMail] = []
    for path in files:
        found += [
            m
            for m in reversed(_read(path))
            if m.campaign == str(campaign.code)
            and (everything or m.kind in OPEN_KINDS or addressed_to(m.to, own))
        ]
        if len(found) >= KEPT:
            break
    return found[:KEPT]
