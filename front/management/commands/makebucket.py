"""``manage.py makebucket [--copy-folders]``: the bucket of FILE_STORAGE=s3, made if missing
(docs/operations.md, "When one server is not enough").

Safe to run at every start: a bucket that is there is left as it is. The bucket is made
private; the site never hands out a URL of it. ``--copy-folders`` then copies the files of
this machine's folders (``MAP_PICTURES_DIR``, ``MAP_TILES_DIR``, ``SEASON_BOOKS_DIR``,
``BACKUP_DIR``, ``PHOTOS_DIR``) into the bucket, each kind under its prefix, skipping the files
already there: the move of a site from one server to several.
With FILE_STORAGE=local the command says there is no bucket and does nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from dgk import files


class Command(BaseCommand):
    help = "Make the S3 bucket of FILE_STORAGE=s3 if it is missing (and copy the folders in)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--copy-folders",
            action="store_true",
            help="copy this machine's folders (MAP_PICTURES_DIR, ...) into the bucket",
        )

    def handle(self, *args, copy_folders=False, **options):
        stores = {kind: files.storage(kind) for kind in settings.FILE_KINDS}
        buckets = {s.bucket_name: s for s in stores.values() if not files.is_local(s)}
        if not buckets:
            self.stdout.write("FILE_STORAGE=local: the files are in folders, no bucket to make.")
            return
        for name, store in buckets.items():
            try:
                made = files.make_bucket(store)
            except files.STORAGE_ERRORS as e:
                raise CommandError(f"cannot make the bucket {name}: {e}") from e
            self.stdout.write(f"bucket {name}: " + ("made" if made else "there already"))
        if copy_folders:
            for kind, folder in settings.FILE_KINDS.items():
                if files.is_local(stores[kind]):
                    continue
                copied, skipped = files.copy_folder(kind, folder)
                where = files.where(stores[kind])
                self.stdout.write(f"{kind}: {copied} copied from {folder} to {where}, "
                                  f"{skipped} there already")  # fmt: skip
