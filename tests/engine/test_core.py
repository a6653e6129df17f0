"""The engine's data: armies and seats (1.2), the leader table (14), rule settings (1.4), named
dice, events and the state's JSON round trip."""

import json
import re

import pytest

from rules.armies import Alliance, Army, Seat, armies_of, seat_map, seats_in_play
from rules.dice import Dice, DiceError
from rules.events import Event, EventKind, event_from_dict, event_to_dict, private
from rules.leaders import LEADERS, leader, leaders_of
from rules.rulesettings import (
    DEFAULT_SETTINGS,
    RuleSettings,
    settings_from_dict,
    settings_to_dict,
)
from rules.state import (
    Captive,
    Garrison,
    LeaderlessPoints,
    LeaderState,
    Phase,
    Prisoners,
    SiegeTrain,
    State,
    StateError,
    state_from_dict,
    state_to_dict,
)

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("players", "army", "seat"),
    [
        (5, Army.EMPIRE, Seat.AUSTRIA),
        (5, Army.SWEDEN, Seat.RUSSIA),
        (5, Army.HANOVER, Seat.HANOVER),
        (4, Army.RUSSIA, Seat.AUSTRIA),
        (4, Army.SWEDEN, Seat.AUSTRIA),
        (4, Army.HANOVER, Seat.HANOVER),
        (3, Army.HANOVER, Seat.PRUSSIA),
        (3, Army.FRANCE, Seat.FRANCE),
        (2, Army.FRANCE, Seat.AUSTRIA),
        (2, Army.HANOVER, Seat.PRUSSIA),
    ],
)
def test_it_maps_armies_to_seats_as_rule_1_2(players, army, seat):
    assert seat_map(players)[army] is seat


def test_it_gives_every_seat_armies_of_one_alliance():
    for players in (2, 3, 4, 5):
        assert len(seats_in_play(players)) == players
        for seat in seats_in_play(players):
            alliances = {a.alliance for a in armies_of(seat, players)}
            assert len(alliances) == 1


def test_it_refuses_six_players():
    with pytest.raises(ValueError, match="2 to 5 players"):
        seat_map(6)


def test_it_knows_the_alliances_and_march_pools():
    assert Alliance.PRUSSIAN.armies() == (Army.HANOVER, Army.PRUSSIA)
    assert Army.EMPIRE.march_pool is Army.AUSTRIA
    assert Army.SWEDEN.march_pool is Army.RUSSIA
    assert Army.FRANCE.march_pool is Army.FRANCE
    assert Army.FRANCE.is_enemy_of(Army.HANOVER)
    assert not Army.FRANCE.is_enemy_of(Army.SWEDEN)


def test_the_leader_table_has_the_book_counts_and_values():
    counts = {a: len(leaders_of(a)) for a in Army}
    assert counts == {
        Army.PRUSSIA: 23,
        Army.AUSTRIA: 19,
        Army.EMPIRE: 5,
        Army.FRANCE: 13,
        Army.HANOVER: 9,
        Army.RUSSIA: 10,
        Army.SWEDEN: 2,
    }
    frederick = leader("Frederick")
    assert (frederick.rank, frederick.tactical_ir, frederick.strategic_ir) == (1, 3, 4)
    assert frederick.two_marches
    assert {x.key for x in LEADERS if x.two_marches} == {
        "frederick",
        "schwerin",
        "laudon",
        "ferdinand",
    }
    assert leader("st-germain").name == "St. Germain"
    assert leader("O'Donnell").key == "o-donnell"
    assert len({x.key for x in LEADERS}) == len(LEADERS)


def test_every_asterisk_is_a_strategic_ir_of_3_or_4():
    for x in LEADERS:
        assert x.two_marches == (x.strategic_ir >= 3)


def test_it_refuses_an_unknown_leader():
    with pytest.raises(KeyError, match="not a leader"):
        leader("napoleon")


def test_settings_have_the_book_values_and_round_trip():
    s = DEFAULT_SETTINGS
    assert s.point_ratio["russia"] == 7.5
    assert s.march_dice["austria"] == 2 and s.march_modifier["austria"] == -2
    assert s.supply_land_mp == 10 and s.march_mp == 5 and s.forced_march_mp == 5
    assert [t for t in range(1, 19) if s.is_winter(t)] == [16, 17, 18]
    data = json.loads(json.dumps(settings_to_dict(s)))
    assert settings_from_dict(data) == s


def test_settings_take_partial_changes_by_consent():
    s = settings_from_dict({"march_modifier": {"austria": -1}, "supply_land_mp": 12})
    assert s.march_modifier == {**DEFAULT_SETTINGS.march_modifier, "austria": -1}
    assert s.supply_land_mp == 12
    assert isinstance(s, RuleSettings)


def test_rule_settings_stay_numbers_near_the_books():
    """1.4 lets the players vary a number; not to a billion dice, NaN, or a word."""
    assert settings_from_dict({"march_mp": 6.0}).march_mp == 6  # (a whole number written so)
    assert settings_from_dict({"point_ratio": {"hanover": 8.5}}).point_ratio["hanover"] == 8.5
    assert settings_from_dict({"new_points_per_star_city": 300}).new_points_per_star_city == 300
    for bad, said in [
        ({"march_dice": {"austria": 10**9}}, "too far from the book's 2"),
        ({"march_mp": float("nan")}, "must be a number, not nan"),
        ({"siege_dice": float("inf")}, "must be a number, not inf"),
        ({"recon_range": 10**8}, "too far from the book's 1 (at most 10000 either way)"),
        ({"march_dice": {"austria": 1.5}}, "is a whole number, not 1.5"),
        ({"vp_size_bands": ["x", {"y": 1}]}, "must be a number, not 'x'"),
        ({"vp_enemy_retires": [1, 2, 10**6]}, "too far from the book's 3"),
    ]:
        with pytest.raises(ValueError, match=re.escape(said)):
            settings_from_dict(bad)
    # a campaign's own settings read back: a fraction stored before the check stays
    assert settings_from_dict({"march_mp": 5.5}, stored=True).march_mp == 5.5
    with pytest.raises(ValueError, match="too far"):
        settings_from_dict({"march_dice": {"austria": 10**9}}, stored=True)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"supply_mp": 12}, "not a rule setting"),
        ({"supply_land_mp": "ten"}, "must be a number"),
        ({"march_dice": 2}, "must be an object"),
    ],
)
def test_settings_refuse_mistakes(data, message):
    with pytest.raises(ValueError, match=message):
        settings_from_dict(data)


def test_dice_depend_on_seed_and_name_only():
    a = Dice("seed-1")
    first = [a.roll(f"x:{i}") for i in range(20)]
    b = Dice("seed-1")
    backwards = [b.roll(f"x:{i}") for i in reversed(range(20))]
    assert first == list(reversed(backwards))
    assert all(1 <= v <= 6 for v in first)
    assert len(set(first)) > 1
    assert [Dice("seed-2").roll(f"x:{i}") for i in range(20)] != first


def test_dice_can_be_fixed_by_name_and_are_logged():
    d = Dice("s", fixed={"march-allocation:austria:t1": [6, 6], "forced-march:daun:t1": 2})
    assert d.roll("march-allocation:austria:t1", 2) == 12
    assert d.roll("forced-march:daun:t1") == 2
    assert [r.name for r in d.log] == ["march-allocation:austria:t1", "forced-march:daun:t1"]
    assert all(r.fixed for r in d.log)


def test_a_list_of_rolls_is_used_in_order_and_runs_out_loudly():
    d = Dice("s", fixed={"rally:daun:t3": [2, 5], "siege:Torgau:t3": [[6, 6], [1, 2]]})
    assert [d.roll("rally:daun:t3"), d.roll("rally:daun:t3")] == [2, 5]
    assert d.roll_dice("siege:Torgau:t3", 2).dice == (6, 6)
    assert d.unused() == [{"name": "siege:Torgau:t3", "fixed": 2, "used": 1}]
    assert d.roll_dice("siege:Torgau:t3", 2).dice == (1, 2)
    assert d.unused() == []
    with pytest.raises(DiceError, match=r"^rally:daun:t3: 2 roll\(s\) fixed, but the engine rolls"):
        d.roll("rally:daun:t3")


def test_a_single_fixed_roll_holds_for_every_roll_of_its_name():
    d = Dice("s", fixed={"forced-march:daun:t1": 4, "siege:Torgau:t3": [3, 4]})
    assert [d.roll("forced-march:daun:t1") for _ in range(3)] == [4, 4, 4]
    assert d.roll_dice("siege:Torgau:t3", 2).dice == d.roll_dice("siege:Torgau:t3", 2).dice
    assert d.unused() == []


def test_two_dice_are_two_dice():
    d = Dice("s")
    roll = d.roll_dice("siege:Dresden:t4", 2)
    assert len(roll.dice) == 2 and 2 <= roll.total <= 12


def test_events_round_trip_with_their_audience():
    public = Event("6.2", EventKind.MARCHED, "Daun marches.", {"mp": 5})
    secret = Event("7", EventKind.ATTRITION, "Daun loses 50.", {"loss": 50}, private(Army.AUSTRIA))
    for e in (public, secret):
        assert event_from_dict(json.loads(json.dumps(event_to_dict(e)))) == e
    assert public.visible_to(Army.PRUSSIA)
    assert secret.visible_to(Army.AUSTRIA) and not secret.visible_to(Army.PRUSSIA)


def full_state() -> State:
    return State(
        turn=7,
        phase=Phase.ATTRITION,
        players=3,
        army_points={"prussia": 3200},
        leaders=(
            LeaderState(
                "frederick",
                Army.PRUSSIA,
                "0503",
                1200,
                supplied=False,
                turns_in_hex=2,
                field_works=1,
                marched=True,
                second_march_mp=4,
            ),
            LeaderState("daun", Army.AUSTRIA, "0604", 900, inside=True, demoralized=True),
        ),
        garrisons=(Garrison("Dresden", Army.PRUSSIA, 400),),
        siege_trains=(SiegeTrain("prussia-1", Army.PRUSSIA, "0503"),),
        control={"Dresden": "prussia"},
        initial_control={"Dresden": "prussia"},
        deployed=tuple(Army),
        marches={"prussia": 3},
        forced_march_arrivals=(("0604", "prussia"),),
        besieged_turns={"Dresden": 2},
        blockaded=("Glatz",),
        honors_pending=("Neisse",),
        captives=(Captive("browne", Army.AUSTRIA, Army.PRUSSIA),),
        prisoners=(Prisoners(Army.AUSTRIA, Army.PRUSSIA, 150),),
        killed=("schwerin",),
        victory_points={"prussia": 3, "austria": -1},
        surrendered=(Army.SWEDEN,),
        changed_sides=(Army.EMPIRE,),
        leaderless=(LeaderlessPoints(Army.AUSTRIA, "0605", 120, supplied=False),),
    )


def test_the_state_round_trips_through_json_losslessly():
    s = full_state()
    data = json.loads(json.dumps(state_to_dict(s)))
    assert data["format"] == "dgk-state/1"
    assert state_from_dict(data) == s


def test_a_state_written_before_hexes_marched_reads_zero():
    """Stored campaigns keep their states: a leader record without ``hexes_marched`` (6.4.4's
    distance of the turn, added later) reads 0, and writes it back."""
    old = state_to_dict(state_from_dict({"leaders": {"daun": {"hex": "0101", "points": 500}}}))
    del old["leaders"]["daun"]["hexes_marched"]
    s = state_from_dict(old)
    assert s.leader("daun").hexes_marched == 0
    assert state_to_dict(s)["leaders"]["daun"]["hexes_marched"] == 0


def test_the_state_reads_a_compact_scenario_form():
    s = state_from_dict({"turn": 3, "leaders": {"daun": {"hex": "0101", "points": 500}}})
    assert s.leader("daun").army is Army.AUSTRIA
    assert s.leader("daun").supplied and s.phase is Phase.DEPLOYMENT


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"leaders": {"napoleon": {"hex": "0101"}}}, "not a leader"),
        ({"leaders": {"daun": {"hex": "0101", "pionts": 5}}}, "unknown field"),
        ({"leaders": {"daun": {"hex": "0101", "army": "prussia"}}}, "belongs to austria"),
        ({"phase": "lunch"}, "not a phase"),
        ({"format": "dgk-state/9"}, "format"),
        ({"turnn": 3}, "unknown field"),
        ({"leaders": {"daun": {"points": 100}}}, r"^leaders\.daun: 'hex' is missing: a hex id"),
        ({"leaders": {"daun": {"hex": "0101", "points": "x"}}}, r"^leaders\.daun\.points: 'x'"),
        ({"leaders": {"daun": {"hex": "0101", "inside": "yes"}}}, "inside: 'yes' is not true or"),
        ({"garrisons": [{"city": "Glatz", "points": 9}]}, r"^garrisons\[0\]: 'army' is missing"),
        ({"garrisons": [{"city": "Glatz", "army": "x", "points": 9}]}, r"garrisons\[0\]\.army"),
        ({"control": {"Glatz": "ottoman"}}, r"^control\.Glatz: 'ottoman' is not an army"),
        ({"turn": "3"}, r"^turn: '3' is not a whole number"),
        ({"retreats": [{"hex": "0101", "kind": "rout"}]}, r"^retreats\[0\]: 'mp' is missing"),
    ],
)
def test_the_state_refuses_mistakes_by_name(data, message):
    with pytest.raises(StateError, match=message):
        state_from_dict(data)


def test_forces_group_leaders_commander_first():
    s = state_from_dict(
        {
            "leaders": {
                "seydlitz": {"hex": "0101", "points": 100},
                "frederick": {"hex": "0101", "points": 900},
                "ziethen": {"hex": "0101", "points": 100, "inside": True},
                "daun": {"hex": "0101", "points": 800},
            }
        }
    )
    forces = {(f.army, f.inside): f for f in s.forces()}
    prussians = forces[(Army.PRUSSIA, False)]
    assert prussians.commander.key == "frederick" and prussians.points == 1000
    assert forces[(Army.PRUSSIA, True)].commander.key == "ziethen"


def test_phases_follow_rule_4():
    assert [p.number for p in Phase] == list(range(10))
    assert Phase.RECONNAISSANCE.number == 6
    assert Phase.RETREAT_RALLY.next() is Phase.SUPPLY
    assert Phase.parse("forced march") is Phase.FORCED_MARCH


def test_the_dice_are_fair():
    dice = Dice("fairness")
    counts = [0] * 6
    for i in range(6000):
        counts[dice.roll(f"fair:{i}") - 1] += 1
    assert all(850 <= c <= 1150 for c in counts), counts
