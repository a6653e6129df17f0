"""FILE_STORAGE (docs/operations.md, "When one server is not enough"): folders by default, one
private bucket with FILE_STORAGE=s3, and a bad configuration refused at the start with a clear
message (the settings loaded in a process of their own, as ``tests/test_settings.py`` does)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import json, dgk.settings as s; print(json.dumps({'STORAGES': s.STORAGES}))"
CLEARED = {
    "FILE_STORAGE",
    "AWS_STORAGE_BUCKET_NAME",
    "AWS_S3_ENDPOINT_URL",
    "AWS_S3_REGION_NAME",
    "AWS_S3_ADDRESSING_STYLE",
    "MAP_PICTURES_DIR",
    "DJANGO_SETTINGS_MODULE",
}
KINDS = ("pictures", "tiles", "books", "backups", "photos")


def load(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env={**clean, **env},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def storages(**env: str) -> dict:
    done = load(**env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["STORAGES"]


def test_by_default_every_kind_is_a_folder_written_whole(tmp_path):
    found = storages(MAP_PICTURES_DIR=str(tmp_path / "pictures"))
    assert {k: found[k]["BACKEND"] for k in KINDS} == dict.fromkeys(
        KINDS, "dgk.files.WholeFileStorage"
    )
    assert found["pictures"]["OPTIONS"] == {"location": str(tmp_path / "pictures")}


def test_s3_puts_every_kind_under_its_prefix_of_one_private_bucket():
    found = storages(
        FILE_STORAGE="s3", AWS_STORAGE_BUCKET_NAME="dgk-files",
        AWS_S3_ENDPOINT_URL="http://s3.internal:9000",
    )  # fmt: skip
    for kind in KINDS:
        assert found[kind] == {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": "dgk-files",
                "endpoint_url": "http://s3.internal:9000",
                "region_name": "us-east-1",
                "addressing_style": "path",
                "location": kind,
                "default_acl": None,
                "querystring_auth": True,
                "file_overwrite": True,
            },
        }
    other = storages(
        FILE_STORAGE="S3", AWS_STORAGE_BUCKET_NAME="b", AWS_S3_REGION_NAME="eu-central-1",
        AWS_S3_ADDRESSING_STYLE="virtual",
    )["tiles"]["OPTIONS"]  # fmt: skip
    assert (other["region_name"], other["addressing_style"], other["endpoint_url"]) == (
        "eu-central-1", "virtual", None,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"FILE_STORAGE": "nfs"}, "FILE_STORAGE='nfs': use local (folders of this machine) or s3"),
        ({"FILE_STORAGE": "s3"}, "FILE_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME"),
        ({"FILE_STORAGE": "s3", "AWS_STORAGE_BUCKET_NAME": " "}, "needs AWS_STORAGE_BUCKET_NAME"),
        (
            {
                "FILE_STORAGE": "s3",
                "AWS_STORAGE_BUCKET_NAME": "b",
                "AWS_S3_ENDPOINT_URL": "s3:9000",
            },
            "AWS_S3_ENDPOINT_URL='s3:9000' is not a URL",
        ),
    ],
)
def test_a_bad_configuration_is_refused_at_the_start(env, message):
    done = load(**env)
    assert done.returncode != 0, "settings loaded but should have been refused"
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("django.core.exceptions.ImproperlyConfigured") and message in last
