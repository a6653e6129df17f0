# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""The battle page's forms and emails as a hurried player on a phone meets them: a refused
result comes back as typed with its problems beside it, the loser is never chosen for him, the
status line follows every htmx action, and each battle email goes to one player.

Prussia (``player``) and Austria (``other``) fought at 0502; the fixtures are in test_battles.
The Prussian side had 2213 points there, the Austrian 3150.
"""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, BattleStatus, ResultEntry
from campaign.models import Campaign
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    battle,
    battle_map,
    campaign,
    page,
    post,
)
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db

TYPED = {  # the tester's mistake: 400 Prussian points lost, and more prisoners than losses
    "loser": "austrian",
    "outcome": "defeated",
    "loss_austria": 10,
    "prisoners_austria": 50,
    "loss_prussia": 99999,
}


def htmx_post(client, name, b, data):
    target = reverse(f"battles:{name}", args=[b.campaign.code, b.code])
    return client.post(target, data, HTTP_HX_REQUEST="true")


def field_block(body: str, name: str, ids: str = "id_") -> str:
    """The part of the page from the end of the field before ``name`` to ``name``'s input: its
    errors, its label and itself."""
    at = body.index(f'id="{ids}{name}"')
    return body[body.rindex("</p>", 0, at) : at]


# ---- a refused result is drawn again as typed ------------------------------------------------


def test_a_refused_entry_comes_back_as_typed_with_its_problems_in_the_swapped_part(battle, player):
    r = htmx_post(client_for(player), "enter", battle, TYPED)
    assert r.status_code == 200
    body = r.content.decode()
    assert "<html" not in body and body.lstrip().startswith('<section id="result">')
    # every number and choice as typed
    assert 'name="loss_prussia" value="99999"' in body
    assert 'name="loss_austria" value="10"' in body
    assert 'name="prisoners_austria" value="50"' in body
    assert '<option value="austrian" selected>' in body
    assert '<option value="defeated" selected>' in body
    # the problems at the top of the form, in view (focused once swapped in), and by the field
    summary = re.search(r'<div role="alert" tabindex="-1" autofocus>.*?</div>', body, re.S)
    assert summary and "Nothing was saved" in summary.group(0)
    assert "Prussian losses of 99999 points are more than the 2213 present" in summary.group(0)
    assert "more than the 2213 present" in field_block(body, "loss_prussia")
    assert "a part of its losses" in field_block(body, "prisoners_austria")
    assert body.index("Nothing was saved") > body.index("Enter the result")
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PENDING and not ResultEntry.objects.exists()


def test_a_refused_entry_without_htmx_draws_the_whole_page_again(battle, player):
    r = post(client_for(player), "enter", battle, {**TYPED, "loss_prussia": "many"})
    assert r.status_code == 200 and "<html" in r.content.decode()
    body = r.content.decode()
    assert 'name="loss_prussia" value="many"' in body and "Enter a whole number" in body
    assert 'name="prisoners_austria" value="50"' in body
    assert not ResultEntry.objects.exists()


def test_a_refused_settlement_comes_back_as_typed(battle, organiser):
    r = post(client_for(organiser), "settle", battle, TYPED)
    assert r.status_code == 200
    body = r.content.decode()
    assert re.search(r'name="loss_prussia" value="99999"[^>]*id="id_settle_loss_prussia"', body)
    assert re.search(r'name="prisoners_austria" value="50"[^>]*id="id_settle_prisoners', body)
    assert "more than the 3150 present" not in body  # (the Austrians lost 10: allowed)
    assert "more than the 2213 present" in field_block(body, "loss_prussia", "id_settle_")
    assert '<div role="alert" tabindex="-1" autofocus>' in body
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PENDING and not ResultEntry.objects.exists()


# ---- the loser is never chosen for him -------------------------------------------------------


def test_the_loser_and_the_outcome_start_unchosen_on_both_forms(battle, player, organiser):
    for client, ids in ((client_for(player), "id_"), (client_for(organiser), "id_settle_")):
        body = page(client, "battle", battle).content.decode()
        for name, empty in (("loser", "Choose the side that lost"), ("outcome", "Choose how")):
            select = re.search(
                rf'<select name="{name}"[^>]*id="{ids}{name}".*?</select>', body, re.S
            )
            assert select, (name, ids)
            options = re.findall(r"<option[^>]*>[^<]*", select.group(0))
            assert options[0].startswith('<option value="" selected>' + empty), options
            assert not any("selected" in o for o in options[1:]), options
            assert "required" in select.group(0)


@pytest.mark.parametrize("missing", ["loser", "outcome"])
def test_a_result_without_its_loser_or_outcome_is_refused(battle, player, organiser, missing):
    data = {**TYPED, "loss_prussia": 100, "prisoners_austria": 0, missing: ""}
    words = {"loser": "Choose the side that lost.", "outcome": "Choose how the loser left"}
    for client, name in ((client_for(player), "enter"), (client_for(organiser), "settle")):
        r = post(client, name, battle, data)
        assert r.status_code == 200 and words[missing] in r.content.decode()
        assert 'name="loss_prussia" value="100"' in r.content.decode()
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PENDING and not ResultEntry.objects.exists()


# ---- the status line follows every action ------------------------------------------------------


def status_of(body: str) -> str:
    found = re.search(r'<p id="battle-status" hx-swap-oob="true">(.*?)</p>', body, re.S)
    assert found, "the status line goes with the swapped part"
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_the_status_and_the_date_follow_each_htmx_action(
    battle, player, other, organiser, django_capture_on_commit_callbacks
):
    Campaign.objects.filter(id=battle.campaign_id).update(time_zone="Europe/Berlin")
    battle = Battle.objects.get(id=battle.id)
    when = (timezone.now() + timedelta(days=30)).astimezone(ZoneInfo("Europe/Berlin"))
    when = when.replace(hour=19, minute=30, second=0, microsecond=0)
    typed = when.strftime("%Y-%m-%dT%H:%M")
    with django_capture_on_commit_callbacks(execute=True):
        r = htmx_post(client_for(organiser), "date", battle, {"fight_on": typed})
    body = r.content.decode()
    assert "Date set" in body
    assert status_of(body).startswith("Status: Waiting for the result. To be fought on ")
    assert "19:30" in status_of(body) and "No date set yet" not in body
    # the date form shows the battle's date, in the campaign's time (as the status says it)
    assert f'name="fight_on" value="{typed}"' in body and "(Europe/Berlin time)" in body
    battle.refresh_from_db()
    assert battle.fight_on == when
    # a full page shows the status once, without the out-of-band mark
    full = page(client_for(organiser), "battle", battle).content.decode()
    assert full.count('id="battle-status"') == 1 and "hx-swap-oob" not in full
    assert f'name="fight_on" value="{typed}"' in full

    r = htmx_post(client_for(player), "enter", battle, {**TYPED, "loss_prussia": 100,
                                                        "prisoners_austria": 0})  # fmt: skip
    assert "Status: Result entered by your side, waiting for the Austrian army" in status_of(
        r.content.decode()
    )
    with django_capture_on_commit_callbacks(execute=True):
        r = htmx_post(client_for(other), "confirm", battle, {"entry": 1})
    body = r.content.decode()
    assert "Result confirmed" in body
    assert "waiting for the other side" not in status_of(body)
    assert status_of(body).startswith("Status: Result applied to the campaign.")


def test_a_date_in_the_past_stays_in_the_form_with_its_problem(battle, organiser):
    typed = (timezone.now() - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    r = htmx_post(client_for(organiser), "date", battle, {"fight_on": typed})
    body = r.content.decode()
    assert "The date must lie ahead." in body and f'value="{typed}"' in body
    assert "No date set yet" in status_of(body)
    battle.refresh_from_db()
    assert battle.fight_on is None


# ---- one email per player ---------------------------------------------------------------


def test_each_battle_email_goes_to_one_player_with_the_greeting_and_the_footer(
    battle, player, other, organiser, django_capture_on_commit_callbacks
):
    campaign = battle.campaign
    addresses = {s.user.email: s for s in campaign.seats.filter(user__isnull=False)}
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        post(
            client_for(organiser),
            "date",
            battle,
            {"fight_on": (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")},
        )
    with django_capture_on_commit_callbacks(execute=True):
        post(client_for(player), "enter", battle, {**TYPED, "loss_prussia": 100,
                                                    "prisoners_austria": 0})  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        post(client_for(other), "confirm", battle, {"entry": 1})
    sent = [m for m in mail.outbox if m.extra_headers["X-DGK-Kind"].startswith("battle:")]
    kinds = sorted(m.extra_headers["X-DGK-Kind"] for m in sent)
    assert kinds == ["battle:date-set"] * 2 + ["battle:result-applied"] * 2 + [
        "battle:result-entered"
    ], kinds
    for m in sent:
        assert len(m.to) == 1 and not m.cc and not m.bcc, m.to
        who = addresses[m.to[0]]
        others = [a for a in addresses if a != m.to[0]]
        whole = m.message().as_string()
        assert not any(a in whole for a in others), (m.subject, m.to)
        assert m.body.startswith(f"{who.label},\n\n")
        settings_link = reverse("seat_settings", args=[who.code])
        assert "Battle emails always come, whatever emails you chose" in m.body
        assert settings_link in m.body
        # no one-click unsubscribe on an email that one click would not stop
        assert "List-Unsubscribe" not in m.extra_headers
    # the Prussians entered it: only the Austrians are asked to confirm
    entered = next(m for m in sent if m.extra_headers["X-DGK-Kind"] == "battle:result-entered")
    assert entered.to == [other.email]
    dated = next(m for m in sent if m.to == [player.email] and "is fought on" in m.subject)
    prussian_sheet = reverse("battles:briefing", args=[campaign.code, battle.code, "prussian"])
    assert prussian_sheet in dated.body and "/austrian/" not in dated.body


def test_the_organisers_battle_email_goes_to_the_organiser_alone(battle, organiser):
    from mail.services import email

    mail.outbox.clear()
    assert email.deliver("battle", battle_id=battle.id, battle_kind="overdue", organiser=True)
    (m,) = mail.outbox
    assert m.to == [organiser.email] and m.body.startswith("Hello,\n\n")


# ---- the hand-off to the table says what to do -----------------------------------------------


def test_the_hand_off_email_says_what_to_do_and_links_the_battle_and_the_briefing(
    battle, player, other
):
    campaign = battle.campaign
    handed = [
        m
        for m in mail.outbox
        if m.extra_headers["X-DGK-Kind"] == "battle-pending" and "goes to the tabletop" in m.body
    ]
    assert sorted(m.to[0] for m in handed) == sorted([player.email, other.email])
    for m in handed:
        side = "prussian" if m.to == [player.email] else "austrian"
        assert "nothing to decide" in m.body and "Fight or retire" not in m.body
        assert m.subject.endswith("your battle goes to the tabletop (turn 1)")
        assert "fight it on the table, then enter the result on the battle page" in m.body
        page_link = reverse("battles:battle", args=[campaign.code, battle.code])
        sheet = reverse("battles:briefing", args=[campaign.code, battle.code, side])
        assert "where you enter the result: http" in m.body and page_link in m.body
        assert "Your briefing, to print and play from: http" in m.body and sheet in m.body
    # where there is something to decide, the email still says so
    deciding = [
        m
        for m in mail.outbox
        if m.extra_headers["X-DGK-Kind"] == "battle-pending" and "decide whether to fight" in m.body
    ]
    orders_page = "Fight or retire, on your orders page: http"
    assert deciding and all(orders_page in m.body for m in deciding)
    assert not any("goes to the tabletop" in m.body for m in deciding)


# ---- a quick resolution is not told as a tabletop battle -------------------------------------


def test_the_quick_resolutions_prisoners_are_not_said_to_surrender_on_the_tabletop(
    battle, organiser
):
    from battles.services import results as battle_results
    from campaign.models import Event

    battle_results.quick_resolve(battle, organiser, attacker=None, now=timezone.now())
    told = list(
        Event.objects.filter(campaign=battle.campaign, kind="prisoners").values_list(
            "text", flat=True
        )
    )
    assert told and all("were taken prisoner in the battle" in t for t in told), told
    assert not any("tabletop" in t for t in told)


def test_a_battle_emails_day_is_written_as_the_page_writes_it():
    """The tester read "Thursday 03 December" in the email and "3 December" on the page."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from battles.services.mail import _day

    moment = datetime(2026, 12, 3, 19, 30, tzinfo=ZoneInfo("Europe/London"))
    assert _day(moment) == "Thursday 3 December 2026, 19:30 GMT"


# ---- the organiser is told to date a battle the campaign waits for ----------------------------


def test_the_organiser_is_told_to_date_a_battle_that_goes_to_the_table(
    battle, organiser, player, django_capture_on_commit_callbacks
):
    """The players' email says the organiser sets the date; the battle window has no deadline
    and only a dated battle reminds him. Undated and untold, the season waited unnoticed."""
    from battles.services import records
    from mail.services import email

    campaign = battle.campaign
    Battle.objects.filter(id=battle.id).delete()  # the record made again, as after the phase
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        (made,) = records.sync(campaign)
    told = [m for m in mail.outbox if m.to == [organiser.email]]
    assert len(told) == 1 and len(mail.outbox) == 1, [(m.to, m.subject) for m in mail.outbox]
    (m,) = told
    assert m.subject == f"{campaign.name}: the battle near Prague waits for its date"
    assert m.body.startswith(
        "Hello,\n\nThe battle near Prague (hex 0502), April I, goes to the tabletop"
    )
    link = reverse("battles:battle", args=[campaign.code, made.code])
    assert link in m.body
    assert "Set the date it is fought" in m.body and "quick resolution" in m.body
    # once: the record exists, nothing more is queued
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert records.sync(campaign) == []
    assert not mail.outbox
    # dated before the email went: nothing left to ask
    Battle.objects.filter(id=made.id).update(fight_on=timezone.now() + timedelta(days=2))
    assert not email.deliver("battle", battle_id=made.id, battle_kind="to-date", organiser=True)
