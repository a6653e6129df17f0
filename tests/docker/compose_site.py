"""The compose deployment under test, driven as an operator and a browser would: the docker and
compose commands of docs/operations.md, and HTTPS through Caddy with its own authority trusted.

The image is built by `up -d` itself, as the README's commands do (no DOCKER_BUILDKIT): the
build arguments come from the .env the test writes.

Environment (set by .ci/run; a machine that reaches Docker Hub needs none of them):
  DGK_DOCKER_BASE_IMAGE   DGK_BASE_IMAGE in .env (CI: the debootstrap image of .ci/docker)
  DGK_COMPOSE_OVERRIDE    a compose file laid over compose.yaml (CI: .ci/docker/compose.ci.yaml,
                          which swaps the official images for stand-ins from Debian's packages)
  DGK_COMPOSE             the compose command (default: docker-compose if found, else
                          "docker compose")
  PIP_CERT                a CA bundle for pip inside the build: copied to pip-ca.pem in the
                          repository and named by DGK_PIP_CA_FILE in .env
"""

from __future__ import annotations

import html
import http.cookiejar
import os
import re
import shlex
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = "dgk-smoke"
IMAGE = "dgk:smoke"
HTTPS_PORT = 18443
BASE_URL = f"https://localhost:{HTTPS_PORT}"
# What the test writes into .env: the three lines a club edits, for a test on this machine.
ENV_FILE = f"""\
# Written by tests/docker (removed at the end of the test).
DGK_DOMAIN=localhost
DGK_ADMIN_EMAIL=organiser@example.org
EMAIL_URL=console://
DEFAULT_FROM_EMAIL=Der Grosse König <dgk@example.org>
DGK_TLS=internal
DGK_HTTP_PORT=127.0.0.1:18080
DGK_HTTPS_PORT=127.0.0.1:{HTTPS_PORT}
DGK_IMAGE={IMAGE}
TIME_ZONE=Europe/Berlin
"""
# A CA bundle for pip inside the build (DGK_PIP_CA_FILE), inside the build context.
PIP_CA_FILE = "pip-ca.pem"


def env_file() -> str:
    """ENV_FILE, with the build's settings of this machine (a mirror's base image, pip's CA)."""
    text = ENV_FILE
    if os.getenv("DGK_DOCKER_BASE_IMAGE"):
        text += f"DGK_BASE_IMAGE={os.environ['DGK_DOCKER_BASE_IMAGE']}\n"
    if os.getenv("PIP_CERT") and Path(os.environ["PIP_CERT"]).is_file():
        text += f"DGK_PIP_CA_FILE={PIP_CA_FILE}\n"
    return text


def docker() -> str:
    """Debian's docker client (the one of /usr/local/bin, if any, wants buildx for BuildKit)."""
    return "/usr/bin/docker" if Path("/usr/bin/docker").exists() else "docker"


def compose_command() -> list[str]:
    if os.getenv("DGK_COMPOSE"):
        return shlex.split(os.environ["DGK_COMPOSE"])
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return [docker(), "compose"]


# As a volunteer's shell has it: no BuildKit asked for, so compose 1.29 builds through the API.
PLAIN_ENV = {
    k: v for k, v in os.environ.items() if k not in ("DOCKER_BUILDKIT", "COMPOSE_DOCKER_CLI_BUILD")
}


def run(args: list[str], *, timeout: float = 600, check: bool = True, **kwargs):
    result = subprocess.run(
        args, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False,
        env=PLAIN_ENV, **kwargs,
    )  # fmt: skip
    if check and result.returncode != 0:
        raise AssertionError(
            f"{shlex.join(args)} exited {result.returncode}\n"
            f"--- stdout\n{result.stdout[-4000:]}\n--- stderr\n{result.stderr[-4000:]}"
        )
    return result


@dataclass
class Compose:
    """`docker compose` on compose.yaml (and CI's override), in the project dgk-smoke unless
    another is named."""

    files: list[str] = field(default_factory=lambda: ["compose.yaml"])
    project: str = PROJECT

    def __post_init__(self):
        if os.getenv("DGK_COMPOSE_OVERRIDE"):
            self.files.append(os.environ["DGK_COMPOSE_OVERRIDE"])

    def __call__(self, *args: str, timeout: float = 600, check: bool = True, stdin=None):
        command = [*compose_command(), "--project-name", self.project]
        for name in self.files:
            command += ["--file", name]
        return run([*command, *args], timeout=timeout, check=check, stdin=stdin)

    def exec(self, service: str, *args: str, check: bool = True) -> str:
        return self("exec", "-T", service, *args, check=check).stdout

    def exec_to_file(self, target: Path, service: str, *args: str) -> None:
        """Run a command in a service, its output (bytes) into a file on this machine."""
        with target.open("wb") as out:
            command = [*compose_command(), "--project-name", self.project]
            for name in self.files:
                command += ["--file", name]
            subprocess.run(
                [*command, "exec", "-T", service, *args], cwd=ROOT, stdout=out, check=True,
                env=PLAIN_ENV,
            )  # fmt: skip

    def logs(self) -> str:
        return self("logs", "--no-color", "--tail", "60", check=False).stdout


class Browser:
    """A browser's session over HTTPS through Caddy: cookies, CSRF, redirects followed."""

    def __init__(self, cafile: Path, base_url: str = BASE_URL):
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        context = ssl.create_default_context(cafile=str(cafile))
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=context),
            urllib.request.HTTPCookieProcessor(self.jar),
        )

    def get(self, path: str) -> tuple[int, str, str]:
        return self._open(urllib.request.Request(self.base_url + path))

    def fetch(self, path: str) -> tuple[int, str, bytes]:
        """A file as the browser downloads it: the status, its Content-Type and its bytes."""
        try:
            with self.opener.open(self.base_url + path, timeout=60) as response:
                return response.status, response.headers.get_content_type(), response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers.get_content_type(), exc.read()

    def cookie_header(self) -> str:
        """The session's cookies, for a request that does not go through this browser."""
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)

    def post(self, path: str, data: dict[str, str], referer: str = "/") -> tuple[int, str, str]:
        """A form posted as the browser would: the CSRF token and the Origin header."""
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.csrf()}).encode()
        headers = {"Origin": self.base_url, "Referer": self.base_url + referer}
        return self._open(urllib.request.Request(self.base_url + path, data=body, headers=headers))

    def _open(self, request) -> tuple[int, str, str]:
        try:
            with self.opener.open(request, timeout=60) as response:
                path = urllib.parse.urlsplit(response.geturl()).path
                return response.status, path, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return (
                exc.code,
                urllib.parse.urlsplit(exc.geturl()).path,
                exc.read().decode("utf-8", "replace"),
            )

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def sign_in(self, username: str, password: str) -> str:
        """Sign in on the sign-in page; returns the path the site sent us to."""
        self.get("/accounts/login/")
        status, path, body = self.post(
            "/accounts/login/",
            {"username": username, "password": password},
            referer="/accounts/login/",
        )
        assert status == 200 and path != "/accounts/login/", f"{username} not signed in: {status}"
        return path


def text_of(page: str) -> str:
    """The words of a page, as a reader sees them."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


_PER_RESPONSE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), "csrf"),
    (re.compile(r'"X-CSRFToken": "[^"]*"'), "csrf"),
    (re.compile(r'nonce="[^"]*"'), "nonce"),
]


def comparable(page: str) -> str:
    """A page without what changes at every response (the CSRF token, the CSP nonce)."""
    for pattern, stand_in in _PER_RESPONSE:
        page = pattern.sub(stand_in, page)
    return page


def wait_for(what: str, probe, timeout: float, every: float = 2.0):
    """Call ``probe`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = probe()
        except OSError as exc:  # refused, reset, TLS not ready yet
            last = exc
        if last and not isinstance(last, Exception):
            return last
        time.sleep(every)
    raise AssertionError(f"{what}: still not after {timeout:.0f} s (last: {last!r})")
