"""Noninterference of B's decisions (issue 42) on a 3-player campaign made from the form.

B is the Austrian seat (Austria, the Empire, Russia, Sweden), A the Prussian seat (Prussia,
Hanover: B's enemy, in the battle or the siege), C the French seat (B's ally, in neither).
Two worlds differ only in one decision of B; A and C must see the same on every channel
(``tests.fog.channels.SeatObserver``). A decision is compared either before its phase resolves
(the decision itself must never show until then), or after it, between two decisions whose
consequence the rules make the same for A (the rulebook's reasons in each docstring). Each test's
control varies A's own decision instead and must show A a difference.

"Siege decision" is the besieger's: grant or deny the honors of war (11.6); "honors answer" is
the garrison's: surrender or fight (11.6.2). There is no retreat decision of its own in the code
(the retreat's path is the engine's, 10.1.2-10.1.6): B's retreat decision is the choice to
retire before the battle (10.1).
"""

import pytest

from tests.fog import scenarios
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, two_worlds
from tests.fog.scenarios import Scene, decide, march, noninterference, ready, two

pytestmark = pytest.mark.django_db

CAMPAIGN = "3p form"


# --- battle decisions (9) ----------------------------------------------------------------------


@pytest.fixture
def battle(organiser, django_capture_on_commit_callbacks) -> Scene:
    return scenarios.battle(organiser, django_capture_on_commit_callbacks)


def _battle_hex(scene: Scene) -> str:
    return scene.state["leaders"]["frederick"]["hex"]


def test_b_battle_decision_does_not_show_before_the_battle_phase_resolves(
    battle, django_capture_on_commit_callbacks
):
    """Before resolution. B chooses to fight or not to fight and presses Ready; A has not
    decided yet. Nothing of B's choice may show: by rule 9 a battle is fought if either side
    wishes it, and what the enemy wished is learnt, if at all, only when the phase resolves."""
    where = _battle_hex(battle)

    def secret(which):
        decide(battle, "B", hex=where, army="austria", choice=two(which, "fight", "decline"))
        ready(battle, "B", django_capture_on_commit_callbacks)

    def control(which):
        decide(battle, "A", hex=where, army="prussia", choice=two(which, "fight", "decline"))

    noninterference(
        battle, secret, control, label=f"B's battle decision × {CAMPAIGN} × battle, open"
    )


def test_b_battle_decision_does_not_show_when_a_wishes_the_battle(
    battle, django_capture_on_commit_callbacks
):
    """After resolution. A chooses to fight and is ready; B fights or declines and presses
    Ready: the phase resolves and in both worlds the battle is fought (9: "if and only if
    either player involved wishes to do so"). What A learns is the battle, the same in both;
    whether B too wished it is not told by the rules and must not show."""
    where = _battle_hex(battle)

    def secret(which):
        decide(battle, "A", hex=where, army="prussia", choice="fight")
        ready(battle, "A", django_capture_on_commit_callbacks)
        decide(battle, "B", hex=where, army="austria", choice=two(which, "fight", "decline"))
        ready(battle, "B", django_capture_on_commit_callbacks)
        assert battle.campaign.battles.count() == 1  # the battle is set up in both worlds

    def control(which):
        # B declines: a battle in world one (A fights), none in world two (A declines).
        decide(battle, "B", hex=where, army="austria", choice="decline")
        ready(battle, "B", django_capture_on_commit_callbacks)
        decide(battle, "A", hex=where, army="prussia", choice=two(which, "fight", "decline"))
        ready(battle, "A", django_capture_on_commit_callbacks)

    noninterference(
        battle, secret, control, label=f"B's battle decision × {CAMPAIGN} × battle, resolved"
    )


# --- the retreat decision: retiring before the battle (10.1) -----------------------------------


def test_b_retreat_decision_does_not_show_before_the_battle_phase_resolves(
    battle, django_capture_on_commit_callbacks
):
    """Before resolution. Charles (B) marched into Frederick's hex, so he may retire (10.1):
    B retires or fights, and presses Ready. Retiring is seen only when the phase resolves (a
    retreat in the retreat/rally phase), never before."""
    where = _battle_hex(battle)

    def secret(which):
        decide(battle, "B", hex=where, army="austria", choice=two(which, "retire", "fight"))
        ready(battle, "B", django_capture_on_commit_callbacks)

    def control(which):
        decide(battle, "A", hex=where, army="prussia", choice=two(which, "fight", "decline"))

    noninterference(
        battle, secret, control, label=f"B's retreat decision × {CAMPAIGN} × battle, open"
    )


def test_b_battle_decision_does_not_show_when_outnumbered_4_to_1(
    organiser, django_capture_on_commit_callbacks
):
    """After resolution. Daun's 371 points (B) are outnumbered 4:1 by Frederick's 2970 (A), who
    wishes the battle: there is no battle, the smaller force is taken prisoner (9), whether B
    wished to fight or not. That is all A may learn. (B may not retire here, 10.1.1: the orders
    page refuses it, so B's retreat decision has no resolved pair with the same consequence: a
    retirement is always seen, as a retreat, 10.1.2; it is compared before resolution above.)"""
    scene = scenarios.battle(organiser, django_capture_on_commit_callbacks, outnumbered=True)
    where = _battle_hex(scene)

    def secret(which):
        decide(scene, "A", hex=where, army="prussia", choice="fight")
        ready(scene, "A", django_capture_on_commit_callbacks)
        decide(scene, "B", hex=where, army="austria", choice=two(which, "fight", "decline"))
        ready(scene, "B", django_capture_on_commit_callbacks)
        assert "daun" not in scene.campaign.latest_version().state["leaders"]  # taken (9)

    def control(which):
        # A's own wish decides whether there is a battle: Daun taken, or left standing.
        decide(scene, "B", hex=where, army="austria", choice="decline")
        ready(scene, "B", django_capture_on_commit_callbacks)
        decide(scene, "A", hex=where, army="prussia", choice=two(which, "fight", "decline"))
        ready(scene, "A", django_capture_on_commit_callbacks)

    noninterference(
        scene, secret, control, label=f"B's battle decision × {CAMPAIGN} × battle 4:1, resolved"
    )


# --- the forced march (6.3) -------------------------------------------------------------------


def test_b_forced_march_decision_does_not_show_before_the_phase_resolves(
    organiser, django_capture_on_commit_callbacks
):
    """Before resolution. B orders Charles to force march North-West or South-East (6.3) and presses
    Ready; A has not. Leader positions are public (3.1.1), so where he went is seen once the
    phase resolves; what he was ordered must not show before."""
    scene = scenarios.forced_march(organiser, django_capture_on_commit_callbacks)

    def secret(which):
        march(scene, "B", "charles", two(which, "2", "5"))
        ready(scene, "B", django_capture_on_commit_callbacks)

    def control(which):
        march(scene, "A", "frederick", two(which, "1", "2"))

    noninterference(
        scene, secret, control, label=f"B's forced march × {CAMPAIGN} × forced march, open"
    )


def test_b_forced_march_decision_does_not_show_when_the_die_refuses_it(
    organiser, django_capture_on_commit_callbacks
):
    """After resolution. B orders Laudon (strategic IR 3) to force march West or North-West
    and presses Ready, as A and C do: the campaign's die for Laudon comes up 6, above his IR,
    and "it remains where it is" (6.3). Both orders end the same, Laudon in his hex; which way
    he was to go is B's own news and must not show."""
    scene = scenarios.forced_march(organiser, django_capture_on_commit_callbacks)
    start = scene.state["leaders"]["laudon"]["hex"]

    def secret(which):
        march(scene, "B", "laudon", two(which, "1", "2"))
        ready(scene, "C", django_capture_on_commit_callbacks)
        ready(scene, "A", django_capture_on_commit_callbacks)
        ready(scene, "B", django_capture_on_commit_callbacks)
        assert scene.campaign.latest_version().state["leaders"]["laudon"]["hex"] == start
        assert scene.campaign.events.filter(kind="forced-march-failed").exists()

    def control(which):
        # A orders Frederick to force march, or orders nothing: A reads his own die either way
        # it falls, in world one only.
        if which == "one":
            march(scene, "A", "frederick", "1")
        ready(scene, "C", django_capture_on_commit_callbacks)
        ready(scene, "A", django_capture_on_commit_callbacks)
        ready(scene, "B", django_capture_on_commit_callbacks)

    noninterference(
        scene, secret, control, label=f"B's forced march × {CAMPAIGN} × forced march, die refuses"
    )


# --- the siege: the besieger's decision and the garrison's answer (11.6) ----------------------


def test_b_siege_decision_does_not_show_before_the_siege_phase_resolves(
    organiser, django_capture_on_commit_callbacks
):
    """Before resolution. Charles (B) besieges the Prussian Neisse (A's garrison): B answers in
    advance that it would grant or deny the honors of war, and presses Ready. Nothing shows
    before the siege phase resolves (11.6: the answer matters only if the walls are breached)."""
    scene = scenarios.siege(organiser, django_capture_on_commit_callbacks, besieger="B")

    def secret(which):
        decide(scene, "B", city="Neisse", answer=two(which, "grant", "deny"))
        ready(scene, "B", django_capture_on_commit_callbacks)

    def control(which):
        decide(scene, "A", city="Neisse", answer=two(which, "surrender", "fight"))

    noninterference(scene, secret, control, label=f"B's siege decision × {CAMPAIGN} × siege, open")


def test_b_siege_decision_does_not_show_when_the_walls_hold(
    organiser, django_capture_on_commit_callbacks
):
    """After resolution. The same siege of Neisse; A (the garrison) answered and is ready; B
    grants or denies in advance and presses Ready: the phase resolves, and with the campaign's
    dice the walls hold (the modified roll stays under 12, 11.1; asserted). The honors of war
    are never asked (11.6), so B's answer has no consequence and must never show."""
    scene = scenarios.siege(organiser, django_capture_on_commit_callbacks, besieger="B")

    def secret(which):
        decide(scene, "A", city="Neisse", answer="fight")
        ready(scene, "A", django_capture_on_commit_callbacks)
        decide(scene, "B", city="Neisse", answer=two(which, "grant", "deny"))
        ready(scene, "B", django_capture_on_commit_callbacks)
        kinds = set(scene.campaign.events.values_list("kind", flat=True))
        assert "siege" in kinds and "breach" not in kinds, kinds

    def control(which):
        # A's own answer, before the phase resolves (after it, A's answer is as idle as B's).
        decide(scene, "A", city="Neisse", answer=two(which, "surrender", "fight"))

    noninterference(
        scene, secret, control, label=f"B's siege decision × {CAMPAIGN} × siege, walls hold"
    )


def test_b_honors_answer_does_not_show_before_the_siege_phase_resolves(
    organiser, django_capture_on_commit_callbacks
):
    """Before resolution. Frederick (A) besieges the Austrian Koniggratz (B's garrison): B
    answers in advance that the garrison would surrender or fight, and presses Ready."""
    scene = scenarios.siege(organiser, django_capture_on_commit_callbacks, besieger="A")

    def secret(which):
        decide(scene, "B", city="Koniggratz", answer=two(which, "surrender", "fight"))
        ready(scene, "B", django_capture_on_commit_callbacks)

    def control(which):
        decide(scene, "A", city="Koniggratz", answer=two(which, "grant", "deny"))

    noninterference(scene, secret, control, label=f"B's honors answer × {CAMPAIGN} × siege, open")


def test_b_honors_answer_does_not_show_when_a_grants_the_honors(
    organiser, django_capture_on_commit_callbacks
):
    """After resolution. The walls of Koniggratz are breached (the campaign's dice; asserted) and
    A, the besieger, grants the honors of war: the garrison marches out to the nearest fortress
    of its country (11.6.1) whatever it answered. Whether B would have surrendered or fought
    is asked only after a denial (11.6.2) and must not show."""
    scene = scenarios.siege(organiser, django_capture_on_commit_callbacks, besieger="A")

    def secret(which):
        decide(scene, "A", city="Koniggratz", answer="grant")
        ready(scene, "A", django_capture_on_commit_callbacks)
        decide(scene, "B", city="Koniggratz", answer=two(which, "surrender", "fight"))
        ready(scene, "B", django_capture_on_commit_callbacks)
        kinds = set(scene.campaign.events.values_list("kind", flat=True))
        assert "breach" in kinds and "honors-of-war" in kinds, kinds

    def control(which):
        # B would fight: granted, the garrison marches out; denied, a 1:1 exchange (11.6.3).
        decide(scene, "B", city="Koniggratz", answer="fight")
        ready(scene, "B", django_capture_on_commit_callbacks)
        decide(scene, "A", city="Koniggratz", answer=two(which, "grant", "deny"))
        ready(scene, "A", django_capture_on_commit_callbacks)

    noninterference(
        scene, secret, control, label=f"B's honors answer × {CAMPAIGN} × siege, honors granted"
    )


def test_b_honors_answer_after_a_denies_shows_only_what_the_rules_tell(
    organiser, django_capture_on_commit_callbacks
):
    """After resolution, the case where the answer counts (the differences expected): A denies
    the honors of war and B's garrison surrenders or fights (11.6.2-11.6.3). The consequence is
    A's to see (a surrender, or a 1:1 exchange): the two worlds must differ for A. Kept as a
    table row, so the report shows where a difference is the rules'."""
    scene = scenarios.siege(organiser, django_capture_on_commit_callbacks, besieger="A")

    def secret(which):
        decide(scene, "A", city="Koniggratz", answer="deny")
        ready(scene, "A", django_capture_on_commit_callbacks)
        decide(scene, "B", city="Koniggratz", answer=two(which, "surrender", "fight"))
        ready(scene, "B", django_capture_on_commit_callbacks)

    first, second = two_worlds(secret, SeatObserver(scene.campaign, scene.a.power))
    assert_differs(
        first,
        second,
        label=f"B's honors answer × {CAMPAIGN} × siege, honors denied (rules: seen) → A",
    )
