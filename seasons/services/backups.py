"""The nightly backups: every running campaign written to its season file in the ``backups``
storage (docs/operations.md, "Backups and restore").

``backup_campaigns(keep=..., now=..., every=...)`` writes ``<campaign code>/<name>-<code>-<time>
.dgk.json.gz`` in the ``backups`` storage (``dgk.files``: the folder ``BACKUP_DIR``, or the
bucket's ``backups/`` prefix) for each running campaign (paused ones too) whose newest backup
is ``every`` old, with its dice seed (a backup restores the campaign as it was: keep the folder,
or the bucket, as private as the database), then removes that campaign's oldest files beyond
the last ``keep``. A file is written whole or not at all, and older files are removed only once
the new one is written, so a full or read-only disk (or a bucket that refuses) loses no backup
already made: the failure is logged, counted in the run's ``BackupRun`` row, and shown by
/healthz until a run succeeds.

The periodic task looks every few minutes (``BACKUP_CHECK_SECONDS``), so a campaign's first file
is written minutes after it starts, not a day later; a run that finds nothing due writes no
``BackupRun`` row (unless the last one failed: then it says that nothing fails any more).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from campaign.models import BackupRun, Campaign, CampaignStatus
from dgk import files
from seasons.services import seasonfile

logger = logging.getLogger(__name__)
SUFFIX = ".dgk.json.gz"
RUNS_KEPT = 60  # BackupRun rows: the last 60 runs that found a campaign due
KIND = "backups"  # the storage (settings.FILE_KINDS)


@dataclass
class Outcome:
    written: list[str] = field(default_factory=list)  # names in the backups storage
    removed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # "<campaign name>: <why>"


def made_at(name: str) -> datetime:
    """When a backup was made: the UTC time its name ends with (``seasonfile.file_name``), or
    the file's own time for a file named otherwise."""
    stamp = name.removesuffix(SUFFIX).rsplit("-", 1)[-1]
    try:
        return datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    except ValueError:
        return files.storage(KIND).get_modified_time(name)


def backups_of(code: object) -> list[str]:
    """The backups of the campaign with ``code`` (whatever it was called then), oldest first:
    their names in the ``backups`` storage."""
    try:
        names = files.storage(KIND).listdir(str(code))[1]
    except FileNotFoundError:
        return []
    return sorted((f"{code}/{n}" for n in names if n.endswith(SUFFIX)), key=made_at)


def read_backup(name: str) -> dict:
    """The checked body of one backup (``seasonfile.loads``); SeasonFileError when it is not a
    season file, FileNotFoundError when there is none of that name."""
    return seasonfile.loads(files.read_bytes(KIND, name))


def backup_campaign(campaign: Campaign, *, keep: int, now: datetime) -> Outcome:
    """One campaign's backup, then its files beyond the last ``keep`` removed. One of
    ``files.STORAGE_ERRORS`` when the file cannot be written (nothing removed then)."""
    outcome = Outcome()
    name = f"{campaign.code}/{seasonfile.file_name(campaign, now)}"
    data = seasonfile.export_campaign(campaign, with_secrets=True, now=now)
    outcome.written.append(files.save_whole(KIND, name, data))
    old = backups_of(campaign.code)
    store = files.storage(KIND)
    for stale in old[: max(len(old) - keep, 0)]:
        store.delete(stale)
        outcome.removed.append(stale)
    return outcome


def is_due(newest: datetime | None, *, every: timedelta, now: datetime) -> bool:
    """A campaign's backup is due when it has none yet (its first comes at the next check after
    it starts) or its newest was made ``every`` ago."""
    return newest is None or now - newest >= every


def due(campaign: Campaign, *, every: timedelta, now: datetime) -> bool:
    """``is_due`` for the files stored, not a countdown (a restarted beat, or a task run
    twice, writes no extra file)."""
    made = backups_of(campaign.code)
    return is_due(made_at(made[-1]) if made else None, every=every, now=now)


def backup_campaigns(*, keep: int, now: datetime, every: timedelta = timedelta(0)) -> Outcome:
    """The backup of every running campaign whose newest is ``every`` old (every one, with
    the default); one that fails is logged and the others still go."""
    outcome = Outcome()
    running = Campaign.objects.filter(status=CampaignStatus.RUNNING).order_by("id")
    found_due = False
    for campaign in running:
        try:
            if not due(campaign, every=every, now=now):
                continue
            found_due = True
            done = backup_campaign(campaign, keep=keep, now=now)
        except files.STORAGE_ERRORS as e:
            found_due = True
            place = files.where(files.storage(KIND))
            reason = getattr(e, "strerror", None) or e
            why = f"{campaign.name} ({campaign.code}): cannot write to {place}: {reason}"
            logger.error("backup failed: %s", why)
            outcome.failed.append(why)
            continue
        outcome.written += done.written
        outcome.removed += done.removed
    last = BackupRun.objects.order_by("-at", "-id").first()
    if not found_due and (last is None or last.failed == 0):
        return outcome  # nothing to do, nothing to tell: no row every few minutes
    BackupRun.objects.create(
        at=now,
        written=len(outcome.written),
        failed=len(outcome.failed),
        error=outcome.failed[0] if outcome.failed else "",
    )
    stale = BackupRun.objects.order_by("-at", "-id").values_list("id", flat=True)[RUNS_KEPT:]
    BackupRun.objects.filter(id__in=list(stale)).delete()
    logger.info(
        "backups: %d written, %d removed, %d failed",
        len(outcome.written),
        len(outcome.removed),
        len(outcome.failed),
    )
    return outcome


def health() -> dict:
    """The last run as /healthz tells it: ok unless it failed to write a backup."""
    last = BackupRun.objects.order_by("-at", "-id").first()
    if last is None:
        return {"ok": True, "last": None}
    return {
        "ok": last.failed == 0,
        "last": last.at.isoformat(),
        "written": last.written,
        "failed": last.failed,
        **({"error": last.error} if last.error else {}),
    }
