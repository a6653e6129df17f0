"""The standing people and campaigns of the web tests (``tests.standing``), and a club's
webhook: a local HTTP server in a thread that keeps what it is posted."""

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.standing import *  # noqa: F403


class Hook:
    """What the server was posted (``bodies``) and how it answers (``delay`` seconds)."""

    def __init__(self):
        self.bodies: list[dict] = []
        self.delay = 0.0
        self.url = ""

    @property
    def texts(self) -> list[str]:
        return [b["text"] for b in self.bodies]


@pytest.fixture
def hook_server():
    hook = Hook()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if hook.delay:
                time.sleep(hook.delay)
            hook.bodies.append(json.loads(body))
            try:
                self.send_response(204)
                self.end_headers()
            except OSError:
                pass  # the site gave up waiting

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    hook.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    yield hook
    server.shutdown()
    server.server_close()


@pytest.fixture
def dead_hook() -> str:
    """An address nobody listens at: the connection is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"


@pytest.fixture(autouse=True)
def short_hook_timeout(settings):
    settings.CLUB_HOOK_TIMEOUT = 0.5


@pytest.fixture
def loopback_allowed(settings):
    """The test's own server listens on 127.0.0.1, which the site's guard for the addresses
    users give it (dgk.outbound) refuses: allowed here as a club on its own network would."""
    settings.OUTBOUND_ALLOW_PRIVATE = True
