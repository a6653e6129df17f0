"""The Clock of Fate (Friedrich 11) in linked campaigns (13; issue 18)."""

import dataclasses
from fractions import Fraction

import pytest

from maps.core.loader import load_map
from rules.armies import Army, Seat, seat_map
from rules.autoplay import play_on, play_season
from rules.dice import Dice
from rules.events import EventKind
from rules.fate import (
    DECK,
    LESS_EXTREME_LATER,
    Card,
    Clock,
    FateSettings,
    apply,
    draw,
    season_end,
    seat_changes,
    turn_end,
)
from rules.linked import BetweenCampaigns
from rules.rulesettings import settings_from_dict
from rules.state import state_to_dict

pytestmark = pytest.mark.pure

# Short seasons (1.4: numbers changed by consent) so three of them run quickly.
SETTINGS = settings_from_dict({"turns": 3, "winter_turns": 1, "new_points_per_star_city": 50})
ELISABETH_FIRST = {"fate:y1": [1, 1]}  # the pair (1, 1) picks the first card left: ELISABETH


@pytest.fixture(scope="module")
def europe():
    return load_map()


@pytest.fixture(scope="module")
def first_season(europe):
    return play_season(europe, seed="fate-1", settings=SETTINGS).state


def three_seasons(europe, first, seed, fixed=None, fate=None):
    fate = fate or FateSettings()
    state, clock, record = first, Clock(), []
    for year in (1, 2, 3):
        assert state.ended and state.campaign_year == year
        dice = Dice(seed, fixed=dict(fixed or {}))
        state, clock, events = season_end(
            state, clock, BetweenCampaigns(), dice, europe, SETTINGS, fate
        )
        record.append(
            {
                "card": clock.drawn[-1].value,
                "told": [e.text for e in events if e.kind is EventKind.FATE],
                "rolls": dice.rolls_as_dicts(),
                "start": state_to_dict(state),
            }
        )
        if year < 3:
            state = play_on(state, europe, seed=f"{seed}-{year + 1}", settings=SETTINGS).state
    return state, clock, record


def test_three_seasons_draw_and_apply_a_card_each_and_replay_from_the_seed(europe, first_season):
    state, clock, record = three_seasons(europe, first_season, "clock-7")
    assert len(clock.drawn) == 3 and len(set(clock.drawn)) == 3
    for year, season in enumerate(record, 1):
        assert season["told"], season  # every card is announced
        assert f"fate:y{year}" in [r["name"] for r in season["rolls"]]
        assert season["start"]["campaign_year"] == year + 1
    again = three_seasons(europe, first_season, "clock-7")
    assert again[1] == clock and again[2] == record
    assert state_to_dict(again[0]) == state_to_dict(state)


def test_a_drawn_elisabeth_takes_russia_out_of_the_next_season(europe, first_season):
    assert any(x.army is Army.RUSSIA for x in first_season.leaders)
    prussians = {x.key for x in first_season.leaders if x.army is Army.PRUSSIA}
    state, clock, record = three_seasons(europe, first_season, "clock-7", ELISABETH_FIRST)
    assert clock.drawn[0] is Card.ELISABETH
    assert any("Tsarina" in t for t in record[0]["told"])
    second = record[0]["start"]
    assert "russia" in second["at_peace"]
    assert not [k for k, x in second["leaders"].items() if x["army"] == "russia"]
    assert not [g for g in second["garrisons"] if g["army"] == "russia"]
    assert len(second["retired_leaders"]) == 1 and second["retired_leaders"][0] in prussians
    # and Russia stays out of every season after
    assert Army.RUSSIA in state.at_peace
    assert not [x for x in state.leaders if x.army is Army.RUSSIA]


def test_the_second_of_india_and_america_takes_france_out(europe, first_season):
    state, events = apply(first_season, Clock(), Card.INDIA, europe)
    assert Army.FRANCE not in state.at_peace
    assert any("Austrian subsidies are cut" in e.text for e in events)
    state, events = apply(state, Clock((Card.INDIA,)), Card.AMERICA, europe)
    assert Army.FRANCE in state.at_peace
    assert not [x for x in state.leaders if x.army is Army.FRANCE]
    assert any("Hanoverian subsidies are cut" in e.text for e in events)
    assert Clock((Card.INDIA, Card.AMERICA)).subsidy_factor(Army.HANOVER) == Fraction(1, 2)
    assert Clock((Card.INDIA,)).subsidy_factor(Army.AUSTRIA) == Fraction(4, 5)


def army_points(state, army):
    return sum(x.points for x in state.leaders if x.army is army) + sum(
        g.points for g in state.garrisons if g.army is army
    )


def test_subsidy_cuts_mean_fewer_new_points(europe, first_season):
    not_yet = FateSettings(from_year=9)  # no card drawn: only the cut already made counts
    full, _, _ = season_end(
        first_season, Clock(), BetweenCampaigns(), Dice("s"), europe, SETTINGS, not_yet
    )
    cut, _, events = season_end(
        first_season, Clock((Card.LORD_BUTE,)), BetweenCampaigns(), Dice("s"), europe, SETTINGS,
        not_yet,
    )  # fmt: skip
    denied = next(e.data["points"] for e in events if e.kind is EventKind.FATE)
    assert denied > 0
    assert army_points(cut, Army.PRUSSIA) == army_points(full, Army.PRUSSIA) - denied
    assert army_points(cut, Army.AUSTRIA) == army_points(full, Army.AUSTRIA)


@pytest.mark.parametrize("seed", [f"less-{n}" for n in range(30)])
def test_the_less_extreme_deck_keeps_three_cards_out_of_the_first_four(seed):
    clock, fate = Clock(), FateSettings(less_extreme=True)
    for n in range(len(DECK)):
        clock, card = draw(clock, Dice(seed), f"fate:y{n}", fate)
        if n < 4:
            assert card not in LESS_EXTREME_LATER
    assert set(clock.drawn) == set(DECK)  # every card once in the first round
    clock, card = draw(clock, Dice(seed), "fate:again", fate)
    assert card is clock.drawn[0]  # then the same order comes round again


def test_every_turn_it_strikes_only_from_the_chosen_turn(europe, first_season):
    fate = FateSettings(every="turn", from_turn=2)
    early = dataclasses.replace(first_season, turn=1)
    assert turn_end(early, Clock(), Dice("t"), europe, fate)[1] == Clock()
    later = dataclasses.replace(first_season, turn=2)
    _state, clock, events = turn_end(later, Clock(), Dice("t"), europe, fate)
    assert len(clock.drawn) == 1 and events


def test_a_seat_left_without_armies_takes_over_the_empire():
    seats = seat_map(5)
    new, reserves = seat_changes(seats, (Army.RUSSIA,))
    assert new == seats and reserves == ()  # the Russian seat still has Sweden
    new, reserves = seat_changes(seats, (Army.RUSSIA, Army.SWEDEN))
    assert new[Army.EMPIRE] is Seat.RUSSIA and reserves == ()
    new, reserves = seat_changes(seats, (Army.RUSSIA, Army.SWEDEN, Army.FRANCE))
    assert new[Army.EMPIRE] is Seat.RUSSIA and reserves == (Seat.FRANCE,)
