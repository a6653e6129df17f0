"""A real Dovecot (Debian's dovecot-imapd and dovecot-lmtpd) started by a test on spare ports of
127.0.0.1: IMAP over TLS with a certificate made for the test, and LMTP (the SMTP dialect mail
servers use for the last hop) to deliver into it. One mailbox user, ``orders``, with a password.
"""

from __future__ import annotations

import os
import shutil
import smtplib
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
PASSWORD = "orders-secret"

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
instance_name = dgk-test-{imaps}
protocols = imap lmtp
listen = 127.0.0.1
ssl = required
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
auth_mechanisms = plain
mail_location = maildir:{root}/mail/%u
first_valid_uid = {uid}
default_login_user = dovenull
default_internal_user = dovecot
passdb {{
  driver = static
  args = password={password}
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    port = {imaps}
    ssl = yes
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp}
  }}
}}
service anvil {{
  chroot =
}}
service stats {{
  inet_listener http {{
    port = 0
  }}
}}
protocol lmtp {{
  postmaster_address = postmaster@dgk.example.org
}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port: int, seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"Dovecot did not listen on {port}")


@dataclass
class Dovecot:
    root: Path
    imaps: int
    lmtp: int
    process: subprocess.Popen

    @property
    def cafile(self) -> str:
        return str(self.root / "cert.pem")

    def imap_url(self, user: str = "orders") -> str:
        return f"imaps://{user}:{PASSWORD}@localhost:{self.imaps}/INBOX"

    def deliver(self, raw: bytes, to: str, user: str = "orders") -> None:
        """Hand one message to Dovecot's LMTP service, as a mail server's last hop does."""
        with smtplib.LMTP("127.0.0.1", self.lmtp) as lmtp:
            lmtp.sendmail("player@example.org", [user], raw)

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text() if path.exists() else ""


def available() -> bool:
    return os.path.exists(DOVECOT) and shutil.which("openssl") is not None


def self_signed(root: Path) -> tuple[Path, Path]:
    """A certificate for localhost and its key, in ``root`` (``cert.pem``, ``key.pem``)."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(root / "key.pem"), "-out", str(root / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    return root / "cert.pem", root / "key.pem"


def start(root: Path) -> Dovecot:
    """Dovecot under ``root`` (made here), listening on two free ports."""
    for sub in ("run", "state", "mail", "home"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    self_signed(root)
    uid, gid = 65534, 65534  # nobody: Dovecot will not keep mail as root
    for sub in ("mail", "home"):
        os.chown(root / sub, uid, gid)
    os.chmod(root, 0o755)
    imaps, lmtp = _free_port(), _free_port()
    conf = root / "dovecot.conf"
    conf.write_text(
        CONFIG.format(root=root, imaps=imaps, lmtp=lmtp, uid=uid, gid=gid, password=PASSWORD)
    )
    process = subprocess.Popen(
        [DOVECOT, "-F", "-c", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        _wait(imaps)
        _wait(lmtp)
    except RuntimeError:
        process.kill()
        out = process.stdout.read().decode(errors="replace") if process.stdout else ""
        raise RuntimeError(f"Dovecot did not start: {out}\n{(root / 'dovecot.log')}") from None
    return Dovecot(root, imaps, lmtp, process)


def stop(dovecot: Dovecot) -> None:
    dovecot.process.terminate()
    try:
        dovecot.process.wait(10)
    except subprocess.TimeoutExpired:
        dovecot.process.kill()
