"""What each side may spend on the tabletop (3, 9)."""

from fractions import Fraction

import pytest

from rules.armies import Army
from tabletop.forces import (
    BUYS,
    Contingent,
    Nationality,
    Scale,
    UnitCost,
    UnitCostError,
    check_purchase,
    parse_unit_costs,
    side_budget,
    suggest_order_of_battle,
)

pytestmark = pytest.mark.pure

N = Nationality


@pytest.mark.parametrize(
    ("army", "own"),
    [
        (Army.AUSTRIA, N.AUSTRIAN),
        (Army.FRANCE, N.FRENCH),
        (Army.PRUSSIA, N.PRUSSIAN),
        (Army.RUSSIA, N.RUSSIAN),
        (Army.SWEDEN, N.SWEDISH),
    ],
)
def test_points_buy_units_of_the_same_country(army, own):
    assert BUYS[army] == (own,)


def test_hanoverian_points_buy_british_hessian_and_other_allies():
    assert {N.HANOVERIAN, N.BRITISH, N.HESSIAN, N.HANOVER_ALLIED} <= set(BUYS[Army.HANOVER])


def test_empire_points_buy_saxons_bavarians_wurttemburgers_and_the_reichsarmee():
    assert {N.SAXON, N.BAVARIAN, N.WURTTEMBURGER, N.REICHSARMEE} <= set(BUYS[Army.EMPIRE])


def test_only_hanover_and_the_empire_buy_other_countries():
    for army, buys in BUYS.items():
        if army not in (Army.HANOVER, Army.EMPIRE):
            assert len(buys) == 1


def test_the_side_budget_lists_each_country():
    budget = side_budget(
        "Austrian alliance",
        [
            Contingent(Army.AUSTRIA, 1800, "Austrian"),
            Contingent(Army.EMPIRE, 400, "Austrian"),
            Contingent(Army.AUSTRIA, 200, "Austrian"),
        ],
    )
    assert [(a.army, a.tabletop_points) for a in budget.armies] == [
        (Army.AUSTRIA, 2000),
        (Army.EMPIRE, 400),
    ]
    assert budget.campaign_points == budget.tabletop_points == 2400


@pytest.mark.parametrize(
    ("ratio", "campaign", "tabletop"),
    [(Fraction(1), 1500, 1500), (Fraction(1, 2), 1501, 751), (Fraction(2, 3), 1000, 667)],
)
def test_the_scale_converts_campaign_points_to_tabletop_points(ratio, campaign, tabletop):
    budget = side_budget("x", [Contingent(Army.PRUSSIA, campaign)], Scale(ratio=ratio))
    assert budget.of(Army.PRUSSIA).tabletop_points == tabletop


@pytest.mark.parametrize(
    ("share", "cap"), [(Fraction(1, 4), 300), (Fraction(1, 3), 400), (Fraction(0), 0), (None, None)]
)
def test_the_british_share_is_capped_by_the_campaign_setting(share, cap):
    budget = side_budget("x", [Contingent(Army.HANOVER, 1200)], Scale(british_share=share))
    assert budget.of(Army.HANOVER).british_cap == cap


def test_the_british_cap_follows_the_scale():
    budget = side_budget("x", [Contingent(Army.HANOVER, 1200)], Scale(ratio=Fraction(1, 2)))
    assert budget.of(Army.HANOVER).british_cap == 150


def test_no_british_cap_for_other_armies():
    budget = side_budget("x", [Contingent(Army.PRUSSIA, 1200)])
    assert budget.of(Army.PRUSSIA).british_cap is None


def test_it_warns_when_a_budget_exceeds_the_painted_collection():
    budget = side_budget(
        "Prussian alliance",
        [Contingent(Army.PRUSSIA, 2500, "Prussian"), Contingent(Army.HANOVER, 900, "Hanoverian")],
        collections={"Prussian": 2000, "Hanoverian": 1000},
    )
    assert len(budget.warnings) == 1
    assert "Prussian" in budget.warnings[0] and "2500" in budget.warnings[0]
    assert "(3:" in budget.warnings[0]


def test_a_smaller_scale_lifts_the_warning():
    budget = side_budget(
        "x",
        [Contingent(Army.PRUSSIA, 2500, "Prussian")],
        Scale(ratio=Fraction(1, 2)),
        collections={"Prussian": 2000},
    )
    assert budget.warnings == ()


def test_a_purchase_within_the_rules_has_no_problems():
    budget = side_budget("x", [Contingent(Army.HANOVER, 1000)])
    bought = {(Army.HANOVER, N.HANOVERIAN): 600, (Army.HANOVER, N.BRITISH): 250}
    assert check_purchase(budget, bought) == []


@pytest.mark.parametrize(
    ("bought", "problem"),
    [
        ({(Army.HANOVER, N.BRITISH): 300}, "limit of 250"),
        ({(Army.HANOVER, N.HANOVERIAN): 1100}, "only 1000 are available"),
        ({(Army.HANOVER, N.SAXON): 100}, "cannot buy Saxon units"),
        ({(Army.PRUSSIA, N.PRUSSIAN): 100}, "no Prussian points"),
        ({(Army.HANOVER, N.HESSIAN): -5}, "cannot be negative"),
    ],
)
def test_a_purchase_against_the_rules_is_explained(bought, problem):
    budget = side_budget("x", [Contingent(Army.HANOVER, 1000)])
    problems = check_purchase(budget, bought)
    assert any(problem in p for p in problems), problems


CLUB_TABLE = """
# unit type, contingent, cost
Musketeer battalion, Hanoverian, 100
Dragoon regiment, Hanoverian, 80
Foot battalion, British, 150
Hessian battalion, Hessian, 90
Battery, Hanoverian, 60
Hussars, Prussian, 70
"""


def test_it_reads_a_clubs_points_table():
    costs = parse_unit_costs(CLUB_TABLE)
    assert len(costs) == 6
    assert costs[2] == UnitCost("Foot battalion", N.BRITISH, 150)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Musketeers, Prussian", "line 1"),
        ("Musketeers, Martian, 10", "not a contingent"),
        ("Musketeers, Prussian, ten", "whole number"),
        ("\nMusketeers, Prussian, 0", "line 2: the cost must be more than zero"),
    ],
)
def test_it_explains_a_bad_points_table(text, message):
    with pytest.raises(UnitCostError, match=message):
        parse_unit_costs(text)


def test_the_suggested_order_of_battle_fits_the_budget_and_the_british_cap():
    budget = side_budget("x", [Contingent(Army.HANOVER, 1000)]).of(Army.HANOVER)
    oob = suggest_order_of_battle(budget, parse_unit_costs(CLUB_TABLE))
    assert oob.spent + oob.left == 1000
    assert oob.spent == sum(u.cost * n for u, n in oob.units)
    british = sum(u.cost * n for u, n in oob.units if u.nationality is N.BRITISH)
    assert british <= budget.british_cap == 250
    assert all(u.nationality in budget.buys for u, _ in oob.units)  # no Prussian hussars
    assert oob.left < min(u.cost for u in parse_unit_costs(CLUB_TABLE)[:5] if u.cost)


def test_the_suggested_order_of_battle_is_the_same_every_time():
    budget = side_budget("x", [Contingent(Army.HANOVER, 1000)]).of(Army.HANOVER)
    costs = parse_unit_costs(CLUB_TABLE)
    assert suggest_order_of_battle(budget, costs) == suggest_order_of_battle(budget, costs)


def test_the_suggestion_takes_one_of_each_in_turn_own_country_first():
    # 1000 points: round 1 buys one of each (480), round 2 all but a second British unit
    # (over the 250 cap), round 3 a battalion and a dragoon regiment; 10 points are left.
    budget = side_budget("x", [Contingent(Army.HANOVER, 1000)]).of(Army.HANOVER)
    oob = suggest_order_of_battle(budget, parse_unit_costs(CLUB_TABLE))
    assert [(u.unit_type, n) for u, n in oob.units] == [
        ("Musketeer battalion", 3),
        ("Dragoon regiment", 3),
        ("Battery", 2),
        ("Foot battalion", 1),
        ("Hessian battalion", 2),
    ]
    assert (oob.spent, oob.left) == (990, 10)
    assert oob.lines()[0] == "3 × Hanoverian Musketeer battalion (100 each)"


def test_a_country_with_no_units_in_the_table_gets_an_empty_suggestion():
    budget = side_budget("x", [Contingent(Army.RUSSIA, 500)]).of(Army.RUSSIA)
    oob = suggest_order_of_battle(budget, parse_unit_costs(CLUB_TABLE))
    assert oob.units == () and oob.left == 500


@pytest.mark.parametrize(
    ("text", "nationality"),
    [("Württemberger", N.WURTTEMBURGER), ("Brunswick", N.BRUNSWICKER), ("hesse", N.HESSIAN)],
)
def test_contingent_names_are_read_generously(text, nationality):
    assert Nationality.parse(text) is nationality
