"""The deployment page's shortcuts (3, issue 26) on the real map at the set-up form's defaults
(Sweden 200 points, so the Empire has 800, historical leaders): one tap suggests a legal
deployment of the whole seat, one tap gives every fortress its minimum garrison; the running
account, the problems once each by group with links to their hexes, and the shares of 3.2.4
told to the Empire's and the French player.
"""

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import LeaderSelection
from campaign.services import gameplay, setup
from orders.models import OrderSheet
from rules.rulesettings import RuleSettings
from tests.orders.test_play_fixtures import client_for
from tests.standing import make_user

pytestmark = pytest.mark.django_db


def form_default_points() -> dict[str, int]:
    """The set-up form's default size: Sweden 200 points, the others by the ratios of 3.4."""
    return gameplay.army_points_from_base("sweden", 200, RuleSettings())


def started(organiser, players: int, opening: str = ""):
    campaign = setup.create_campaign(
        organiser,
        name=f"First week, {players} players",
        players=players,
        now=timezone.now(),
        army_points=form_default_points(),
        leader_selection=LeaderSelection.HISTORICAL,
        options={"opening": opening} if opening else None,
    )
    for s in campaign.seats.all():
        s.user = make_user(f"p{players}-{s.power}")
        s.save()
    setup.start_campaign(campaign, organiser, now=timezone.now())
    campaign.refresh_from_db()
    return campaign


def deploy_url(s) -> str:
    return reverse("orders:deploy", args=[s.code])


def tap(client, s, action: str):
    return client.post(deploy_url(s), {"phase": "deployment", "action": action})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_seat_deploys_legally_with_one_tap(
    organiser, players, django_capture_on_commit_callbacks
):
    campaign = started(organiser, players)
    for s in campaign.seats.filter(reserve=False):
        c = client_for(s.user)
        assert tap(c, s, "suggest").status_code == 302
        page = c.get(deploy_url(s)).content.decode()
        for army in s.armies:
            assert f'id="account-{army}"' in page
        assert "meets every restriction" in page
        with django_capture_on_commit_callbacks(execute=True):
            r = c.post(reverse("orders:ready", args=[s.code]), {"phase": "deployment"})
        assert r.status_code == 302
        assert OrderSheet.objects.get(seat=s, window__phase="deployment").ready, s.power
    window = campaign.open_window()
    assert window.phase == "march", (window.phase, window.turn)


def test_the_minimum_garrisons_fill_every_fortress_and_keep_the_rest(organiser):
    campaign = started(organiser, 5)
    prussia = campaign.seats.get(power="prussia")
    c = client_for(prussia.user)
    c.post(
        deploy_url(prussia),
        {"phase": "deployment", "army": "prussia", "action": "garrison", "city": "Berlin",
         "points": 0},
    )  # fmt: skip
    c.post(
        deploy_url(prussia),
        {"phase": "deployment", "army": "prussia", "action": "garrison", "city": "Magdeburg",
         "points": 400},
    )  # fmt: skip
    assert tap(c, prussia, "garrisons").status_code == 302
    draft = OrderSheet.objects.get(seat=prussia).draft["deployment"]
    garrisons = draft["prussia"]["garrisons"]
    assert garrisons["Magdeburg"] == 400  # kept
    assert garrisons["Stettin"] == 50 and garrisons["Glatz"] == 50
    assert len(garrisons) == 20  # every Prussian fortress (3.2.3)
    page = c.get(deploy_url(prussia)).content.decode()
    assert (
        "without the minimum garrison"
        not in page.split('id="army-prussia"')[1].split("</section>")[0]
    )


def test_the_problems_are_listed_once_grouped_with_links_to_their_hexes(organiser):
    campaign = started(organiser, 5)
    prussia = campaign.seats.get(power="prussia")
    page = client_for(prussia.user).get(deploy_url(prussia)).content.decode()
    assert "20 fortresses without the minimum garrison of 50 points" in page
    shown = page.split('<div id="sheet">')[1].split('id="mapwidget-data"')[0]
    assert shown.count("must be garrisoned by at least") == 0  # one line, not twenty
    stettin = campaign  # the link to Stettin's hex opens the map there
    assert 'class="hex-link" data-hex="5715" href="?centre=5715#map">Stettin</a>' in page, stettin
    # the running account: placed / to place
    assert "0 / 3200" in page and "<td>3200</td>" in page


def test_the_empire_is_told_what_it_may_leave_to_france(organiser):
    campaign = started(organiser, 5)
    austria = campaign.seats.get(power="austria")  # Austria and the Empire
    c = client_for(austria.user)
    page = c.get(deploy_url(austria)).content.decode()
    assert "leaving them to France frees 200 of the Empire&#x27;s points" in page
    assert "At 800 points the Empire cannot garrison all its fortresses" in page
    tap(c, austria, "suggest")
    empire = OrderSheet.objects.get(seat=austria).draft["deployment"]["empire"]
    assert not {"Julich", "Koblenz", "Liege", "Mainz"} & set(empire["garrisons"])
    assert (
        sum(empire["garrisons"].values()) + sum(x["points"] for x in empire["leaders"].values())
        == 800
    )


def test_the_french_page_lists_the_imperial_fortresses_awaiting_french_garrisons(organiser):
    campaign = started(organiser, 5)
    france = campaign.seats.get(power="france")
    c = client_for(france.user)
    page = c.get(deploy_url(france)).content.decode()
    assert "Imperial fortresses West of the Rhine awaiting French garrisons" in page
    assert ">Mainz</a>: no French garrison yet" in page
    tap(c, france, "suggest")
    page = c.get(deploy_url(france)).content.decode()
    assert ">Mainz</a>: 50 French points" in page


def test_an_army_too_small_to_deploy_is_said_at_the_top(organiser):
    campaign = setup.create_campaign(
        organiser, name="Too small", players=5, now=timezone.now(),
        army_points=gameplay.army_points_from_base("sweden", 100, RuleSettings()),
    )  # fmt: skip
    for s in campaign.seats.all():
        s.user = make_user(f"small-{s.power}")
        s.save()
    setup.start_campaign(campaign, organiser, now=timezone.now())
    austria = campaign.seats.get(power="austria")
    c = client_for(austria.user)
    page = c.get(deploy_url(austria)).content.decode()
    assert "Empire cannot deploy with 400 points" in page
    r = c.post(deploy_url(austria), {"phase": "deployment", "action": "suggest"}, follow=True)
    assert "Empire cannot deploy with 400 points" in r.content.decode()
    draft = OrderSheet.objects.get(seat=austria).draft["deployment"]
    assert "austria" in draft and "empire" not in draft  # Austria's suggestion is kept


def test_the_htmx_shortcut_answers_the_sheet_only(organiser):
    campaign = started(organiser, 5)
    prussia = campaign.seats.get(power="prussia")
    r = client_for(prussia.user).post(
        deploy_url(prussia), {"phase": "deployment", "action": "suggest"}, HTTP_HX_REQUEST="true"
    )
    body = r.content.decode()
    assert r.status_code == 200 and body.lstrip().startswith('<div id="sheet">')
    assert "A legal deployment is suggested" in body


def test_a_reader_cannot_use_the_shortcuts(organiser):
    campaign = started(organiser, 5)
    prussia = campaign.seats.get(power="prussia")
    other = campaign.seats.get(power="austria")
    r = client_for(other.user).post(
        deploy_url(prussia), {"phase": "deployment", "action": "suggest"}
    )
    assert r.status_code in (403, 404)
    assert not OrderSheet.objects.filter(seat=prussia).exclude(draft={}).exists()


def test_an_army_of_the_historical_opening_needs_no_deployment(organiser):
    campaign = started(organiser, 3, opening="spi-1756")  # Prussia, Austria, Empire placed
    prussia = campaign.seats.get(power="prussia")  # Prussia (placed) and Hanover (not)
    c = client_for(prussia.user)
    page = c.get(deploy_url(prussia)).content.decode()
    assert "stands where the campaign's historical opening placed it" in page
    assert "Frederick: " in page
    tap(c, prussia, "suggest")
    draft = OrderSheet.objects.get(seat=prussia).draft["deployment"]
    assert set(draft) == {"hanover"}
    r = c.post(reverse("orders:ready", args=[prussia.code]), {"phase": "deployment"})
    assert r.status_code == 302
    assert OrderSheet.objects.get(seat=prussia).ready


def test_an_army_of_the_opening_is_not_redeployed_by_hand(organiser):
    campaign = started(organiser, 3, opening="spi-1756")
    prussia = campaign.seats.get(power="prussia")
    r = client_for(prussia.user).post(
        deploy_url(prussia),
        {"phase": "deployment", "army": "prussia", "action": "garrison", "city": "Stettin",
         "points": 50},
    )  # fmt: skip
    assert r.status_code == 400
    assert "stands where the campaign's historical opening placed it" in r.content.decode()
    assert "prussia" not in OrderSheet.objects.get(seat=prussia).draft.get("deployment", {})


def test_the_empires_fortresses_west_of_the_rhine_are_marked_once(organiser):
    campaign = started(organiser, 5)
    austria = campaign.seats.get(power="austria")
    page = client_for(austria.user).get(deploy_url(austria)).content.decode()
    assert 'href="?centre=2234#map">Julich</a>*' in page
    assert page.count("* West of the Rhine: French points may garrison it instead") == 1
