"""Files the site writes for its readers (map pictures and tiles, books of the season, backups):
always through Django's named storages (``settings.FILE_KINDS``, docs/operations.md "When one
server is not enough"), never through a folder opened by hand, so that a file a worker on one
machine writes is read by a web server on another.

Every file is written whole, so a reader never sees half a file: in a folder of this machine
(``WholeFileStorage``) through a temporary file renamed into place; in an S3 bucket an object
appears whole or not at all by nature. A name is the caller's, and writing it again replaces
the file (Django's default would pick another name).

A file is served only by the site's views, after their access checks (``file_response``):
streamed from ``storage.open()``, never a public or pre-signed URL another player could guess
or be given.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from django.core.files.base import ContentFile, File
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.http import FileResponse

# The health check's HEAD of a bucket: an answer within seconds, or the bucket is said down
# (the storage's own client waits a minute and tries five times, right for a file, not a probe).
QUICK = Config(connect_timeout=2, read_timeout=2, retries={"max_attempts": 1, "mode": "standard"})

# What a storage raises when it cannot read or write: a full or read-only disk (OSError), a
# bucket that does not answer or refuses (botocore's errors).
STORAGE_ERRORS: tuple[type[Exception], ...] = (OSError, BotoCoreError, ClientError)


class WholeFileStorage(FileSystemStorage):
    """A folder of this machine whose files are written whole and overwritten in place.

    The file is written to a temporary name in its own folder, flushed to the disk, then
    renamed over the name asked for (a rename within one file system is atomic): a reader sees
    the old file or the new one, never half of either, and a full disk leaves nothing behind."""

    def get_available_name(self, name: str, max_length: int | None = None) -> str:
        return name  # the caller's name, written over: never "name_x7Yz.png"

    def _save(self, name: str, content: File) -> str:
        full = Path(self.path(name))
        full.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=full.parent, prefix=".write-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                if hasattr(content, "seek") and content.seekable():
                    content.seek(0)
                for chunk in content.chunks():
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            if self.file_permissions_mode is not None:
                os.chmod(temporary, self.file_permissions_mode)
            os.replace(temporary, full)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return str(name).replace("\\", "/")


def storage(kind: str) -> Storage:
    """The storage of one kind of file: ``pictures``, ``tiles``, ``books``, ``backups``."""
    return storages[kind]


def is_local(store: Storage) -> bool:
    """True for a folder of this machine (its free space is worth watching), False for a
    bucket."""
    return isinstance(store, FileSystemStorage)


def where(store: Storage) -> str:
    """Where a storage keeps its files, for an operator's message: the folder, or
    ``s3://bucket/prefix``."""
    if is_local(store):
        return str(store.location)
    return f"s3://{getattr(store, 'bucket_name', '?')}/{getattr(store, 'location', '')}".rstrip("/")


def save_whole(kind: str, name: str, data: bytes) -> str:
    """Write ``data`` as ``name`` in the storage of ``kind``, whole, replacing any file of that
    name; the name. A storage error (a full disk, a bucket that refuses) propagates."""
    saved = storage(kind).save(name, ContentFile(data))
    if saved != name:  # a storage configured to keep old files would hide the new one
        raise RuntimeError(f"the {kind} storage saved {name} as {saved}: set file_overwrite")
    return saved


def read_bytes(kind: str, name: str) -> bytes:
    """The whole file ``name`` of ``kind`` (FileNotFoundError when there is none)."""
    with storage(kind).open(name, "rb") as handle:
        return handle.read()


def delete_all(kind: str, folder: str = "") -> int:
    """Remove every file under ``folder`` of the storage of ``kind`` (tests empty a world's
    pictures, an operator rebuilds a kind); how many were removed."""
    store = storage(kind)
    if is_local(store):
        root = Path(store.path(folder)) if folder else Path(store.location)
        count = sum(1 for p in root.rglob("*") if p.is_file()) if root.is_dir() else 0
        shutil.rmtree(root, ignore_errors=True)
        return count
    prefix = "/".join(p for p in (store.location, folder) if p).rstrip("/") + "/"
    count = 0
    for item in store.bucket.objects.filter(Prefix=prefix):
        item.delete()
        count += 1
    return count


def file_response(
    kind: str, name: str, *, content_type: str, headers: dict | None = None, **kwargs
) -> FileResponse | None:
    """The file ``name`` of ``kind`` streamed to the browser with ``headers`` (Content-Length
    set from the file), or None when it is not there. The caller has checked who may read
    it."""
    try:
        handle = storage(kind).open(name, "rb")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    response = FileResponse(handle, content_type=content_type, **kwargs)
    if "Content-Length" not in response:
        response["Content-Length"] = str(handle.size)
    for header, value in (headers or {}).items():
        response[header] = value
    return response


# --- the bucket (FILE_STORAGE=s3) -----------------------------------------------------------------


def _client(store: Storage, config: Config | None = None):
    """A boto3 S3 client with the storage's own session, endpoint and settings."""
    merged = store.client_config.merge(config) if config else store.client_config
    return store._create_session().client(
        "s3",
        region_name=store.region_name,
        use_ssl=store.use_ssl,
        endpoint_url=store.endpoint_url,
        config=merged,
        verify=store.verify,
    )


def bucket_error(store: Storage) -> str | None:
    """None when the storage's bucket answers a HEAD within seconds, else why not in a few
    words (the error's kind and HTTP status: no address, no key)."""
    try:
        _client(store, QUICK).head_bucket(Bucket=store.bucket_name)
    except ClientError as e:
        status = e.response.get("ResponseMetadata", {}).get("HTTPStatusCode", "?")
        return f"the bucket answered HTTP {status}"
    except BotoCoreError as e:
        return f"the bucket does not answer ({type(e).__name__})"
    return None


def make_bucket(store: Storage) -> bool:
    """Create the storage's bucket, private, unless it is there; True when it was made."""
    client = _client(store)
    try:
        client.head_bucket(Bucket=store.bucket_name)
        return False
    except ClientError as e:
        if e.response.get("ResponseMetadata", {}).get("HTTPStatusCode") != 404:
            raise
    where_made = {}
    if store.region_name and store.region_name != "us-east-1":
        where_made = {"CreateBucketConfiguration": {"LocationConstraint": store.region_name}}
    client.create_bucket(Bucket=store.bucket_name, ACL="private", **where_made)
    return True


def copy_folder(kind: str, folder: Path) -> tuple[int, int]:
    """Copy every file under ``folder`` (a kind's old ``*_DIR``) into the storage of ``kind``
    under the same name, skipping the names it holds already (so a copy cut short is run
    again); (copied, skipped). Files being written (``.write-*``) are left out."""
    store, copied, skipped = storage(kind), 0, 0
    root = Path(folder)
    for path in sorted(root.rglob("*")) if root.is_dir() else []:
        if not path.is_file() or path.name.startswith("."):
            continue
        name = path.relative_to(root).as_posix()
        if store.exists(name):
            skipped += 1
            continue
        save_whole(kind, name, path.read_bytes())
        copied += 1
    return copied, skipped
