"""The site on several machines, for real (docs/several-servers.md): compose.several.yaml with
two web servers behind Caddy's load balancing, two workers, one beat, one PostgreSQL, one Redis
and the bucket's server (moto's, .ci/docker/compose.several.test.yaml), no volume shared between
the site's containers. The demo loaded and a short season played; the workers draw a seat's map
picture and print the season's book; each is fetched from web1 and from web2 directly and through
Caddy several times: the same bytes every time, in the bucket and on no container's disk. Then
web1 is stopped and Caddy serves the site through web2.

Slow (minutes) and needs root and a docker daemon: it runs only with DGK_DOCKER_SMOKE=1, after
.ci/docker/setup.sh has made the machine ready (the stand-ins, dgk-ci/s3). It reuses the site's
image the smoke test builds (dgk:smoke), and builds it if it is missing.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import os
import re
import secrets
import time
from pathlib import Path

import boto3
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from tests.docker.compose_site import (
    IMAGE,
    PIP_CA_FILE,
    ROOT,
    Browser,
    Compose,
    docker,
    run,
    text_of,
    wait_for,
)

pytestmark = [
    pytest.mark.docker,
    pytest.mark.skipif(
        os.getenv("DGK_DOCKER_SMOKE") != "1",
        reason="the container tests run with DGK_DOCKER_SMOKE=1 (.ci/run sets it)",
    ),
]

PROJECT = "dgk-several"
HTTPS_PORT = 18543
BASE_URL = f"https://localhost:{HTTPS_PORT}"
# web1 and web2 published on the loopback by the test's compose file, and the bucket's server.
WEB_PORTS = {"web1": 18101, "web2": 18102}
S3_URL = "http://127.0.0.1:19000"
BUCKET = "dgk-files"
CA_FILE = "/data/caddy/pki/authorities/local/root.crt"
SITE_CONTAINERS = ("web1", "web2", "worker1", "worker2", "beat")


def env_file() -> str:
    """The .env of several machines: the club's lines, and what every machine must share (the
    keys, the database's password, the bucket), made here as docs/several-servers.md says."""
    vapid = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    raw_key = base64.urlsafe_b64encode(vapid.to_bytes(32, "big")).rstrip(b"=").decode()
    text = f"""\
# Written by tests/docker/test_compose_several.py (removed at the end of the test).
DGK_DOMAIN=localhost
DGK_ADMIN_EMAIL=organiser@example.org
EMAIL_URL=console://
DEFAULT_FROM_EMAIL=Der Grosse König <dgk@example.org>
DGK_TLS=internal
DGK_HTTP_PORT=127.0.0.1:18180
DGK_HTTPS_PORT=127.0.0.1:{HTTPS_PORT}
DGK_IMAGE={IMAGE}
TIME_ZONE=Europe/Berlin
SECRET_KEY={secrets.token_hex(32)}
VAPID_PRIVATE_KEY={raw_key}
DGK_DB_PASSWORD={secrets.token_hex(16)}
AWS_STORAGE_BUCKET_NAME={BUCKET}
AWS_S3_ENDPOINT_URL=http://s3:9000
AWS_ACCESS_KEY_ID=dgk-test
AWS_SECRET_ACCESS_KEY={secrets.token_hex(16)}
"""
    if os.getenv("DGK_DOCKER_BASE_IMAGE"):
        text += f"DGK_BASE_IMAGE={os.environ['DGK_DOCKER_BASE_IMAGE']}\n"
    if os.getenv("PIP_CERT") and Path(os.environ["PIP_CERT"]).is_file():
        text += f"DGK_PIP_CA_FILE={PIP_CA_FILE}\n"
    return text


def direct(web: str, path: str, cookies: str) -> tuple[int, str, bytes]:
    """GET from one web server itself, past Caddy, as Caddy asks it (X-Forwarded-Proto)."""
    connection = http.client.HTTPConnection("127.0.0.1", WEB_PORTS[web], timeout=60)
    headers = {
        "Host": "localhost",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": "127.0.0.1",
        "Cookie": cookies,
    }
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    kind = (response.getheader("Content-Type") or "").split(";")[0]
    return response.status, kind, response.read()


def bucket_objects() -> dict[str, str]:
    """Every object in the bucket: its key and the SHA-256 of its bytes."""
    s3 = boto3.client(
        "s3", endpoint_url=S3_URL, region_name="us-east-1",
        aws_access_key_id="dgk-test", aws_secret_access_key="any",
    )  # fmt: skip
    found = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET):
        for item in page.get("Contents", []):
            body = s3.get_object(Bucket=BUCKET, Key=item["Key"])["Body"].read()
            found[item["Key"]] = hashlib.sha256(body).hexdigest()
    return found


@pytest.fixture(scope="module")
def several(tmp_path_factory):
    env, pip_ca = ROOT / ".env", ROOT / PIP_CA_FILE
    for mine in (env, pip_ca):
        if mine.exists():
            pytest.fail(f"{mine} exists: the test writes its own and would overwrite it")
    if run([docker(), "image", "inspect", "dgk-ci/s3"], check=False).returncode != 0:
        pytest.fail("no image dgk-ci/s3 (the bucket's server): run .ci/docker/setup.sh first")
    compose = Compose(["compose.several.yaml", ".ci/docker/compose.several.test.yaml"], PROJECT)
    timings: dict[str, float] = {}
    env.write_text(env_file(), encoding="utf-8")
    if "DGK_PIP_CA_FILE" in env.read_text(encoding="utf-8"):
        pip_ca.write_bytes(Path(os.environ["PIP_CERT"]).read_bytes())
    cafile = tmp_path_factory.mktemp("caddy") / "root.crt"
    compose("down", "--volumes", "--remove-orphans", check=False)  # an earlier run's leftovers
    try:
        started = time.monotonic()
        compose("up", "-d", timeout=2400)  # builds the image only if the smoke test did not

        def root_certificate():
            found = compose.exec("caddy", "cat", CA_FILE, check=False)
            return "BEGIN CERTIFICATE" in found and found

        cafile.write_text(wait_for("Caddy's root certificate", root_certificate, 120))

        def healthy():
            status, _, body = Browser(cafile, BASE_URL).get("/healthz")
            return status == 200 and json.loads(body)

        wait_for("/healthz through Caddy", healthy, 300)
        timings["up"] = time.monotonic() - started
        yield compose, cafile, timings
    finally:
        log = ROOT / "artifacts" / "docker-several.log"
        log.parent.mkdir(exist_ok=True)
        log.write_text(compose.logs(), encoding="utf-8")
        compose("down", "--volumes", "--remove-orphans", check=False)
        env.unlink()
        pip_ca.unlink(missing_ok=True)
        print(f"docker several: timings {timings}; the services' last lines in {log}")


def test_two_web_servers_serve_the_workers_files_from_the_bucket(several):
    compose, cafile, timings = several

    # No volume is shared between the site's containers (each has none of its own either).
    for service in SITE_CONTAINERS:
        container = compose("ps", "-q", service).stdout.strip()
        mounts = run([docker(), "inspect", container, "--format", "{{json .Mounts}}"]).stdout
        assert json.loads(mounts) == [], f"{service} mounts {mounts}"

    # The demo, and a short season played to its end (its book is printed when asked for).
    compose.exec("web1", "python", "manage.py", "loaddemo", "--force")
    played = compose.exec("web2", "python", "manage.py", "playseason", "--turns", "1")
    season = played.strip().splitlines()[-1]
    assert re.fullmatch(r"[0-9a-f-]{36}", season), played

    # A seat's map picture, drawn by a worker when the seat's page asks for it.
    player = Browser(cafile, BASE_URL)
    player.sign_in("prussia", "demo")
    status, _, body = player.get("/play/")
    seat = re.search(r'href="(/play/[0-9a-f-]{36}/)"', body).group(1)
    page = player.get(seat)[2]
    picture = re.search(r'src="(/play/[0-9a-f-]{36}/map/\d+\.png)\?v=\d+"', page)
    assert picture, text_of(page)[:500]
    # The bundled map's tiles, drawn into the image, are served from the bucket (makebucket
    # --copy-folders put them there).
    stamp = re.search(r"/map/tiles/([0-9a-f]{12})/", page).group(1)
    status, kind, tile = player.fetch(f"/map/tiles/{stamp}/0/0/0.png")
    assert status == 200 and kind == "image/png" and tile.startswith(b"\x89PNG")
    umpire = Browser(cafile, BASE_URL)
    umpire.sign_in("umpire", "demo")
    book = f"/campaigns/{season}/war/book-a4.pdf"

    started = time.monotonic()
    files = {}
    for browser, path, kind in ((player, picture.group(1), "image/png"),
                                (umpire, book, "application/pdf")):  # fmt: skip

        def done(browser=browser, path=path, kind=kind):
            status, got, body = browser.fetch(path)
            return status == 200 and got == kind and body

        files[path] = wait_for(f"{path} drawn by a worker", done, 600, every=3)
        timings[f"{kind} drawn"] = time.monotonic() - started
    assert files[picture.group(1)].startswith(b"\x89PNG")
    assert files[book].startswith(b"%PDF")

    # The same bytes from web1 and web2 directly (the session signed by the one SECRET_KEY),
    # and through Caddy several times (its round robin sends them to both).
    for path, expected in files.items():
        browser = player if path.endswith(".png") else umpire
        for web in WEB_PORTS:
            status, _, body = direct(web, path, browser.cookie_header())
            assert status == 200 and body == expected, f"{path} from {web}: HTTP {status}"
        for _ in range(4):
            status, _, body = browser.fetch(path)
            assert status == 200 and body == expected, f"{path} through Caddy: HTTP {status}"
    for web in WEB_PORTS:
        log = compose("logs", "--no-color", web).stdout
        for path in files:
            # Once asked directly, at least once more through Caddy.
            assert log.count(f"GET {path}") >= 2, f"{web} served {path} once or never"

    # In the bucket, and on no container's disk: no file anywhere on it has their bytes (root
    # looks, so that no folder is left out).
    digests = {hashlib.sha256(body).hexdigest() for body in files.values()}
    stored = bucket_objects()
    assert digests <= set(stored.values()), sorted(stored)
    sizes = [f"-size {len(body)}c" for body in files.values()]
    same_size = f"find / -xdev -type f \\( {' -o '.join(sizes)} \\) -exec sha256sum {{}} +"
    for service in SITE_CONTAINERS:
        listed = compose("exec", "-T", "--user", "root", service, "sh", "-c", same_size).stdout
        assert not digests & set(listed.split()), f"{service} holds a copy: {listed}"

    # web1 stopped: Caddy serves the site through web2, every time.
    compose("stop", "web1")
    for _ in range(6):
        status, _, body = player.fetch(picture.group(1))
        assert status == 200 and body == files[picture.group(1)]
        status, _, page = player.get(seat)
        assert status == 200 and "Demo 1757" in page
