"""The deployment page's shortcuts in the engine (3, issue 26): the minimum garrisons (3.2.3,
3.2.4) and a suggested deployment the validator accepts, on the bundled map."""

import functools

import pytest

from maps.core.loader import load_map
from rules.armies import Army
from rules.deployment import army_points_from, check_deployment, deployment_phase
from rules.dice import Dice
from rules.leaders import leaders_of
from rules.orders import Orders
from rules.rulesettings import RuleSettings
from rules.state import State
from rules.suggestion import (
    empire_leaves_west,
    least_points,
    minimum_garrisons,
    suggest_deployment,
    west_share,
)

pytestmark = pytest.mark.pure

SETTINGS = RuleSettings()


@functools.cache
def hexmap():
    return load_map()


def historical(army: Army) -> list[str]:
    """The highest-ranking leaders, as the set-up's historical default chooses them."""
    ranked = sorted(leaders_of(army), key=lambda x: x.rank)
    return [x.key for x in ranked[: SETTINGS.leaders[army.value]]]


def suggestions(sweden: int) -> dict[Army, object]:
    points = army_points_from(Army.SWEDEN, sweden, SETTINGS)
    west = empire_leaves_west(hexmap(), SETTINGS, points)
    return {
        army: suggest_deployment(
            army, hexmap(), SETTINGS, points[army.value], historical(army), west_to_france=west
        )
        for army in Army
    }


@pytest.mark.parametrize("sweden", [188, 200, 400, 1000])
def test_the_seven_suggestions_deploy_every_army_at_once(sweden):
    points = army_points_from(Army.SWEDEN, sweden, SETTINGS)
    made = suggestions(sweden)
    assert all(s.deployment is not None and not s.violations for s in made.values()), made
    orders = Orders(deployment=tuple(s.deployment for s in made.values()))
    result = deployment_phase(
        State(army_points=points), orders, Dice("suggest"), hexmap(), SETTINGS
    )
    assert result.complete, [e.text for e in result.events]


def test_at_the_books_sizes_the_empire_leaves_its_fortresses_west_of_the_rhine_to_france():
    share = west_share(hexmap(), SETTINGS)
    assert share.points == 50 * len(share.cities) and share.cities
    assert least_points(Army.EMPIRE, hexmap(), SETTINGS, west_to_france=False) == 950
    made = suggestions(200)
    empire = dict(made[Army.EMPIRE].deployment.garrisons)
    france = dict(made[Army.FRANCE].deployment.garrisons)
    assert not set(share.cities) & set(empire)
    assert all(france[c] == 50 for c in share.cities)
    # alone, the Empire's suggestion breaks 3.2.3 only where the French may still cover it
    alone = check_deployment(made[Army.EMPIRE].deployment, hexmap(), SETTINGS, 800)
    assert alone and all(v.others_may_cover for v in alone)


def test_with_room_to_spare_the_empire_keeps_its_fortresses():
    points = army_points_from(Army.SWEDEN, 400, SETTINGS)  # the Empire has 1600
    assert not empire_leaves_west(hexmap(), SETTINGS, points)
    made = suggestions(400)
    share = west_share(hexmap(), SETTINGS)
    assert set(share.cities) <= dict(made[Army.EMPIRE].deployment.garrisons).keys()
    assert not set(share.cities) & dict(made[Army.FRANCE].deployment.garrisons).keys()


def test_the_commander_in_chief_has_the_largest_force_and_the_siege_trains():
    deployment = suggestions(200)[Army.AUSTRIA].deployment
    cic = min(deployment.leaders, key=lambda x: historical(Army.AUSTRIA).index(x[0]))
    others = [p for k, _h, p, _i in deployment.leaders if k != cic[0]]
    assert all(cic[2] > p for p in others)
    assert {h for _t, h, _i in deployment.siege_trains} == {cic[1]}


def test_an_army_too_small_is_told_with_the_figures():
    made = suggestions(100)  # the Empire has 400, France 1500
    assert made[Army.EMPIRE].deployment is None
    assert "Empire cannot deploy with 400 points" in made[Army.EMPIRE].reason
    assert "750 in all" in made[Army.EMPIRE].reason
    assert made[Army.AUSTRIA].deployment is not None


def test_leaders_not_chosen_yet_are_asked_for():
    made = suggest_deployment(
        Army.HANOVER, hexmap(), SETTINGS, 1500, ["cumberland"], west_to_france=True
    )
    assert made.deployment is None and "choose them first" in made.reason


def test_the_minimum_garrisons_keep_larger_ones():
    garrisons = minimum_garrisons(
        Army.PRUSSIA, hexmap(), SETTINGS, {"Magdeburg": 400, "Berlin": 0}, west_to_france=True
    )
    assert garrisons["Magdeburg"] == 400 and garrisons["Stettin"] == 50
    assert garrisons["Berlin"] == 0  # not a fortress: left for the validator to name


def test_below_188_swedish_points_the_empire_has_no_room():
    """The least size of the ratios of 3.4 at which every army can deploy: Sweden 188 (the Empire
    752 against the 750 it needs when France takes its share of 3.2.4)."""
    assert suggestions(187)[Army.EMPIRE].deployment is None
    assert suggestions(188)[Army.EMPIRE].deployment is not None
