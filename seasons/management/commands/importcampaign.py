"""``manage.py importcampaign FILE``: add the campaign of a season file to this site
(docs/export-format.md; docs/operations.md, "Backups and restore").

The file is checked first (its size, read in chunks; its format version and SHA-256; then every
value of its body, docs/export-format.md "What an import refuses"); the campaign is written in
one transaction, so a refusal writes nothing. Players are found by email; those not on the
site are invited. ``--new-code`` imports a campaign whose code is already here under new codes
(and a name that says it is a copy); ``--archive`` keeps a finished season to be read only.

The organiser is the one named with ``--organiser``; without it, the site's user with the
file's organiser's email, named in the output and confirmed at the terminal (``--yes`` skips
the question; with no terminal and no ``--yes`` the command refuses): anyone can write an email
into a file, a player's too.
"""

from __future__ import annotations

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from django.utils import timezone

from seasons.services import seasonfile, seasonimport, seasonschema


class Command(BaseCommand):
    help = "Add the campaign of a season file (made by exportcampaign) to this site."
    stealth_options = ("stdin",)

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
            "user with the file's organiser's email, confirmed)",
        )  # fmt: skip
        parser.add_argument(
            "--yes",
            action="store_true",
            help="do not ask to confirm the organiser found by the file's email",
        )

    def handle(
        self, file: str, new_code=False, archive=False, organiser=None, yes=False, **options
    ):
        try:
            body = seasonfile.read(file)
            seasonschema.check(body)
        except seasonfile.SeasonFileError as e:
            raise CommandError(f"{e} Nothing was imported.") from e
        user = self._organiser(body, organiser, yes, options.get("stdin") or sys.stdin)
        try:
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
            + f"; organiser {user.get_username()} <{user.email}>."
        )
        for email in done.matched:
            self.stdout.write(f"  {email}: found on this site, seated")
        for email in done.invited:
            self.stdout.write(f"  {email}: not on this site, invited by email")
        if done.previous_dropped:
            self.stdout.write(
                f"The file names as the year before the campaign {done.previous_dropped}: not "
                "linked (only a campaign on this site that the same organiser runs is)."
            )
        if done.new_seed:
            self.stdout.write(
                "The file had no dice seed (exported without --with-secrets): a new seed was "
                f"drawn (commitment {c.seed_commitment}), and the log says so. The rolls to "
                "come differ from those the old site would have made."
            )

    def _organiser(self, body: dict, named: str | None, yes: bool, stdin):
        """The organiser named on the command line, or the one the file's email finds here,
        said and confirmed."""
        if named:
            user = (
                get_user_model()
                .objects.filter(Q(username=named) | Q(email__iexact=named), is_active=True)
                .order_by("id")
                .first()
            )
            if user is None:
                raise CommandError(f"No user {named!r} on this site. Nothing was imported.")
            self.stdout.write(f"Organiser: {user.get_username()} <{user.email}> (--organiser).")
            return user
        email = body["campaign"]["organiser"]["email"]
        user = seasonimport.organiser_of(body)
        if user is None:
            raise CommandError(
                f"The organiser {email} has no account on this site: make one (manage.py "
                "createorganiser) or name another with --organiser. Nothing was imported."
            )
        plays = seasonimport.players_of(body, user)
        self.stdout.write(
            f"Organiser: {user.get_username()} <{user.email}>, the account here with the file's "
            f"organiser's email"
            + (f"; the file also seats this account as {', '.join(plays)}" if plays else "")
            + "."
        )
        if yes:
            return user
        if not _terminal(stdin):
            raise CommandError(
                "The organiser must be confirmed: run it at a terminal, or with --yes, or name "
                "the organiser with --organiser. Nothing was imported."
            )
        self.stdout.write(f"Make {user.get_username()} the organiser of this campaign? [y/N] ")
        self.stdout.flush()
        if stdin.readline().strip().lower() not in ("y", "yes"):
            raise CommandError("Not confirmed. Nothing was imported.")
        return user


def _terminal(stream) -> bool:
    """Whether ``stream`` is a terminal someone can answer at (not closed, not a pipe)."""
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # closed, or not a file at all
        return False
