# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""Results that cannot be swapped (issue 11): every entry is kept, an answer names the entry it
answers, and a newer entry voids the older one and tells the other side.

Prussia (``player``) and Austria (``other``) fought at 0502; the fixtures are in test_battles.
"""

import pytest
from django.core import mail
from django.urls import reverse

from battles.models import BattleStatus, ResultEntry
from rules.state import Phase
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    battle,
    battle_map,
    campaign,
    page,
    post,
)
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db

FIRST = {"loser": "prussian", "outcome": "retired", "loss_prussia": 100, "loss_austria": 100}
SECOND = {"loser": "austrian", "outcome": "defeated", "loss_prussia": 100, "loss_austria": 3000}


def test_the_swap_is_refused_and_the_other_side_is_told(
    battle, player, other, django_capture_on_commit_callbacks
):
    prussians, austrians = client_for(player), client_for(other)
    post(prussians, "enter", battle, FIRST)
    shown = page(austrians, "battle", battle).content.decode()
    assert 'name="entry" value="1"' in shown and "Confirm entry 1" in shown
    assert "Prussian alliance retired" in shown
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        post(prussians, "enter", battle, SECOND)
    assert any("entered again" in m.subject for m in mail.outbox)
    told = [m for m in mail.outbox if "entered again" in m.subject]
    assert all(other.email in m.to for m in told) and not any(player.email in m.to for m in told)
    # Austria presses Confirm on the page it read: entry 1. Refused, and shown entry 2.
    r = post(austrians, "confirm", battle, {"entry": 1})
    battle.refresh_from_db()
    assert battle.status == BattleStatus.ENTERED
    followed = austrians.get(r.url).content.decode() if r.status_code == 302 else ""
    assert "entered again (entry 2)" in followed
    assert "Confirm entry 2" in followed
    entries = list(ResultEntry.objects.filter(battle=battle))
    assert [(e.number, bool(e.voided), e.result["loser"]) for e in entries] == [
        (1, True, "prussian"),
        (2, False, "austrian"),
    ]
    post(austrians, "confirm", battle, {"entry": 2})
    battle.refresh_from_db()
    assert battle.status in (BattleStatus.CONFIRMED, BattleStatus.APPLIED)
    assert ResultEntry.objects.get(battle=battle, number=2).answer == "confirmed"


def test_an_answer_without_an_entry_number_is_refused(battle, player, other):
    post(client_for(player), "enter", battle, FIRST)
    for action, data in (("confirm", {}), ("dispute", {"reason": "no"})):
        post(client_for(other), action, battle, data)
        battle.refresh_from_db()
        assert battle.status == BattleStatus.ENTERED


def test_the_umpire_sees_every_entry_with_who_and_when(battle, player, other, organiser):
    post(client_for(player), "enter", battle, FIRST)
    post(client_for(player), "enter", battle, SECOND)
    post(client_for(other), "dispute", battle, {"entry": 2, "reason": "We lost 2,000."})
    text = page(client_for(organiser), "battle", battle).content.decode()
    assert "Every entry of the result (2)" in text
    assert "Entry 1" in text and "replaced by a newer entry" in text
    assert "Entry 2" in text and "disputed by" in text and "We lost 2,000." in text
    post(
        client_for(organiser),
        "settle",
        battle,
        {"loser": "austrian", "outcome": "defeated", "loss_prussia": 100, "loss_austria": 2000},
    )
    kinds = list(ResultEntry.objects.filter(battle=battle).values_list("kind", flat=True))
    assert kinds == ["entered", "entered", "settled"]


def test_a_confirmed_result_cannot_be_entered_again(battle, player, other):
    post(client_for(player), "enter", battle, FIRST)
    post(client_for(other), "confirm", battle, {"entry": 1})
    post(client_for(player), "enter", battle, SECOND)
    assert ResultEntry.objects.filter(battle=battle).count() == 1


def test_a_side_reads_its_own_points_by_country_and_not_the_enemys(battle, player, organiser):
    text = page(client_for(player), "battle", battle).content.decode()
    assert "Prussia points lost (of" in text
    assert "Austria points lost (of" not in text and "Austria points lost" in text
    umpire = page(client_for(organiser), "battle", battle).content.decode()
    assert "Prussia points lost (of" in umpire and "Austria points lost (of" in umpire


def test_the_chronicle_tells_losses_only_to_those_who_fought(
    battle, player, other, ally, django_capture_on_commit_callbacks
):
    post(client_for(player), "enter", battle, SECOND)
    with django_capture_on_commit_callbacks(execute=True):
        post(client_for(other), "confirm", battle, {"entry": 1})
    battle.refresh_from_db()
    assert battle.status == BattleStatus.APPLIED
    chronicle = reverse("battles:chronicle", args=[battle.campaign.code])
    fought = client_for(player).get(chronicle).content.decode()
    assert "Austrian losses: 3000 points" in fought
    # The VPs awarded by the result, not the four stakes (issue 13).
    awarded = battle.setup["stakes"]["austrian defeated"]
    assert "If the" not in fought and all(f"{v:+d}" in fought for v in awarded.values())
    uninvolved = client_for(ally).get(chronicle).content.decode()
    assert "was defeated outright" in uninvolved
    assert "3000" not in uninvolved and "losses" not in uninvolved


def test_no_one_outside_the_battle_is_told_the_battle_phase_resolved(battle):
    """The battle fixture's decisions resolved the battle phase; Hanover, Russia and the rest
    had no force there: no "battle phase is resolved" email for them (issue 13)."""
    campaign = battle.campaign
    fought = {s.user.email for s in campaign.seats.filter(power__in=["prussia", "austria"])}
    told = [
        to
        for m in mail.outbox
        if f"the {Phase.BATTLE.value} phase is resolved" in m.subject
        for to in m.to
    ]
    assert set(told) <= fought, told


def test_the_board_lists_the_battles_waiting_with_links(battle, player, other, organiser):
    board = reverse("organiser_board", args=[battle.campaign.code])
    text = client_for(organiser).get(board).content.decode()
    link = reverse("battles:battle", args=[battle.campaign.code, battle.code])
    assert "Battles waiting" in text and link in text and "waiting for the result" in text
    assert reverse("orders:umpire", args=[battle.campaign.code]) in text
    post(client_for(player), "enter", battle, FIRST)
    post(client_for(other), "dispute", battle, {"entry": 1, "reason": "no"})
    text = client_for(organiser).get(board).content.decode()
    assert "result disputed, waiting for the organiser" in text


def test_a_side_retires_only_where_the_rules_let_it(battle, player, other):
    """10.1: a force that had no march order may not retire; the Austrians stood in the hex
    while Frederick marched in, so only the Prussians may retire."""
    sides = battle.setup["sides"]
    assert sides["prussian"]["may_retire"] is True
    assert sides["austrian"]["may_retire"] is False
    assert "no march order" in sides["austrian"]["retire_refusal"]
    prussians = client_for(player)
    r = post(prussians, "enter", battle, {**SECOND, "outcome": "retired"})
    assert r.status_code == 200  # the form again, as typed, the problem beside the outcome
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PENDING and not ResultEntry.objects.exists()
    text = r.content.decode()
    assert "The Austrian side may not retire" in text and "(10.1) (10.1)" not in text
    post(client_for(other), "enter", battle, FIRST)  # the Prussians retiring: allowed
    battle.refresh_from_db()
    assert battle.status == BattleStatus.ENTERED


def test_the_settle_form_starts_from_the_disputed_entry_and_takes_prisoners(
    battle, player, other, organiser
):
    post(client_for(player), "enter", battle, {**SECOND, "loss_austria": 1200,
                                               "prisoners_austria": 300})  # fmt: skip
    entry = ResultEntry.objects.get()
    assert entry.result["prisoners"] == {"austria": 300}
    post(client_for(other), "dispute", battle, {"reason": "Fewer taken", "entry": 1})
    text = page(client_for(organiser), "battle", battle).content.decode()
    # the organiser reads the entry and the dispute side by side
    both = text.split('class="side-by-side"')[1].split("Settle it below")[0]
    assert "Entered: entry 1" in both and "Fewer taken" in both
    assert "The Austrian alliance was defeated outright" in both
    assert 'name="loss_austria" value="1200"' in text
    assert 'name="prisoners_austria" value="300"' in text
    assert 'value="defeated" checked' in text or 'value="defeated" selected' in text
    # prisoners are a part of the losses, never more (13.2)
    post(client_for(organiser), "settle", battle, {**SECOND, "loss_austria": 100,
                                                    "prisoners_austria": 300})  # fmt: skip
    battle.refresh_from_db()
    assert battle.status == BattleStatus.DISPUTED
