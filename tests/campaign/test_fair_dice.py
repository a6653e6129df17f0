# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""Fair dice (issue 11): the campaign seed is a server secret until the end, committed at the
start, revealed at the end and checkable roll by roll; re-seeding after an exposure.

The battle fixtures come from ``test_battles``: Frederick attacks Charles and Daun on a small map.
"""

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from PIL import ImageDraw

from battles.services import records as battle_service
from campaign.models import Campaign, OrganiserAction
from campaign.services import fairdice, setup
from campaign.services import organiser as tools
from campaign.services.resolution import resolve_due_phase
from maps.tasks import draw_map_picture
from rules.dice import check_rolls, commitment, derive_seed, short_code
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    battle,
    battle_map,
    campaign,
    page,
    post,
)
from tests.orders.test_play_fixtures import client_for, seat, url
from tests.standing import make_user

pytestmark = pytest.mark.django_db


def fragments(secret: str, size: int = 8) -> set[str]:
    """Every run of ``size`` characters of the seed: no page may show even part of it."""
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


def assert_no_seed(text: str, campaign) -> None:
    leaked = [f for f in fragments(campaign.seed) if f in text]
    assert not leaked, f"the campaign seed shows: {leaked[:3]}"


@pytest.fixture
def drawn_text(monkeypatch):
    """Every string drawn on a picture while the test runs (the drawing still happens)."""
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, string, *args, **kwargs):
        drawn.append(str(string))
        return original(self, xy, string, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return drawn


def test_the_table_picture_prints_a_short_code_not_the_seed(battle, player, drawn_text):
    r = page(client_for(player), "table_png", battle)
    assert r.status_code == 200 and r.content[:4] == b"\x89PNG"
    caption = " ".join(drawn_text)
    assert_no_seed(caption, battle.campaign)
    table_seed = derive_seed(battle.campaign.seed, f"table:{battle.battle_id}")
    assert battle.table_seed == table_seed
    assert f"table code {short_code(table_seed)}" in caption
    assert table_seed not in caption


def test_the_briefings_and_battle_page_show_no_seed(battle, player, organiser, drawn_text):
    campaign = battle.campaign
    for client, side in ((client_for(player), "prussian"), (client_for(organiser), "umpire")):
        for body in (
            page(client, "battle", battle).content.decode(),
            page(client, "briefing", battle, side).content.decode(),
        ):
            assert_no_seed(body, campaign)
    assert_no_seed(" ".join(drawn_text), campaign)


def test_the_table_stays_the_same_when_the_campaign_is_reseeded(battle, organiser, now):
    before = battle_service.table_layout(battle)
    fairdice.reseed(battle.campaign, organiser, "the seed was on a printout", now=now)
    battle.refresh_from_db()
    battle.campaign.refresh_from_db()
    assert battle_service.table_layout(battle) == before


def test_the_quick_resolution_rolls_with_its_own_seed_and_is_checked(battle, organiser):
    campaign = battle.campaign
    post(client_for(organiser), "quick", battle, {"attacker": "prussian"})
    battle.refresh_from_db()
    rolls = battle.quick_record["rolls"]
    assert rolls and all(r["name"].startswith("quick-battle:") for r in rolls)
    assert check_rolls(derive_seed(campaign.seed, "quick"), rolls) == (len(rolls), [])
    check = fairdice.verify(campaign)
    assert check.ok and check.checked > len(rolls)


def test_every_member_sees_the_commitment_and_not_the_seed(campaign, player, organiser):
    for user in (player, organiser):
        body = client_for(user).get(reverse("campaign_dice", args=[campaign.code]))
        text = body.content.decode()
        assert campaign.seed_commitment in text
        assert_no_seed(text, campaign)
        dashboard = client_for(user).get(url("dashboard", seat(campaign, "prussia"))).content
        assert_no_seed(dashboard.decode(), campaign)
    assert campaign.seed_commitment == commitment(campaign.seed)


def test_outsiders_may_not_read_the_dice_page(campaign, outsider):
    r = client_for(outsider).get(reverse("campaign_dice", args=[campaign.code]))
    assert r.status_code == 403


def test_the_start_email_carries_the_commitment(
    new_campaign, organiser, mailoutbox, django_capture_on_commit_callbacks, now
):
    for s in new_campaign.seats.all():
        s.user = make_user(f"d-{s.power}")
        s.save()
    with django_capture_on_commit_callbacks(execute=True):
        setup.start_campaign(new_campaign, organiser, now=now)
    new_campaign.refresh_from_db()
    starts = [m for m in mailoutbox if "orders are due" in m.subject]
    assert len(starts) == 5
    for message in starts:
        assert new_campaign.seed_commitment in message.body
        assert_no_seed(message.body, new_campaign)


def play_to_the_end(campaign, capture) -> int:
    resolutions = 0
    while (window := campaign.open_window()) is not None:
        with capture(execute=True):
            assert resolve_due_phase(window.id, now=window.deadline) is not None
        resolutions += 1
        assert resolutions < 100
    campaign.refresh_from_db()
    return resolutions


@pytest.fixture
def scheme(request, monkeypatch) -> str:
    """The campaign made now (v2, a 256-bit seed), or one made before issue 25 (v1: a 64-bit
    seed, as ``token_hex(8)`` drew it then), its seed drawn so when the campaign is made."""
    version, seed = request.param
    if seed:
        monkeypatch.setattr(Campaign._meta.get_field("seed"), "_get_default", lambda: seed)
    return version


@pytest.mark.parametrize(
    "scheme",
    [
        ("dgk-dice-v2, a 256-bit seed", None),
        ("dgk-dice-v1, a 64-bit seed", "9f86d081884c7d65"),
    ],
    indirect=True,
)
def test_a_finished_season_reveals_the_seed_and_every_roll_checks(
    scheme, request, player, mailoutbox, django_capture_on_commit_callbacks, capsys
):
    campaign = request.getfixturevalue("campaign")  # started after ``scheme`` set its seed
    assert len(campaign.seed) * 4 == int(scheme.split("a ")[1].split("-bit")[0])
    campaign.seats.update(email_kinds=["campaign-over"])
    play_to_the_end(campaign, django_capture_on_commit_callbacks)
    assert campaign.status == "ended"
    text = client_for(player).get(reverse("campaign_dice", args=[campaign.code])).content
    assert campaign.seed in text.decode() and "match the revealed seeds" in text.decode()
    assert scheme in text.decode()
    over = [m for m in mailoutbox if "campaign is over" in m.subject]
    assert over and reverse("campaign_dice", args=[campaign.code]) in over[0].body
    call_command("verifydice", str(campaign.code))
    out = capsys.readouterr().out
    assert f"({scheme})" in out
    checked = int(out.split(" rolls checked")[0].split()[-1])
    assert checked >= 18 * 5 and "all match" in out  # march allocation, every army, every turn


def test_verifydice_fails_on_a_tampered_roll(campaign, django_capture_on_commit_callbacks):
    play_to_the_end(campaign, django_capture_on_commit_callbacks)
    version = next(v for v in campaign.versions.order_by("number") if v.rolls)
    rolls = [dict(r) for r in version.rolls]
    rolls[0]["dice"] = [(rolls[0]["dice"][0] % 6) + 1, *rolls[0]["dice"][1:]]
    version.rolls = rolls
    version.save()
    with pytest.raises(CommandError, match="1 do not match"):
        call_command("verifydice", campaign.name)
    check = fairdice.verify(campaign)
    assert [m.name for _, m in check.mismatches] == [rolls[0]["name"]]


def test_the_organiser_reseeds_and_later_rolls_use_the_new_seed(
    campaign, organiser, player, mailoutbox, django_capture_on_commit_callbacks
):
    old = campaign.seed
    client = client_for(organiser)
    confirm = client.get(reverse("reseed", args=[campaign.code])).content.decode()
    assert "Change the dice seed?" in confirm
    refused = client.post(reverse("reseed", args=[campaign.code]), {"reason": " "})
    assert "Say why" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(reverse("reseed", args=[campaign.code]), {"reason": "seen on a print"})
    assert r.status_code == 302
    campaign.refresh_from_db()
    assert campaign.seed != old and campaign.seed_epoch == 1
    assert len(bytes.fromhex(campaign.seed)) * 8 == 256  # docs/dice.md, scheme v2
    assert campaign.past_seeds == [{"epoch": 0, "seed": old}]
    logged = OrganiserAction.objects.get(campaign=campaign, kind="reseeded")
    assert "seen on a print" in logged.text and campaign.seed_commitment in logged.text
    told = [m for m in mailoutbox if "changed the dice seed" in m.subject]
    assert len(told) == 5 and all(campaign.seed_commitment in m.body for m in told)
    assert all(old not in m.body for m in told)
    # A player may not re-seed.
    assert client_for(player).post(reverse("reseed", args=[campaign.code])).status_code == 403
    play_to_the_end(campaign, django_capture_on_commit_callbacks)
    later = [v for v in campaign.versions.filter(seed_epoch=1) if v.rolls]
    assert later and all(check_rolls(campaign.seed, v.rolls)[1] == [] for v in later)
    assert any(check_rolls(old, v.rolls)[1] for v in later)
    assert fairdice.verify(campaign).ok
    page_text = client_for(player).get(reverse("campaign_dice", args=[campaign.code])).content
    assert old in page_text.decode() and campaign.seed in page_text.decode()


def test_an_ended_campaign_cannot_be_reseeded(campaign, organiser, now):
    tools.end_campaign(campaign, organiser, now=now)
    campaign.refresh_from_db()
    with pytest.raises(tools.OrganiserError, match="revealed"):
        fairdice.reseed(campaign, organiser, "too late", now=now)


def test_a_map_picture_after_a_roll_back_is_not_the_cached_one(campaign, organiser, player, now):
    """Version N made again after a roll back is another picture: another ETag, and only a URL
    naming the version's id is cached for good."""
    prussia = seat(campaign, "prussia")
    window = campaign.open_window()
    resolve_due_phase(window.id, now=window.deadline)
    first = campaign.latest_version()
    draw_map_picture.delay(first.id, prussia.id)  # the worker's part
    c = client_for(player)
    before = c.get(url("map", prussia, first.number), {"v": first.id})
    assert before.status_code == 200
    tools.roll_back(campaign, organiser, now=now)
    window = campaign.open_window()
    resolve_due_phase(window.id, now=window.deadline)
    again = campaign.versions.get(number=first.number)
    assert again.id != first.id
    assert c.get(url("map", prussia, again.number)).status_code == 202  # not the old picture
    draw_map_picture.delay(again.id, prussia.id)
    after = c.get(url("map", prussia, again.number))
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"] and "no-cache" in after["Cache-Control"]
    assert "immutable" in before["Cache-Control"]
