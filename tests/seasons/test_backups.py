"""The nightly backups (issue 27): every running campaign's season file in the ``backups``
storage (a folder here; a bucket in tests/storage/test_files.py), the last BACKUP_KEEP kept,
and a folder that cannot be written losing nothing and said where operators look (the log,
/healthz)."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.conf import settings as django_settings

from campaign.models import BackupRun, CampaignStatus
from seasons import tasks
from seasons.services import backups, seasonfile
from tests.storage.folders import with_folders

pytestmark = pytest.mark.django_db


@pytest.fixture
def folder(tmp_path, settings):
    settings.STORAGES = with_folders(backups=tmp_path / "backups")
    return tmp_path / "backups"


def test_the_task_writes_every_running_campaign(campaign, new_campaign, folder):
    assert new_campaign.status == CampaignStatus.SETUP or new_campaign == campaign
    assert tasks.backup_campaigns() == 1
    (name,) = backups.backups_of(campaign.code)
    path = folder / name
    assert path.parent == folder / str(campaign.code)
    body = seasonfile.read(path)  # importcampaign reads the file as it is
    assert body["campaign"]["code"] == str(campaign.code)
    assert body["campaign"]["seed"] == campaign.seed  # a backup restores the season as it was
    assert len(body["versions"]) == campaign.versions.count()


def test_it_is_registered_beside_the_other_periodic_tasks():
    assert "seasons.tasks.backup_campaigns" in django_settings.PERIODIC_TASKS
    assert django_settings.CELERY_BEAT_SCHEDULE["seasons.tasks.backup_campaigns"]["task"] == (
        "seasons.tasks.backup_campaigns"
    )


def test_it_writes_no_second_file_before_a_day_has_passed(campaign, folder):
    assert tasks.backup_campaigns() == 1
    assert tasks.backup_campaigns() == 0
    assert len(backups.backups_of(campaign.code)) == 1


def test_it_keeps_the_last_n(campaign, folder, now):
    made = []
    for night in range(5):
        done = backups.backup_campaigns(keep=3, now=now + timedelta(days=night))
        made += done.written
    kept = backups.backups_of(campaign.code)
    assert kept == made[-3:]
    assert all(backups.read_backup(name) for name in kept)


def test_a_folder_that_cannot_be_written_loses_nothing_and_is_told(
    campaign, folder, now, caplog, admin_client
):
    first = backups.backup_campaigns(keep=2, now=now).written
    second = backups.backup_campaigns(keep=2, now=now + timedelta(days=1)).written
    # The next night's file cannot be written: where it would go is taken by a folder.
    night = now + timedelta(days=2)
    blocked = folder / str(campaign.code) / seasonfile.file_name(campaign, night)
    blocked.mkdir()
    with caplog.at_level(logging.ERROR, logger="seasons.services.backups"):
        done = backups.backup_campaigns(keep=2, now=night)
    assert done.written == [] and len(done.failed) == 1
    assert backups.backups_of(campaign.code) == first + second  # nothing removed
    assert not list(blocked.parent.glob(".write-*"))  # no half file left
    assert "backup failed" in caplog.text and str(campaign.code) in caplog.text

    health = admin_client.get("/healthz").json()["backups"]
    assert health["ok"] is False and health["failed"] == 1
    assert str(campaign.code) in health["error"]

    blocked.rmdir()
    backups.backup_campaigns(keep=2, now=night)
    assert admin_client.get("/healthz").json()["backups"]["ok"] is True
    assert len(backups.backups_of(campaign.code)) == 2


def test_a_backup_folder_under_a_file_fails_every_campaign_and_the_task_raises_nothing(
    campaign, settings, tmp_path
):
    (tmp_path / "a-file").write_text("not a folder")
    settings.STORAGES = with_folders(backups=tmp_path / "a-file" / "backups")
    assert tasks.backup_campaigns() == 0
    run = BackupRun.objects.get()
    assert run.failed == 1 and run.written == 0
    assert "cannot write to" in run.error


def test_the_public_healthz_does_not_tell_the_backups(client, campaign, folder):
    tasks.backup_campaigns()
    assert "backups" not in client.get("/healthz").json()


def test_the_schedule_of_a_campaigns_files(now):
    """``is_due``, pure: the first file at the first look after the start, then a day later
    (BACKUP_EVERY_HOURS), whatever the looks in between."""
    day = timedelta(hours=24)
    assert backups.is_due(None, every=day, now=now)
    assert not backups.is_due(now, every=day, now=now + timedelta(hours=23, minutes=59))
    assert backups.is_due(now, every=day, now=now + day)
    assert backups.is_due(now - timedelta(days=3), every=day, now=now)  # a server off for days


def test_a_campaign_started_gets_its_first_file_at_the_next_look(campaign, folder, now):
    """The periodic task looks every few minutes (settings.BACKUP_CHECK_SECONDS): a campaign
    started a minute ago has its file at the next look, not a day (or an hour) later."""
    look = django_settings.PERIODIC_TASKS["seasons.tasks.backup_campaigns"]
    assert look <= 300
    every = timedelta(hours=django_settings.BACKUP_EVERY_HOURS)
    first = backups.backup_campaigns(keep=7, every=every, now=now + timedelta(seconds=look))
    assert len(first.written) == 1


def test_looks_that_find_nothing_due_leave_no_row(campaign, folder, now):
    every = timedelta(hours=24)
    backups.backup_campaigns(keep=7, every=every, now=now)
    for minutes in range(5, 60, 5):
        backups.backup_campaigns(keep=7, every=every, now=now + timedelta(minutes=minutes))
    assert BackupRun.objects.count() == 1
    backups.backup_campaigns(keep=7, every=every, now=now + every)
    assert BackupRun.objects.count() == 2
    assert len(backups.backups_of(campaign.code)) == 2


def test_a_look_after_a_failure_says_it_is_over_even_with_nothing_due(campaign, folder, now):
    """A failure shown by /healthz is cleared by the next look, even once the campaign it was
    about is no longer running (so no look finds it due)."""
    BackupRun.objects.create(at=now, written=0, failed=1, error="Bohemia: disk full")
    campaign.status = CampaignStatus.ENDED
    campaign.save()
    backups.backup_campaigns(keep=7, every=timedelta(hours=24), now=now)
    assert backups.health()["ok"] is True
