"""The drop-off box of the orders page (6.2.6): its example and its help name the seat's own
leaders, never another army's. A phone review found "seydlitz 0405", a Prussian, offered to the
player of every army."""

import json

import pytest
from django.utils.html import escape

from campaign.models import Campaign, StateVersion
from campaign.services import gameplay
from maps.core.hexgrid import neighbour, parse_hex_id
from maps.core.wording import hex_in_words
from rules.armies import Army
from tests.orders.test_play_fixtures import client_for, in_phase, url
from tests.standing import load_demo

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings) -> Campaign:
    """The demo: every army deployed, turn 1 open for march orders."""
    return load_demo(settings)


def _forces(campaign: Campaign):
    data = StateVersion.objects.values_list("state", flat=True).get(
        id=campaign.open_window().version.id
    )
    return gameplay.read_state(json.loads(data) if isinstance(data, str) else data).forces()


def _page(campaign: Campaign, army: Army, unit: str) -> str:
    seat = next(s for s in campaign.seats.filter(reserve=False) if army.value in s.armies)
    return client_for(seat.user).get(url("orders", seat) + f"?unit={unit}").content.decode()


def test_the_commander_is_told_the_subordinates_he_may_drop_off(demo):
    force = next(f for f in _forces(demo) if len(f.leaders) > 1 and f.army is not Army.PRUSSIA)
    commander, subordinate = force.leaders[0], force.leaders[1]
    page = _page(demo, force.army, commander.key)
    assert 'placeholder="leader hex"' in page
    assert f"e.g. <code>{subordinate.key} {force.hex}</code> (where the force stands now)" in page
    assert f"Marching with this force: <code>{subordinate.key}</code>" in page
    assert "seydlitz" not in page.lower()


@pytest.mark.parametrize("army", [Army.AUSTRIA, Army.PRUSSIA])
def test_a_leader_alone_is_told_to_leave_it_empty(demo, army):
    force = next(f for f in _forces(demo) if len(f.leaders) == 1 and f.army is army)
    page = _page(demo, army, force.leaders[0].key)
    assert 'placeholder="leader hex"' in page
    assert "No other leader moves with this order: leave it empty." in page
    assert "seydlitz 0405" not in page


def test_the_list_of_orders_says_where_each_line_ends(demo):
    """The tester's newcomer read "Wedel 1-6-1" and could not tell where Wedel was going; a
    later one read "1-6-1 to Hex 6338" and still had the codes to decode: each saved line is
    said in words alone, how far, which way and to where, with its town where one stands."""
    force = next(f for f in _forces(demo) if f.army is Army.PRUSSIA)
    seat = next(s for s in demo.seats.filter(reserve=False) if "prussia" in s.armies)
    client = client_for(seat.user)
    unit = force.leaders[0].key
    r = client.post(
        url("save_march", seat), in_phase(seat, {"unit": unit, "path": "4", "marches": "1"})
    )
    assert r.status_code in (200, 302), r.content.decode()[:500]
    end = neighbour(parse_hex_id(force.hex), 4)
    where = hex_in_words(gameplay.load_campaign_map(demo.map_name), end)
    page = client.get(url("orders", seat)).content.decode()
    assert f'<span class="line">1 hex E to {escape(where)}</span>' in page
    assert "<code>4</code>" not in page
