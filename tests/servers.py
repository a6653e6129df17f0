"""Throw-away Redis and PostgreSQL servers for the fault tests (issue 27): each on a spare port
of its own, in a temporary folder, so a test may stop, kill and restart it without touching the
machine's shared servers (never port 5432 or 6379).

A test that needs one asks ``redis_server_or_skip()`` / ``postgres_or_skip()``: with the
binaries missing it skips with the reason, unless ``DGK_REQUIRE_SERVICES=1`` (CI), when it fails.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES


def _postgres_bin() -> Path:
    """Debian's newest PostgreSQL binaries (``/usr/lib/postgresql/<major>/bin``), unless
    ``DGK_POSTGRES_BIN`` names a folder."""
    if os.getenv("DGK_POSTGRES_BIN"):
        return Path(os.environ["DGK_POSTGRES_BIN"])
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


POSTGRES_BIN = _postgres_bin()
START_SECONDS = 30


def spare_port() -> int:
    """A TCP port of the loopback address nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _wait(predicate, what: str, seconds: float = START_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not happen within {seconds} s")
        time.sleep(0.05)


def _missing(what: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} (DGK_REQUIRE_SERVICES=1: the fault tests may not skip)")
    pytest.skip(what)


class RedisServer:
    """``redis-server`` on a spare port. ``persistent``: every write is in the append-only file
    before it is acknowledged (as docs/operations.md asks of a production Redis), so tasks
    queued survive a kill."""

    def __init__(self, folder: Path, *, persistent: bool = True) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = spare_port()
        self.persistent = persistent
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> RedisServer:
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"]
            if self.persistent
            else ["--appendonly", "no"]
        )
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--dir", str(self.folder), *persistence],
            stdout=(self.folder / "redis.log").open("a"),
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        _wait(lambda: listening(self.port), f"redis-server on port {self.port} listening")
        return self

    def kill(self) -> None:
        """Gone at once, as a crash or an OOM kill leaves it."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
        _wait(lambda: not listening(self.port), f"port {self.port} closed")

    def restart(self) -> None:
        self.kill()
        self.start()


def redis_server_or_skip(folder: Path, **kwargs) -> RedisServer:
    if shutil.which("redis-server") is None:
        _missing("redis-server is not installed (Debian: apt-get install redis-server)")
    return RedisServer(folder, **kwargs).start()


class PostgresServer:
    """A PostgreSQL cluster of its own (initdb in a temporary folder), on a spare port, run as
    the ``postgres`` user when the tests run as root (initdb refuses root)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = spare_port()
        self.user = "postgres" if os.geteuid() == 0 else None

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        command = list(argv)
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def init(self) -> PostgresServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            self.folder.chmod(0o755)
        self._run(
            str(POSTGRES_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C",
        )  # fmt: skip
        return self

    def start(self) -> PostgresServer:
        self._run(
            str(POSTGRES_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "pg.log"),
            "-w", "-t", str(START_SECONDS), "start",
            "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
        )  # fmt: skip
        return self

    def stop(self, mode: str = "fast") -> None:
        """``fast``: the connections are cut, as a restart by the operator; ``immediate``:
        as a crash."""
        self._run(str(POSTGRES_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-m", mode, "stop")

    def restart(self, mode: str = "fast") -> None:
        self.stop(mode)
        self.start()

    def running(self) -> bool:
        return listening(self.port)

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(
                str(POSTGRES_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop",
                check=False,
            )  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def postgres_or_skip(folder: Path) -> PostgresServer:
    if not (POSTGRES_BIN / "initdb").exists():
        _missing(f"PostgreSQL's initdb is not in {POSTGRES_BIN} (set DGK_POSTGRES_BIN)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            _missing("the tests run as root and there is no postgres user to run initdb as")
    return PostgresServer(folder).init().start()
