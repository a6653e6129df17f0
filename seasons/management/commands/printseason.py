"""Print the book of the season of a campaign that is over (docs/season-end.md).

    manage.py printseason CODE -o FILE [--paper a4|letter]

The same PDF the worker prints when the campaign ends and every seat downloads from *The war*:
a cover with the result, a page per turn with its map and chronicle, the battles, the charts,
the dice. Refused while the campaign runs: the book tells the secrets of the war.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from seasons.services import bookfiles, seasonbook


class Command(BaseCommand):
    help = "Print the book of the season of a campaign that is over, to a PDF file."

    def add_arguments(self, parser) -> None:
        parser.add_argument("code", help="the campaign's code (its URL's UUID)")
        parser.add_argument("-o", "--output", required=True, help="the PDF file to write")
        parser.add_argument("--paper", choices=sorted(bookfiles.PAPERS), default="a4")

    def handle(self, *args, code: str, output: str, paper: str, **options) -> None:
        try:
            campaign = Campaign.objects.filter(code=code).first()
        except ValidationError:
            campaign = None
        if campaign is None:
            raise CommandError(f"No campaign has the code {code!r}.")
        try:
            pdf = seasonbook.book_pdf(campaign, paper)
        except (seasonbook.NotOver, seasonbook.PrintError) as exc:
            raise CommandError(str(exc)) from exc
        target = Path(output)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(pdf)
        self.stdout.write(f"{target}: {len(pdf) // 1024} KB, {campaign.name}, {paper}")
