"""A season's first report on a phone (a newcomer's playthrough): the supply phase writes a line
for every force (5), about fourteen of them, which buried the battles and contacts. A seat reads
its routine supply as one line, the forces' own lines folded under it on a page, and every
exception still on a line of its own: a force out of supply is named, with its rule.

Only what the seat may read: the summary counts the supplied forces whose private lines it reads
and the public lines of its own armies' unsupplied forces; another seat reads none of it."""

import doctest

import pytest

from campaign import reportlines
from campaign.projection import (
    ReportLine,
    Viewer,
    news_lines,
    project,
    report_items,
    report_lines,
    view_to_dict,
)
from maps.core.compact import compact_map
from rules.armies import Army, Seat
from rules.dice import Dice
from rules.events import event_to_dict
from rules.orders import Orders
from rules.rulesettings import RuleSettings
from rules.state import Garrison, LeaderState, Phase, State
from rules.supply import supply_phase

pytestmark = pytest.mark.pure

# One row of clear ground: Torgau (Prussian) in the West, Glatz (Austrian) in the East.
MAP = compact_map(
    {
        "terrain": ["c" * 30],
        "cities": [
            {"name": "Torgau", "hex": "0101", "size": "square", "fortress": True},
            {"name": "Glatz", "hex": "3001", "size": "square", "fortress": True},
        ],
    },
    name="test-report-supply",
)
PRUSSIA = Viewer.seat(Seat.PRUSSIA, 5)
AUSTRIA = Viewer.seat(Seat.AUSTRIA, 5)  # Austria and the Empire at five players (1.2)


def first_turn(dohna_at: str = "1501"):
    """The supply phase of turn 1: three Prussian forces near Torgau, Dohna at ``dohna_at`` (far
    from it: out of supply), Daun and Zweibrucken at Glatz. (turn, event) pairs and the state."""
    state = State(
        turn=1,
        phase=Phase.SUPPLY,
        players=5,
        army_points={"prussia": 16000, "austria": 16000, "empire": 4000},
        leaders=(
            LeaderState("frederick", Army.PRUSSIA, "0101", points=4000),
            LeaderState("schwerin", Army.PRUSSIA, "0301", points=2000),
            LeaderState("henry", Army.PRUSSIA, "0501", points=2000),
            LeaderState("dohna", Army.PRUSSIA, dohna_at, points=1000),
            LeaderState("daun", Army.AUSTRIA, "3001", points=4000),
            LeaderState("zweibrucken", Army.EMPIRE, "2901", points=1000),
        ),
        garrisons=(Garrison("Torgau", Army.PRUSSIA, 100), Garrison("Glatz", Army.AUSTRIA, 100)),
        control={"Torgau": "prussia", "Glatz": "austria"},
    )
    result = supply_phase(state, Orders(), Dice("t"), MAP, RuleSettings())
    return result.state, [(1, e) for e in result.events]


def test_the_engine_writes_a_line_a_force():
    _state, events = first_turn()
    kinds = [e.kind.value for _turn, e in events]
    assert kinds.count("supplied") == 5 and kinds.count("unsupplied") == 1


def test_routine_supply_is_one_line_and_the_force_out_of_supply_keeps_its_own():
    state, events = first_turn()
    lines = report_lines(project(state, PRUSSIA, events=events), 1)
    assert lines == [
        "3 of the 4 Prussian forces are supplied; the other is not: its line follows. (5)",
        next(line for line in lines if line.startswith("The Prussian force under Dohna")),
    ]
    assert "is unsupplied: no supply line reaches it" in lines[1] and "(5.1)" in lines[1]
    assert not [line for line in lines if " is supplied (" in line]


def test_the_page_folds_each_force_s_line_under_the_summary():
    state, events = first_turn()
    summary, dohna = report_items(project(state, PRUSSIA, events=events), 1)
    assert summary.rule == "5" and dohna.folded == ()
    assert [line.text.split(" at ")[0] for line in summary.folded] == [
        "The Prussian force under Frederick",
        "The Prussian force under Schwerin",
        "The Prussian force under Henry",
    ]
    assert all(isinstance(line, ReportLine) and line.rule for line in summary.folded)
    assert "inside a fortress" not in str(summary)  # the how of each stays in its own line


def test_the_email_says_the_same_lines():
    state, events = first_turn()
    stored = [{**event_to_dict(e), "turn": turn} for turn, e in events]
    view = project(state, PRUSSIA, events=events)
    assert news_lines(state, PRUSSIA, events=stored) == report_lines(view, 1)


def test_a_seat_of_two_armies_all_in_supply_reads_one_line():
    state, events = first_turn()
    lines = report_lines(project(state, AUSTRIA, events=events), 1)
    assert lines[0] == "All 2 Austrian and Imperial forces are supplied. (5)"
    # the enemy out of supply is public (its U marker, 3.1.4): told on its own line, and not
    # counted among the Austrians'
    assert len(lines) == 2 and lines[1].startswith("The Prussian force under Dohna")


def test_one_supplied_force_is_told_as_it_is():
    state, events = first_turn()
    alone = [(t, e) for t, e in events if e.data.get("leader") in ("daun", "dohna")]
    lines = report_lines(project(state, AUSTRIA, events=alone), 1)
    assert (
        "The Austrian force under Daun at 3001 is supplied (by land, 0 MPs from a friendly "
        "fortress). (5)" in lines
    )
    assert len(lines) == 2


def test_another_seat_reads_nothing_of_a_seat_s_supply():
    """Two worlds that differ only in whether Dohna (Prussian) is in supply read the same to the
    Austrian seat but for Dohna's public line; the Prussian summary is never among its lines."""
    far_state, far = first_turn("1501")
    near_state, near = first_turn("0401")
    far_lines = report_lines(project(far_state, AUSTRIA, events=far), 1)
    near_lines = report_lines(project(near_state, AUSTRIA, events=near), 1)
    assert near_lines == ["All 2 Austrian and Imperial forces are supplied. (5)"]
    assert far_lines[:1] == near_lines
    assert not [line for line in far_lines + near_lines if "Prussian forces" in line]
    assert "Prussian forces" not in str(view_to_dict(project(far_state, AUSTRIA, events=far)))


def test_the_report_lines_doctests():
    assert doctest.testmod(reportlines).failed == 0
