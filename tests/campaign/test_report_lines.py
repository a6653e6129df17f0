"""A seat's report tells each fact once, with its rule once (8, and every rule a line cites).

The reconnaissance phase writes each observation twice, as a ``Report`` (the version keeps it)
and as a private event of the same words that carries it (the stored events keep it for later
turns). A seat is told it once: on the dashboard, the report pages and in its emails, whether
it is read from the report, from the event or from both, and from events stored before their
data said whether the garrison they saw was inside its fortress.
"""

import dataclasses
import re

import pytest

from campaign.projection import (
    EventView,
    Viewer,
    cites,
    news_lines,
    project,
    report_lines,
)
from maps.core.compact import compact_map
from rules.armies import Army, Seat
from rules.dice import Dice
from rules.events import Event, EventKind, event_to_dict, report_to_dict
from rules.orders import Orders
from rules.reconnaissance import reconnaissance_phase
from rules.rulesettings import RuleSettings
from rules.state import Garrison, LeaderState, Phase, State

pytestmark = pytest.mark.pure

HEXMAP = compact_map(
    {
        "terrain": ["c" * 8] * 6,
        "cities": [{"name": "Glatz", "hex": "0603", "size": "square", "fortress": True}],
    },
    name="test-recon",
)


def observed():
    """Daun (Austria) beside Frederick and two hexes from Glatz's Prussian garrison (8, 8.1)."""
    state = State(
        turn=2,
        phase=Phase.RECONNAISSANCE,
        players=5,
        army_points={"prussia": 16000, "austria": 16000},
        leaders=(
            LeaderState("daun", Army.AUSTRIA, "0403", points=4000),
            LeaderState("frederick", Army.PRUSSIA, "0303", points=5000),
        ),
        garrisons=(Garrison("Glatz", Army.PRUSSIA, 50),),
        control={"Glatz": "prussia"},
    )
    result = reconnaissance_phase(state, Orders(), Dice("t"), HEXMAP, RuleSettings())
    mine = [e for e in result.events if e.audience == frozenset({Army.AUSTRIA})]
    reports = [r for r in result.reports if r.to is Army.AUSTRIA]
    return result.state, mine, reports


AUSTRIA = Viewer.seat(Seat.AUSTRIA, 5)


def facts(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("Reconnaissance by")]


def test_the_engine_writes_each_observation_as_a_report_and_an_event_with_its_data():
    _state, events, reports = observed()
    assert sorted(r.rule for r in reports) == ["8", "8.1"]
    assert [e.text for e in events] == [r.text for r in reports]
    glatz = next(e for e in events if "garrison" in e.text)
    assert glatz.data["inside"] is True and glatz.data["garrison"] is True


@pytest.mark.parametrize("given", ["events", "reports", "both"])
def test_a_seat_is_told_each_observation_once_with_its_rule(given):
    state, events, reports = observed()
    turn_events = [(2, e) for e in events] if given != "reports" else []
    turn_reports = [(2, r) for r in reports] if given != "events" else []
    view = project(state, AUSTRIA, events=turn_events, reports=turn_reports)
    lines = report_lines(view, 2)
    assert sorted(facts(lines)) == sorted(f"{r.text} ({r.rule})" for r in reports), lines
    assert [e for e in view.events if e.kind == "reconnaissance"] == []
    assert len(view.reports) == 2
    # the email's lines: the stored event rows and the version's reports, together
    stored = [{**event_to_dict(e), "turn": 2} for e in events]
    kept = [{**report_to_dict(r), "turn": 2} for r in reports]
    assert news_lines(state, AUSTRIA, events=stored, reports=kept) == lines


def test_an_event_stored_before_its_data_said_inside_is_still_the_same_report():
    state, events, reports = observed()
    # (the garrison at 8.1 was read from such an event as a force in the field: a second line)
    old = [
        dataclasses.replace(
            e, data={k: v for k, v in e.data.items() if k not in ("inside", "garrison")}
        )
        for e in events
    ]
    lines = news_lines(
        state, AUSTRIA, events=[(2, e) for e in old], reports=[(2, r) for r in reports]
    )
    assert len(facts(lines)) == 2, lines
    view = project(state, AUSTRIA, events=[(2, e) for e in old], reports=[(2, r) for r in reports])
    glatz = next(r for r in view.reports if r.hex == "0603")
    assert glatz.inside and glatz.garrison  # the engine's report kept, not the old event's


def test_the_umpire_still_reads_the_reconnaissance_events():
    state, events, _reports = observed()
    view = project(state, Viewer.umpire_view(), events=[(2, e) for e in events])
    assert [e.rule for e in view.events if e.kind == "reconnaissance"] == ["8", "8.1"]


def test_the_enemy_is_told_nothing_of_it():
    state, events, reports = observed()
    prussia = Viewer.seat(Seat.PRUSSIA, 5)
    view = project(
        state, prussia, events=[(2, e) for e in events], reports=[(2, r) for r in reports]
    )
    assert view.reports == () and view.events == ()


LINES = [
    ("9", "A battle is fought at 6639 between Wedel and Nadasy (9).", ""),
    ("9.5", "300 points are left without a leader at 6340 (9.5).", ""),
    ("10.1", "Retire before the battle: not allowed, it had no march order this turn (10.1)", ""),
    (
        "10.1.3",
        "The Prussian force of Wedel routs 10 MPs from 6340 to 6738: it reaches the friendly "
        "fortress of Glatz and goes inside (10.1.4) (10.1.3, 10.1.4-10.1.6). Route 6340-6738.",
        "",
    ),
    ("4", "Turn 4 begins.", "4"),
    ("6.2", "Austria and Empire share 7 marches this turn: 2 dice rolled 5+4 -2 (6.1).", "6.2"),
    ("10.1", "It may not retire (10.1.1).", "10.1"),
]


@pytest.mark.parametrize(("rule", "text", "added"), LINES)
def test_a_line_gives_its_rule_once(rule, text, added):
    event = Event(rule, EventKind.BATTLE, text, {}, None)
    view = project(State(turn=4, phase=Phase.MARCH, players=5), AUSTRIA, events=[(4, event)])
    (line,) = report_lines(view, 4)
    assert line == (f"{text} ({added})" if added else text)
    assert EventView(4, rule, "battle", text, True).uncited_rule == added
    # no rule number twice at the end of a line, "(9) (9)" nor "(10.1) (10.1)"
    assert not re.search(r"\(([^()]+)\)\.?\s*\(\1\)\.?$", line), line


def test_cites_reads_the_parentheses_only():
    assert cites("It routs (10.1.3, 10.1.4-10.1.6).", "10.1.6")
    assert not cites("Daun has 9 MPs left.", "9")
    assert cites("Anything.", "")
