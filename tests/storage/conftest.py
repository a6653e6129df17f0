"""A real S3 server for the storage tests: moto's standalone server (``moto[server]``), started
once a session on a spare port of the loopback address, with throw-away credentials.

``files_in`` (parametrized ``local`` / ``s3``) points every kind of file (pictures, tiles,
books, backups) at folders of the test or at a fresh bucket of that server, as
``dgk/settings.py`` would with FILE_STORAGE=local or s3, so one behaviour test runs against
both.
"""

from __future__ import annotations

import os
import uuid

import boto3
import pytest
from django.test import override_settings
from moto.server import ThreadedMotoServer

from tests.servers import spare_port
from tests.standing import *  # noqa: F403 (the standing people and campaigns)
from tests.storage import folders

KINDS = ("pictures", "tiles", "books", "backups")
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "dgk-test-key",
    "AWS_SECRET_ACCESS_KEY": "dgk-test-secret",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@pytest.fixture(scope="session")
def s3_endpoint():
    """The address of a moto S3 server running for the session (credentials in the
    environment, as boto3 reads them in production)."""
    saved = {name: os.environ.get(name) for name in CREDENTIALS}
    os.environ.update(CREDENTIALS)
    port = spare_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def s3_client(endpoint: str):
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")


def new_bucket(endpoint: str) -> str:
    name = f"dgk-{uuid.uuid4().hex[:12]}"
    s3_client(endpoint).create_bucket(Bucket=name)
    return name


def bucket_storages(endpoint: str, bucket: str) -> dict:
    """``settings.STORAGES`` as FILE_STORAGE=s3 makes it, in ``bucket``."""
    from django.conf import settings

    return {**settings.STORAGES, **{k: folders.s3(k, bucket, endpoint) for k in KINDS}}


@pytest.fixture(params=["local", "s3"])
def files_in(request, tmp_path):
    """Every kind of file in folders of the test (``local``) or in a fresh bucket (``s3``);
    the mode's name."""
    if request.param == "local":
        storages = folders.with_folders(**{kind: tmp_path / kind for kind in KINDS})
    else:
        endpoint = request.getfixturevalue("s3_endpoint")
        storages = bucket_storages(endpoint, new_bucket(endpoint))
    with override_settings(STORAGES=storages):
        yield request.param
