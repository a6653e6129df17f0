"""Linked campaigns (13): each optional rule a switch; the next year starts from the last."""

import collections

import pytest

from maps.core.compact import compact_map
from rules.armies import Army
from rules.betweencampaigns import (
    LENDING,
    BetweenCampaigns,
    Loan,
    between_campaigns_from_dict,
    pick,
)
from rules.dice import Dice
from rules.linked import next_campaign
from rules.rulesettings import settings_from_dict
from rules.state import (
    Captive,
    Garrison,
    LeaderState,
    Phase,
    Prisoners,
    State,
    state_from_dict,
    state_to_dict,
)

pytestmark = pytest.mark.pure

OFF = {
    "winter_quarters": False,
    "prisoner_exchange": False,
    "new_leaders": False,
    "new_points": False,
    "new_siege_trains": False,
    "lending_points": False,
    "peace": False,
    "changing_sides": False,
}
MAP = compact_map(
    {
        "terrain": ["c c c c c c c c"],
        "areas": {"Saxony": ["0101", "0201", "0301"], "Austria": "*"},
        "cities": [
            {"name": "Torgau", "hex": "0101", "size": "square", "fortress": True},
            {"name": "Leipzig", "hex": "0301", "size": "star"},
            {"name": "Prague", "hex": "0801", "size": "star", "fortress": True},
        ],
    }
)
CONTROL = {"Torgau": "prussia", "Leipzig": "prussia", "Prague": "austria"}


def end_state(**kw):
    base = {
        "turn": 18,
        "phase": Phase.RETREAT_RALLY,
        "ended": True,
        "control": CONTROL,
        "initial_control": CONTROL,
        "victory_points": {"prussia": 4},
        "garrisons": (Garrison("Torgau", Army.PRUSSIA, 100), Garrison("Prague", Army.AUSTRIA, 100)),
    }
    base.update(kw)
    return State(**base)


def run(state, inputs=None, **on):
    inputs = inputs or BetweenCampaigns()
    settings = settings_from_dict({**OFF, **on})
    return next_campaign(state, inputs, Dice("linked"), MAP, settings)


def test_with_every_rule_off_only_the_year_turns():
    state = end_state(leaders=(LeaderState("daun", Army.AUSTRIA, "0501", 500, demoralized=True),))
    new, events = run(state)
    assert (new.turn, new.phase, new.campaign_year, new.ended) == (1, Phase.SUPPLY, 2, False)
    assert new.victory_points == {} and new.initial_control == CONTROL
    assert new.leader("daun").hex == "0501" and new.leader("daun").demoralized
    assert [e.rule for e in events] == ["13"]
    assert state_from_dict(state_to_dict(new)) == new


def test_winter_quarters_take_forces_in_the_field_home_and_clear_markers():
    state = end_state(
        leaders=(
            LeaderState("daun", Army.AUSTRIA, "0501", 500, demoralized=True, supplied=False),
            LeaderState("bevern", Army.PRUSSIA, "0301", 500),  # in a star city: stays
            LeaderState("ziethen", Army.PRUSSIA, "0801", 300),  # besieging Prague: goes home
        )
    )
    new, _ = run(state, winter_quarters=True)
    daun = new.leader("daun")
    assert (daun.hex, daun.inside, daun.demoralized, daun.supplied) == ("0801", True, False, True)
    assert new.leader("bevern").hex == "0301"
    assert new.leader("ziethen").hex == "0301"  # Leipzig is nearer than Torgau


def test_prisoners_are_exchanged_one_for_one():
    state = end_state(
        prisoners=(
            Prisoners(Army.AUSTRIA, Army.PRUSSIA, 250),
            Prisoners(Army.PRUSSIA, Army.AUSTRIA, 100),
            Prisoners(Army.FRANCE, Army.PRUSSIA, 80),
        ),
        captives=(Captive("lacy", Army.AUSTRIA, Army.PRUSSIA),),
    )
    new, _ = run(state, prisoner_exchange=True)
    held = {(p.army, p.held_by): p.points for p in new.prisoners}
    assert held == {(Army.AUSTRIA, Army.PRUSSIA): 150, (Army.FRANCE, Army.PRUSSIA): 80}
    assert new.garrisons_of("Torgau")[0].points == 200
    assert new.garrisons_of("Prague")[0].points == 200
    assert new.captives == state.captives  # nobody to exchange Lacy for


def test_a_player_may_decline_the_exchange():
    state = end_state(
        prisoners=(
            Prisoners(Army.AUSTRIA, Army.PRUSSIA, 250),
            Prisoners(Army.PRUSSIA, Army.AUSTRIA, 100),
        )
    )
    new, _ = run(state, BetweenCampaigns(no_exchange=(Army.PRUSSIA,)), prisoner_exchange=True)
    assert new.prisoners == state.prisoners


def test_the_random_pick_is_fair_and_named():
    counts = collections.Counter(
        pick(Dice(f"s{i}"), "new-leader:prussia:y2", 7) for i in range(2100)
    )
    assert set(counts) == set(range(7))
    assert all(200 < c < 400 for c in counts.values())
    assert pick(Dice("x", fixed={"n": [2, 3]}), "n", 10) == 8


def test_new_points_per_star_city():
    state = end_state(leaders=(LeaderState("bevern", Army.PRUSSIA, "0301", 500),))
    new, _ = run(state, new_points=True, new_points_per_star_city=150)
    assert new.leader("bevern").points == 650  # Leipzig
    assert new.garrisons_of("Prague")[0].points == 250


def test_lending_follows_the_chart():
    assert LENDING["prussia"] == ("hanover", "russia") and LENDING["hanover"] == ("empire",)
    assert "france" not in LENDING["britain"] and "austria" not in LENDING["britain"]
    assert set(LENDING["austria"]) == {"russia", "sweden", "empire"}
    state = end_state(
        control={**CONTROL, "Leipzig": "hanover"},
        leaders=(LeaderState("ferdinand", Army.HANOVER, "0301", 200),),
    )
    inputs = BetweenCampaigns(
        loans=(
            Loan("prussia", Army.HANOVER, 80, "Torgau", "Leipzig"),
            Loan("prussia", Army.AUSTRIA, 10, "Torgau", "Prague"),
        )
    )
    new, events = run(state, inputs, lending_points=True)
    assert new.leader("ferdinand").points == 280
    assert new.garrisons_of("Torgau")[0].points == 20
    assert sum(e.kind.value == "order-rejected" for e in events) == 1


@pytest.mark.parametrize(
    ("year", "roll", "cut"), [(1, 5, False), (1, 6, True), (3, 4, True), (3, 3, False)]
)
def test_the_british_aid_roll(year, roll, cut):
    state = end_state(campaign_year=year)
    settings = settings_from_dict({**OFF, "lending_points": True})
    dice = Dice("b", fixed={f"british-aid:y{year + 1}": roll})
    new, _ = next_campaign(state, BetweenCampaigns(), dice, MAP, settings)
    assert new.british_aid_cut is cut


def test_once_cut_britain_sends_nothing_and_no_more_rolls():
    state = end_state(british_aid_cut=True)
    settings = settings_from_dict({**OFF, "lending_points": True})
    dice = Dice("b")
    inputs = BetweenCampaigns(loans=(Loan("britain", Army.PRUSSIA, 100, "", "Torgau"),))
    new, _ = next_campaign(state, inputs, dice, MAP, settings)
    assert dice.log == [] and new.garrisons_of("Torgau")[0].points == 100


def test_peace_and_changing_sides_are_recorded():
    state = end_state(leaders=(LeaderState("broglie", Army.FRANCE, "0501", 500),))
    inputs = between_campaigns_from_dict({"peace": ["france"], "change_sides": ["sweden"]})
    new, _ = run(state, inputs, peace=True, changing_sides=True)
    assert new.at_peace == (Army.FRANCE,) and new.changed_sides == (Army.SWEDEN,)
    assert not new.has_leader("broglie")


def test_unknown_choices_fail_loudly():
    with pytest.raises(ValueError, match="unknown choice"):
        between_campaigns_from_dict({"pease": ["france"]})


def test_the_home_country_of_an_army_at_peace_is_closed_like_the_united_provinces():
    from rules.board import Board

    peace_map = compact_map(
        {"terrain": ["c c c c"], "areas": {"France": ["0101", "0201"], "Empire": "*"}}
    )
    for army, closed in ((Army.FRANCE, {"0101", "0201"}), (Army.EMPIRE, set())):
        board = Board(State(at_peace=(army,)), peace_map)
        assert {peace_map.hex_id(h) for h in board.closed_hexes} == closed


def test_a_second_year_follows_a_whole_season_on_the_real_map():
    from maps.core.loader import load_map
    from rules.autoplay import play_on, play_season

    europe = load_map()
    first = play_season(europe, seed="year-1")
    settings = settings_from_dict({"new_points_per_star_city": 50})
    start, events = next_campaign(first.state, BetweenCampaigns(), Dice("year-2"), europe, settings)
    assert (start.campaign_year, start.turn, start.phase, start.ended) == (
        2,
        1,
        Phase.SUPPLY,
        False,
    )
    for x in start.leaders:  # 13.1: everyone in a fortress or a star city, no markers
        city = europe.city_at(europe.parse_hex_id(x.hex))
        assert x.inside or (city is not None and city.size.value in ("star", "circled star"))
        assert not x.demoralized and x.supplied
    assert any(e.rule == "13.4" for e in events)
    second = play_on(start, europe, seed="year-2", settings=settings, until_turn=3)
    assert second.state.campaign_year == 2 and second.state.turn == 3
    assert not second.state.ended
