"""The IMAP poll against a server that lies (docs/security.md): a small IMAP server over a real
TLS socket, written for the test, announces a small ``RFC822.SIZE`` and then sends a large
literal, or announces a literal without end, or answers with endless lines. The poll keeps at
most ``ORDERS_MAIL_MAX_BYTES`` and a byte of a mail, whatever it says (Dovecot cannot be made to
do this: made to misstate a size, it cuts its literal to the same false size, or finds the
lie and hangs up; ``tests/orders/test_mail_orders_live.py`` holds the poll to the real one).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import ssl
import threading
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from orders.mailbox import poll
from tests.orders import dovecot

SMALL = b"From: someone@example.com\r\nTo: orders@dgk.example.org\r\nSubject: hi\r\n\r\nREADY\r\n"
PIECE = 16 * 1024
_COMMAND = re.compile(rb"^(\S+) (?:UID )?(\S+)(?: (\S+))?(.*)$")


@dataclass
class Mail:
    said: int  # the RFC822.SIZE the server announces
    body: bytes = b""
    announced: int | None = None  # the size of the literal announced for it, if not len(body)
    sent: int | None = None  # how many bytes of it are sent (in pieces of 16 kB), if not all


@dataclass
class Liar:
    """An IMAP server of one mailbox that sends, for any fetch of a mail's body, whatever its
    ``Mail`` says, whatever range was asked; it records the mails flagged read."""

    mails: dict[int, Mail]
    flood: int = 0  # bytes of untagged lines sent before the answer to SEARCH
    seen: list[int] = field(default_factory=list)
    asked: list[bytes] = field(default_factory=list)

    def serve(self, conn: ssl.SSLSocket) -> None:
        rfile = conn.makefile("rb")
        conn.sendall(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] liar ready\r\n")
        while line := rfile.readline():
            tag, name, uid, rest = _COMMAND.match(line.rstrip()).groups()
            self.asked.append(line.rstrip())
            name = name.upper()
            if name == b"LOGOUT":
                conn.sendall(b"* BYE\r\n" + tag + b" OK bye\r\n")
                return
            if name == b"SELECT":
                conn.sendall(b"* %d EXISTS\r\n" % len(self.mails))
            elif name == b"SEARCH":
                line = b"* OK " + b"x" * 1019 + b"\r\n"  # 1 kB
                for _ in range(self.flood // PIECE):
                    conn.sendall(line * (PIECE // len(line)))
                conn.sendall(b"* SEARCH " + b" ".join(b"%d" % u for u in self.mails) + b"\r\n")
            elif name == b"STORE":
                self.seen.append(int(uid))
            elif name == b"FETCH" and b"RFC822.SIZE" in rest:
                conn.sendall(
                    b"* %s FETCH (UID %s RFC822.SIZE %d)\r\n"
                    % (uid, uid, self.mails[int(uid)].said)
                )
            elif name == b"FETCH":
                self.send_body(conn, uid, self.mails[int(uid)])
            conn.sendall(tag + b" OK done\r\n")

    def send_body(self, conn: ssl.SSLSocket, uid: bytes, mail: Mail) -> None:
        announced = len(mail.body) if mail.announced is None else mail.announced
        conn.sendall(b"* %s FETCH (UID %s BODY[]<0> {%d}\r\n" % (uid, uid, announced))
        if mail.sent is None:
            conn.sendall(mail.body + b")\r\n")
            return
        piece, left = b"x" * PIECE, mail.sent
        while left > 0:
            conn.sendall(piece[:left])
            left -= PIECE
        conn.sendall(b")\r\n")


@pytest.fixture
def tls(tmp_path: Path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    return dovecot.self_signed(tmp_path)


@pytest.fixture
def liar(tls):
    """Start a ``Liar`` on a spare port of 127.0.0.1: ``liar(server)`` gives the poll's URL."""
    cert, key = tls
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    threads = []

    def start(server: Liar) -> str:
        def run():
            raw, _ = listener.accept()
            conn = context.wrap_socket(raw, server_side=True)
            with conn, contextlib.suppress(OSError):  # (the poll hung up on it)
                server.serve(conn)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        threads.append(thread)
        return f"imaps://orders:secret@localhost:{listener.getsockname()[1]}/INBOX"

    yield start
    listener.close()
    for thread in threads:
        thread.join(10)


def measured_poll(url: str, cafile) -> tuple[object, int, float]:
    """The poll's counts, the peak of the memory Python allocated meanwhile, and its seconds."""
    started = time.monotonic()
    tracemalloc.start()
    try:
        counts = poll(url, cafile=str(cafile))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return counts, peak, time.monotonic() - started


def test_a_mail_larger_than_its_announced_size_is_kept_only_to_the_limit(
    liar, tls, settings, caplog
):
    """The server says 500 bytes, then sends 5 MB for the fetch of the limit and a byte: the
    poll kept the 5 MB it was handed (it asked for the whole mail). It keeps 100,001 bytes,
    throws the rest away as it comes, drops the mail and goes on to the next one."""
    most = settings.ORDERS_MAIL_MAX_BYTES
    big = 5 * 1024 * 1024
    server = Liar({1: Mail(said=500, announced=big, sent=big), 2: Mail(len(SMALL), SMALL)})
    counts, peak, _took = measured_poll(liar(server), tls[0])
    assert (counts.seen, counts.dropped) == (2, 2)
    assert server.seen == [1, 2]
    assert peak < 3 * most, peak
    assert any(b"BODY.PEEK[]<0.%d>" % (most + 1) in line for line in server.asked)
    assert f"oversized: more than {most} bytes, the rest not downloaded" in caplog.text
    assert "no genuine reply token" in caplog.text  # the next mail, read as ever


def test_a_literal_announced_without_end_is_refused_unread(liar, tls, settings, caplog):
    """The server says 500 bytes, then announces a literal of a terabyte: imaplib would ask
    for the whole terabyte at once. The poll refuses it before reading a byte of it, hangs
    up, and keeps what it took before it (the mail is left for the next poll)."""
    most = settings.ORDERS_MAIL_MAX_BYTES
    server = Liar(
        {1: Mail(len(SMALL), SMALL), 2: Mail(said=500, announced=10**12, sent=4 * 1024 * 1024)}
    )
    counts, peak, took = measured_poll(liar(server), tls[0])
    assert (counts.seen, counts.dropped) == (1, 1)
    assert server.seen == [1]
    assert peak < 3 * most, peak
    assert took < 10, took
    assert "the server sent more than was asked" in caplog.text
    assert f"a literal of {10**12} bytes announced" in caplog.text


def test_an_answer_of_endless_lines_is_cut(liar, tls, settings, caplog):
    """Before the answer to its search, the server sends 8 MB of untagged lines of 1 kB:
    imaplib keeps every one of them. The poll stops once one answer passes the limit and a
    line's worth, and hangs up."""
    most = settings.ORDERS_MAIL_MAX_BYTES
    server = Liar({1: Mail(len(SMALL), SMALL)}, flood=8 * 1024 * 1024)
    counts, peak, _took = measured_poll(liar(server), tls[0])
    assert counts.seen == 0 and server.seen == []
    assert peak < 3 * (most + 1_000_000), peak
    assert "an answer of more than" in caplog.text
