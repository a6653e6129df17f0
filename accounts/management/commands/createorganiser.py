"""Create an organiser: a user in the organisers group, who may create and run campaigns.

    python manage.py createorganiser --username anna --email anna@example.org
    DGK_ORGANISER_PASSWORD=... python manage.py createorganiser --username anna --noinput

Values not given as options come from DGK_ORGANISER_USERNAME / _EMAIL / _PASSWORD, and are
asked for at the prompt unless --noinput. An existing user is added to the group (and gets the
new password, if one is given), so the command is safe to run twice.
"""

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction

from campaign.models import ORGANISERS_GROUP, organisers_group


class Command(BaseCommand):
    help = "Create an organiser account (a user in the organisers group)."

    def add_arguments(self, parser):
        parser.add_argument("--username")
        parser.add_argument("--email")
        parser.add_argument(
            "--password", help="Better given as DGK_ORGANISER_PASSWORD: options show in ps."
        )
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="Never prompt; fail if a value is missing.",
        )

    def handle(self, *args, username, email, password, interactive, **options):
        username = username or os.getenv("DGK_ORGANISER_USERNAME", "")
        email = email if email is not None else os.getenv("DGK_ORGANISER_EMAIL", "")
        password = password or os.getenv("DGK_ORGANISER_PASSWORD", "")
        User = get_user_model()

        if not username:
            if not interactive:
                raise CommandError("Give --username (or DGK_ORGANISER_USERNAME) with --noinput.")
            username = self._ask("Username: ")
        existing = User.objects.filter(username=username).first()
        if not email and interactive and existing is None:
            email = input("Email address (may be blank): ").strip()
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise CommandError(f"{email!r} is not an email address.") from None
        if not password and existing is None:
            if not interactive:
                raise CommandError("Give DGK_ORGANISER_PASSWORD (or --password) with --noinput.")
            password = self._ask_password()
        if password:
            candidate = existing or User(username=username, email=email)
            try:
                validate_password(password, candidate)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from None

        with transaction.atomic():
            if existing is None:
                user = User.objects.create_user(username=username, email=email, password=password)
                verb = "Created"
            else:
                user = existing
                if email:
                    user.email = email
                if password:
                    user.set_password(password)
                user.save()
                verb = "Updated"
            user.groups.add(organisers_group())
        self.stdout.write(
            self.style.SUCCESS(f"{verb} organiser {username!r} (group {ORGANISERS_GROUP!r}).")
        )

    def _ask(self, prompt: str) -> str:
        value = input(prompt).strip()
        if not value:
            raise CommandError("A value is required.")
        return value

    def _ask_password(self) -> str:
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("The passwords do not match.")
        if not first:
            raise CommandError("A password is required.")
        return first
