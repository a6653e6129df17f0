"""``manage.py exportcampaign CODE -o FILE``: write a campaign whole into one season file
(docs/export-format.md), to move it to another site or keep it.

CODE is the campaign's code (the UUID in its addresses). The dice seed is written only with
``--with-secrets`` (or once the campaign has ended and its seeds are revealed); without it, an
import draws a new seed. ``-o -`` writes the file to standard output.
"""

from __future__ import annotations

import sys
import uuid

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from seasons.services import seasonfile


class Command(BaseCommand):
    help = "Write a campaign (every version, event, window, sheet, battle, letter) to one file."

    def add_arguments(self, parser):
        parser.add_argument("code", help="the campaign's code (the UUID in its addresses)")
        parser.add_argument("-o", "--output", required=True, help="the file to write ('-': stdout)")
        parser.add_argument(
            "--with-secrets",
            action="store_true",
            help="write the dice seed too (a secret while the campaign runs)",
        )

    def handle(self, code: str, output: str, with_secrets: bool = False, **options):
        try:
            campaign = Campaign.objects.get(code=uuid.UUID(code))
        except (ValueError, Campaign.DoesNotExist):
            raise CommandError(f"No campaign has the code {code!r}.") from None
        data = seasonfile.export_campaign(campaign, with_secrets=with_secrets)
        if output == "-":
            sys.stdout.buffer.write(data)
            return
        try:
            seasonfile.write(output, data)
        except OSError as e:
            raise CommandError(f"Cannot write {output}: {e.strerror or e}.") from e
        secret = "with its dice seed" if with_secrets else "without its dice seed"
        self.stdout.write(f"Wrote {campaign.name} ({len(data):,} bytes, {secret}) to {output}")
