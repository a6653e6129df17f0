"""``manage.py adjudicate``: a scenario file in, the state and events out as JSON."""

import contextlib
import dataclasses
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules import expectations
from rules.orders import ORDER_KINDS
from rules.scenario import KEYS
from rules.state import LeaderState, State

CASEBOOK = Path(__file__).resolve().parent.parent / "casebook"


def adjudicate(*args: str) -> dict:
    out = StringIO()
    call_command("adjudicate", *args, stdout=out)
    return json.loads(out.getvalue())


def test_it_prints_state_events_and_rolls():
    result = adjudicate(str(CASEBOOK / "06_03_example_frederick_and_soubise.json"))
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
    result = adjudicate(str(CASEBOOK / "04_sequence_of_play.json"), "--through", "march")
    assert result["phases"] == ["supply", "march-allocation", "march"]
    assert result["next_phase"] == "forced-march"


def test_it_checks_expectations():
    result = adjudicate(str(CASEBOOK / "07_example_siege_in_winter.json"), "--check")
    assert result["misses"] == []


def test_it_reports_an_illegal_order_and_goes_on():
    result = adjudicate(str(CASEBOOK / "06_02_02_example_laudon.json"))
    rejected = [e for e in result["events"] if e["kind"] == "order-rejected"]
    assert len(rejected) == 1 and "daun" in rejected[0]["text"]
    assert result["state"]["leaders"]["laudon"]["hex"] == "0601"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"state": {}}', "map: missing"),
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
        call_command("adjudicate", str(CASEBOOK / "04_sequence_of_play.json"), "--through", "tea")


# --- mistakes in a file: each names the item, what is allowed and where it is ---------------------

MAP = {
    "terrain": ["cccccc", "cccccc"],
    "cities": [{"name": "Torgau", "hex": "0101", "size": "square", "fortress": True}],
}


def refusal(tmp_path, scenario: dict | str, *args: str) -> str:
    """The message of the error ``manage.py adjudicate`` stops with."""
    path = tmp_path / "case.json"
    path.write_text(scenario if isinstance(scenario, str) else json.dumps(scenario))
    with pytest.raises(CommandError) as caught:
        call_command("adjudicate", str(path), *args, stdout=StringIO(), stderr=StringIO())
    message = str(caught.value)
    assert message.startswith(f"{path}: "), message
    return message[len(f"{path}: ") :]


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        (
            {"rallly:daun:t3": 4},
            "dice['rallly:daun:t3']: 'rallly:daun:t3' is not a roll of the engine; the rolls are "
            "march-allocation:{army}:t{turn}, forced-march:{leader}:t{turn}, "
            "meeting:{a}-vs-{b}:t{turn}:{leader}[:r{n}], "
            "forced-meeting:{a}-vs-{b}:t{turn}:{leader}[:r{n}], siege:{city}:t{turn}, "
            "rally:{leader}:t{turn}, british-aid:y{year}, new-leader:{seat}:y{year}[:{n}]",
        ),
        ({"rally:napoleon:t3": 4}, "dice['rally:napoleon:t3']: 'napoleon' is not a leader"),
        ({"rally:daun:t30": 4}, "dice['rally:daun:t30']: t30: the turns are t1 to t18"),
        ({"rally:daun": 4}, "dice['rally:daun']: 'rally:daun' does not read as rally:{leader}"),
        ({"siege:Berlin:t3": 4}, "dice['siege:Berlin:t3']: no city called 'Berlin'"),
        (
            {"march-allocation:empire:t1": [3, 3]},
            "dice['march-allocation:empire:t1']: empire rolls no dice for marches: it uses "
            "austria's marches (6.2.1)",
        ),
        (
            {"meeting:frederick-vs-daun:t1:daun": 3},
            "dice['meeting:frederick-vs-daun:t1:daun']: write the two commanders in "
            "alphabetical order: daun-vs-frederick",
        ),
    ],
)
def test_a_roll_name_the_engine_never_makes_is_refused(tmp_path, dice, message):
    assert refusal(tmp_path, {"map": MAP, "dice": dice}).startswith(message)


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ({"rally:daun:t3": 0}, "the value 0 is not a die: a whole number from 1 to 6"),
        ({"rally:daun:t3": 7}, "the value 7 is not a die: a whole number from 1 to 6"),
        ({"rally:daun:t3": "one"}, "the value 'one' is not a die: a whole number from 1 to 6"),
        ({"rally:daun:t3": True}, "the value True is not a die"),
        ({"rally:daun:t3": []}, "an empty list fixes nothing"),
        (
            {"siege:Torgau:t3": [1, 2, 3]},
            "[1, 2, 3] gives 3 dice; this roll throws 2: write [d1, d2]",
        ),
        ({"siege:Torgau:t3": [6]}, "[6] gives 1 dice; this roll throws 2"),
        ({"siege:Torgau:t3": 13}, "the total 13 is not one 2 dice can make: a whole number from 2"),
        (
            {"forced-march:daun:t1": [[3, 4]]},
            "roll 1 of the list: [3, 4] gives 2 dice; this roll throws 1",
        ),
    ],
)
def test_a_value_no_die_can_show_is_refused(tmp_path, dice, message):
    name = next(iter(dice))
    assert refusal(tmp_path, {"map": MAP, "dice": dice}).startswith(f"dice[{name!r}]: {message}")


def test_the_sides_of_the_die_come_from_the_settings(tmp_path):
    scenario = {"map": MAP, "settings": {"die_sides": 10}, "dice": {"rally:daun:t3": 11}}
    assert "a whole number from 1 to 10" in refusal(tmp_path, scenario)


def test_a_roll_fixed_twice_is_refused(tmp_path):
    text = '{"map": {"terrain": ["cc"]}, "dice": {"rally:daun:t3": 3, "rally:daun:t3": 5}}'
    assert refusal(tmp_path, text) == (
        "dice: 'rally:daun:t3' is given twice (JSON keeps the last); fix a roll once, with a "
        "list of rolls for successive rolls of the same name"
    )


def test_a_key_given_twice_anywhere_is_refused_with_its_path(tmp_path):
    text = (
        '{"map": {"terrain": ["cc"]}, "state": {"leaders": '
        '{"daun": {"hex": "0101"}, "daun": {"hex": "0201"}}}}'
    )
    assert refusal(tmp_path, text) == "state.leaders: 'daun' is given twice (JSON keeps the last)"


def test_a_missing_hex_is_named_by_its_path(tmp_path):
    scenario = {"map": MAP, "state": {"leaders": {"daun": {"points": 100}}}}
    assert refusal(tmp_path, scenario) == (
        'state.leaders.daun: \'hex\' is missing: a hex id "CCRR", such as "0503"'
    )


def test_a_hex_off_the_map_is_named_by_its_path(tmp_path):
    scenario = {"map": MAP, "state": {"leaders": {"daun": {"hex": "0909"}}}}
    assert refusal(tmp_path, scenario).startswith("state.leaders.daun.hex: hex '0909' is not on")


def test_a_state_error_says_state_once(tmp_path):
    message = refusal(tmp_path, {"map": MAP, "state": {"phase": "tea"}})
    assert message.startswith("state.phase: 'tea' is not a phase; the phases are: deployment")
    assert "state: state" not in message


def test_an_unknown_order_kind_lists_every_kind(tmp_path):
    assert refusal(tmp_path, {"map": MAP, "orders": {"marchs": []}}) == (
        "orders: unknown kind(s) marchs; the kinds are deployment, transfers, march, "
        "forced_march, battle, battle_results, honors"
    )


@pytest.mark.parametrize(
    ("expect", "message"),
    [
        ({"no_events": []}, "expect.no_events: 'no_events' is now 'absent'"),
        ({"event": []}, "expect.event: unknown expectation; the expectations are leaders"),
        ({"absent": [{"kind": "demoralised"}]}, "expect.absent[0].kind: 'demoralised' is not an"),
        ({"absent": [{}]}, "expect.absent[0]: an empty object matches anything"),
        ({"absent": [{"knd": "retreat"}]}, "expect.absent[0]: unknown field(s) knd"),
        ({"not_rolled": ["rally:dawn:t3"]}, "expect.not_rolled[0]: 'dawn' is not a leader"),
        ({"one_of": [{"turn": 2}]}, "expect.one_of: give at least two alternatives"),
        (
            {"one_of": [{"turn": 2}, {"leaders": {"dawn": {}}}]},
            "expect.one_of[1].leaders.dawn: 'dawn' is not a leader",
        ),
        ({"leaders": {"daun": {"hex": "0101"}, "napoleon": None}}, "expect.leaders.napoleon"),
        ({"garrisons": {"Berlin": 100}}, "expect.garrisons.Berlin: no city called 'Berlin'"),
        ({"next_phase": "tea"}, "expect.next_phase: 'tea' is not a phase"),
    ],
)
def test_a_mistaken_expectation_is_refused(tmp_path, expect, message):
    assert refusal(tmp_path, {"map": MAP, "expect": expect}).startswith(message)


# --- what a file can now say ----------------------------------------------------------------------

RALLY = {
    "map": MAP,
    "seed": "rally",
    "state": {
        "turn": 3,
        "phase": "retreat-rally",
        "leaders": {"daun": {"hex": "0301", "points": 500, "demoralized": True}},
    },
}


def checked(tmp_path, scenario: dict) -> dict:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(scenario))
    out, err = StringIO(), StringIO()
    with contextlib.suppress(CommandError):  # misses make it fail; the JSON is printed first
        call_command("adjudicate", str(path), "--check", stdout=out, stderr=err)
    result = json.loads(out.getvalue())
    result["stderr"] = err.getvalue()
    return result


def test_absent_fails_when_the_event_happens(tmp_path):
    ok = checked(
        tmp_path,
        {**RALLY, "dice": {"rally:daun:t3": 1}, "expect": {"absent": [{"kind": "rally-failed"}]}},
    )
    assert ok["misses"] == []
    bad = checked(
        tmp_path,
        {**RALLY, "dice": {"rally:daun:t3": 6}, "expect": {"absent": [{"kind": "rally-failed"}]}},
    )
    assert len(bad["misses"]) == 1
    assert bad["misses"][0].startswith("expected no event matching {'kind': 'rally-failed'}, found")


def test_not_rolled_fails_when_the_roll_is_made(tmp_path):
    expect = {"not_rolled": ["rally:daun:t3"]}
    bad = checked(tmp_path, {**RALLY, "expect": expect})
    assert len(bad["misses"]) == 1
    assert bad["misses"][0].startswith("the roll 'rally:daun:t3' was made (")
    rallied = {**RALLY, "state": {**RALLY["state"], "leaders": {"daun": {"hex": "0301"}}}}
    assert checked(tmp_path, {**rallied, "expect": expect})["misses"] == []


def test_one_of_passes_when_any_alternative_is_met(tmp_path):
    expect = {
        "one_of": [
            {"events": [{"kind": "rallied"}]},
            {"leaders": {"daun": {"demoralized": True}}, "events": [{"kind": "rally-failed"}]},
        ]
    }
    for die in range(1, 7):
        result = checked(tmp_path, {**RALLY, "dice": {"rally:daun:t3": die}, "expect": expect})
        assert result["misses"] == [], die
    never = {"one_of": [{"turn": 9}, {"events": [{"kind": "siege"}]}]}
    assert checked(tmp_path, {**RALLY, "expect": never})["misses"] == [
        "none of the 2 alternatives of one_of is met: (1) turn: expected 9, found 4; "
        "(2) no event matches {'kind': 'siege'}"
    ]


def test_a_fixed_roll_never_made_is_a_miss_and_a_warning(tmp_path):
    result = checked(
        tmp_path, {**RALLY, "dice": {"rally:daun:t3": 2, "rally:daun:t4": 2}, "expect": {"turn": 4}}
    )
    assert result["unused_dice"] == [{"name": "rally:daun:t4", "fixed": 1, "used": 0}]
    assert result["misses"] == ["dice['rally:daun:t4'] is fixed but the roll was never made"]
    assert "warning: dice['rally:daun:t4'] is fixed but the roll was never made" in result["stderr"]


def test_a_list_of_rolls_left_over_is_a_miss(tmp_path):
    result = checked(tmp_path, {**RALLY, "dice": {"rally:daun:t3": [6, 1]}, "expect": {"turn": 4}})
    assert [r["dice"] for r in result["rolls"]] == [[6]]
    assert result["misses"] == [
        "dice['rally:daun:t3'] fixes 2 rolls but the roll was made 1 time(s)"
    ]


def test_a_march_order_to_a_garrison_is_rejected_with_what_the_rules_allow(tmp_path):
    scenario = {
        "map": MAP,
        "state": {
            "phase": "march",
            "marches": {"austria": 1},
            "garrisons": [{"city": "Torgau", "army": "austria", "points": 200}],
            "control": {"Torgau": "austria"},
        },
        "orders": {"march": [{"unit": "garrison:Torgau", "path": "4"}]},
        "through": "march",
    }
    result = checked(tmp_path, scenario)
    [rejected] = [e for e in result["events"] if e["kind"] == "order-rejected"]
    assert rejected["rule"] == "11.3"
    assert rejected["text"] == (
        "Order rejected: garrison-torgau: the garrison of Torgau takes no march orders: points "
        "move only with a leader of their country (6.2.3). To sortie, a leader inside the "
        "fortress is given the march order (11.3 EXAMPLE) and takes points from the garrison "
        "with a transfer at the start of the turn (6.4.3)"
    )
    assert result["state"]["garrisons"] == [{"city": "Torgau", "army": "austria", "points": 200}]


def test_the_format_page_names_every_key():
    """docs/scenario-format.md has a line for every key a file may hold."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md").read_text()
    keys = {
        *KEYS,
        *expectations.KEYS,
        *ORDER_KINDS,
        *(f.name for f in dataclasses.fields(State)),
        *(f.name for f in dataclasses.fields(LeaderState) if f.name not in ("key", "army")),
    }
    missing = sorted(k for k in keys if f"`{k}`" not in docs)
    assert not missing, f"docs/scenario-format.md does not name: {missing}"
