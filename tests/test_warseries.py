"""The war's series and charts (seasons.warseries, seasons.warcharts): pure, no Django."""

import doctest
import xml.etree.ElementTree as ET

import pytest

from seasons import warcharts, warseries

pytestmark = pytest.mark.pure


def test_the_doctests():
    for module in (warseries, warcharts):
        assert doctest.testmod(module).failed == 0


def test_points_take_the_last_state_of_each_turn_and_keep_gaps():
    chart = warseries.points_by_turn(
        [(1, {"prussia": 900, "austria": 1000}), (1, {"prussia": 850, "austria": 990}),
         (2, {"prussia": 700}), (3, {"prussia": 650, "austria": 800})],
        {"austria": "Austrian", "prussia": "Prussian"},
    )  # fmt: skip
    assert chart.turns == (1, 2, 3)
    assert [s.label for s in chart.series] == ["Austrian", "Prussian"]
    assert chart.series[0].values == (990, None, 800)
    assert chart.rows == [(1, 990, 850), (2, None, 700), (3, 800, 650)]


def test_victory_points_start_at_nought():
    chart = warseries.vps_by_turn([(1, {}), (2, {"austria": 1, "prussia": -1})], {})
    assert {s.key: s.values for s in chart.series} == {"austria": (0, 1), "prussia": (0, -1)}


def test_losses_by_cause_from_the_engines_events():
    events = [
        {"kind": "battle", "data": {"army": "prussia", "loss": 162, "hex": "5639"}, "armies": []},
        {"kind": "battle", "data": {"hex": "5639", "battle": "t1-5639"}, "armies": []},
        {"kind": "attrition", "data": {"loss": 15}, "armies": ["hanover"]},
        {"kind": "attrition", "data": {"loss": 0}, "armies": ["hanover"]},
        {"kind": "prisoners", "rule": "9.5", "data": {"army": "sweden", "points": 300},
         "armies": ["sweden", "prussia"]},
        {"kind": "prisoners", "rule": "13.2", "data": {"army": "prussia", "points": 108},
         "armies": ["austria", "prussia"]},
        {"kind": "siege", "data": {"loss": 41}, "armies": ["austria", "prussia", "empire"],
         "holder": "austria"},
        {"kind": "siege", "data": {"city": "Neisse"}, "armies": ["austria"], "holder": "austria"},
        {"kind": "surrender", "data": {"points": 30}, "armies": ["austria", "prussia"],
         "holder": "austria"},
    ]  # fmt: skip
    out = warseries.losses_by_cause(events)
    assert out["prussia"].by_cause == {"battle": 162, "attrition": 0, "siege": 21, "surrender": 0}
    assert out["empire"].by_cause["siege"] == 20
    assert out["austria"].by_cause == {"battle": 0, "attrition": 0, "siege": 41, "surrender": 30}
    assert out["hanover"].total == 15
    assert out["sweden"].by_cause["battle"] == 300  # orphaned points taken prisoner (9.5)


def test_the_charts_are_svg_with_a_title_and_a_description():
    chart = warseries.points_by_turn([(t, {"prussia": 900 - t, "austria": 1000 - 2 * t})
                                      for t in range(1, 19)], {"prussia": "Prussian"})  # fmt: skip
    losses = warseries.losses_by_cause(
        [{"kind": "battle", "data": {"army": "prussia", "loss": 5}, "armies": []}]
    )
    happenings = warseries.timeline(
        [{"turn": 3, "kind": "battle", "public": True, "text": "A battle <at> 5639",
          "data": {"hex": "5639", "battle": "t3-5639"}}]
    )  # fmt: skip
    for svg in (
        warcharts.line_chart(chart, "Points", "a"),
        warcharts.losses_chart(losses, {"prussia": "Prussian"}, "b"),
        warcharts.timeline_chart(happenings, 18, "c"),
        warcharts.line_chart(warseries.Chart((), ()), "Empty", "d"),
    ):
        root = ET.fromstring(svg)  # well-formed (the battle's "<at>" is escaped)
        ns = "{http://www.w3.org/2000/svg}"
        assert root.get("role") == "img" and root.find(ns + "title").text
        assert root.find(ns + "desc").text
        assert root.get("viewBox").startswith("0 0 360 ")
    assert "Prussian 882" in warcharts.line_chart(chart, "Points", "a")
