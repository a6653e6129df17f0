"""Noninterference of the caretaker's orders for a silent B (issue 42, issue 35) on a 3-player
campaign made from the form, whose missed deadlines go to the caretaker (no excused miss, the
caretaker "plays on").

B is the Austrian seat (Austria, the Empire, Russia, Sweden), A the Prussian seat (B's enemy), C
the French seat (B's ally). What may vary while the caretaker plays B:

- B's own draft, written and never submitted: the caretaker plays instead of it (only a sheet
  marked ready is the seat's orders), so nothing of it may reach anyone, before or after;
- the caretaker's orders themselves: every seat reads *that* the caretaker gave B's orders,
  never what they were (``caretaker.played_event``). Its orders are the engine's automatic
  player's, fixed by the state and the seat, so the two worlds give it two different orders
  (``caretaker.orders_for`` replaced in each world) whose consequence the rules keep from A:
  points handed between two Russian leaders in one hex (6.4.2). A force's strength is secret
  until reconnaissance or battle (8), the army's total is public and unchanged (3.0).

Both are compared after the march phase resolved by its deadline (the caretaker plays only
then), at a frozen moment a minute past it. Each test's control: A's own march order differs.
"""

from datetime import timedelta

import pytest

from campaign.services import caretaker
from campaign.services.resolution import resolve_due_phase
from tests.fog import scenarios
from tests.fog.scenarios import Scene, march, noninterference, ready, two

pytestmark = pytest.mark.django_db

CAMPAIGN = "3p form, caretaker"
MAIL_ORDER = "Schwerin 4\n"  # A's answer by mail is a channel too (after the resolution)


@pytest.fixture
def scene(organiser, django_capture_on_commit_callbacks) -> Scene:
    return scenarios.caretaker_march(organiser, django_capture_on_commit_callbacks)


def _past_deadline(scene: Scene, capture) -> None:
    """A and C are ready with the same orders in both worlds; B gives none; the deadline passes
    and the sweep resolves the window (the caretaker plays B)."""
    ready(scene, "C", capture)
    with capture(execute=True):
        resolve_due_phase(scene.window.id, now=_at(scene))
    played = scene.campaign.events.filter(kind="caretaker").values_list("text", flat=True)
    assert any(scene.b.label in t for t in played), list(played)


def _at(scene: Scene):
    return scene.window.deadline + timedelta(minutes=1)


def _compare(scene: Scene, secret, control, *, label: str) -> None:
    noninterference(scene, secret, control, label=label, at=_at(scene), mail_order=MAIL_ORDER)


def _a_marches(scene: Scene, capture, path: str = "1") -> None:
    march(scene, "A", "frederick", path)
    ready(scene, "A", capture)


def test_b_unsubmitted_draft_does_not_show_while_the_caretaker_plays(
    scene, django_capture_on_commit_callbacks
):
    """After resolution (by the deadline). B wrote a march for Charles, North-West or
    South-East, and never pressed Ready: the caretaker gave B's orders instead. Neither draft was
    carried out, so A and C see the same."""
    capture = django_capture_on_commit_callbacks

    def secret(which):
        march(scene, "B", "charles", two(which, "2", "5"))
        _a_marches(scene, capture)
        _past_deadline(scene, capture)

    def control(which):
        march(scene, "B", "charles", "2")
        _a_marches(scene, capture, two(which, "1", "2"))
        _past_deadline(scene, capture)

    _compare(scene, secret, control, label=f"B's draft under the caretaker × {CAMPAIGN} × march")


def test_the_caretakers_orders_for_b_do_not_show(
    scene, django_capture_on_commit_callbacks, monkeypatch
):
    """After resolution (by the deadline). The caretaker's march orders for B hand 100 or 200
    points from Fermor to Apraxin (both at 8002, Russians of B's seat; to the higher rank,
    6.4.2): the force's strength is secret (8), the Russian total unchanged (3.0), so A and C
    see the same."""
    capture = django_capture_on_commit_callbacks
    given = caretaker.orders_for
    apraxin = scene.state["leaders"]["apraxin"]
    assert apraxin["hex"] == scene.state["leaders"]["fermor"]["hex"]

    def orders_for(points):
        def of(seat, phase, state, hexmap, style):
            if seat.id != scene.b.id:
                return given(seat, phase, state, hexmap, style)
            return {"transfers": [{"from": "fermor", "to": "apraxin", "points": points}]}

        return of

    def secret(which):
        points = two(which, 100, 200)
        monkeypatch.setattr(caretaker, "orders_for", orders_for(points))
        _a_marches(scene, capture)
        _past_deadline(scene, capture)
        after = scene.campaign.latest_version().state["leaders"]  # (a later phase's version)
        assert after["apraxin"]["points"] == apraxin["points"] + points

    def control(which):
        monkeypatch.setattr(caretaker, "orders_for", orders_for(100))
        _a_marches(scene, capture, two(which, "1", "2"))
        _past_deadline(scene, capture)

    _compare(scene, secret, control, label=f"the caretaker's orders for B × {CAMPAIGN} × march")
