"""``manage.py importcampaign FILE``: add the campaign of a season file to this site
(docs/export-format.md; docs/operations.md, "Backups and restore").

The file is checked first (format version, SHA-256); the campaign is written in one
transaction, so a refusal writes nothing. Players are found by email; those not on the site
are invited. ``--new-code`` imports a campaign whose code is already here under new codes;
``--archive`` keeps a finished season to be read only; ``--organiser`` names the organiser when
the file's has no account here.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from django.utils import timezone

from seasons.services import seasonfile, seasonimport


class Command(BaseCommand):
    help = "Add the campaign of a season file (made by exportcampaign) to this site."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the season file (.dgk.json.gz)")
        parser.add_argument(
            "--new-code",
            action="store_true",
            help="give the campaign, its seats and battles new codes (its code is taken here)",
        )
        parser.add_argument(
            "--archive",
            action="store_true",
            help="keep a finished season to be read only: it cannot be reopened or go on",
        )
        parser.add_argument(
            "--organiser", help="username or email of the organiser on this site (default: the "
            "user with the file's organiser's email)",
        )  # fmt: skip

    def handle(self, file: str, new_code=False, archive=False, organiser=None, **options):
        user = None
        if organiser:
            user = (
                get_user_model()
                .objects.filter(Q(username=organiser) | Q(email__iexact=organiser))
                .order_by("id")
                .first()
            )
            if user is None:
                raise CommandError(f"No user {organiser!r} on this site.")
        try:
            body = seasonfile.read(file)
            done = seasonimport.import_season(
                body, organiser=user, now=timezone.now(), new_code=new_code, archive=archive
            )
        except seasonfile.SeasonFileError as e:
            raise CommandError(f"{e} Nothing was imported.") from e
        c = done.campaign
        self.stdout.write(
            f"Imported {c.name} ({c.code}): {c.versions.count()} state versions, "
            f"{c.windows.count()} phase windows, {c.battles.count()} battles"
            + (", as a read-only archive" if c.archived else "")
            + "."
        )
        for email in done.matched:
            self.stdout.write(f"  {email}: found on this site, seated")
        for email in done.invited:
            self.stdout.write(f"  {email}: not on this site, invited by email")
        if done.new_seed:
            self.stdout.write(
                "The file had no dice seed (exported without --with-secrets): a new seed was "
                f"drawn (commitment {c.seed_commitment}), and the log says so. The rolls to "
                "come differ from those the old site would have made."
            )
