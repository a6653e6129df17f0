# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""The dashboard names the city a force stands in (the playthrough of 29 November 2026: "Hex
6933" where a player expects Breslau). The map is public, so a name tells the seat nothing its
hex did not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from campaign.services import gameplay, knowledge
from orders import dashboard
from orders.warmup import warm_pages
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    POSITIONS,
    client_for,
    marching,
    rules_campaign,
    seat,
    url,
    write_map,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def play_map(tmp_path) -> str:
    """The fixtures' map with a city where the Prussian army deploys."""
    data = json.loads(Path(write_map(tmp_path)).read_text())
    data["cities"].append({"name": "Küstrin", "hex": POSITIONS["prussia"], "size": "square"})
    target = tmp_path / "test-play-cities.json"
    target.write_text(json.dumps(data))
    return str(target)


def test_a_force_in_a_city_is_named_by_the_city_and_one_in_the_country_by_its_hex(marching):
    prussia = seat(marching, "prussia")
    version = marching.versions.order_by("-number").first()
    names = dashboard.places(gameplay.load_campaign_map(marching.map_name))
    assert names[POSITIONS["prussia"]] == "Küstrin"
    forces = knowledge.seat_view(prussia, version).own_forces()
    assert [f.hex for f in forces] == [POSITIONS["prussia"]]
    page = client_for(prussia.user).get(url("dashboard", prussia)).content.decode()
    assert f"Küstrin (hex {POSITIONS['prussia']})" in page
    # The part the worker draws says the same (the page may find it kept).
    warm_pages(version.id)
    again = client_for(prussia.user).get(url("dashboard", prussia)).content.decode()
    assert f"Küstrin (hex {POSITIONS['prussia']})" in again
    # Austria's force stands in open country: its hex alone.
    austria = seat(marching, "austria")
    theirs = client_for(austria.user).get(url("dashboard", austria)).content.decode()
    assert f"Hex {POSITIONS['austria']}" in theirs and "Küstrin (hex" not in theirs


@pytest.mark.parametrize("name", ["dashboard", "report", "history", "handover"])
def test_every_page_of_the_seat_offers_the_orders_owed(marching, name):
    """The nav's Orders tab is on every page of the seat while a phase is open (the history
    page had no window to know it by)."""
    prussia = seat(marching, "prussia")
    page = client_for(prussia.user).get(url(name, prussia)).content.decode()
    assert f'href="{url("orders", prussia)}">Orders</a>' in page


def test_fortress_control_is_listed_by_city_with_the_armies_names(marching):
    prussia = seat(marching, "prussia")
    page = client_for(prussia.user).get(url("handover", prussia)).content.decode()
    listed = page[page.index("<h3>Fortress control</h3>") :].split("</ul>", 1)[0]
    cities = re.findall(r"<li>([^:<]+): ([^<]+)</li>", listed)
    assert cities and cities == sorted(cities)
    assert ("Berlin", "Prussia") in cities
    assert not any(army.islower() for _city, army in cities)  # never an army's code
