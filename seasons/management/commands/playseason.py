"""Play a whole season with the automatic players, to its end: the sample of the book of the
season (docs/season-end.md) and a season to look at *The war* on.

    manage.py playseason [--turns 18] [--name "Demo season"]

Five seats on the bundled map of 1756, each played by the engine's automatic players
(``rules.autoplay``), battles settled by the quick resolution; the organiser ``umpire`` (made
if missing) ends the campaign if 12.7 has not. The players are ``season-player-<power>``, with no
password. Prints the campaign's code, for ``manage.py printseason CODE -o FILE``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from campaign.models import CampaignStatus, organisers_group
from campaign.services import organiser as organiser_service
from campaign.services.gameplay import load_campaign_map
from seasons.services import autoseason

ORGANISER = "umpire"


def _player(username: str):
    user, made = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@demo.invalid"}
    )
    if made:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


class Command(BaseCommand):
    help = "Play a season to its end with the automatic players (the sample book's season)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--turns", type=int, default=18, choices=range(1, 19), metavar="1-18")
        parser.add_argument("--name", default="Demo season")

    def handle(self, *args, turns: int, name: str, **options) -> None:
        if load_campaign_map("") is None:
            raise CommandError("The bundled map cannot be loaded.")
        organiser, _ = get_user_model().objects.get_or_create(
            username=ORGANISER, defaults={"email": f"{ORGANISER}@demo.invalid"}
        )
        organiser.groups.add(organisers_group())

        def step(what: str, subject) -> None:
            if what == "phase" and subject.phase == "march":
                self.stdout.write(f"  turn {subject.turn} marched")

        campaign, battles = autoseason.play_season(
            organiser,
            make_user=lambda username: _player(f"season-{username}"),
            turns=turns,
            name=name,
            prefix="player",
            step=step,
        )
        campaign.refresh_from_db()
        if campaign.status != CampaignStatus.ENDED:
            organiser_service.end_campaign(campaign, organiser, now=timezone.now())
        self.stdout.write(f"playseason: {name!r}, {turns} turns, {battles} battles, ended.")
        self.stdout.write(str(campaign.code))
