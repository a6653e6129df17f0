"""A database made by an earlier version, brought to this one (tests/campaign/test_upgrade.py).

Run in another process on that database (``DATABASE_URL``):

    python -m tests.campaign.upgrade_probe --out OUT.json [--back-to APP:MIGRATION ...]

it migrates the database to the head, checks the season's pages read, plays its next phase
with the automatic players, then (``--back-to``) migrates back to the old schema, and writes
what it saw to OUT.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
    import django

    django.setup()

from django.core.management import call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test.utils import setup_test_environment

from campaign.models import Campaign
from tests.seasons import season_probe


def applied() -> list[str]:
    return [
        f"{app}.{name}"
        for app, name in MigrationRecorder(connection).applied_migrations()
        if app in ("campaign", "battles", "press", "orders", "maps")
    ]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--back-to", nargs="*", default=[])
    args = parser.parse_args(argv)
    setup_test_environment()
    before = applied()
    call_command("migrate", verbosity=0)
    campaign = Campaign.objects.get()
    pages = season_probe.pages(campaign)
    latest = campaign.latest_version().number
    played = season_probe.next_phase(campaign)
    seen = {
        "before": before,
        "after": applied(),
        "pages": {k: v.split("\n", 1)[0] for k, v in pages.items()},
        "latest": latest,
        "played": played,
        "now_latest": campaign.latest_version().number,
    }
    for target in args.back_to:
        app, name = target.split(":")
        call_command("migrate", app, name, verbosity=0)
    seen["back"] = applied()
    Path(args.out).write_text(json.dumps(seen))


if __name__ == "__main__":
    main(sys.argv[1:])
