"""A demo campaign with demo players, so a newcomer can sign in and click through a turn.

``./bin/run`` calls this. It creates (once; ``--reset`` starts over) the organiser ``umpire`` and
one player per seat (``prussia``, ``austria``, ``france``, ``hanover``, ``russia``), all with the
password ``demo``, and the five-player campaign "Demo 1757" on the bundled map: every army
deployed (the engine's sample deployment), turn 1 open for march orders. Every seat but the
Prussian is away for a while, so the phase resolves as soon as the Prussian player is ready.
Demo accounts have a known password: with DEBUG off the command refuses (exit status 1) unless
forced.
"""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from campaign.models import Campaign, organisers_group
from campaign.services import drifting, gameplay, setup
from campaign.services.resolution import resolve_due_phase
from orders.models import OrderSheet
from rules.autoplay import deployment_orders
from rules.orders import Orders, orders_to_dict

NAME = "Demo 1757"
PASSWORD = "demo"
ORGANISER = "umpire"
PLAYS = "prussia"


class Command(BaseCommand):
    help = "Create the demo campaign and its demo players (password 'demo')."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete and recreate the demo.")
        parser.add_argument(
            "--force", action="store_true", help="Run even with DEBUG off (known passwords!)."
        )

    def handle(self, *args, reset: bool, force: bool, **options):
        if not settings.DEBUG and not force:
            # An error, not a message: a script (or an operator) must not go on as if the demo
            # were there (the exit status is 1).
            raise CommandError("DEBUG is off, no demo accounts made (use --force).")
        existing = Campaign.objects.filter(name=NAME, organiser__username=ORGANISER)
        if existing.exists() and not reset:
            self.stdout.write(f"loaddemo: {NAME!r} is there already (--reset to start over).")
            return
        existing.delete()
        campaign = self._make(timezone.now())
        window = campaign.open_window()
        self.stdout.write(
            f"loaddemo: {NAME!r}, turn {window.turn}, {window.phase} orders open.\n"
            f"  Sign in at {settings.SITE_URL}/accounts/login/ as {PLAYS!r} (password "
            f"{PASSWORD!r}) to play; as {ORGANISER!r} for the organiser's board. The other "
            f"seats ({', '.join(s.power for s in campaign.seats.exclude(power=PLAYS))}) "
            "use their own names, same password."
        )

    def _user(self, username: str):
        user, _ = get_user_model().objects.get_or_create(
            username=username, defaults={"email": f"{username}@demo.invalid"}
        )
        user.set_password(PASSWORD)
        user.save()
        return user

    @transaction.atomic
    def _make(self, now) -> Campaign:
        organiser = self._user(ORGANISER)
        organiser.groups.add(organisers_group())
        rules = gameplay.rule_settings(Campaign(rule_settings={}))
        hexmap = gameplay.load_campaign_map("")
        deployments = {}
        if hexmap is not None:
            points, orders = deployment_orders(hexmap, rules)
            deployments = {d.army.value: d for d in orders.deployment}
        else:
            points = gameplay.army_points_from_base("sweden", 400, rules)
        campaign = setup.create_campaign(
            organiser,
            name=NAME,
            players=5,
            now=now,
            army_points=points,
            options={"allies_share": False},
        )
        for seat in campaign.seats.all():
            seat.user = self._user(seat.power)
            seat.joined = now
            if deployments:
                seat.leaders = {a: [k for k, *_ in deployments[a].leaders] for a in seat.armies}
            seat.save()
        setup.start_campaign(campaign, organiser, now=now)
        if deployments:
            window = campaign.open_window()
            for seat in campaign.seats.all():
                draft = orders_to_dict(
                    Orders(deployment=tuple(deployments[a] for a in seat.armies))
                )
                OrderSheet.objects.create(
                    campaign=campaign, seat=seat, window=window, draft=draft, ready=True,
                    submitted_at=now,
                )  # fmt: skip
            resolve_due_phase(window.id, now=now)
        for seat in campaign.seats.exclude(power=PLAYS):
            drifting.declare_absence(seat, now + timedelta(days=30), now=now)
        return campaign
