"""The whole season: seven armies on the bundled map of Central Europe, 18 turns of random legal
orders from the automatic players (rules/autoplay.py), battles decided by the tabletop
stand-in, ending with the final victory table; the same seed plays the same season."""

import pytest

from maps.core.loader import load_map
from rules.autoplay import play_season
from rules.events import EventKind, event_to_dict
from rules.state import Phase, state_to_dict

pytestmark = pytest.mark.pure


@pytest.fixture(scope="module")
def hexmap():
    return load_map()


@pytest.fixture(scope="module")
def season(hexmap):
    return play_season(hexmap, seed="whole-season")


def test_it_plays_to_the_end(season):
    # 18 turns, unless Frederick is taken (12.7); with this seed he is not.
    assert season.state.ended
    assert season.state.frederick_taken_by == ""
    assert season.state.turn == 18
    turns = [e for e in season.events if e.kind is EventKind.TURN]
    assert len(turns) == 18


def test_it_finishes_with_a_victory_table(season):
    tables = [e for e in season.events if e.kind is EventKind.CAMPAIGN_ENDS and e.rule == "12"]
    assert len(tables) == 1
    table = tables[0].data["table"]
    seats = ["austria", "france", "hanover", "prussia", "russia"]
    assert [r["seat"] for r in table["rows"]] == seats
    best = max(r["total"] for r in table["rows"])
    assert table["winners"] == [r["seat"] for r in table["rows"] if r["total"] == best]
    assert sum(table["alliances"].values()) == sum(r["total"] for r in table["rows"])
    assert season.table is not None and season.table.to_dict() == table


def test_every_phase_of_part_two_was_played(season):
    kinds = {e.kind for e in season.events}
    assert EventKind.BLOCKADE in kinds or EventKind.SIEGE in kinds
    rules = {e.rule for e in season.events}
    assert "12" in rules


def test_points_never_go_negative(season):
    state = season.state
    assert all(x.points >= 0 for x in state.leaders)
    assert all(g.points > 0 for g in state.garrisons)


def test_the_same_seed_gives_the_same_season(hexmap, season):
    again = play_season(hexmap, seed="whole-season")
    assert state_to_dict(again.state) == state_to_dict(season.state)
    assert [event_to_dict(e) for e in again.events] == [event_to_dict(e) for e in season.events]


def test_the_phases_come_in_the_order_of_rule_4(hexmap):
    seen = []
    play_season(hexmap, seed="order", on_phase=lambda state, phase: seen.append(phase))
    first_turn = seen[: len(Phase) - 1]
    assert first_turn == [p for p in Phase if p is not Phase.DEPLOYMENT]


def test_every_state_of_a_season_survives_json(hexmap):
    import json

    from rules.state import state_from_dict

    checked = []

    def check(state, phase):
        assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
        checked.append(phase)

    play_season(hexmap, seed="json", on_phase=check)
    assert Phase.BATTLE in checked and Phase.RETREAT_RALLY in checked


def test_the_automatic_players_ignore_the_order_of_leaders_and_siege_trains(hexmap):
    """A state stored as PostgreSQL's ``jsonb`` (before migration 0012, and the rows it
    converted) reads back with leaders and siege trains in another order than the engine made
    them (docs/performance.md): the automatic players give the same orders for both, so a
    season played by them does not depend on where its state came from."""
    import dataclasses

    from rules.autoplay import battle_decisions, honors_decisions, march_orders

    asked = []

    def keep(state, phase):
        if state.phase in (Phase.MARCH, Phase.BATTLE, Phase.SIEGE):
            asked.append(state)

    play_season(hexmap, seed="reordered", on_phase=keep)
    assert any(s.phase is Phase.BATTLE and battle_decisions(s, "s").battle for s in asked)
    for state in asked:
        other = dataclasses.replace(
            state,
            leaders=tuple(reversed(state.leaders)),
            siege_trains=tuple(reversed(state.siege_trains)),
        )
        if state.phase is Phase.MARCH:
            assert march_orders(state, hexmap, "s") == march_orders(other, hexmap, "s")
        elif state.phase is Phase.BATTLE:
            assert battle_decisions(state, "s") == battle_decisions(other, "s")
        else:
            assert set(honors_decisions(state, hexmap).honors) == set(
                honors_decisions(other, hexmap).honors
            )
