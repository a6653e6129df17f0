"""Small HTTP servers on 127.0.0.1, each in a thread, for the tests of the site's guard for the
addresses users give it (``dgk.outbound``): one that answers a status, one that redirects, one
that drips its answer a byte at a time. Each keeps the paths it was asked for (``hits``)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Server:
    url: str = ""
    hits: list[str] = field(default_factory=list)


@contextlib.contextmanager
def serving(answer: Callable[[BaseHTTPRequestHandler], None]) -> Iterator[Server]:
    """A server whose every request (any method) is answered by ``answer(handler)``."""
    server = Server()

    class Handler(BaseHTTPRequestHandler):
        def _any(self):
            server.hits.append(self.path)
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with contextlib.suppress(OSError):  # the site hung up
                answer(self)

        do_GET = do_POST = do_PUT = _any  # noqa: N815 (http.server's names)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    server.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield server
    finally:
        httpd.shutdown()
        httpd.server_close()


def status(code: int) -> Callable[[BaseHTTPRequestHandler], None]:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(code)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    return answer


def redirect(to: str, code: int = 307) -> Callable[[BaseHTTPRequestHandler], None]:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(code)
        handler.send_header("Location", to)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    return answer


def drip(every: float, length: int = 200) -> Callable[[BaseHTTPRequestHandler], None]:
    """A 200 whose every byte, from the status line on, comes ``every`` seconds after the last:
    no read ever waits long, the whole never ends in time."""

    def answer(handler: BaseHTTPRequestHandler) -> None:
        raw = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % length + b"x" * length
        for byte in raw:
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()
            time.sleep(every)

    return answer
