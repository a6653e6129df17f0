# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Battles on the tabletop (issue 7), the whole path: a battle arises in a played turn, each side
sees its own briefing and not the other's secrets, a result is entered, disputed, settled and
applied, and the turn continues; the briefings print to PDF in chromium.

The campaign: the player (Prussia) marches Frederick and Schwerin East into the hex of Charles
and Daun (Austria, played by ``other``) and chooses to fight. Secret markers: each leader's
points (3.1.2): Frederick 1426, Schwerin 787, Charles 2176, Daun 974. The sides' totals (2213
and 3150) become known to both at the battle (9).
"""

import json
import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles import tasks as battle_tasks
from battles.models import Battle, BattleStatus
from battles.services import briefing as battle_briefing
from battles.services import dates as battle_dates
from battles.services import news as battle_news
from battles.services import printing as battle_print
from battles.services import records as service
from battles.services import results as battle_results
from campaign.models import Campaign, StateVersion
from campaign.services import caretaker, resolution, setup
from campaign.services import organiser as organiser_service
from maps.core.compact import compact_map
from maps.core.loader import map_to_dict
from orders.models import OrderSheet
from rules.armies import Army
from tests.orders.test_play_fixtures import client_for, in_phase, seat, url, without_noise

pytestmark = pytest.mark.django_db

POINTS = {  # the ratios of 3.4, from Sweden's 200
    "austria": 3200,
    "empire": 800,
    "france": 3000,
    "hanover": 1500,
    "prussia": 3200,
    "russia": 1500,
    "sweden": 200,
}
FREDERICK, SCHWERIN, BERLIN = 1426, 787, 987
CHARLES, DAUN, PRAGUE = 2176, 974, 50
PRUSSIAN_SECRETS = (str(FREDERICK), str(SCHWERIN))
AUSTRIAN_SECRETS = (str(CHARLES), str(DAUN))


def _block(cols, rows):
    return [f"{c:02d}{r:02d}" for c in cols for r in rows]


AREAS = {
    "Prussia": _block(range(1, 5), range(1, 4)),
    "Austria": _block(range(5, 9), range(1, 4)),
    "Swedish Pomerania": _block(range(1, 3), range(5, 7)),
    "East Prussia": _block(range(4, 6), range(5, 7)),
    "Hanover": _block(range(7, 9), range(5, 7)),
    "France": _block(range(1, 3), range(8, 10)),
    "Bavaria": _block(range(5, 7), range(8, 10)),
    "Poland": "*",
}
DEPLOYMENT = {  # army: [(leader index, hex, points)]
    "prussia": [(0, "0402", FREDERICK), (1, "0402", SCHWERIN)],
    "austria": [(0, "0502", CHARLES), (1, "0502", DAUN)],
    "empire": [(0, "0508", 800)],
    "france": [(0, "0108", 3000)],
    "hanover": [(0, "0705", 1500)],
    "russia": [(0, "0405", 1500)],
    "sweden": [(0, "0105", 200)],
}


@pytest.fixture
def battle_map(tmp_path) -> str:
    hexmap = compact_map(
        {
            "terrain": ["c" * 10] * 10,
            "areas": AREAS,
            "roads": [["0302", "0402", "0502", "0602"]],
            "cities": [
                {"name": "Berlin", "hex": "0202", "size": "star", "fortress": True},
                {"name": "Prague", "hex": "0702", "size": "star", "fortress": True},
            ],
        },
        name="test-battles",
    )
    target = tmp_path / "test-battles.json"
    target.write_text(json.dumps(map_to_dict(hexmap)))
    return str(target)


@pytest.fixture
def campaign(organiser, player, ally, other, battle_map, django_capture_on_commit_callbacks):
    now = timezone.now()
    leaders = {**dict.fromkeys((a.value for a in Army), 1), "prussia": 2, "austria": 2}
    c = setup.create_campaign(
        organiser,
        name="Bohemia 1757",
        players=5,
        now=now,
        army_points=dict(POINTS),
        rule_settings={
            "leaders": leaders,
            "siege_trains": dict.fromkeys((a.value for a in Army), 0),
        },
        map_name=battle_map,
    )
    from tests.standing import make_user

    people = {"prussia": player, "hanover": ally, "austria": other}
    for s in c.seats.all():
        s.user = people.get(s.power) or make_user(f"b-{s.power}")
        s.save()
    setup.start_campaign(c, organiser, now=now)
    c.refresh_from_db()
    for s in c.seats.filter(reserve=False):
        client = client_for(s.user)
        for army in s.armies:
            for index, hex_id, points in DEPLOYMENT[army]:
                r = client.post(
                    url("deploy", s),
                    in_phase(s, {"army": army, "action": "leader", "unit": s.leaders[army][index],
                     "hex": hex_id, "points": points}),
                )  # fmt: skip
                assert r.status_code == 302
            garrison = {"prussia": ("Berlin", BERLIN), "austria": ("Prague", PRAGUE)}.get(army)
            if garrison:
                client.post(
                    url("deploy", s),
                    in_phase(s, {"army": army, "action": "garrison", "city": garrison[0],
                     "points": garrison[1]}),
                )  # fmt: skip
        with django_capture_on_commit_callbacks(execute=True):
            client.post(url("ready", s), in_phase(s))
    c.refresh_from_db()
    return c


def everyone_ready(campaign, capture, drafts=None):
    """Every seat the open window waits for submits (its draft if given) and the phase resolves."""
    window = campaign.open_window()
    for s in campaign.seats.filter(reserve=False):
        if not window.owes(s):
            continue
        sheet, _ = OrderSheet.objects.get_or_create(campaign=campaign, window=window, seat=s)
        if drafts and s.power in drafts:
            sheet.draft = drafts[s.power]
        sheet.ready = True
        sheet.save()
    with capture(execute=True):
        resolution.resolve_due_phase(window.id, now=timezone.now())
    campaign.refresh_from_db()


@pytest.fixture
def battle(campaign, player, django_capture_on_commit_callbacks):
    """Frederick marches East into the Austrians' hex and chooses to fight: a battle is set up."""
    window = campaign.open_window()
    assert window.phase == "march", window
    prussia = seat(campaign, "prussia")
    client = client_for(player)
    r = client.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1", "meeting": "hold"}),
    )
    assert r.status_code in (200, 302)
    everyone_ready(campaign, django_capture_on_commit_callbacks)  # march
    assert campaign.open_window().phase == "forced-march"
    everyone_ready(campaign, django_capture_on_commit_callbacks)  # forced march
    window = campaign.open_window()
    assert window.phase == "battle", [(v.number, v.phase) for v in StateVersion.objects.all()]
    decision = {"battle": [{"hex": "0502", "army": "prussia", "choice": "fight"}]}
    everyone_ready(campaign, django_capture_on_commit_callbacks, {"prussia": decision})
    service.sync(campaign)
    records = list(campaign.battles.all())
    assert len(records) == 1, [e.text for e in campaign.events.all()]
    return records[0]


def page(client, name, b, *args, **query):
    target = reverse(f"battles:{name}", args=[b.campaign.code, b.code, *args])
    if query:
        target += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return client.get(target)


ASKED = ("settle", "quick")  # the organiser's battle tools ask first (test_confirmations)


def post(client, name, b, data=None):
    """Post a battle form; the organiser's tools as after answering yes to their question."""
    data = dict(data or {})
    if name in ASKED:
        data.setdefault("confirmed", "yes")
    return client.post(reverse(f"battles:{name}", args=[b.campaign.code, b.code]), data)


def test_a_battle_arises_in_a_played_turn(battle):
    assert battle.hex == "0502"
    assert set(battle.setup["sides"]) == {"prussian", "austrian"}
    assert battle.status == BattleStatus.PENDING
    # Frederick came from the West (direction 1); the Austrians held the hex.
    assert battle.came_from == {"prussian": [1], "austrian": []}


def test_sync_twice_makes_one_record(battle):
    assert service.sync(battle.campaign) == []  # (the fixture's sync made it)
    Battle.objects.filter(id=battle.id).delete()
    assert [b.battle_id for b in service.sync(battle.campaign)] == [battle.battle_id]
    assert service.sync(battle.campaign) == []
    assert Battle.objects.filter(campaign=battle.campaign).count() == 1


def text_of(response) -> str:
    return without_noise(response.content.decode())


def test_each_side_sees_its_own_briefing_and_not_the_others_secrets(battle, player, other):
    mine = text_of(page(client_for(player), "battle", battle))
    theirs = text_of(page(client_for(other), "battle", battle))
    assert all(m in mine for m in PRUSSIAN_SECRETS)
    assert not any(m in mine for m in AUSTRIAN_SECRETS)
    assert all(m in theirs for m in AUSTRIAN_SECRETS)
    assert not any(m in theirs for m in PRUSSIAN_SECRETS)
    # Both know who commands and the totals (3.1.1, 9.2, 9); only their own buying rules.
    assert "Frederick" in theirs and "Charles" in mine
    assert "2213" in theirs and "3150" in mine
    assert "buy Austrian" in theirs and "buy Prussian" not in theirs
    assert "buy Prussian" in mine and "buy Austrian" not in mine
    # Each side is named by the armies that fight in it (issue 14), not by its alliance.
    assert "Prussian army sheet" in mine and "Prussian alliance" not in mine


def test_the_umpire_sees_everything(battle, organiser):
    body = text_of(page(client_for(organiser), "battle", battle))
    assert all(m in body for m in PRUSSIAN_SECRETS + AUSTRIAN_SECRETS)
    assert "Umpire sheet" in body


def test_outsiders_and_uninvolved_players_may_not_see_the_battle(battle, outsider, ally):
    for user in (outsider, ally):
        assert page(client_for(user), "battle", battle).status_code == 403
        assert page(client_for(user), "table_png", battle).status_code == 403
        assert page(client_for(user), "briefing", battle, "prussian").status_code == 403


def test_a_side_may_not_print_the_other_sides_or_the_umpires_sheet(battle, player):
    client = client_for(player)
    assert page(client, "briefing", battle, "austrian").status_code == 403
    assert page(client, "briefing", battle, "umpire").status_code == 403
    assert page(client, "briefing", battle, "prussian").status_code == 200


def test_the_printable_briefing_has_the_table_and_print_css(battle, player):
    body = page(client_for(player), "briefing", battle, "prussian", paper="letter")
    text = body.content.decode()
    assert "@page { size: Letter" in text
    assert "data:image/png;base64," in text
    assert "Prussian army: for this side only" in text  # named by who fights (issue 14)
    assert page(client_for(player), "briefing", battle, "prussian", paper="a3").status_code == 404
    # The scenario sheet (issue 14): Frederick marched East into Charles's hex and attacks.
    for item in ("The Prussian army attacks: it marched into the hex", "sets up first",
                 "turns of 30 minutes", "Frederick is present", "What you do not know",
                 "Retiring:", "Siege trains:", "Order of battle", "Victory conditions",
                 "<th>Retreats</th>", 'id="result"', "break-inside: avoid"):  # fmt: skip
        assert item in text, item
    # The road of the map (0302-0602) crosses the battle hex: two roads on the table.
    assert "2 roads" in text and "(W)" in text and "(E)" in text


def test_the_table_picture_is_a_png(battle, player):
    r = page(client_for(player), "table_png", battle)
    assert r["Content-Type"] == "image/png"
    assert r.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_result_with_impossible_numbers_is_explained(battle, player):
    client = client_for(player)
    r = post(
        client,
        "enter",
        battle,
        {"loser": "austrian", "outcome": "defeated", "loss_prussia": 99999, "loss_austria": 0},
    )
    # The page drawn again with what was typed and the problem at the form (nothing saved).
    assert r.status_code == 200
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PENDING and not battle.entries.exists()
    body = r.content.decode()
    assert "more than the 2213 present" in body
    assert 'name="loss_prussia" value="99999"' in body


def test_parse_result_names_every_problem(battle):
    with pytest.raises(service.BattleError) as caught:
        battle_results.parse_result(
            battle,
            {"loser": "french", "outcome": "won", "losses": {"prussia": -1},
             "killed": ["laudon"], "captured": []},
        )  # fmt: skip
    message = str(caught.value)
    assert "which side lost" in message
    assert "retired or was defeated" in message
    assert "cannot be negative" in message
    assert "'laudon' was not a leader in this battle" in message


def test_the_side_that_entered_may_not_confirm(battle, player):
    client = client_for(player)
    post(client, "enter", battle, {"loser": "austrian", "outcome": "defeated",
                                    "loss_prussia": 100, "loss_austria": 300})  # fmt: skip
    post(client, "confirm", battle, {"entry": 1})
    battle.refresh_from_db()
    assert battle.status == BattleStatus.ENTERED


def test_the_whole_path_entered_disputed_settled_applied_and_the_turn_goes_on(
    battle, player, other, organiser, django_capture_on_commit_callbacks
):
    campaign = battle.campaign
    prussians, austrians = client_for(player), client_for(other)
    with django_capture_on_commit_callbacks(execute=True):
        post(prussians, "enter", battle, {"loser": "austrian", "outcome": "defeated",
                                          "loss_prussia": 150, "loss_austria": 600})  # fmt: skip
    battle.refresh_from_db()
    assert battle.status == BattleStatus.ENTERED
    assert any("waits for you" in m.subject for m in mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        post(austrians, "dispute", battle, {"reason": "We lost 400, not 600.", "entry": 1})
    battle.refresh_from_db()
    assert battle.status == BattleStatus.DISPUTED
    assert any("disputed" in m.subject for m in mail.outbox)
    # A disputed result waits for the organiser: the players cannot enter another.
    post(prussians, "enter", battle, {"loser": "austrian", "outcome": "defeated",
                                      "loss_prussia": 150, "loss_austria": 600})  # fmt: skip
    battle.refresh_from_db()
    assert battle.status == BattleStatus.DISPUTED
    before = campaign.latest_version().number
    with django_capture_on_commit_callbacks(execute=True):
        r = post(client_for(organiser), "settle", battle, {
            "loser": "austrian", "outcome": "defeated", "loss_prussia": 150,
            "loss_austria": 400, "captured": ["daun"]})  # fmt: skip
    assert r.status_code == 302
    battle.refresh_from_db()
    assert battle.status == BattleStatus.APPLIED, battle.status
    campaign.refresh_from_db()
    latest = campaign.latest_version()
    assert latest.number > before
    applied = StateVersion.objects.get(campaign=campaign, number=before + 1)
    assert applied.resolved_phase == "battle"
    state = applied.state
    assert state["pending_battles"] == []
    prussian_points = sum(
        x["points"] for k, x in state["leaders"].items() if k in ("frederick", "schwerin")
    )
    assert prussian_points == FREDERICK + SCHWERIN - 150
    assert "daun" not in state["leaders"]
    # The turn went on past the battle phase: siege, retreat/rally, and into the next turn.
    phases = list(
        StateVersion.objects.filter(campaign=campaign, number__gt=before)
        .order_by("number")
        .values_list("resolved_phase", flat=True)
    )
    assert phases[:2] == ["battle", "siege"], phases
    window = campaign.open_window()
    assert window is None or window.phase != "battle"
    assert any("is decided" in m.subject for m in mail.outbox)
    # The briefings are kept for history.
    assert set(battle.archive) == {"umpire", "prussian", "austrian"}
    # The chronicle lists it with its result; the gazette publishes it only after the delay.
    chronicle = client_for(player).get(reverse("battles:chronicle", args=[campaign.code]))
    assert "was defeated outright" in chronicle.content.decode()
    assert not any(
        "battle" in n["text"].lower() for n in battle_news.gazette(campaign, now=timezone.now())
    )
    later = battle_news.gazette(campaign, now=timezone.now() + timedelta(days=3))
    assert any("battle" in n["text"].lower() for n in later)


def test_the_gazette_carries_no_secret_numbers(battle, organiser):
    campaign = battle.campaign
    battle_results.settle_result(
        battle,
        organiser,
        {"loser": "prussian", "outcome": "retired", "losses": {"prussia": 321, "austria": 123},
         "killed": ["schwerin"]},
        now=timezone.now() - timedelta(days=5),
    )  # fmt: skip
    Battle.objects.filter(id=battle.id).update(applied_at=timezone.now() - timedelta(days=5))
    StateVersion.objects.filter(campaign=campaign).update(
        created=timezone.now() - timedelta(days=5)
    )
    news = battle_news.gazette(campaign, now=timezone.now())
    text = " ".join(n["text"] for n in news)
    assert "The battle near Prague (hex 0502): Frederick against Charles" in text
    assert "Schwerin" in text
    for secret in (*PRUSSIAN_SECRETS, *AUSTRIAN_SECRETS, "321", "123", "2213", "3150"):
        assert secret not in text
    public = client_for(organiser).get(reverse("battles:gazette", args=[campaign.code]))
    assert public.status_code == 200
    anonymous = Client().get(reverse("battles:gazette", args=[campaign.code]))
    assert anonymous.status_code == 200 and "Schwerin" in anonymous.content.decode()


def test_the_organiser_may_resolve_quickly_and_it_is_marked(battle, organiser):
    campaign = battle.campaign
    post(client_for(organiser), "quick", battle, {"attacker": "prussian"})
    battle.refresh_from_db()
    assert battle.quick and battle.status == BattleStatus.APPLIED
    assert "not fought on the table" in battle.quick_record["method"]
    assert battle.quick_record["steps"][0]["rule"] == "quick resolution"
    body = client_for(organiser).get(reverse("battles:chronicle", args=[campaign.code]))
    assert "Not fought on the table" in body.content.decode()


def test_only_the_organiser_settles_sets_dates_and_resolves_quickly(battle, player):
    client = client_for(player)
    assert post(client, "settle", battle, {"loser": "austrian"}).status_code == 403
    assert post(client, "quick", battle).status_code == 403
    assert post(client, "date", battle, {"fight_on": "2030-01-01T19:00"}).status_code == 403


def test_a_date_brings_reminders_once_each(battle, organiser):
    now = timezone.now()
    when = now + timedelta(days=10)
    battle_dates.set_date(battle, organiser, when, now=now)
    # The battle window waits for the table: no deadline drops the battle.
    assert battle.campaign.open_window().deadline is None
    assert battle_dates.send_reminders(now=when - timedelta(hours=2)) == 1
    assert battle_dates.send_reminders(now=when - timedelta(hours=1)) == 0
    assert battle_dates.send_reminders(now=when + timedelta(hours=1)) == 1  # overdue: organiser
    assert battle_dates.send_reminders(now=when + timedelta(hours=2)) == 0


def test_a_date_in_the_past_is_refused(battle, organiser):
    with pytest.raises(service.BattleError):
        battle_dates.set_date(
            battle, organiser, timezone.now() - timedelta(days=1), now=timezone.now()
        )


def test_wrong_methods_are_refused(battle, player):
    client = client_for(player)
    assert (
        client.get(reverse("battles:confirm", args=[battle.campaign.code, battle.code])).status_code
        == 405
    )  # noqa: E501
    assert post(client, "battle", battle).status_code == 405


def test_the_organiser_edits_the_tabletop_settings(battle, organiser, player):
    campaign = battle.campaign
    target = reverse("battles:settings", args=[campaign.code])
    assert client_for(player).get(target).status_code == 403
    r = client_for(organiser).post(
        target,
        {"table_long": 8, "table_short": 5, "ratio": "1/2", "british_share": "1/3",
         "gazette_delay_hours": 24, "points_per_strength_point": 40,
         "unit_system": "prussias-glory", "points_per_battalion": 60,
         "unit_costs": "Musketeers, Prussian, 100\nRegiment, Swedish, 90"},
    )  # fmt: skip
    assert r.status_code == 302
    campaign = Campaign.objects.get(id=campaign.id)
    ts = service.tabletop_settings(campaign)
    assert ts.table_feet == (8, 5) and str(ts.scale.ratio) == "1/2"
    brief = battle_briefing.briefing(Battle.objects.get(id=battle.id), "prussian")
    own = next(s for s in brief["sides"] if s["own"])
    assert own["tabletop_points"] == (FREDERICK + SCHWERIN + 1) // 2
    assert own["order_of_battle"][0]["lines"]
    # The printed briefing: the order of battle by wing in the chosen rules' units (issue 14).
    sheet = page(client_for(player), "briefing", battle, "prussian").content.decode()
    assert "Order of battle (Prussia&#x27;s Glory)" in sheet and "infantry SP" in sheet
    assert f"= {(FREDERICK + SCHWERIN + 1) // 2} tabletop points" in sheet
    option = page(client_for(player), "briefing", battle, "prussian", units="per-battalion")
    assert "60 points per battalion" in option.content.decode()
    bad = client_for(organiser).post(target, {"table_long": 4, "table_short": 6, "ratio": "x",
                                              "gazette_delay_hours": 1,
                                              "points_per_strength_point": 1})  # fmt: skip
    assert bad.status_code == 200 and "shorter one" in bad.content.decode()


def test_a_player_records_a_collection_and_is_warned(battle, player):
    client = client_for(player)
    post(client, "collection", battle, {"points": 1000})
    body = page(client, "battle", battle).content.decode()
    assert "painted collection holds 1000" in body


@pytest.mark.browser
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_briefings_print_to_pdf_in_chromium(battle, player, organiser, paper, tmp_path):
    """Printed by chromium, read back with pypdfium2 (text, page size, pages as pictures)."""
    import os
    from pathlib import Path

    pdfium = pytest.importorskip("pypdfium2")
    if battle_print.chromium() is None:
        pytest.skip("chromium is needed (apt-get install chromium)")
    r = page(client_for(player), "briefing_pdf", battle, "prussian", paper=paper)
    assert r.status_code == 200, r.content[:300]
    assert r["Content-Type"] == "application/pdf" and r.content[:5] == b"%PDF-"
    pdf = pdfium.PdfDocument(r.content)
    text = "\n".join(p.get_textpage().get_text_range() for p in pdf)
    assert "Prussian army: for this side only" in text and "Frederick" in text
    assert all(m in text for m in PRUSSIAN_SECRETS)
    assert not any(m in text for m in AUSTRIAN_SECRETS)
    width, height = pdf[0].get_size()  # points
    assert (round(width), round(height)) == ((595, 842) if paper == "a4" else (612, 792))
    if os.environ.get("DGK_KEEP_PRINTS"):
        (Path(os.environ["DGK_KEEP_PRINTS"]) / f"side-{paper}.pdf").write_bytes(r.content)
    image = pdf[0].render(scale=40 / 72).to_pil().convert("L")
    assert image.getextrema()[0] < 50  # black ink on the page
    umpire = pdfium.PdfDocument(page(client_for(organiser), "briefing_pdf", battle, "umpire",
                                     paper=paper).content)  # fmt: skip
    text = "\n".join(p.get_textpage().get_text_range() for p in umpire)
    assert all(m in text for m in PRUSSIAN_SECRETS + AUSTRIAN_SECRETS)


def test_the_result_section_is_an_htmx_partial(battle, player):
    client = client_for(player)
    r = client.get(
        reverse("battles:battle", args=[battle.campaign.code, battle.code]), HTTP_HX_REQUEST="true"
    )
    body = r.content.decode()
    assert 'id="result"' in body and "<html" not in body
    r = client.post(
        reverse("battles:enter", args=[battle.campaign.code, battle.code]),
        {"loser": "austrian", "outcome": "defeated", "loss_prussia": 10, "loss_austria": 20},
        HTTP_HX_REQUEST="true",
    )
    body = r.content.decode()
    assert r.status_code == 200 and "<html" not in body
    assert "Result entered" in body and "retired" in body


def test_the_organiser_sets_the_date_through_the_page(
    battle, organiser, player, django_capture_on_commit_callbacks
):
    # typed as the campaign's clock reads it (the form says which time zone)
    zone = ZoneInfo(battle.campaign.time_zone)
    when = (timezone.now().astimezone(zone) + timedelta(days=7)).replace(second=0, microsecond=0)
    with django_capture_on_commit_callbacks(execute=True):
        r = post(
            client_for(organiser), "date", battle, {"fight_on": when.strftime("%Y-%m-%dT%H:%M")}
        )
    assert r.status_code == 302
    battle.refresh_from_db()
    assert battle.fight_on == when
    told = [m for m in mail.outbox if "is fought on" in m.subject]
    assert [player.email] in [m.to for m in told]  # one email each (test_battle_emails_...)
    body = page(client_for(player), "battle", battle).content.decode()
    assert "To be fought on" in body


def test_a_seats_pending_battles_for_its_dashboard(battle, campaign):
    assert service.battles_for_seat(seat(campaign, "prussia")) == [battle]
    assert service.battles_for_seat(seat(campaign, "hanover")) == []


def test_the_chronicle_shows_exact_forces_only_to_those_who_fought(battle, player, ally):
    target = reverse("battles:chronicle", args=[battle.campaign.code])
    fought = client_for(player).get(target).content.decode()
    watched = client_for(ally).get(target).content.decode()
    assert "2213 points against 3150 points" in fought
    # Hanover (not in the battle, allies not sharing) reads neither strengths nor size classes
    # (3, 12.1), nor the VPs at stake that follow from them.
    assert "2213" not in watched and "size class" not in watched and "at stake" not in watched


def test_outsiders_may_not_read_the_chronicle(battle, outsider):
    target = reverse("battles:chronicle", args=[battle.campaign.code])
    assert client_for(outsider).get(target).status_code == 403


def test_a_result_settled_while_paused_is_applied_by_the_sweep_once_resumed(
    battle, organiser, django_capture_on_commit_callbacks
):
    from campaign.services import organiser as organiser_service

    campaign = battle.campaign
    now = timezone.now()
    organiser_service.pause(campaign, organiser, now=now)
    result = {"loser": "prussian", "outcome": "retired", "losses": {"prussia": 100}}
    battle_results.settle_result(battle, organiser, result, now=now)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.SETTLED
    assert battle_dates.sweep(now=now)["applied"] == 0  # still paused
    organiser_service.resume(campaign, organiser, now=now)
    with django_capture_on_commit_callbacks(execute=True):
        assert battle_dates.sweep(now=now)["applied"] == 1
    battle.refresh_from_db()
    assert battle.status == BattleStatus.APPLIED
    assert battle_dates.sweep(now=now)["applied"] == 0


def test_the_beat_sweep_queues_one_settling_task_per_waiting_campaign(
    battle, organiser, django_capture_on_commit_callbacks
):
    """The sweep fans out (issue 36): the campaign with a result to apply is queued as a task
    of its own (run here, eagerly: the tests have no broker), which applies it."""
    campaign = battle.campaign
    now = timezone.now()
    organiser_service.pause(campaign, organiser, now=now)
    result = {"loser": "prussian", "outcome": "retired", "losses": {"prussia": 100}}
    battle_results.settle_result(battle, organiser, result, now=now)
    assert battle_dates.campaigns_to_settle() == []  # paused: nothing to do
    organiser_service.resume(campaign, organiser, now=now)
    assert battle_dates.campaigns_to_settle() == [campaign.id]
    with django_capture_on_commit_callbacks(execute=True):
        assert battle_tasks.sweep_battles.delay().get() == 1
    battle.refresh_from_db()
    assert battle.status == BattleStatus.APPLIED
    assert battle_dates.campaigns_to_settle() == []
    assert battle_tasks.sweep_battles.delay().get() == 0


def test_the_side_that_chose_to_fight_attacks_in_the_quick_resolution(battle, organiser):
    assert battle_results.wished_to_fight(battle) == ["prussian"]
    battle_results.quick_resolve(battle, organiser, attacker=None, now=timezone.now())
    battle.refresh_from_db()
    steps = [s["text"] for s in battle.quick_record["steps"]]
    assert any("prussian attack: the only side that chose to fight (9)" in t for t in steps)


def test_the_quick_resolution_keeps_its_prisoners_apart_and_the_engine_holds_them(
    battle, organiser
):
    # Prussians (Frederick, IR 3) attack at 70% the Austrians (Charles, IR 1) who have stood a
    # turn in the hex: 12" of field works, -2. Whatever the die, one side wins on totals and
    # takes prisoners (docs/quick-resolution.md).
    assert battle.setup["sides"]["austrian"]["field_works"]["inches"] == 12
    battle_results.quick_resolve(battle, organiser, attacker=None, now=timezone.now())
    battle.refresh_from_db()
    steps = [s["text"] for s in battle.quick_record["steps"]]
    assert any('austrian defend 12" of field works, 9.4' in t for t in steps)
    result = battle.result
    loser, winner = (
        ("prussia", "austria") if result["loser"] == "prussian" else ("austria", "prussia")
    )
    taken = result["prisoners"][loser]
    assert 0 < taken < result["losses"][loser]
    assert winner not in result["prisoners"]
    held = battle.campaign.latest_version().state["prisoners"]
    assert {"army": loser, "held_by": winner, "points": taken} in held
    lines = battle_briefing.describe_result(battle, result)
    assert any(f"of which {taken} taken prisoner (13.2)" in line for line in lines)


def test_prisoners_in_a_result_are_a_part_of_the_losses(battle):
    data = {"loser": "austrian", "outcome": "defeated", "losses": {"austria": 300}}
    result = battle_results.parse_result(battle, {**data, "prisoners": {"austria": 100}})
    assert result["prisoners"] == {"austria": 100}
    assert "prisoners" not in battle_results.parse_result(battle, data)
    with pytest.raises(service.BattleError, match="a part of its losses"):
        battle_results.parse_result(battle, {**data, "prisoners": {"austria": 301}})


def test_the_periodic_sweep_sends_the_battle_reminders_once(
    battle, organiser, player, other, django_capture_on_commit_callbacks
):
    from battles import tasks

    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        battle_dates.set_date(battle, organiser, now + timedelta(hours=2), now=now)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_battles.delay()
    battle.refresh_from_db()
    assert battle.reminded_before is not None
    told = [m for m in mail.outbox if "is fought tomorrow" in m.subject]
    assert sorted(m.to for m in told) == sorted([[other.email], [player.email]])  # one each
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_battles.delay()
    assert len([m for m in mail.outbox if "is fought tomorrow" in m.subject]) == 2


def test_battle_emails_are_sent_by_the_task_after_commit_not_in_the_request(
    battle, organiser, player, django_capture_on_commit_callbacks
):
    from mail import tasks

    now = timezone.now()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        battle_dates.set_date(battle, organiser, now + timedelta(days=3), now=now)
    assert not mail.outbox  # nothing is sent before the commit
    assert callbacks
    for callback in callbacks:
        callback()
    sent = [m for m in mail.outbox if "is fought on" in m.subject]
    assert len(sent) == 2 and [player.email] in [m.to for m in sent]
    assert sent[0].alternatives[0][1] == "text/html"
    # The task alone makes the same email from ids, recipients read at sending time.
    mail.outbox.clear()
    assert tasks.send_email.delay("battle", battle_id=battle.id, battle_kind="overdue",
                                  organiser=True).get()  # fmt: skip
    assert mail.outbox[0].to == [organiser.email]
    assert not tasks.send_email.delay("battle", battle_id=0, battle_kind="overdue").get()


def test_the_dashboard_links_the_seats_own_battles_and_pages(battle, player, ally):
    campaign = battle.campaign
    battle_link = reverse("battles:battle", args=[campaign.code, battle.code])
    prussia = seat(campaign, "prussia")
    page = client_for(player).get(url("dashboard", prussia)).content.decode()
    assert battle_link in page
    assert reverse("action_log", args=[campaign.code]) in page
    assert reverse("seat_settings", args=[prussia.code]) in page
    hanover = seat(campaign, "hanover")  # an ally with no force in the battle
    page = client_for(ally).get(url("dashboard", hanover)).content.decode()
    assert battle_link not in page
    assert reverse("seat_settings", args=[hanover.code]) in page
    assert reverse("seat_settings", args=[prussia.code]) not in page


def test_the_umpire_reading_a_seat_gets_no_link_to_its_email_settings(battle, organiser):
    campaign = battle.campaign
    prussia = seat(campaign, "prussia")
    response = client_for(organiser).get(url("dashboard", prussia))
    assert response.status_code == 200
    assert reverse("seat_settings", args=[prussia.code]) not in response.content.decode()


def test_the_board_links_the_chronicle_and_the_gazette_for_the_organiser_only(
    battle, organiser, player
):
    campaign = battle.campaign
    board = reverse("organiser_board", args=[campaign.code])
    page = client_for(organiser).get(board).content.decode()
    assert reverse("battles:chronicle", args=[campaign.code]) in page
    assert reverse("battles:gazette", args=[campaign.code]) in page
    assert client_for(player).get(board).status_code == 403
    # The phase waits for the table, not for orders (nobody owes any), and the battle is named.
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "The battle phase waits for the tabletop results of its battles." in text
    assert "waits for orders" not in text
    assert "The battle near Prague (hex 0502), turn 1" in text


def test_the_side_that_chose_to_fight_is_the_one_the_engine_set_the_army_on(battle):
    """After a change of sides (13.8) an army fights for the other alliance: the side comes from
    the engine's battle set-up, not from the book's alliances (1.2)."""
    setup_ = battle.setup
    sides = setup_["sides"]
    sides["prussian"], sides["austrian"] = sides["austrian"], sides["prussian"]
    Battle.objects.filter(id=battle.id).update(setup=setup_)
    battle.refresh_from_db()
    assert battle_results.wished_to_fight(battle) == ["austrian"]


def test_a_quick_retreat_of_a_side_that_may_not_retire_is_a_defeat(battle, organiser):
    # The Austrians stood still (no march order): 10.1 forbids them to retire. Made the attacker,
    # they break off on a draw in SPI's table; that retreat is then a defeat outright, and the
    # record says why. The seed is looked for with the service's own quick_outcome.
    assert battle.setup["sides"]["austrian"]["may_retire"] is False
    # Sides as strong and as well led as each other once the odds are read, no works, so that
    # a draw comes up (about one roll in three at these strengths).
    austrian, prussian = battle.setup["sides"]["austrian"], battle.setup["sides"]["prussian"]
    austrian.update(leaders=prussian["leaders"], field_works={}, points=3000)
    austrian["points_by_country"]["austria"]["points"] = 3000
    austrian["commander"] = prussian["commander"]
    battle.save(update_fields=["setup"])
    campaign = battle.campaign
    for n in range(400):
        campaign.seed = f"retire-{n}"
        outcome, _ = battle_results.quick_outcome(battle, "austrian")
        if outcome.loser.name == "austrian" and outcome.loser.outcome.value == "retired":
            break
    else:
        pytest.fail("no seed in 400 makes SPI's table retreat the Austrians")
    campaign.save(update_fields=["seed"])
    battle.refresh_from_db()
    battle_results.quick_resolve(battle, organiser, attacker="austrian", now=timezone.now())
    battle.refresh_from_db()
    assert battle.result["loser"] == "austrian" and battle.result["outcome"] == "defeated"
    steps = [s["text"] for s in battle.quick_record["steps"]]
    assert any("Austrian side may not retire" in t and "defeated outright" in t for t in steps)


def test_the_battle_page_is_headed_by_its_place_and_date(battle, player):
    r = page(client_for(player), "battle", battle)
    heading = re.search(r"<h1>(.*?)</h1>", r.content.decode()).group(1)
    # the hex's town, as the chronicle names it, and the half month kept on one line
    assert heading.startswith(("The battle of ", "Battle near ", "Battle in hex "))
    assert heading.endswith(", April\xa0I")


def test_a_battle_of_a_seat_on_the_caretaker_goes_to_the_quick_resolution(battle, organiser):
    """Issue 35: nobody brings the caretaker's miniatures to the table; the battles' sweep
    settles its battles with SPI's tables, in the organiser's name, logged."""
    now = timezone.now()
    assert battle_dates.caretaker_battles(now=now) == 0  # no seat on the caretaker: the table waits
    battle.refresh_from_db()
    assert battle.status == "pending"
    austria = seat(battle.campaign, "austria")
    caretaker.hand_over(austria, organiser, style="defensive", until=None, now=now)
    assert battle_dates.caretaker_battles(now=now) == 1
    battle.refresh_from_db()
    assert battle.status != "pending" and battle.quick
    assert battle_dates.caretaker_battles(now=now) == 0  # once
