# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Deployment by tapping the map (3): choose a leader, a siege train or the garrisons, then tap
a hex where the army may deploy; the engine's validator speaks after each change. Typing the
hex still works, and so does tapping without JavaScript (the tap fills the form in)."""

import json
import re

import pytest

from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (
    client_for,
    deploy_everyone,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db

PRUSSIA = {f"{c:02d}{r:02d}" for c in range(1, 5) for r in range(1, 4)}  # the test map's area


def taps(page: str) -> dict[str, str]:
    """hex -> the whole <a> of each tappable deployment hex on the page."""
    return {
        m.group(1): m.group(0)
        for m in re.finditer(r'<a class="step tap"[^>]*data-hex="(\d{4})"[^>]*>', page)
    }


def vals(tag: str) -> dict:
    raw = re.search(r"hx-vals='([^']*)'", tag).group(1).replace("&quot;", '"')
    return json.loads(raw)


def choose(c, s, place: str, **extra) -> str:
    query = "&".join(f"{k}={v}" for k, v in {"army": "prussia", "place": place, **extra}.items())
    return c.get(url("deploy", s) + "?" + query).content.decode()


def test_choosing_a_leader_makes_the_armys_hexes_tappable(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    key = prussia.leaders["prussia"][0]
    page = choose(client_for(player), prussia, f"leader:{key}")
    tapped = taps(page)
    assert tapped and set(tapped) <= PRUSSIA  # only where Prussia may deploy (3.2.1)
    tag = tapped["0302"]
    assert vals(tag) == {"phase": "deployment", "army": "prussia", "action": "leader",
                         "unit": key, "hex": "0302", "points": 0}  # fmt: skip
    assert 'hx-post="' + url("deploy", prussia) in tag
    assert "Placing" in page


def test_a_tap_places_the_leader_and_the_validator_speaks(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    key = prussia.leaders["prussia"][0]
    c = client_for(player)
    tag = taps(choose(c, prussia, f"leader:{key}"))["0302"]
    post_url = re.search(r'hx-post="([^"]*)"', tag).group(1).replace("&amp;", "&")
    r = c.post(post_url, vals(tag), HTTP_HX_REQUEST="true")
    page = r.content.decode()
    assert r.status_code == 200 and "<html" not in page and 'id="sheet"' in page
    sheet = OrderSheet.objects.get(seat=prussia)
    assert sheet.draft["deployment"]["prussia"]["leaders"][key]["hex"] == "0302"
    assert "(3" in page  # the engine's deployment messages, with their rule numbers
    assert "your deployment" in page  # the placed counter on the map
    assert taps(page)  # still placing: the next tap moves him again


def test_without_javascript_a_tap_fills_the_hex_in(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    key = prussia.leaders["prussia"][0]
    page = choose(client_for(player), prussia, f"leader:{key}", hex="0203")
    assert 'value="0203"' in page
    assert not OrderSheet.objects.filter(seat=prussia, draft__has_key="deployment").exists()


def test_a_garrison_is_tapped_on_a_fortress_and_its_points_typed(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    page = choose(client_for(player), prussia, "garrison")
    tapped = taps(page)
    assert set(tapped) == {"0202"}  # Berlin, the one fortress in Prussia's areas
    assert "city=Berlin" in tapped["0202"] and "hx-post" not in tapped["0202"]
    page = choose(client_for(player), prussia, "garrison", city="Berlin")
    assert 'name="city" size="10" value="Berlin"' in page


def test_a_siege_train_is_tapped_too(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    tag = taps(choose(client_for(player), prussia, "train:prussia-1"))["0302"]
    assert vals(tag)["action"] == "train" and vals(tag)["unit"] == "prussia-1"


def test_the_htmx_choice_answers_the_sheet_only(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    key = prussia.leaders["prussia"][0]
    r = client_for(player).get(
        url("deploy", prussia) + f"?army=prussia&place=leader:{key}", HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 200 and "<html" not in r.content.decode() and taps(r.content.decode())


def test_nothing_is_tappable_for_another_army_or_a_reader(rules_campaign, player, organiser):
    prussia = seat(rules_campaign, "prussia")
    assert not taps(choose(client_for(player), prussia, "leader:daun", army="austria"))
    key = prussia.leaders["prussia"][0]
    page = client_for(organiser).get(url("deploy", prussia) + f"?army=prussia&place=leader:{key}")
    assert page.status_code == 200 and not taps(page.content.decode())  # the umpire only reads


def test_the_pans_look_further(rules_campaign, player):
    prussia = seat(rules_campaign, "prussia")
    page = client_for(player).get(url("deploy", prussia) + "?centre=0606").content.decode()
    assert "Look further" in page
    assert "centre=0602" in page and "centre=0610" in page  # North and South, inside the map
    key = prussia.leaders["prussia"][0]
    page = choose(client_for(player), prussia, f"leader:{key}", hex="0302", centre="0909")
    assert 'data-hex="0302"' not in page  # looking elsewhere than where he was tapped


def test_the_orders_map_draws_tappable_hexes_under_the_counters(
    rules_campaign, player, django_capture_on_commit_callbacks, mailoutbox
):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    prussia = seat(rules_campaign, "prussia")
    page = client_for(player).get(url("orders", prussia) + "?unit=frederick").content.decode()
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert 'class="step"' in svg and 'class="counter' in svg
    assert svg.index('class="step"') < svg.index('class="counter')
    assert svg.rindex('class="code"') > svg.rindex('class="counter')  # numbers stay on top


def test_a_reserve_player_opens_the_deployment_page_with_nothing_to_place(rules_campaign, outsider):
    from campaign.models import Seat

    reserve = Seat.objects.create(
        campaign=rules_campaign, reserve=True, label="Reserve 1", user=outsider
    )
    r = client_for(outsider).get(url("deploy", reserve) + "?army=prussia&place=garrison")
    assert r.status_code == 200 and not taps(r.content.decode())


def test_the_one_by_one_summary_counts_in_words(rules_campaign, player):
    """ "1 leader, 0 garrisons, 1 siege train", not "1 leaders ... 1 siege trains"."""
    page = client_for(player).get(url("deploy", seat(rules_campaign, "prussia"))).content.decode()
    assert "Prussia one by one: 1 leader, 0 garrisons, 1 siege train</summary>" in page
