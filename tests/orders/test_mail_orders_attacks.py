# ruff: noqa: F811 (the fixtures are imported)
"""Mail that must not stop `receivemail` (issue 36): every message, however malformed, ends in
exit 0 (read, answered or dropped), never a traceback; answers carry sanitised headers."""

import io
import os
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import call_command

from orders import replyaddress
from orders.mailorders import MAX_BODY_LINES, MAX_MIME_DEPTH, receive
from orders.mailsize import DRAIN_MOST, drain
from tests.orders.test_mail_orders import a_mail, draft_of, orders_domain  # noqa: F401
from tests.orders.test_play_fixtures import (  # noqa: F401
    marching,
    play_map,
    rules_campaign,
    seat,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def run_receivemail(raw: bytes, monkeypatch) -> str:
    """``manage.py receivemail`` with ``raw`` on standard input: its output (SystemExit fails)."""

    class Stdin:
        buffer = io.BytesIO(raw)

    monkeypatch.setattr(sys, "stdin", Stdin)
    out = io.StringIO()
    call_command("receivemail", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def nested(depth: int, to: str, sender: str = "someone@example.com") -> bytes:
    head = f"From: {sender}\r\nTo: {to}\r\nSubject: deep\r\nMessage-ID: <deep@x>\r\n"
    body = "Frederick 4 4\r\n"
    for i in range(depth):
        b = f"b{i}"
        body = (
            f'Content-Type: multipart/mixed; boundary="{b}"\r\n\r\n--{b}\r\n{body}\r\n--{b}--\r\n'
        )
    return (head + "MIME-Version: 1.0\r\n" + body).encode()


def test_a_mime_message_nested_1200_deep_is_dropped(marching, monkeypatch):
    out = run_receivemail(nested(1200, "orders@dgk.example.org"), monkeypatch)
    assert "dropped" in out


def test_deep_nesting_with_a_genuine_token_is_dropped_unread(marching):
    w = marching.open_window()
    s = seat(marching, "prussia")
    raw = nested(MAX_MIME_DEPTH + 5, replyaddress.address(w.id, s.id), s.user.email)
    mail.outbox.clear()
    out = receive(raw)
    assert out.status == "dropped" and "nested" in out.reason
    assert draft_of(s, w) == {} and mail.outbox == []


def test_an_encoded_crlf_in_from_is_dropped(marching, monkeypatch):
    raw = (
        b"From: =?utf-8?q?Evil=0D=0ABcc=3A_x=40y.z?= <evil@example.com>\r\n"
        b"To: orders@dgk.example.org\r\nSubject: hi\r\n\r\nFrederick 4 4\r\n"
    )
    assert "dropped" in run_receivemail(raw, monkeypatch)


def test_a_from_of_thousands_of_parentheses_is_dropped_with_no_traceback(
    marching, monkeypatch, caplog
):
    """The header parser recurses into each comment: "From: ((((..." raised RecursionError,
    which the header's guard did not catch (a traceback logged for each such mail)."""
    raw = b"From: " + b"(" * 30_000 + b"\r\nTo: orders@dgk.example.org\r\nSubject: hi\r\n\r\nx\r\n"
    assert "dropped" in run_receivemail(raw, monkeypatch)
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text


def test_an_encoded_crlf_in_the_subject_is_answered_with_a_clean_subject(marching, monkeypatch):
    w = marching.open_window()
    s = seat(marching, "prussia")
    raw = a_mail(s, w, "Frederick 4 4", message_id="<crlf@mail.example.com>")
    raw = raw.replace(
        b"Subject: Re: Silesia 1757: your march orders",
        b"Subject: =?utf-8?q?orders=0D=0ABcc=3A_victim=40example.com?=",
    )
    mail.outbox.clear()
    assert "read" in run_receivemail(raw, monkeypatch)
    (answer,) = mail.outbox
    assert "\r" not in answer.subject and "\n" not in answer.subject
    assert answer.subject.startswith("Re: orders") and answer.bcc == []
    msg = answer.message()
    assert msg["Bcc"] is None
    assert draft_of(s, w)["march"] == [{"unit": "frederick", "path": "4-4"}]


def test_ten_thousand_junk_lines_get_a_short_answer_saying_what_was_cut(marching):
    w = marching.open_window()
    s = seat(marching, "prussia")
    body = "Frederick 4 4\n" + "\n".join(f"z{i}" for i in range(10_000))  # 58 KB
    mail.outbox.clear()
    out = receive(a_mail(s, w, body))
    assert out.status == "read"
    (answer,) = mail.outbox
    assert len(answer.body) < 40_000
    assert f"only the first {MAX_BODY_LINES} lines were read" in answer.body
    assert "Frederick: 2 hexes E to " in answer.body


class Endless(io.RawIOBase):
    """A mail of 128 MB (as good as endless: the mail server's limit is some 10-50 MB), handed
    over in short reads as a pipe does: it counts the bytes read from it."""

    def __init__(self, size: int = 128 * 1024 * 1024) -> None:
        self.served, self.size = 0, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        size = min(len(buffer), 4096, self.size - self.served)
        buffer[:size] = b"x" * size
        self.served += size
        return size


def test_a_mail_without_end_is_kept_only_to_one_byte_past_the_limit(
    marching, monkeypatch, settings, caplog
):
    """It read everything before checking the size: a mail as large as the mail server
    allows was held whole in memory. Past the limit and a byte, the rest is thrown away as it
    comes, to the hard cap of 64 MB, and never held."""
    stream = Endless()

    class Stdin:
        buffer = stream

    monkeypatch.setattr(sys, "stdin", Stdin)
    out = io.StringIO()
    tracemalloc.start()
    call_command("receivemail", stdout=out, stderr=io.StringIO())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    most = settings.ORDERS_MAIL_MAX_BYTES
    assert stream.served == most + 1 + DRAIN_MOST
    assert peak < 3 * most
    assert out.getvalue().strip() == (
        f"receivemail: dropped (oversized: more than {most} bytes, the rest thrown away)"
    )
    assert "Traceback" not in caplog.text and "oversized" in caplog.text


def test_a_mail_of_the_limit_exactly_is_read(marching, monkeypatch, settings):
    raw = b"From: someone@example.com\r\nTo: orders@dgk.example.org\r\n\r\n"
    raw += b"x" * (settings.ORDERS_MAIL_MAX_BYTES - len(raw))
    out = run_receivemail(raw, monkeypatch)
    assert "dropped (no genuine reply token)" in out


def receivemail_process(settings) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": "", "CELERY_BROKER_URL": "", "REDIS_URL": "",
           "SECRET_KEY": settings.SECRET_KEY}  # fmt: skip
    return subprocess.Popen(
        [sys.executable, "manage.py", "receivemail"], cwd=ROOT, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def test_the_mail_servers_pipe_is_read_to_its_end_and_never_broken(settings):
    """``manage.py receivemail`` in a process of its own, fed 50 MB through a pipe as a mail
    server hands a mail over: every byte is taken (the writer never sees a broken pipe, which
    a mail server may count as a failed delivery, to retry or bounce), the mail is dropped and
    the exit status is 0. It stopped reading one byte past the limit, and the pipe broke."""
    child = receivemail_process(settings)
    written, broken = 0, None
    head = b"From: someone@example.com\r\nTo: orders@dgk.example.org\r\n\r\n"
    try:
        child.stdin.write(head)
        written += len(head)
        for _ in range(50 * 16):
            child.stdin.write(b"x" * 65536)
            written += 65536
        child.stdin.close()
    except BrokenPipeError as exc:
        broken = exc
    out, err = child.stdout.read(), child.stderr.read()
    child.wait(120)
    assert broken is None, f"broken pipe after {written} bytes"
    assert written == len(head) + 50 * 1024 * 1024
    assert child.returncode == 0, err.decode(errors="replace")
    most = settings.ORDERS_MAIL_MAX_BYTES
    assert out.decode().strip() == (
        f"receivemail: dropped (oversized: more than {most} bytes, the rest thrown away)"
    )


def test_the_drain_stops_at_its_cap_and_leaves_the_rest():
    """Read through a real pipe: no more than asked is taken, what follows stays readable."""
    reader, writer = os.pipe()
    with os.fdopen(reader, "rb") as inlet, os.fdopen(writer, "wb") as outlet:
        outlet.write(b"x" * 40_000 + b"y" * 10)  # (within what a pipe holds unread)
        outlet.close()
        assert drain(inlet, most=40_000) == 40_000
        assert inlet.read() == b"y" * 10


def test_the_drain_stops_at_its_deadline_when_the_writer_trickles():
    """A writer that sends a little every 20 ms and never ends: the drain gives up at its
    deadline (checked between reads), having thrown away what came."""
    reader, writer = os.pipe()
    stop = threading.Event()

    def trickle():
        with os.fdopen(writer, "wb", buffering=0) as outlet:
            while not stop.is_set():
                outlet.write(b"x" * 1024)
                time.sleep(0.02)

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        with os.fdopen(reader, "rb") as inlet:
            started = time.monotonic()
            gone = drain(inlet, seconds=0.5)
            took = time.monotonic() - started
            stop.set()
            inlet.read(1 << 20)  # the writer's last write is never left blocked
    finally:
        stop.set()
        thread.join(5)
    assert 0.5 <= took < 2, took
    assert 0 < gone < 1024 * 100
