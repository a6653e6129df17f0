"""The scenario sheet (issue 14): who attacks, set-up order, game length, retreat edges,
retiring, Frederick, siege trains, garrison, what a side does not know, the order of battle by
wing in the club's units; and the secrets: a side's sheet shows nothing of the enemy that its
forces could not know. Built from the six example battles, set up by the engine on the real map."""

import doctest
import json
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from maps.core.loader import load_map
from rules.armies import siege_train_name
from tabletop import examples, units
from tabletop import sheet as sheet_module
from tabletop.sheet import UMPIRE, game_length, location, sheet, sunset

pytestmark = pytest.mark.pure


@pytest.fixture(scope="module")
def hexmap():
    return load_map()


def sheet_of(key, audience, hexmap, system="per-battalion"):
    ex = examples.example(key, hexmap)
    s = sheet(
        ex.setup,
        ex.came_from,
        ex.layout,
        audience,
        ex.facts,
        units.system(system),
        Fraction(1),
        ex.wished,
    )
    return ex, s


def text(s) -> str:
    return json.dumps(s, default=str)


@pytest.mark.parametrize("key", examples.KEYS)
@pytest.mark.parametrize("side", ["prussian", "austrian"])
def test_a_side_sees_its_own_forces_and_none_of_the_enemys_secrets(key, side, hexmap):
    ex, s = sheet_of(key, side, hexmap)
    enemy = "austrian" if side == "prussian" else "prussian"
    body = text({k: v for k, v in s.items() if k != "units"})
    known = {x["points"] for x in ex.setup["sides"][side]["leaders"]}
    known |= {ex.setup["sides"][a]["points"] for a in ("prussian", "austrian")}
    for line in ex.setup["sides"][enemy]["leaders"]:
        if line["points"] not in known:  # 3.1.2: the enemy's leaders' points are secret
            assert not re.search(rf"(?<![\w.]){line['points']}(?![\w.])", body), line
    mine = next(x for x in s["sides"] if x["side"] == side)
    theirs = next(x for x in s["sides"] if x["side"] == enemy)
    assert all(x["points"] is not None for x in mine["leaders"]) and mine["full"]
    assert all(x["points"] is None for x in theirs["leaders"]) and not theirs["full"]
    assert "oob" not in theirs and "retire" not in theirs and "siege_trains" not in theirs
    for train in ex.facts.siege_trains.get(enemy, ()):
        assert train not in body  # 8: siege trains are never reported
    if ex.facts.garrison_side == enemy:
        for _, points in ex.facts.garrison_leaders:  # 3.1.2: how the garrison is shared
            assert not re.search(rf"(?<![\w.]){points}(?![\w.])", body)
        reported = ex.facts.garrison_reported.get(side)
        if reported is None:
            assert f"{ex.facts.garrison_points} points" not in body  # 3.1.2
            assert any("garrison" in line for line in s["unknown"])
        else:  # 8.2: the side's reconnaissance reported the garrison's strength this turn
            assert f"{reported} points, as your reconnaissance reported it" in s["garrison"]
            assert not any("garrison" in line for line in s["unknown"])
    assert s["unknown"] and not s["hidden"]


@pytest.mark.parametrize("key", examples.KEYS)
def test_the_umpire_sees_both_sides_and_the_hidden_facts(key, hexmap):
    ex, s = sheet_of(key, UMPIRE, hexmap)
    assert all(x["full"] for x in s["sides"]) and len(s["hidden"]) == 2
    body = text({k: v for k, v in s.items() if k != "units"})
    for trains in ex.facts.siege_trains.values():
        assert all(siege_train_name(t) in body for t in trains)
    if ex.facts.garrison_city:
        assert f"{ex.facts.garrison_points} points" in s["garrison"]


def test_the_side_is_named_by_who_fights(hexmap):
    _, s = sheet_of("hanover-alone", "prussian", hexmap)
    assert s["audience_label"] == "Hanoverian army"
    assert "alliance" not in text(s["sides"]) and "Prussian" not in s["attack"]["text"]
    _, s = sheet_of("three-armies", "austrian", hexmap)
    assert s["audience_label"] == "Imperial and French armies"
    assert "The Imperial and French armies attack" in s["attack"]["text"]


def test_who_attacks_and_who_sets_up_first(hexmap):
    # The side that marched in attacks; the side that held the hex sets up first (10.1).
    _, s = sheet_of("siege", UMPIRE, hexmap)
    assert s["attack"]["attacker"] == "austrian"
    assert s["setup_order"] == ["Prussian army", "Austrian army"]
    # A sortie: both held the hex; the side that alone chose to fight attacks (9).
    _, s = sheet_of("sortie", UMPIRE, hexmap)
    assert s["attack"]["attacker"] == "austrian" and "alone chose to fight" in s["attack"]["text"]


def test_retiring_follows_the_engine(hexmap):
    # The besieger had no march order: it may not retire (10.1); the relief may.
    _, s = sheet_of("siege", UMPIRE, hexmap)
    by = {x["side"]: x for x in s["sides"]}
    assert by["prussian"]["retire"].startswith("May not retire (10.1.1)")
    assert by["austrian"]["retire"].startswith("May retire") and "VPs" in by["austrian"]["retire"]


def test_frederick_siege_trains_and_garrison(hexmap):
    _, s = sheet_of("siege", "prussian", hexmap)
    assert "12.7" in s["frederick"] and s["frederick"].startswith("Frederick is present")
    mine = s["sides"][0]
    assert "Prussian siege train 1" in mine["siege_trains"] and "9.1" in mine["siege_trains"]
    assert "prussia-1" not in mine["siege_trains"]
    # Frederick's besiegers stand in the hex of Prague: reconnaissance told them the garrison's
    # strength, Charles's points inside its walls with it (8, 8.2), and not how it is shared.
    assert s["garrison"].startswith("Prague: an Austrian garrison under Charles of 1300 points,")
    assert "as your reconnaissance reported it this turn (8.2)" in s["garrison"]
    assert "400" not in s["garrison"] and "900" not in s["garrison"]
    _, s = sheet_of("siege", "austrian", hexmap)
    assert "1300 points (400 points in garrison, 900 with Charles)" in s["garrison"]
    _, s = sheet_of("hanover-alone", "austrian", hexmap)
    assert s["frederick"].startswith("Frederick is not present")


def test_a_garrison_no_reconnaissance_reported_is_of_unknown_strength(hexmap):
    ex = examples.example("siege", hexmap)
    told, untold = ex.facts, replace(ex.facts, garrison_reported={})
    args = (ex.setup, ex.came_from, ex.layout)
    s = sheet(*args, "prussian", untold, units.system("per-battalion"), Fraction(1), ex.wished)
    assert s["garrison"].startswith("Prague: an Austrian garrison under Charles, of unknown")
    assert "1300" not in text({k: v for k, v in s.items() if k != "units"})
    assert "The strength of the Austrian army's garrison of Prague (3.1.2)." in s["unknown"]
    # The umpire's hidden facts say what the besiegers do not know, and only that.
    hidden = [
        sheet(*args, UMPIRE, facts, units.system("per-battalion"), Fraction(1), ex.wished)["hidden"]
        for facts in (untold, told)
    ]
    answer = "1300 points (400 points in garrison, 900 with Charles)."
    assert f"garrison of Prague (3.1.2). {answer}" in text(hidden[0])
    assert "garrison" not in text(hidden[1])


def test_the_place_reads_as_a_place():
    assert doctest.testmod(sheet_module).failed == 0
    assert location({"hex": "6639", "area": "Austria", "city": {}}) == "hex 6639 (Austria)"


def test_retreat_edges_are_the_deployment_edges(hexmap):
    ex, s = sheet_of("field-battle", "prussian", hexmap)
    edges = {d.side: d.edge.value for d in ex.layout.deployments}
    for side in s["sides"]:
        assert side["retreat"] == f"off the {edges[side['name']]} edge"


def test_features_carry_inches_and_cm(hexmap):
    _, s = sheet_of("river-crossing", "prussian", hexmap)
    kinds = {f["kind"] for f in s["features"]}
    assert {"river", "town"} <= kinds
    for f in s["features"]:
        assert '"' in f["size"] and "cm" in f["size"], f


@pytest.mark.parametrize(
    ("turn", "earliest", "latest"),
    [(1, 18.4, 19.0), (6, 20.0, 20.4), (17, 15.7, 16.1)],  # April I, June II, December I
)
def test_sunset_at_51_north(turn, earliest, latest):
    assert earliest <= sunset(turn) <= latest


def test_game_length_is_whole_turns_to_sunset():
    june = game_length(6, 60)
    assert june["start"] == "08:00" and june["turns"] == 12 and june["end"] == "20:00"
    december = game_length(17, 30)
    assert december["turns"] == 15 and december["end"] == "15:30"


def test_order_of_battle_by_wing_in_prussias_glory_units():
    oob = units.order_of_battle(
        [("prussia", "", 1000), ("hanover", "", 400)],
        units.system("prussias-glory"),
        [("Frederick", "prussia"), ("Schwerin", "prussia"), ("Ferdinand", "hanover")],
    )
    wings = {w.name: w for w in oob.wings}
    reserve = "Reserve: the Hanoverian contingent"
    assert list(wings) == ["Left wing", "Centre", "Right wing", reserve]
    assert wings["Centre"].leaders == ("Frederick",)
    assert wings["Right wing"].leaders == ("Schwerin",)
    # 700 points of foot = 35,000 men = 88 SP of 400; 200 of horse = 10,000 = 50 SP of 200.
    infantry = next(u for u in wings["Centre"].units if u.arm == "infantry")
    assert infantry.count == 88
    cavalry = sum(u.count for w in oob.wings[:3] for u in w.units if u.arm == "cavalry")
    assert cavalry == 50
    assert {u.army for u in wings[reserve].units} == {"hanover"}


def test_points_per_battalion_never_buys_more_than_the_points():
    system = units.system("per-battalion", 60)
    oob = units.order_of_battle([("austria", "", 1234)], system)
    spent = sum(u.count for w in oob.wings for u in w.units) * 60
    assert spent <= 1234 and "60 points per battalion" in system.name
    assert units.system("no such rules").key == "per-battalion"
