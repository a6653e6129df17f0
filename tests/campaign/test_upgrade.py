"""Upgrades (issue 27): a season played on an earlier version's schema migrates to this one and
plays on; every migration of the project can be undone, or says why not."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from django.db import migrations
from django.db.migrations.loader import MigrationLoader

from tests.campaign.probes import run_probe

FIXTURE = Path(__file__).parent.parent / "fixtures" / "upgrade" / "season-0b5e424.sqlite3.gz"
APPS = ("campaign", "battles", "press", "orders", "maps")
# Migrations that cannot be undone, with the reason (none so far).
IRREVERSIBLE: dict[str, str] = {}


def _probe(tmp_path: Path, database: Path, *back_to: str) -> dict:
    back = ["--back-to", *back_to] if back_to else []
    return run_probe(
        "tests.campaign.upgrade_probe", database, tmp_path, tmp_path / "upgrade.json", *back
    )


@pytest.mark.pure
def test_a_season_of_an_earlier_version_migrates_and_plays_on(tmp_path):
    database = tmp_path / "old-site.sqlite3"
    database.write_bytes(gzip.decompress(FIXTURE.read_bytes()))
    seen = _probe(tmp_path, database, "campaign:0009_next_year")

    assert "campaign.0009_next_year" in seen["before"]
    assert "campaign.0010_state_lz4" not in seen["before"]
    head = MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes()
    for app, name in head:
        if app in APPS:
            assert f"{app}.{name}" in seen["after"]
    # The pages of every seat and the organiser's read after the upgrade.
    assert len(seen["pages"]) == 5 * 15 + 8
    refused = {k: v for k, v in seen["pages"].items() if v != "200"}
    # (the organiser reads the letters only of a campaign started moderated: this one was not)
    assert list(refused.values()) == ["403"] and "/organiser/letters/" in next(iter(refused))
    # The season plays on: the open window (turn 5's march) resolves, and on to the dice.
    assert seen["played"][0]["turn"] == 5 and seen["played"][0]["phase"] == "march"
    assert seen["now_latest"] > seen["latest"]
    assert seen["played"][-1]["versions"][-1]["rolls"]
    # And back to the old schema, the played phase with it.
    assert "campaign.0010_state_lz4" not in seen["back"]
    assert "campaign.0009_next_year" in seen["back"]


def _operations(operations):
    for op in operations:
        if isinstance(op, migrations.SeparateDatabaseAndState):
            yield from _operations(op.database_operations)
        else:
            yield op


@pytest.mark.pure
def test_every_migration_can_be_undone_or_says_why():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    found = []
    for (app, name), migration in loader.disk_migrations.items():
        if app not in APPS:
            continue
        key = f"{app}.{name}"
        for op in _operations(migration.operations):
            if isinstance(op, migrations.RunPython) and op.reverse_code is None:
                found.append(f"{key}: RunPython without reverse_code")
            elif isinstance(op, migrations.RunSQL) and op.reverse_sql is None:
                found.append(f"{key}: RunSQL without reverse_sql")
            elif not op.reversible:
                found.append(f"{key}: {type(op).__name__} cannot be undone")
    found = [f for f in found if f.split(":")[0] not in IRREVERSIBLE]
    assert found == []
    assert len([k for k in loader.disk_migrations if k[0] in APPS]) >= 13
