"""One list of what each army's points buy (9): the battle set-up and the tabletop budget read
the same, and every suggested order of battle passes the purchase check."""

from rules.armies import Army
from rules.battlesetup import BUYS as SETUP_BUYS
from rules.contingents import BUYS, Nationality
from tabletop import forces


def test_the_set_up_and_the_budget_name_the_same_contingents():
    for army in Army:
        assert SETUP_BUYS[army] == tuple(n.label for n in BUYS[army])
        assert forces.BUYS[army] is BUYS[army]
    assert "Brunswicker" in SETUP_BUYS[Army.HANOVER]


def test_a_suggested_order_of_battle_passes_the_purchase_check():
    budget = forces.side_budget(
        "Prussian alliance",
        [
            forces.Contingent(Army.HANOVER, 1200, "Hanoverian"),
            forces.Contingent(Army.PRUSSIA, 900, "P"),
        ],
    )
    costs = forces.parse_unit_costs(
        "battalion, Hanoverian, 40\nbattalion, British, 50\nsquadron, Prussian, 30\n"
        "battalion, Prussian, 45"
    )
    for army in budget.armies:
        oob = forces.suggest_order_of_battle(army, costs)
        bought = {}
        for unit, count in oob.units:
            key = (army.army, unit.nationality)
            bought[key] = bought.get(key, 0) + unit.cost * count
        assert bought and forces.check_purchase(budget, bought) == []
    # and the check can fail: British beyond the quarter, Prussian points buying Hanoverians
    wrong = {
        (Army.HANOVER, Nationality.BRITISH): 400,
        (Army.PRUSSIA, Nationality.HANOVERIAN): 10,
    }
    problems = forces.check_purchase(budget, wrong)
    assert any("British" in p and "limit of 300" in p for p in problems)
    assert any("cannot buy Hanoverian" in p for p in problems)
