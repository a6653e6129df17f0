"""Standing people and a running five-player campaign for the web tests (parts A and B).

People: ``organiser`` (a non-playing umpire), ``player`` (the Prussian player), ``ally`` (the
Hanoverian player, same alliance), ``other`` (the Austrian player, an enemy), ``outsider`` (an
account with no seat). The French and Russian seats have players of their own.

The campaign's map is a name that does not exist, so every phase passes through the engine
unchanged (services.gameplay's fallback): these tests are about seats, windows, deadlines and
email, not about rules. Tests that need the rules load a map themselves.
"""

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command

from campaign.models import Campaign, Seat, organisers_group
from campaign.services import setup, viewcache

NOW = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)
NO_MAP = "no-such-map-for-tests"


def load_demo(settings) -> Campaign:
    """The demo campaign (``manage.py loaddemo``, which runs with DEBUG on): five seats on the
    bundled map of 1756, every army deployed, turn 1 open for march orders."""
    settings.DEBUG = True
    call_command("loaddemo", stdout=_Quiet())
    settings.DEBUG = False
    return Campaign.objects.get(name="Demo 1757")


class _Quiet:
    def write(self, *args, **kwargs) -> None:
        pass

    def flush(self) -> None:
        pass


def make_user(username: str, **extra):
    return get_user_model().objects.create_user(
        username=username, email=f"{username}@example.org", password="pw-" + username, **extra
    )


@pytest.fixture
def now():
    return NOW


@pytest.fixture
def organiser(db):
    user = make_user("olga")
    user.groups.add(organisers_group())
    return user


@pytest.fixture
def player(db):
    return make_user("fritz")


@pytest.fixture
def ally(db):
    return make_user("ferdinand")


@pytest.fixture
def other(db):
    return make_user("maria")


@pytest.fixture
def outsider(db):
    return make_user("nobody")


@pytest.fixture
def new_campaign(organiser, now):
    """A five-player campaign in set-up, nobody seated yet."""
    return setup.create_campaign(
        organiser,
        name="Bohemia 1757",
        players=5,
        now=now,
        army_points={
            "austria": 3200,
            "empire": 800,
            "france": 3000,
            "hanover": 1500,
            "prussia": 3200,
            "russia": 1500,
            "sweden": 200,
        },  # fmt: skip
        map_name=NO_MAP,
    )


def seat_of(campaign: Campaign, power: str) -> Seat:
    return campaign.seats.get(power=power)


@pytest.fixture
def campaign(new_campaign, player, ally, other, now, organiser):
    """The campaign started: everyone seated, the deployment window open."""
    people = {"prussia": player, "hanover": ally, "austria": other}
    for seat in new_campaign.seats.all():
        seat.user = people.get(seat.power) or make_user(f"p-{seat.power}")
        seat.save()
    setup.start_campaign(new_campaign, organiser, now=now)
    new_campaign.refresh_from_db()
    return new_campaign


@pytest.fixture
def prussia(campaign):
    return seat_of(campaign, "prussia")


@pytest.fixture
def austria(campaign):
    return seat_of(campaign, "austria")


@pytest.fixture
def hanover(campaign):
    return seat_of(campaign, "hanover")


@pytest.fixture(autouse=True)
def fresh_view_caches():
    """Each test starts with no cached views or decoded states: its rolled-back predecessor may
    have had a version with the same row id and the same fixed ``now``, hence the same key."""
    cache.clear()
    viewcache.forget()


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Seven accounts per test: hash their passwords cheaply."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
