"""``manage.py verifydice CAMPAIGN``: recompute every roll recorded in every state version (and
every quick resolution) from the campaign's seeds, and report any mismatch (docs/dice.md).

CAMPAIGN is the campaign's code (the UUID in its addresses) or its exact name. The exit status
is 1 when a roll does not match; the seeds themselves are printed only with ``--show-seeds``
(they are secret until the campaign ends).
"""

from __future__ import annotations

import uuid

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from campaign.services import fairdice


class Command(BaseCommand):
    help = "Recompute every recorded dice roll of a campaign from its seeds."

    def add_arguments(self, parser):
        parser.add_argument("campaign", help="the campaign's code (UUID) or exact name")
        parser.add_argument(
            "--show-seeds", action="store_true", help="print the seeds (secret while it runs)"
        )

    def handle(self, campaign: str, show_seeds: bool = False, **options):
        found = _find(campaign)
        for record in fairdice.seed_records(found, reveal=show_seeds):
            line = f"seed {record.epoch + 1} ({record.scheme}): commitment {record.commitment}"
            self.stdout.write(line + (f" seed {record.seed}" if record.seed else ""))
        check = fairdice.verify(found)
        for where, m in check.mismatches:
            self.stdout.write(
                f"MISMATCH {where}: {m.name} recorded {list(m.recorded)}, "
                f"the seed gives {list(m.expected)}"
            )
        for where in check.unknown_epochs:
            self.stdout.write(f"MISMATCH {where}: made with a seed that is not on record")
        summary = f"{check.checked} rolls checked, {check.fixed} fixed results not rolled"
        if not check.ok:
            bad = len(check.mismatches) + len(check.unknown_epochs)
            raise CommandError(f"{summary}, {bad} do not match")
        self.stdout.write(f"{summary}: all match")


def _find(text: str) -> Campaign:
    try:
        return Campaign.objects.get(code=uuid.UUID(text))
    except (ValueError, Campaign.DoesNotExist):
        pass
    matches = list(Campaign.objects.filter(name=text)[:2])
    if len(matches) != 1:
        raise CommandError(
            f"No single campaign has the code or name {text!r}"
            + (" (several have that name: use the code)" if matches else "")
        )
    return matches[0]
