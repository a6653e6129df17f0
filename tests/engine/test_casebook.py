"""The casebook: one scenario per numbered rule of sections 3 to 8 and every EXAMPLE in them.

Each file in tests/casebook/ is a scenario (docs/scenario-format.md) with its expected results
under "expect"; this test runs it through the engine and lists every expectation it misses.
"""

import re
from pathlib import Path

import pytest

from rules.rollnames import read_roll_name
from rules.scenario import (
    ScenarioError,
    check_expectations,
    load_scenario,
    run_scenario,
)

pytestmark = pytest.mark.pure

CASEBOOK = Path(__file__).resolve().parent.parent / "casebook"
CASES = sorted(CASEBOOK.glob("*.json"))


def test_the_casebook_is_there():
    assert len(CASES) >= 40


# One naming scheme: the rule number first, each part zero-padded to two digits, then words in
# lower case, all joined by "_": 01_04_numbers_changed_by_consent.json, 09_battle_setup.json.
CASE_NAME = re.compile(r"\d{2}(?:_\d{2})*_[a-z][a-z0-9]*(?:_[a-z0-9]+)*\.json")


@pytest.mark.parametrize(
    ("name", "good"),
    [
        ("01_04_numbers_changed_by_consent.json", True),
        ("10_02_03_a_demoralized_force_marches_through_friends.json", True),
        ("09_battle_setup.json", True),
        ("1.4-numbers-changed-by-consent.json", False),
        ("09_1_unescorted_siege_train.json", False),
        ("10.2.2-demoralized-may-not-enter-enemy-hexes.json", False),
        ("03_Army_total.json", False),
    ],
)
def test_the_naming_scheme(name, good):
    assert bool(CASE_NAME.fullmatch(name)) is good


def test_every_case_follows_the_naming_scheme():
    names = sorted(p.name for p in CASEBOOK.iterdir() if not p.name.startswith("."))
    wrong = [n for n in names if not CASE_NAME.fullmatch(n)]
    assert not wrong, f"rename to the rule number first, zero-padded, words after: {wrong}"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    scenario = load_scenario(path)
    assert scenario.rules, f"{path.name} names no rule"
    assert scenario.expect, f"{path.name} expects nothing"
    outcome = run_scenario(scenario)
    misses = check_expectations(scenario, outcome)
    assert not misses, "\n".join([scenario.title, *misses])


def test_a_broken_scenario_names_its_problem(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"map": {"terrain": ["c c"]}, "state": {"leaders": {"daun": {"hex": "0909"}}}}')
    with pytest.raises(
        ScenarioError, match=r"state\.leaders\.daun\.hex: hex '0909' is not on the map"
    ):
        load_scenario(bad)


def test_every_roll_of_the_casebook_is_named_in_docs_dice():
    docs = (Path(__file__).resolve().parent.parent.parent / "docs" / "dice.md").read_text()
    kinds = set()
    for path in CASES:
        scenario = load_scenario(path)
        kinds |= {roll.name.split(":")[0] for roll in run_scenario(scenario).rolls}
    assert kinds >= {"march-allocation", "forced-march", "meeting"}
    missing = sorted(k for k in kinds if f"`{k}:" not in docs)
    assert not missing, f"docs/dice.md does not name: {missing}"


def test_every_roll_of_the_casebook_reads_back_with_its_dice():
    """The table of roll names (``rollnames``) knows every roll the engine makes, with the
    number of dice it throws: a scenario may fix exactly those."""
    seen = set()
    for path in CASES:
        scenario = load_scenario(path)
        for roll in run_scenario(scenario).rolls:
            name = read_roll_name(roll.name, scenario.settings, scenario.hexmap)
            if not roll.fixed:
                assert len(roll.dice) == name.dice, roll.name
            seen.add(name.kind.kind)
    assert seen >= {"march-allocation", "forced-march", "meeting", "siege", "rally"}
