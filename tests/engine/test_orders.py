"""Orders read from plain data: clear messages, and unreadable orders reported once, in the
phase that would have carried them out."""

import re

import pytest

from rules.armies import Army
from rules.orders import OrderError, orders_from_dict, orders_to_dict
from rules.scenario import run_scenario, scenario_from_dict
from rules.state import Phase

pytestmark = pytest.mark.pure


def test_it_reads_every_kind_and_writes_it_back():
    data = {
        "march": [
            {"unit": "Frederick", "path": "4-4-5", "marches": 2, "drop": {"Seydlitz": "0302"}},
            {"unit": "prussia-1", "path": [4, 4]},
        ],
        "transfers": [{"from": "seydlitz", "to": "frederick", "points": 100}],
        "forced_march": [{"unit": "daun", "path": "1", "meeting": "advance"}],
    }
    orders = orders_from_dict(data)
    assert orders.rejected == ()
    assert orders.march[0].unit == "frederick" and orders.march[0].path == (4, 4, 5)
    assert orders.march[0].drop == (("seydlitz", "0302"),)
    assert orders.march[1].path == (4, 4)
    assert orders_from_dict(orders_to_dict(orders)) == orders


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"unit": "daun", "path": "4-7"}, "direction codes are 1 \\(W\\)"),
        ({"unit": "daun", "path": "4", "marches": 0}, "'marches' is 1 or 2"),
        ({"path": "4"}, "names its 'unit'"),
        ({"unit": "daun", "path": "4", "speed": 3}, "unknown field"),
        ({"unit": "daun", "path": "4", "meeting": "charge"}, "'meeting' is 'hold'"),
    ],
)
def test_an_unreadable_order_is_rejected_with_the_reason(item, message):
    orders = orders_from_dict({"march": [item]})
    assert orders.march == ()
    (event,) = orders.rejected
    assert event.kind.value == "order-rejected"
    assert re.search(message, event.text)
    if item.get("unit") == "daun":
        assert event.audience == frozenset({Army.AUSTRIA})


def test_a_file_of_the_wrong_shape_raises():
    with pytest.raises(OrderError, match="unknown kind"):
        orders_from_dict({"marchs": []})


def test_an_unreadable_order_is_reported_once_in_its_phase():
    scenario = scenario_from_dict(
        {
            "map": {"terrain": ["c c c c"]},
            "state": {"phase": "supply", "leaders": {"daun": {"hex": "0101", "points": 900}}},
            "orders": {"march": [{"unit": "daun", "path": "9"}]},
            "through": "reconnaissance",
        }
    )
    outcome = run_scenario(scenario)
    assert outcome.phases[-1] is Phase.RECONNAISSANCE
    rejected = [e for e in outcome.events if e.kind.value == "order-rejected"]
    assert len(rejected) == 1
    march_events = [e.kind.value for e in outcome.events]
    assert march_events.index("order-rejected") > march_events.index("marches-allocated")
