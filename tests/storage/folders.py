"""Storages for tests: a kind of file (``settings.FILE_KINDS``) pointed at a folder of the test,
or at a bucket of the S3 server the storage tests start.

Assign the result to ``settings.STORAGES`` (pytest-django's fixture) or pass it to
``override_settings(STORAGES=...)``: either resets Django's storage handler, so
``storages[kind]`` is the new one at once.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings


def local(folder: Path | str) -> dict:
    """The entry of one kind kept in ``folder``, as ``dgk/settings.py`` makes it."""
    return {"BACKEND": "dgk.files.WholeFileStorage", "OPTIONS": {"location": str(folder)}}


def s3(kind: str, bucket: str, endpoint: str) -> dict:
    """The entry of one kind in ``bucket`` of the S3 server at ``endpoint``, as
    ``dgk/settings.py`` makes it with FILE_STORAGE=s3."""
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint,
            "region_name": "us-east-1",
            "addressing_style": "path",
            "location": kind,
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": True,
        },
    }


def with_folders(**folders: Path | str) -> dict:
    """``settings.STORAGES`` with the kinds named kept in the folders given, the others as
    they are: ``settings.STORAGES = with_folders(tiles=tmp_path / "tiles")``."""
    return {**settings.STORAGES, **{kind: local(folder) for kind, folder in folders.items()}}
