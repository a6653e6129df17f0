# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures and test_play_battle)
"""Ready never leaves behind a choice the page shows but has not saved (the playthrough of three
friends: "Fight" ticked, "Save decision" not pressed, Ready: the orders were submitted with no
decision, which the rules read as no wish to fight, 9).

Each decision, answer and order is a form of its own and Ready posts only its own. So a battle
decision and an honors answer save themselves as they are ticked (htmx, on change; the button
stays for a page without JavaScript), the page marks what is saved (the radio ``checked`` as
drawn, the line of march's ``data-saved``), and a choice that differs from it keeps Ready from
being sent: static/js/readyguard.js says what and which button saves it (``ready-guard``,
tests/browser/test_map_centring.py), and without JavaScript play.css puts a line in Ready's
place (tests/browser/test_play_phone.py checks both in Chromium).
"""

import re

import pytest

from orders.models import OrderSheet
from tests.orders.test_play_battle import battle, honors
from tests.orders.test_play_fixtures import (
    client_for,
    in_phase,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db


def forms(page: str, css_class: str) -> list[str]:
    return re.findall(rf'<form [^>]*class="{css_class}"[^>]*>.*?</form>', page, re.S)


def test_a_battle_decision_saves_itself_when_ticked(battle, player):
    window, prussia, _austria, _daun = battle
    where = window.version.state["leaders"]["frederick"]["hex"]
    page = client_for(player).get(url("orders", prussia)).content.decode()
    (form,) = forms(page, "decision")
    assert 'hx-trigger="change, submit"' in form and ">Save decision</button>" in form
    assert f'data-unsaved="your decision for Prussia at {where}"' in form
    # each radio has an id, so htmx gives the focus back to it after the swap
    assert f'id="choice-{where}-prussia-fight"' in form
    assert "checked" not in form
    # what the change posts: the form's fields, the radio ticked; the sheet comes back with it
    r = client_for(player).post(
        url("decide", prussia),
        in_phase(prussia, {"kind": "battle", "hex": where, "army": "prussia", "choice": "fight"}),
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200 and "Decision saved." in r.content.decode()
    (form,) = forms(r.content.decode(), "decision")
    assert re.search(r'value="fight" id="[^"]+" checked', form), form
    sheet = OrderSheet.objects.get(window=window, seat=prussia)
    assert sheet.draft["battle"] == [{"hex": where, "army": "prussia", "choice": "fight"}]


def test_ready_has_a_line_for_a_page_without_javascript(battle, player):
    _window, prussia, _austria, _daun = battle
    page = client_for(player).get(url("orders", prussia)).content.decode()
    ready = re.search(r'<form [^>]*class="ready">.*?</form>', page, re.S).group(0)
    assert '<p class="unsaved bad">' in ready and "Press its button (Save decision)" in ready
    # with JavaScript, the guard is a script of the page's own, whether the map widget comes
    head = page.split("</head>")[0]
    assert re.search(r'<script src="[^"]*/js/readyguard\.js" defer>', head)


def test_an_honors_answer_saves_itself_and_shows_the_answer_given(honors, player):
    window, prussia, _austria = honors
    c = client_for(player)
    (form,) = forms(c.get(url("orders", prussia)).content.decode(), "decision")
    assert 'hx-trigger="change, submit"' in form and 'data-unsaved="your answer for Berlin"' in form
    assert "checked" not in form
    data = {"kind": "honors", "city": "Berlin", "answer": "fight"}
    r = c.post(url("decide", prussia), in_phase(prussia, data), headers={"HX-Request": "true"})
    assert r.status_code == 200
    (form,) = forms(r.content.decode(), "decision")
    assert 'value="fight" id="answer-berlin-fight" checked>' in form
    assert 'value="surrender" id="answer-berlin-surrender">' in form


def test_the_line_of_march_says_what_is_saved(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    page = c.get(url("orders", prussia) + "?unit=frederick").content.decode()
    path = re.search(r'<input name="path"[^>]*>', page).group(0)
    assert 'value="" data-saved="" class=""' in path
    assert 'data-unsaved="the order for Frederick"' in page
    saved = c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1"}),
        headers={"HX-Request": "true"},
    ).content.decode()
    path = re.search(r'<input name="path"[^>]*>', saved).group(0)
    assert 'value="4" data-saved="4" class="typed as-saved"' in path
    # tapped on the map of a page without JavaScript: in the field, not saved
    page = c.get(url("orders", prussia) + "?unit=frederick&path=4-4").content.decode()
    path = re.search(r'<input name="path"[^>]*>', page).group(0)
    assert 'value="4-4" data-saved="4" class="typed"' in path
    # chosen again: the field starts empty, the saved order stands (issue 43)
    page = c.get(url("orders", prussia) + "?unit=frederick").content.decode()
    assert 'value="" data-saved="4" class=""' in re.search(r'<input name="path"[^>]*>', page)[0]
