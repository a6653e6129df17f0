"""Print the six example briefings (issue 14) to ``docs/briefings/`` with Debian's chromium.

    manage.py printbriefings [--out docs/briefings] [--paper a4|letter] [--only siege ...]

Each example battle (``tabletop.examples``: field battle, river crossing, siege, sortie,
one-sided Hanover, three armies) is set up by the engine on the real map of 1756, and printed
as three sheets: each side's and the umpire's. Needs no database.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from battles.services import sheet as briefing
from maps.core.loader import load_map
from tabletop import examples


class Command(BaseCommand):
    help = "Print the six example briefings to PDF (docs/briefings/)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", default="docs/briefings")
        parser.add_argument("--paper", choices=("a4", "letter"), default="a4")
        parser.add_argument("--units", choices=("prussias-glory", "per-battalion"), default="")
        parser.add_argument("--only", nargs="*", choices=examples.KEYS, default=None)

    def handle(self, *args, out: str, paper: str, units: str, only, **options) -> None:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        hexmap = load_map()
        for key in only or examples.KEYS:
            for audience in ("prussian", "austrian", "umpire"):
                try:
                    pdf = briefing.example_pdf(key, audience, hexmap, paper=paper, units=units)
                except briefing.PrintError as exc:
                    raise CommandError(str(exc)) from exc
                target = folder / f"{key}-{audience}-{paper}.pdf"
                target.write_bytes(pdf)
                self.stdout.write(f"{target} ({len(pdf) // 1024} KB)")
