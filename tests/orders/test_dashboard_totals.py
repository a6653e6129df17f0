# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Every army's strength on the dashboard (3): its columns named, and at deployment a line
saying why every army reads 0 (the playthrough: "Austria 0 of 4800" read as an army lost)."""

import pytest

from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db

HEAD = (
    '<th scope="col">Army</th><th scope="col" class="num">Points now</th>'
    '<th scope="col" class="num">Agreed total</th>'
)
WHY_NOUGHT = "once its deployment has resolved"


def test_at_deployment_it_says_why_every_army_has_none(rules_campaign, player):
    page = client_for(player).get(url("dashboard", seat(rules_campaign, "prussia"))).content
    page = page.decode()
    assert HEAD in page and WHY_NOUGHT in page


def test_once_deployed_the_columns_stay_and_the_line_goes(marching, player):
    page = client_for(player).get(url("dashboard", seat(marching, "prussia"))).content.decode()
    assert HEAD in page and WHY_NOUGHT not in page
