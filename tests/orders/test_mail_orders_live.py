# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Orders by email through real mail servers: Debian's Dovecot started by the test (IMAP over
TLS, the message delivered by an LMTP hop) read by the periodic task's poll, and the mail
server's pipe (``manage.py receivemail`` in a process of its own). A whole turn of a five-seat
campaign is played by email alone, half the seats through each way in."""

import os
import subprocess
import sys
import tempfile
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core import mail

from campaign.services import viewcache
from orders import replyaddress
from orders.models import OrderSheet
from orders.tasks import poll_orders_mailbox
from rules.armies import Army
from tests.conftest import REQUIRE_SERVICES, database_url_for_subprocess
from tests.orders import dovecot
from tests.orders.test_play_fixtures import (
    deploy_everyone,
    play_map,
    rules_campaign,
    seat,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
# One step for each army's commander that stays in its own country on the test map (POSITIONS).
STEPS = {"prussia": "Frederick 4", "sweden": "Hamilton 1", "russia": "Apraxin 4",
         "hanover": "Cumberland 1", "france": "D'Estrees 1", "empire": "Saxe 1",
         "austria": "Charles 4"}  # fmt: skip


@pytest.fixture
def mailserver(settings):
    if not dovecot.available():
        if REQUIRE_SERVICES:
            pytest.fail("Dovecot (dovecot-imapd, dovecot-lmtpd) is not installed")
        pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd dovecot-lmtpd)")
    root = Path(tempfile.mkdtemp(prefix="dgk-dovecot-"))
    server = dovecot.start(root)
    settings.ORDERS_MAIL_DOMAIN = "dgk.example.org"
    settings.IMAP_URL = server.imap_url()
    settings.IMAP_CA_FILE = server.cafile
    yield server
    dovecot.stop(server)


def reply(s, window, body: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"Player <{s.user.email}>"
    msg["To"] = replyaddress.address(window.id, s.id)
    msg["Subject"] = f"Re: Silesia 1757: your {window.phase} orders"
    msg["Message-ID"] = f"<{s.power}-{window.id}-{n}@mail.example.com>"
    msg.set_content(body + "\n\nOn Fri, 27 Nov 2026 at 08:00, Der Grosse Konig wrote:\n> call\n")
    return msg.as_bytes()


def has_marches(s, window) -> bool:
    """Whether the dice of the march allocation (6.1) left the seat's army a march this turn:
    with none, its forces cannot move and the seat only says READY."""
    view = viewcache.seat_view(s, window.version)
    return view.marches.get(Army(s.power).march_pool.value, 0) > 0


def pipe(raw: bytes) -> str:
    """``manage.py receivemail`` as a mail server's pipe runs it: the mail on standard input."""
    env = {**os.environ, "DATABASE_URL": database_url_for_subprocess(),
           "ORDERS_MAIL_DOMAIN": "dgk.example.org", "SECRET_KEY": django_settings.SECRET_KEY,
           "CELERY_BROKER_URL": "", "REDIS_URL": "", "EMAIL_URL": "console://",
           "MAP_PICTURES_DIR": str(django_settings.MAP_PICTURES_DIR)}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "manage.py", "receivemail"], input=raw, cwd=ROOT, env=env,
        capture_output=True, timeout=120,
    )  # fmt: skip
    out = done.stdout.decode(errors="replace")
    assert done.returncode == 0, out + done.stderr.decode(errors="replace")
    return out


def test_the_periodic_task_reads_a_reply_from_the_mailbox(
    rules_campaign, mailserver, django_capture_on_commit_callbacks
):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    w = rules_campaign.open_window()
    s = seat(rules_campaign, "prussia")
    mailserver.deliver(reply(s, w, "Frederick 4", 1), "orders")
    mail.outbox.clear()
    assert poll_orders_mailbox() == 1
    assert OrderSheet.objects.get(seat=s, window=w).draft["march"] == [
        {"unit": "frederick", "path": "4"}
    ]
    (answer,) = mail.outbox
    assert "-> Frederick: 1 hex E to " in answer.body and "NOT SUBMITTED" in answer.body
    assert poll_orders_mailbox() == 0  # read once: flagged \\Seen on the server
    assert "saved mail to INBOX" in mailserver.log()


def test_a_whole_turn_by_email_alone(
    rules_campaign, mailserver, django_capture_on_commit_callbacks
):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    seats = list(rules_campaign.seats.filter(reserve=False).order_by("id"))
    by_imap = {s.power for s in seats[::2]}
    answers: dict[str, str] = {}
    marched: set[str] = set()
    for phase, n in (("march", 1), ("forced-march", 2)):
        w = rules_campaign.open_window()
        assert (w.turn, w.phase) == (1, phase), (w.turn, w.phase)
        mail.outbox.clear()
        for s in seats:
            if not w.owes(s):
                continue
            body = "READY"
            if phase == "march" and has_marches(s, w):
                body = STEPS[s.power] + "\nREADY"
                marched.add(s.power)
            raw = reply(s, w, body, n)
            if s.power in by_imap:
                mailserver.deliver(raw, "orders")
            else:
                answers[f"{phase}-{s.power}"] = pipe(raw)
        with django_capture_on_commit_callbacks(execute=True):
            poll_orders_mailbox()
        for s in seats:
            if s.power in by_imap and w.owes(s):
                answers[f"{phase}-{s.power}"] = next(
                    m.body for m in mail.outbox if m.to == [s.user.email] and "read" in m.body
                )
        for power, text in answers.items():
            if power.startswith(phase) and "SUBMITTED: your orders are ready" not in text:
                pytest.fail(f"{power} not submitted; the answer:\n{text}")
        if phase == "march":
            # Prussia always has marches (two dice, 6.1); Russia's one die less one may give none
            assert "prussia" in marched and len(marched) >= 3, marched
            for s in seats:
                sheet = OrderSheet.objects.get(seat=s, window=w)
                assert sheet.mailed_at is not None and sheet.ready, s.power
                if s.power in marched:
                    code = STEPS[s.power].split()[-1]
                    assert [o["path"] for o in sheet.draft["march"]] == [code], s.power
    w = rules_campaign.open_window()
    assert (w.turn, w.phase) == (2, "march"), (w.turn, w.phase)


def test_a_mail_over_the_limit_is_dropped_without_being_downloaded(
    rules_campaign, mailserver, django_capture_on_commit_callbacks, settings, caplog
):
    """The server's RFC822.SIZE is asked first: a mail over ORDERS_MAIL_MAX_BYTES is flagged
    read and dropped, never fetched (whoever can mail the box cannot make the worker hold a
    mail as large as the server takes); the one beside it is read as ever."""
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    w = rules_campaign.open_window()
    s = seat(rules_campaign, "prussia")
    settings.ORDERS_MAIL_MAX_BYTES = 20_000
    mailserver.deliver(reply(s, w, "Frederick 4\n\n" + ("x" * 100 + "\n") * 300, 1), "orders")
    mailserver.deliver(reply(s, w, "Frederick 4", 2), "orders")
    assert poll_orders_mailbox() == 2
    dropped = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
    assert any("not downloaded" in m and "> 20000" in m for m in dropped), dropped
    assert OrderSheet.objects.get(seat=s, window=w).draft["march"] == [
        {"unit": "frederick", "path": "4"}
    ]
    assert poll_orders_mailbox() == 0  # both flagged \\Seen on the server
