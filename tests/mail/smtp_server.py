"""A small real SMTP server on 127.0.0.1 for the email tests: it speaks enough of RFC 5321 for
Python's ``smtplib`` (and so Django's SMTP backend), and counts what it sees (sessions and the
messages accepted in each). The standard library's ``smtpd`` is deprecated and gone in Python
3.12, hence these few lines."""

from __future__ import annotations

import socketserver
import threading
from email import message_from_bytes


class _Session(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        server: SMTPServer = self.server  # type: ignore[assignment]
        number = server.opened()
        self.reply("220 test ESMTP")
        recipients: list[str] = []
        while line := self.rfile.readline():
            command = line.decode("ascii", "replace").strip()
            verb = command[:4].upper()
            if verb in ("EHLO", "HELO"):
                self.reply("250 localhost")
            elif verb == "MAIL":
                recipients = []
                self.reply("250 OK")
            elif verb == "RCPT":
                address = command.partition(":")[2].strip().strip("<>")
                if server.refuse_once(address):
                    self.reply("550 mailbox unavailable")
                else:
                    recipients.append(address)
                    self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 end with .")
                data = bytearray()
                while (chunk := self.rfile.readline()) not in (b".\r\n", b""):
                    data += chunk[1:] if chunk.startswith(b"..") else chunk
                if server.hold_now():
                    server.release.wait(120)
                    return  # never accepted: the session drops with no answer
                server.accepted(number, recipients, bytes(data))
                self.reply("250 queued")
            elif verb in ("RSET", "NOOP"):
                self.reply("250 OK")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("502 not implemented")

    def reply(self, text: str) -> None:
        self.wfile.write(text.encode() + b"\r\n")


class SMTPServer(socketserver.ThreadingTCPServer):
    """``sessions``: how many were opened; ``messages``: (session number, recipients, message)
    for each accepted, in order. ``refused``: addresses refused at their next RCPT, once each."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Session)
        self.sessions = 0
        self.messages: list[tuple[int, list[str], object]] = []
        self.refused: set[str] = set()
        # hold_after: once this many are accepted, the next message gets no answer (``held``
        # is set) until ``release`` is set, and is not accepted: a mail server that stalls.
        self.hold_after: int | None = None
        self.held = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def opened(self) -> int:
        with self._lock:
            self.sessions += 1
            return self.sessions

    def refuse_once(self, address: str) -> bool:
        with self._lock:
            if address in self.refused:
                self.refused.discard(address)
                return True
            return False

    def hold_now(self) -> bool:
        with self._lock:
            if self.hold_after is None or self.held.is_set():
                return False
            if len(self.messages) < self.hold_after:
                return False
            self.held.set()
            return True

    def accepted(self, session: int, recipients: list[str], data: bytes) -> None:
        with self._lock:
            self.messages.append((session, list(recipients), message_from_bytes(data)))

    def __enter__(self) -> SMTPServer:
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.shutdown()
        self.server_close()
