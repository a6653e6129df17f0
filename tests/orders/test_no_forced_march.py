# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""A turn asks each seat only what it must decide (issue 35): the forced march phase waits only
for the seats with a leader who could force march (6.3), and a seat may answer "no forced march
this turn" on the march page, which it then does not wait for."""

import pytest

from campaign.services import gameplay
from rules.armies import Army
from rules.movers import may_force_march
from rules.state import LeaderState, Phase, State
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_everyone,
    in_phase,
    marching,
    play_map,
    ready,
    rules_campaign,
    seat,
    url,
)


@pytest.mark.pure
@pytest.mark.parametrize(
    ("record", "turn", "can"),
    [
        (LeaderState("frederick", Army.PRUSSIA, "6340"), 3, True),
        (LeaderState("soubise", Army.FRANCE, "2949"), 3, False),  # "can never force march"
        (LeaderState("frederick", Army.PRUSSIA, "6340", demoralized=True), 3, False),  # 10.2
        (LeaderState("frederick", Army.PRUSSIA, "6340", halted=True), 3, False),  # 6.4.4
        (LeaderState("frederick", Army.PRUSSIA, "6340", dropped_off=True), 3, False),  # 6.2.6
        (LeaderState("frederick", Army.PRUSSIA, "6340", held_until_turn=3), 3, False),  # 11.6.1
        (LeaderState("frederick", Army.PRUSSIA, "6340", held_until_turn=2), 3, True),
    ],
)
def test_who_may_force_march(record, turn, can):
    assert may_force_march(State(turn=turn), record) is can


class _Seat:
    def __init__(self, armies, declined=0):
        self.armies, self.reserve, self.declined_forced_march_turn = armies, False, declined


@pytest.mark.pure
def test_the_forced_march_phase_owes_only_seats_with_a_choice():
    state = State(
        turn=2,
        phase=Phase.FORCED_MARCH,
        leaders=(
            LeaderState("frederick", Army.PRUSSIA, "6340"),
            LeaderState("soubise", Army.FRANCE, "2949"),
            LeaderState("daun", Army.AUSTRIA, "5635"),
        ),
    )
    prussia, france, austria = _Seat(["prussia"]), _Seat(["france"]), _Seat(["austria"], 2)
    owing = gameplay.seats_owing([prussia, france, austria], state, Phase.FORCED_MARCH)
    # France's only leader can never force march; Austria said "no forced march" for turn 2.
    assert owing == [prussia]
    austria.declined_forced_march_turn = 1  # an answer of another turn does not count
    assert gameplay.seats_owing([prussia, austria], state, Phase.FORCED_MARCH) == [
        prussia,
        austria,
    ]


@pytest.mark.django_db
def test_a_seat_that_declined_on_the_march_page_is_not_awaited_nor_asked(
    marching, player, django_capture_on_commit_callbacks, mailoutbox
):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    page = c.get(url("orders", prussia)).content.decode()
    assert "No forced march this turn" in page
    r = c.post(url("no_forced_march", prussia), in_phase(prussia, {"decline": "1"}))
    assert r.status_code == 302 and r.url == url("orders", prussia)
    prussia.refresh_from_db()
    assert prussia.declined_forced_march_turn == 1
    page = c.get(url("orders", prussia)).content.decode()
    assert "No forced march for you this turn" in page and "Take it back" in page
    mailoutbox.clear()
    for s in marching.seats.filter(reserve=False):
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    window = marching.open_window()
    assert window.phase == "forced-march"
    assert not window.owes(prussia)
    state = gameplay.read_state(marching.latest_version().state)
    able = {x.army.value for x in state.leaders if may_force_march(state, x)}
    others = marching.seats.filter(reserve=False).exclude(id=prussia.id)
    asked = [s for s in others if window.owes(s)]
    assert asked == [s for s in others if set(s.armies) & able] and asked
    called = [m for m in mailoutbox if "orders are due" in m.subject]
    assert len(called) == len(asked) and all(player.email not in m.to for m in called)
    # The others ready: the phase resolves without the Prussian ever pressing Ready.
    for s in asked:
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    assert marching.open_window() is None or marching.open_window().phase != "forced-march"


@pytest.mark.django_db
def test_the_answer_is_taken_back_and_refused_outside_the_march(
    marching, player, django_capture_on_commit_callbacks
):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    c.post(url("no_forced_march", prussia), in_phase(prussia, {"decline": "1"}))
    c.post(url("no_forced_march", prussia), in_phase(prussia, {"decline": "0"}))
    prussia.refresh_from_db()
    assert prussia.declined_forced_march_turn == 0
    for s in marching.seats.filter(reserve=False):
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    assert marching.open_window().owes(prussia)  # asked as usual
    r = c.post(url("no_forced_march", prussia), in_phase(prussia, {"decline": "1"}), follow=True)
    assert "only while your march orders are open" in r.content.decode()
    prussia.refresh_from_db()
    assert prussia.declined_forced_march_turn == 0
