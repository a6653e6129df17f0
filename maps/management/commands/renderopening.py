"""Draw a historical opening on the bundled map (issue 18): ``manage.py renderopening spi-1757
docs/historical-opening-1757.png``. The armies at the book's example sizes (3), as the umpire
sees them; the picture of ``docs/historical-openings.md``."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.projection import Viewer, project
from maps.core.loader import load_map
from maps.seat_picture import seat_picture_png
from rules.armies import Army
from rules.deployment import army_points_from
from rules.dice import Dice
from rules.openings import OPENINGS, OpeningError, load_opening, opening_state
from rules.orders import NO_ORDERS
from rules.phases import resolve_phase
from rules.rulesettings import RuleSettings
from rules.state import Phase


class Command(BaseCommand):
    help = "Draw a historical opening (SPI 1756-1759) on the bundled map as a PNG."

    def add_arguments(self, parser):
        parser.add_argument("opening", choices=OPENINGS)
        parser.add_argument("output", type=Path)

    def handle(self, *args, **options):
        try:
            opening = load_opening(options["opening"])
        except OpeningError as exc:
            raise CommandError(str(exc)) from exc
        hexmap, settings = load_map(), RuleSettings()
        points = army_points_from(Army.SWEDEN, 200, settings)
        state, _events = opening_state(opening, 5, points, settings, hexmap)
        if set(state.deployed) == set(Army):
            state = resolve_phase(
                state, Phase.DEPLOYMENT, NO_ORDERS, Dice("opening"), hexmap, settings
            ).state
        view = project(state, Viewer.umpire_view())
        title = f"{opening.title} (SPI Frederick the Great) on our map, at the book's sizes"
        options["output"].write_bytes(seat_picture_png(view, hexmap, title=title))
        self.stdout.write(f"Wrote {options['output']}")
