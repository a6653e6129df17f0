"""``manage.py adjudicate FILE [--through PHASE]``: run a scenario file through the engine.

Prints the resulting state, events, reconnaissance reports and named rolls as JSON (format
``dgk-adjudication/1``, keys in docs/scenario-format.md). Thin: the work is in
``rules.scenario``.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from rules.scenario import (
    ScenarioError,
    check_expectations,
    load_scenario,
    outcome_to_dict,
    run_scenario,
    unused_dice_text,
)
from rules.state import Phase


class Command(BaseCommand):
    help = "Resolve the phases of one turn of a scenario file and print state and events as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a scenario file (docs/scenario-format.md)")
        parser.add_argument(
            "--through",
            help="the last phase to resolve, e.g. 'march' or 'reconnaissance' "
            "(default: the file's 'through', else every phase the engine can resolve)",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="also compare with the file's 'expect' and fail if anything differs",
        )

    def handle(self, *args, **options):
        through = None
        if options["through"]:
            try:
                through = Phase.parse(options["through"])
            except ValueError as exc:
                raise CommandError(str(exc)) from None
        try:
            scenario = load_scenario(options["file"])
            outcome = run_scenario(scenario, through=through)
        except ScenarioError as exc:
            raise CommandError(str(exc)) from None
        result = outcome_to_dict(outcome)
        for item in outcome.unused_dice:
            self.stderr.write(f"warning: {unused_dice_text(item)}")
        if options["check"]:
            result["misses"] = check_expectations(scenario, outcome)
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
        if options["check"] and result["misses"]:
            raise CommandError(f"{len(result['misses'])} expectation(s) not met")
