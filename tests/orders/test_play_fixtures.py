"""A small map and a five-seat campaign played by the rules, for the player-page tests.

No tests here: the other ``test_play_*`` and ``test_fog_*`` modules import these fixtures.
The map has one area for each army's country (3.4), a fortress (Berlin, in Prussia) and an open
neutral Poland in between; the rule settings give each army one leader (Prussia also a siege
train), so a whole deployment fits in a few posts.

Secret marker values: Frederick's 31017 points, Berlin's 983-point garrison. Enemies must never
see them (3.1.2); Prussia's army total (32000) is public (3).
"""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Seat
from campaign.services import setup
from maps.core.compact import compact_map
from maps.core.loader import map_to_dict
from rules.armies import Army

ARMY_POINTS = {  # the ratios of 3.4, from Sweden's 2000
    "austria": 32000,
    "empire": 8000,
    "france": 30000,
    "hanover": 15000,
    "prussia": 32000,
    "russia": 15000,
    "sweden": 2000,
}
FREDERICK_POINTS = 31017  # secret marker
BERLIN_POINTS = 983  # secret marker: 31017 + 983 = 32000, Prussia's public total
MARKERS = (str(FREDERICK_POINTS), str(BERLIN_POINTS))


def _block(cols: range, rows: range) -> list[str]:
    return [f"{c:02d}{r:02d}" for c in cols for r in rows]


AREAS = {
    "Prussia": _block(range(1, 5), range(1, 4)),
    "Swedish Pomerania": _block(range(5, 7), range(1, 3)),
    "East Prussia": _block(range(9, 13), range(1, 4)),
    "Hanover": _block(range(1, 4), range(5, 8)),
    "France": _block(range(1, 4), range(9, 11)),
    "Bavaria": _block(range(5, 7), range(8, 11)),
    "Austria": _block(range(9, 13), range(6, 11)),
    "Poland": "*",
}
# Where each army deploys its one leader (and all its points but Berlin's garrison).
POSITIONS = {
    "prussia": "0302",
    "sweden": "0601",
    "russia": "1002",
    "hanover": "0206",
    "france": "0210",
    "empire": "0609",
    "austria": "1007",
}
PEOPLE = ("player", "ally", "other")


def write_map(path) -> str:
    hexmap = compact_map(
        {
            "terrain": ["c" * 12] * 10,
            "areas": AREAS,
            "roads": [["0302", "0402", "0502", "0602"]],
            "cities": [
                {"name": "Berlin", "hex": "0202", "size": "star", "fortress": True},
                {"name": "Warsaw", "hex": "0805", "size": "square"},
            ],
        },
        name="test-play",
    )
    target = path / "test-play.json"
    target.write_text(json.dumps(map_to_dict(hexmap)))
    return str(target)


@pytest.fixture
def play_map(tmp_path) -> str:
    return write_map(tmp_path)


@pytest.fixture
def rules_campaign(organiser, player, ally, other, play_map) -> Campaign:
    """Five seats, the player is Prussia, the ally Hanover, the other Austria; deployment open.

    Started now (not at the standing ``now`` of conftest), so deadlines lie ahead of the real
    clock the resolution task reads.
    """
    now = timezone.now()
    one = dict.fromkeys((a.value for a in Army), 1)
    campaign = setup.create_campaign(
        organiser,
        name="Silesia 1757",
        players=5,
        now=now,
        army_points=dict(ARMY_POINTS),
        rule_settings={
            "leaders": one,
            "siege_trains": {**dict.fromkeys((a.value for a in Army), 0), "prussia": 1},
        },
        map_name=play_map,
    )
    people = {"prussia": player, "hanover": ally, "austria": other}
    from tests.standing import make_user

    for seat in campaign.seats.all():
        seat.user = people.get(seat.power) or make_user(f"r-{seat.power}")
        seat.save()
    setup.start_campaign(campaign, organiser, now=now)
    campaign.refresh_from_db()
    return campaign


def seat(campaign: Campaign, power: str) -> Seat:
    return campaign.seats.get(power=power)


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def url(name: str, s: Seat, *args) -> str:
    return reverse(f"orders:{name}", args=[s.code, *args])


def in_phase(s: Seat, data: dict | None = None) -> dict:
    """A phase-bound form's body as its page sends it: with the ``phase`` it was written for
    (the open window's; Ready and every order form are refused without it)."""
    window = s.campaign.open_window()
    return {"phase": window.phase if window else "", **(data or {})}


def deploy_seat(s: Seat, client: Client) -> None:
    """Deploy every army of the seat through the deployment page, without submitting."""
    for army in s.armies:
        key = s.leaders[army][0]
        points = FREDERICK_POINTS if army == "prussia" else ARMY_POINTS[army]
        r = client.post(
            url("deploy", s),
            in_phase(s, {"army": army, "action": "leader", "unit": key, "hex": POSITIONS[army],
             "points": points}),
        )  # fmt: skip
        assert r.status_code == 302, r.content.decode()[:2000]
        if army == "prussia":
            client.post(
                url("deploy", s),
                in_phase(
                    s,
                    {"army": army, "action": "garrison", "city": "Berlin", "points": BERLIN_POINTS},
                ),
            )
            client.post(
                url("deploy", s),
                in_phase(
                    s,
                    {"army": army, "action": "train", "unit": "prussia-1", "hex": POSITIONS[army]},
                ),
            )


def ready(s: Seat, client: Client, capture) -> None:
    with capture(execute=True):
        r = client.post(url("ready", s), in_phase(s))
    assert r.status_code == 302


def deploy_everyone(campaign: Campaign, capture) -> None:
    for s in campaign.seats.filter(reserve=False):
        c = client_for(s.user)
        deploy_seat(s, c)
        ready(s, c, capture)


_NOISE = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # public codes in URLs
    r"|\b(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b"  # hashes and codes: the dice commitment, tables
    r"|csrfmiddlewaretoken\" value=\"[^\"]*\"|X-CSRFToken\": \"[^\"]*\""
)


def without_noise(text: str) -> str:
    """A page without its UUIDs and CSRF tokens, whose random digits could hold a marker."""
    return _NOISE.sub("", text)


@pytest.fixture
def marching(rules_campaign, django_capture_on_commit_callbacks):
    """Everyone deployed: the march phase of turn 1 is open."""
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    assert rules_campaign.open_window().phase == "march"
    return rules_campaign
