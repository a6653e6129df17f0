"""``manage.py adjudicate``: a scenario file in, the state and events out as JSON."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

CASEBOOK = Path(__file__).resolve().parent.parent / "casebook"


def adjudicate(*args: str) -> dict:
    out = StringIO()
    call_command("adjudicate", *args, stdout=out)
    return json.loads(out.getvalue())


def test_it_prints_state_events_and_rolls():
    result = adjudicate(str(CASEBOOK / "6.3-example-frederick-and-soubise.json"))
    assert result["format"] == "dgk-adjudication/1"
    assert result["phases"] == ["forced-march"]
    assert result["next_phase"] == "attrition"
    assert result["state"]["leaders"]["frederick"]["hex"] == "0301"
    kinds = [e["kind"] for e in result["events"]]
    assert "forced-march-failed" in kinds
    assert {r["name"] for r in result["rolls"]} == {
        "forced-march:frederick:t1",
        "forced-march:soubise:t1",
    }


def test_it_stops_at_the_phase_named():
    result = adjudicate(str(CASEBOOK / "4-sequence-of-play.json"), "--through", "march")
    assert result["phases"] == ["supply", "march-allocation", "march"]
    assert result["next_phase"] == "forced-march"


def test_it_checks_expectations():
    result = adjudicate(str(CASEBOOK / "7-example-siege-in-winter.json"), "--check")
    assert result["misses"] == []


def test_it_reports_an_illegal_order_and_goes_on():
    result = adjudicate(str(CASEBOOK / "6.2.2-example-laudon.json"))
    rejected = [e for e in result["events"] if e["kind"] == "order-rejected"]
    assert len(rejected) == 1 and "daun" in rejected[0]["text"]
    assert result["state"]["leaders"]["laudon"]["hex"] == "0601"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"state": {}}', "'map' is missing"),
        ('{"map": {"terrain": ["c c"]}, "orders": {"marchs": []}}', "unknown kind"),
        (
            '{"map": {"terrain": ["c c"]}, "state": {"leaders": {"daun": {"hex": "0505"}}}}',
            "not on the map",
        ),
        ('{"map": "no_such_map"}', "map"),
    ],
)
def test_it_names_the_problem_of_a_broken_file(tmp_path, content, message):
    path = tmp_path / "case.json"
    path.write_text(content)
    with pytest.raises(CommandError, match=message):
        call_command("adjudicate", str(path), stdout=StringIO())


def test_it_refuses_an_unknown_phase():
    with pytest.raises(CommandError, match="not a phase"):
        call_command("adjudicate", str(CASEBOOK / "4-sequence-of-play.json"), "--through", "tea")
