"""``dgk.jsontext``: the map widget's JSON written by orjson reads back as Django's does
(``json.dumps`` with ``DjangoJSONEncoder``, ``json_script``), and refuses what Django refuses."""

import dataclasses
import datetime
import decimal
import json
import uuid
from typing import NamedTuple

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import json_script
from django.utils.translation import gettext_lazy

from dgk import jsontext


class Hex(NamedTuple):
    q: int
    r: int


VALUES = [
    {"counters": [{"hex": "0412", "xy": [12.5, -3.25], "slot": 0, "flags": ""}], "names": []},
    {"reach": {"0412": 3, "0413": 4}, "unit": "", "saved": None, "valid": True},
    [1, 2.5, -0.0, 1e-7, 123456789012, "Köln", "Łódź", "✠", "\u2028", ""],
    {"script": "</script><script>alert(1)</script>", "amp": "A & B", "lt": "1 < 2 > 0"},
    {1: "a", 2.5: "b", False: "c", None: "d"},  # keys json.dumps turns into strings
    {"when": datetime.datetime(1757, 5, 6, 9, 30, 15, 123456, tzinfo=datetime.UTC)},
    {"naive": datetime.datetime(1757, 5, 6, 9, 30, 15, 123456), "day": datetime.date(1757, 5, 6)},
    {"time": datetime.time(9, 30, 15, 250000), "for": datetime.timedelta(days=1, hours=2)},
    {"points": decimal.Decimal("12.50"), "id": uuid.UUID(int=12345), "lazy": gettext_lazy("Map")},
    (("a", 1), ("b", [2, 3])),
    {"hex": Hex(4, 12), "hexes": [Hex(0, 0), Hex(-1, 3)]},  # a tuple's subclass: an array
]


@pytest.mark.parametrize("value", VALUES)
def test_reads_back_as_djangos(value):
    ours = json.loads(jsontext.dumps(value))
    django = json.loads(json.dumps(value, cls=DjangoJSONEncoder))
    assert ours == django


@pytest.mark.parametrize("value", VALUES)
def test_the_script_element_reads_back_as_json_scripts(value):
    ours, django = jsontext.script(value, "mapwidget-data"), json_script(value, "mapwidget-data")
    head = '<script id="mapwidget-data" type="application/json">'
    assert ours.startswith(head) and django.startswith(head)
    assert ours.endswith("</script>") and ours.count("</script>") == 1
    body = ours[len(head) : -len("</script>")]
    assert not set("<>&") & set(body)  # nothing ends the element or starts a tag
    assert json.loads(body) == json.loads(django[len(head) : -len("</script>")])


def test_the_element_id_is_escaped():
    assert jsontext.script({}, 'x"><b>') == json_script({}, 'x"><b>')


def test_nan_and_the_infinities_are_written_as_null():
    """(``json.dumps`` writes ``NaN``, which ``JSON.parse`` refuses: the page's widget could
    not read the block.)"""
    assert json.loads(jsontext.dumps([float("nan"), float("inf"), -float("inf"), 1.5])) == [
        None,
        None,
        None,
        1.5,
    ]


@dataclasses.dataclass
class Point:
    x: int


@pytest.mark.parametrize("value", [{"a": {1, 2}}, {"p": Point(1)}, {"o": object()}])
def test_refuses_what_django_refuses(value):
    with pytest.raises(TypeError):
        json.dumps(value, cls=DjangoJSONEncoder)
    with pytest.raises(TypeError):
        jsontext.dumps(value)


@pytest.mark.parametrize("value", [2**64, "\ud800"])
def test_refuses_what_the_maps_documents_never_hold(value):
    """A whole number beyond 64 bits, a lone surrogate: ``json.dumps`` writes them, orjson
    refuses with a ``TypeError`` (the module's docstring says so)."""
    json.dumps(value)
    with pytest.raises(TypeError):
        jsontext.dumps(value)
