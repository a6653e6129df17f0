"""Setting a campaign up: the form, seats from the 1.2 presets, army points, leaders, start."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from campaign.models import Campaign, CampaignStatus, LeaderSelection, Seat
from campaign.services import gameplay, setup
from rules.rulesettings import RuleSettings
from tests.standing import NO_MAP

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Saxony 1757",
    "players": "3",
    "army_size": "base",
    "base_army": "sweden",
    "base_points": "200",
    "leader_selection": "historical",
    "time_zone": "Europe/Berlin",
    "reminder_hours": "24, 2",
    "flag_after_missed": "2",
    "rule_settings": '{"march_mp": 6}',
    "optional_rules": ["13.1"],
    "hours_deployment": "72",
    "hours_march": "48",
    "hours_forced-march": "24",
    "hours_battle": "48",
    "hours_siege": "24",
    "email_prussia": "fritz@example.org",
}


def test_it_creates_a_campaign_from_the_form(
    client, organiser, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(reverse("new_campaign"), FORM)
    campaign = Campaign.objects.get(name="Saxony 1757")
    assert r.status_code == 302 and r.url == reverse("campaign_setup", args=[campaign.code])
    assert campaign.status == CampaignStatus.SETUP
    assert campaign.army_points["prussia"] == 3200 and campaign.army_points["empire"] == 800
    assert campaign.rule_settings == {"march_mp": 6}
    assert campaign.options["optional_rules"] == ["13.1"]
    assert campaign.deadline_policy["march"] == {"hours": 48}
    assert campaign.reminders == {"hours_before": [24, 2], "flag_after_missed": 2}
    # 1.2, three players: the Prussian player also commands Hanover.
    armies = {s.power: s.armies for s in campaign.seats.all()}
    assert armies == {
        "austria": ["austria", "empire", "russia", "sweden"],
        "france": ["france"],
        "prussia": ["hanover", "prussia"],
    }
    assert [m.to for m in mailoutbox] == [["fritz@example.org"]]


def test_it_shows_the_form_errors(client, organiser):
    client.force_login(organiser)
    r = client.post(reverse("new_campaign"), {**FORM, "rule_settings": '{"no_such": 1}'})
    assert r.status_code == 200
    assert "is not a rule setting" in r.content.decode()
    assert not Campaign.objects.exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"march_mp": }', "Not readable as settings (line 1, character 14)"),
        ("[6]", "Write the settings between braces"),
        ('{"march_mp": -1}', "rule setting &#x27;march_mp&#x27; cannot be below 0"),
        # what would hold the worker or fail the page (a review of the open doors)
        ('{"march_dice": {"austria": 1000000000}}', "is too far from the book&#x27;s 2"),
        ('{"siege_dice": 1e308}', "is too far from the book&#x27;s 2"),
        ('{"march_mp": NaN}', "Not readable as settings: write them as"),
        ('{"march_mp": 1' + "0" * 5000 + "}", "Not readable as settings: write them as"),
        ("[" * 100_000, "Not readable as settings"),
        ('{"march_dice": {"austria": 1.5}}', "is a whole number, not 1.5"),
        ('{"vp_size_bands": ["x", {"y": 1}]}', "must be a number, not &#x27;x&#x27;"),
    ],
)
def test_bad_rule_settings_are_said_plainly_at_the_top_and_nothing_is_lost(
    client, organiser, text, said
):
    """The tester's set-up form: a raw JSON message ("Expecting value: line 1 column 14"),
    no summary, the error screens down and the armies' table gone."""
    client.force_login(organiser)
    r = client.post(reverse("new_campaign"), {**FORM, "rule_settings": text})
    page = r.content.decode()
    assert r.status_code == 200 and not Campaign.objects.exists()
    assert said in page and "Expecting value" not in page
    top = page.index('id="problems"')
    assert top < page.index('name="name"')  # the summary comes before the first field
    assert 'href="#id_rule_settings"' in page[top:]
    assert 'value="Saxony 1757"' in page  # what was typed is kept
    assert "The armies' points show here once the rule settings can be read." in page


def test_it_requires_an_organiser(client, player):
    client.force_login(player)
    assert client.get(reverse("new_campaign")).status_code == 403
    assert client.post(reverse("new_campaign"), FORM).status_code == 403


def test_it_requires_sign_in(client):
    r = client.get(reverse("new_campaign"))
    assert r.status_code == 302 and "login" in r.url


def test_army_points_follow_the_ratios_of_3_4():
    settings = RuleSettings()
    assert gameplay.army_points_from_base("sweden", 200, settings) == {
        "austria": 3200, "empire": 800, "france": 3000, "hanover": 1500,
        "prussia": 3200, "russia": 1500, "sweden": 200,
    }  # fmt: skip
    assert sum(gameplay.army_points_from_total(67_000, settings).values()) == 67_000


def test_historical_leaders_include_frederick_and_fill_the_chart():
    chosen = gameplay.historical_leaders(RuleSettings())
    assert "frederick" in chosen["prussia"]
    assert {a: len(k) for a, k in chosen.items()} == RuleSettings().leaders


def test_a_random_draw_is_seeded_and_includes_frederick():
    settings = RuleSettings()
    one, two = gameplay.random_leaders("s1", settings), gameplay.random_leaders("s1", settings)
    assert one == two
    assert "frederick" in one["prussia"] and len(one["prussia"]) == 10
    assert any(gameplay.random_leaders(f"s{i}", settings) != one for i in range(2, 6))


def test_own_picks_are_checked_and_block_the_start_until_made(organiser, now):
    campaign = setup.create_campaign(
        organiser, name="Pick", players=5, now=now, leader_selection=LeaderSelection.PICK,
        army_points=gameplay.army_points_from_base("sweden", 200, RuleSettings()), map_name=NO_MAP,
    )  # fmt: skip
    with pytest.raises(setup.SetupError, match="Leaders are not chosen"):
        setup.start_campaign(campaign, organiser, now=now)
    prussia = campaign.seats.get(power="prussia")
    problems = setup.pick_leaders(prussia, "prussia", ["schwerin", "henry"])
    assert "The Prussian player must include Frederick (3.1.1)" in problems
    assert "Prussia has 10 leaders (3.4); 2 were chosen" in problems
    assert setup.pick_leaders(prussia, "prussia", ["daun"] * 10)[0].startswith("'daun' is not")
    for seat in campaign.seats.all():
        for army in seat.armies:
            assert (
                setup.pick_leaders(seat, army, gameplay.historical_leaders(RuleSettings())[army])
                == []
            )
    setup.start_campaign(campaign, organiser, now=now)
    assert campaign.open_window().phase == "deployment"


def test_the_organiser_reassigns_armies_before_the_start(client, new_campaign, organiser):
    client.force_login(organiser)
    url = reverse("campaign_setup", args=[new_campaign.code])
    assignment = {a: s.power for s in new_campaign.seats.all() for a in s.armies}
    assignment["sweden"] = "prussia"  # an unhistorical but agreed arrangement
    r = client.post(url, assignment)
    assert r.status_code == 302
    assert "sweden" in new_campaign.seats.get(power="prussia").armies
    assert new_campaign.seats.get(power="russia").armies == ["russia"]
    assignment["russia"] = "prussia"
    r = client.post(url, assignment, follow=True)
    assert "The Russian player would command no army." in r.content.decode()


def test_the_setup_page_is_the_organisers(client, new_campaign, organiser, player, outsider):
    url = reverse("campaign_setup", args=[new_campaign.code])
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    client.force_login(outsider)
    assert client.get(url).status_code == 403


def test_it_starts_the_campaign_once(client, new_campaign, organiser, now):
    client.force_login(organiser)
    url = reverse("start_campaign", args=[new_campaign.code])
    assert client.get(url).status_code == 405
    r = client.post(url)
    assert r.url == reverse("organiser_board", args=[new_campaign.code])
    new_campaign.refresh_from_db()
    assert new_campaign.status == CampaignStatus.RUNNING
    assert new_campaign.versions.get().state["phase"] == "deployment"
    r = client.post(url, follow=True)
    assert "already started" in r.content.decode()
    assert new_campaign.versions.count() == 1


def test_an_organiser_who_plays_takes_a_seat(organiser, now):
    campaign = setup.create_campaign(
        organiser, name="Club", players=2, now=now, umpire_plays=True, organiser_seat="prussia",
        army_points=gameplay.army_points_from_base("sweden", 200, RuleSettings()), map_name=NO_MAP,
    )  # fmt: skip
    assert Seat.objects.get(campaign=campaign, user=organiser).power == "prussia"
    assert campaign.umpire_sees_all is False


def test_it_refuses_six_players(organiser, now):
    with pytest.raises(setup.SetupError, match="2 to 5 players"):
        setup.create_campaign(organiser, name="X", players=6, now=now, army_points={})


def test_the_demo_is_ready_to_click_through(settings):
    from django.core.management import call_command

    settings.DEBUG = True
    call_command("loaddemo")
    call_command("loaddemo")  # a second run keeps the first demo
    campaign = Campaign.objects.get(name="Demo 1757")
    window = campaign.open_window()
    assert (window.turn, window.phase) == (1, "march")
    assert campaign.seats.get(power="prussia").user.check_password("demo")
    assert campaign.seats.exclude(power="prussia").filter(absent_until__isnull=True).count() == 0


def test_the_demo_refuses_without_debug(settings):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("loaddemo")
    assert not Campaign.objects.exists()


def test_the_demo_refused_exits_non_zero(tmp_path):
    """As an operator (or a script) runs it: `manage.py loaddemo` with DEBUG off fails (in a
    process of its own, on a database file it never makes)."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY_FILE")},
        "DEBUG": "0",
        "SECRET_KEY": "test-only",
        "ALLOWED_HOSTS": "localhost",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'never-made.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "loaddemo"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert "DEBUG is off, no demo accounts made" in result.stderr
    assert not (tmp_path / "never-made.sqlite3").exists()


@pytest.fixture
def picking(organiser, player, other, now):
    campaign = setup.create_campaign(
        organiser, name="Pick", players=2, now=now, leader_selection=LeaderSelection.PICK,
        army_points=gameplay.army_points_from_base("sweden", 200, RuleSettings()), map_name=NO_MAP,
    )  # fmt: skip
    campaign.seats.filter(power="prussia").update(user=player)
    campaign.seats.filter(power="austria").update(user=other)
    return campaign


def test_a_player_picks_leaders_on_a_phone(client, picking, player):
    seat = picking.seats.get(power="prussia")
    page = reverse("pick_leaders", args=[seat.code])
    client.force_login(player)
    body = client.get(page).content.decode()
    assert "Frederick (rank 1, tactical 3, strategic 4*)" in body and "Prussia: 10 leaders" in body
    chosen = gameplay.historical_leaders(RuleSettings())["prussia"]
    r = client.post(page, {"army": "prussia", "leaders": chosen[1:]}, follow=True)
    assert "must include Frederick" in r.content.decode()
    client.post(page, {"army": "prussia", "leaders": chosen})
    seat.refresh_from_db()
    assert seat.leaders["prussia"] == chosen


@pytest.mark.parametrize(
    ("who", "expected"), [("other", 403), ("outsider", 403), ("organiser", 403)]
)
def test_only_the_seats_player_picks(client, picking, other, outsider, organiser, who, expected):
    seat = picking.seats.get(power="prussia")
    client.force_login({"other": other, "outsider": outsider, "organiser": organiser}[who])
    r = client.post(reverse("pick_leaders", args=[seat.code]), {"army": "prussia"})
    assert r.status_code == expected


def test_no_picking_when_the_leaders_are_drawn(client, prussia, player):
    client.force_login(player)
    page = reverse("pick_leaders", args=[prussia.code])
    assert client.get(page).status_code == 200
    assert client.post(page, {"army": "prussia", "leaders": ["frederick"]}).status_code == 403


def test_the_form_page_opens_for_an_organiser(client, organiser):
    client.force_login(organiser)
    body = client.get(reverse("new_campaign")).content.decode()
    assert "Hours for forced-march orders" in body and "Invite the Prussian player" in body


def test_a_time_of_day_deadline_from_the_form(client, organiser):
    client.force_login(organiser)
    client.post(reverse("new_campaign"), {**FORM, "deadline_at": "20:00"})
    campaign = Campaign.objects.get()
    assert campaign.deadline_policy["march"] == {"at": "20:00", "min_hours": 12}


@pytest.mark.parametrize(
    ("opened", "rule", "expected"),
    [
        # 48 hours, whatever the clock says.
        ("2026-03-27T10:00+00:00", {"hours": 48}, "2026-03-29T10:00+00:00"),
        # The next 20:00 in Berlin at least 12 hours on: the same evening is too soon.
        ("2026-06-01T10:00+00:00", {"at": "20:00", "min_hours": 12}, "2026-06-02T20:00+02:00"),
        ("2026-06-01T05:00+00:00", {"at": "20:00", "min_hours": 12}, "2026-06-01T20:00+02:00"),
        # Across the change to summer time (29 March 2026), 20:00 stays 20:00 local.
        ("2026-03-28T12:00+00:00", {"at": "20:00", "min_hours": 12}, "2026-03-29T20:00+02:00"),
    ],
)
def test_deadline_policies(opened, rule, expected):
    from datetime import datetime

    from campaign.services import deadlines

    got = deadlines.deadline_for(
        {"march": rule}, "march", datetime.fromisoformat(opened), "Europe/Berlin"
    )
    assert got == datetime.fromisoformat(expected)


@pytest.mark.parametrize(
    ("rule", "message"),
    [({"hours": 0}, "between 0 and"), ({"at": "25:00"}, "time of day"), ({"days": 2}, "a rule is")],
)
def test_bad_deadline_policies_are_refused(rule, message):
    from campaign.services import deadlines

    with pytest.raises(deadlines.PolicyError, match=message):
        deadlines.check_rule("march", rule)
