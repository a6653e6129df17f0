# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""A careless (or hostile) user's input on every form and htmx endpoint: wrong types, negative,
huge and unknown values, other seats' codes, HTML in text fields, missing fields. None may give
a server error; each gets a clear answer, and the player's draft survives."""

import uuid

import pytest
from django.urls import reverse

from orders.models import OrderSheet
from tests.battles.test_battles import battle, battle_map, campaign
from tests.orders.test_play_fixtures import (
    client_for,
    deploy_everyone,
    in_phase,
    play_map,
    rules_campaign,
    seat,
    url,
)

pytestmark = pytest.mark.django_db

HUGE = "9" * 30
GOOD = {"unit": "frederick", "path": "4", "marches": "1", "phase": "march"}


@pytest.fixture
def marching(rules_campaign, player, django_capture_on_commit_callbacks):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    assert c.post(url("save_march", prussia), in_phase(prussia, GOOD)).status_code == 302
    return rules_campaign, prussia, c


def _draft(campaign, s):
    return OrderSheet.objects.get(seat=s, window=campaign.open_window()).draft


@pytest.mark.parametrize(
    "path",
    [
        "report/{huge}/",
        "map/{huge}.png",
        "view/{huge}.json",
        "orders/?unit=frederick&path=" + "4-" * 400,
        "orders/?unit=<script>&path=<b>",
        "orders/?unit=prussia-1&path=99",
        "deploy/?army=prussia&place=leader:frederick&hex=<script>&centre=" + "9" * 50,
        "deploy/?army=austria&place=leader:daun",
        "deploy/?army=prussia&place=garrison&city=<script>alert(1)</script>",
        "deploy/?army=prussia&place=train:prussia-99",
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_hostile_query_strings_never_give_a_server_error(marching, path, htmx):
    campaign, prussia, c = marching
    before = _draft(campaign, prussia)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    r = c.get(f"/play/{prussia.code}/" + path.format(huge=HUGE), **headers)
    assert r.status_code in (200, 302, 400, 404), r.status_code
    assert "<script>" not in r.content.decode()
    assert _draft(campaign, prussia) == before


# --- the battle pages -------------------------------------------------------------------------


def _battle_url(name, b, *args):
    return reverse(f"battles:{name}", args=[b.campaign.code, b.code, *args])


BAD_RESULTS = [
    {},
    {"loser": "russian", "outcome": "defeated"},
    {"loser": "prussian", "outcome": "fled"},
    {"loser": "prussian", "outcome": "defeated", "loss_prussia": "-5"},
    {"loser": "prussian", "outcome": "defeated", "loss_prussia": HUGE},
    {"loser": "prussian", "outcome": "defeated", "loss_prussia": "lots"},
    {"loser": "prussian", "outcome": "defeated", "loss_prussia": "1", "killed": "daun-xx"},
    {"loser": "prussian", "outcome": "defeated", "loss_prussia": "99999", "loss_austria": "0"},
]


@pytest.mark.parametrize("data", BAD_RESULTS)
@pytest.mark.parametrize("name", ["enter", "settle"])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_bad_battle_result_never_gives_a_server_error(
    battle, player, organiser, data, name, htmx
):
    who = player if name == "enter" else organiser
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    r = client_for(who).post(_battle_url(name, battle), data, follow=not htmx, **headers)
    assert r.status_code == 200
    battle.refresh_from_db()
    assert battle.status == "pending"


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("dispute", {"reason": "x" * 5000}),
        ("dispute", {}),
        ("confirm", {}),
        ("date", {"fight_on": "yesterday"}),
        ("date", {"fight_on": "99999-01-01T00:00"}),
        ("date", {}),
        ("quick", {"attacker": "<script>"}),
        ("collection", {"points": "-1"}),
        ("collection", {"points": HUGE}),
        ("collection", {"points": "many"}),
    ],
)
def test_other_bad_battle_posts_never_give_a_server_error(battle, player, organiser, name, data):
    who = organiser if name in ("date", "quick") else player
    r = client_for(who).post(_battle_url(name, battle), data, follow=True)
    assert r.status_code == 200
    assert "<script>" not in r.content.decode()


@pytest.mark.parametrize(
    "query", ["briefing/russian/", "briefing/<b>/", "briefing/prussian/?paper=a5", "table.png"]
)
def test_bad_briefing_addresses_are_refused_plainly(battle, player, query):
    r = client_for(player).get(_battle_url("battle", battle) + query)
    assert r.status_code in (200, 403, 404)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"table_long": "-1", "table_short": "x", "ratio": "1/0", "gazette_delay_hours": "-3",
         "points_per_strength_point": "0"},
        {"table_long": "6", "table_short": "4", "ratio": "nan", "british_share": "inf",
         "gazette_delay_hours": HUGE, "points_per_strength_point": HUGE,
         "unit_costs": "<script>alert(1)</script>"},
        {"table_long": "6", "table_short": "4", "ratio": "1e999", "british_share": "-1e999",
         "gazette_delay_hours": "1e300", "points_per_strength_point": "1"},
    ],
)  # fmt: skip
def test_bad_tabletop_settings_are_explained(battle, organiser, data):
    target = reverse("battles:settings", args=[battle.campaign.code])
    r = client_for(organiser).post(target, data, follow=True)
    assert r.status_code == 200
    assert "<script>alert" not in r.content.decode()
    assert client_for(organiser).get(target).status_code == 200
    assert client_for(organiser).get(reverse("battles:gazette", args=[battle.campaign.code]))


# --- the organiser's forms and tools, the player's settings ----------------------------------

NEW = {
    "name": "Rossbach", "players": "5", "army_size": "base", "base_army": "sweden",
    "base_points": "200", "leader_selection": "historical", "time_zone": "Europe/London",
    "reminder_hours": "24, 2", "flag_after_missed": "2",
    **{f"hours_{k}": "48" for k in ("deployment", "march", "forced_march", "battle", "siege")},
}  # fmt: skip


@pytest.mark.parametrize(
    "change",
    [
        {"rule_settings": "[1, 2]"},
        {"rule_settings": '"text"'},
        {"rule_settings": '{"leaders": 5}'},
        {"rule_settings": '{"march_mp": "six"}'},
        {"rule_settings": '{"march_mp": -4}'},
        {"rule_settings": '{"nonsense": {"a": [1]}}'},
        {"rule_settings": '{"siege_trains": {"narnia": 2}}'},
        {"rule_settings": "{" * 5000},
        {"base_points": HUGE},
        {"base_points": "-1"},
        {"base_points": "1"},
        {"army_size": "total", "total_points": "67"},
        {"reminder_hours": "-1, 1e9"},
        {"reminder_hours": HUGE},
        {"players": "7"},
        {"players": "2", "umpire_plays": "on", "organiser_seat": "sweden"},
        {"deadline_at": "25:99"},
        {"name": "<script>alert(1)</script>"},
        {"name": ""},
        {"time_zone": "Mars/Olympus"},
        {"email_prussia": "not an email"},
    ],
)
def test_a_bad_new_campaign_is_explained(organiser, change):
    c = client_for(organiser)
    r = c.post(reverse("new_campaign"), {**NEW, **change}, follow=True)
    assert r.status_code == 200
    assert "<script>alert" not in r.content.decode()


@pytest.fixture
def in_setup(new_campaign):
    return new_campaign


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"email": "a@b.org", "seat": "not-a-uuid"}, "valid UUID"),
        ({"email": "<script>@x", "seat": ""}, "valid email"),
        ({}, "required"),
    ],
)
def test_a_bad_invitation_is_explained(in_setup, organiser, data, message):
    r = client_for(organiser).post(reverse("invite", args=[in_setup.code]), data, follow=True)
    assert r.status_code == 200
    assert "The invitation was not sent" in r.content.decode()
    assert message in r.content.decode()
    assert "<script>@x" not in r.content.decode()


def test_an_invitation_to_a_seat_of_no_campaign_is_not_found(in_setup, organiser):
    data = {"email": "a@b.org", "seat": str(uuid.uuid4())}
    r = client_for(organiser).post(reverse("invite", args=[in_setup.code]), data)
    assert r.status_code == 404


def test_bad_army_assignments_are_explained(in_setup, organiser):
    data = dict.fromkeys(("prussia", "austria"), "nobody")
    r = client_for(organiser).post(reverse("campaign_setup", args=[in_setup.code]), data)
    assert r.status_code == 200


@pytest.mark.parametrize(
    "orders",
    [
        "[]",
        "not json",
        '{"march": "everywhere"}',
        '{"march": [{"unit": "daun", "path": "4"}]}',
        '{"march": [{"unit": "frederick", "path": "9-9", "marches": -3}]}',
        '{"march": [{"unit": null, "path": null, "marches": "x"}]}',
        '{"transfers": [{"from": "frederick", "to": "garrison", "points": 1e99}]}',
        '{"deployment": {"prussia": {"leaders": {"frederick": {"hex": "zz", "points": -5}}}}}',
        '{"deployment": {"prussia": [1, 2, 3]}}',
        '{"battle": [{"hex": 5, "army": "narnia", "choice": "flee"}]}',
        '{"honors": [{"city": {"x": 1}, "besieger": "grant"}]}',
    ],
)
def test_hostile_orders_entered_by_the_organiser_never_give_a_server_error(
    rules_campaign, organiser, orders, django_capture_on_commit_callbacks
):
    prussia = seat(rules_campaign, "prussia")
    target = reverse("enter_orders", args=[rules_campaign.code, prussia.code])
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(organiser).post(
            target, in_phase(prussia, {"how": "by email", "orders": orders}), follow=True
        )
    assert r.status_code == 200
    # the campaign goes on: the other seats' pages still open
    austria = seat(rules_campaign, "austria")
    assert client_for(austria.user).get(url("dashboard", austria)).status_code == 200


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("extend", {"hours": HUGE}),
        ("extend", {"hours": "-5"}),
        ("extend", {"hours": "soon"}),
        ("options", {"allies_share": "<script>"}),
        ("replace_player", {"reserve": str(uuid.uuid4())}),
        ("replace_player", {"email": "not-an-email"}),
        ("replace_player", {}),
    ],
)
def test_bad_organiser_tools_are_explained(rules_campaign, organiser, name, data):
    args = [rules_campaign.code]
    if name == "replace_player":
        args.append(seat(rules_campaign, "prussia").code)
    r = client_for(organiser).post(reverse(name, args=args), data, follow=True)
    assert r.status_code == 200


def test_another_campaigns_seat_is_not_found_by_the_organiser(
    rules_campaign, organiser, new_campaign
):
    stranger = new_campaign.seats.filter(reserve=False).first()
    for name in ("enter_orders", "enter_orders_on_behalf", "replace_player"):
        r = client_for(organiser).post(reverse(name, args=[rules_campaign.code, stranger.code]))
        assert r.status_code == 404, name


@pytest.mark.parametrize(
    "data",
    [
        {"absent_until": "9999-12-31T23:59"},
        {"absent_until": "0001-01-01T00:00"},
        {"absent_until": "tomorrow"},
        {"email_kinds": ["everything", "<script>"]},
    ],
)
def test_bad_seat_settings_are_explained(rules_campaign, player, data):
    prussia = seat(rules_campaign, "prussia")
    r = client_for(player).post(reverse("seat_settings", args=[prussia.code]), data, follow=True)
    assert r.status_code == 200


@pytest.mark.parametrize(
    "data",
    [
        {"army": "austria", "leaders": ["daun"]},
        {"army": "prussia", "leaders": ["daun", "nobody", "x" * 3000]},
        {"army": "", "leaders": []},
        {},
    ],
)
def test_bad_leader_picks_are_explained(in_setup, organiser, player, data):
    in_setup.leader_selection = "pick"
    in_setup.save()
    prussia = in_setup.seats.get(power="prussia")
    prussia.user = player
    prussia.save()
    r = client_for(player).post(reverse("pick_leaders", args=[prussia.code]), data, follow=True)
    assert r.status_code == 200


@pytest.mark.parametrize("token", ["x" * 3000, "<script>", "%00"])
def test_a_bad_invitation_token_is_not_found(token, db):
    from django.test import Client

    assert Client().get(f"/invite/{token}/").status_code == 404


# --- the public map ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "?region=<script>",
        "?region=Berlin%2B" + "9" * 30,
        "?region=9999+9999+9999+9999",
        "?region=-5+-5+-1+-1",
        "?region=Atlantis%2B3",
        "?size=" + "x" * 300,
        "?size=-1&ids=maybe&areas=%00",
    ],
)
@pytest.mark.parametrize("what", ["maps:page", "maps:png"])
def test_the_public_map_refuses_bad_regions_plainly(db, query, what):
    from django.test import Client

    r = Client().get(reverse(what) + query)
    assert r.status_code in (200, 400, 404), r.status_code
    if r["Content-Type"].startswith("text/html"):
        plain = Client().get(reverse(what)).content
        assert r.content.count(b"<script>") <= plain.count(b"<script>")  # the page's own only
    else:  # an image, or a plain-text message the browser must not read as HTML
        assert r["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "name", ["save_march", "save_transfer", "remove_order", "decide", "deploy"]
)
@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ('{"unit": "frederick", "path": "4"}', "application/json"),
        ("\x00\xff" * 50, "application/octet-stream"),
        ("unit=frederick&unit=daun&path=4&path=%3Cb%3E&marches=1&marches=2&phase=march", None),
    ],
)
def test_odd_bodies_on_the_order_endpoints_keep_the_draft(marching, name, body, content_type):
    campaign, prussia, c = marching
    before = _draft(campaign, prussia)
    kwargs = {"content_type": content_type} if content_type else {
        "content_type": "application/x-www-form-urlencoded"}  # fmt: skip
    r = c.post(url(name, prussia), body, **kwargs)
    assert r.status_code in (200, 302, 400), r.status_code
    after = _draft(campaign, prussia)
    assert [o for o in after.get("march", []) if o["unit"] == "frederick"] or name == "remove_order"
    if name != "save_march":
        assert after == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("gazette_delay_hours", "1e300"),
        ("gazette_delay_hours", HUGE),
        ("points_per_strength_point", HUGE),
        ("table_long", "1e300"),
        ("ratio", "1/" + "9" * 40),
        ("ratio", "9" * 40),
        ("british_share", "1/" + "9" * 40),
    ],
)
def test_one_huge_tabletop_setting_is_refused_or_harmless(battle, organiser, player, field, value):
    good = {"table_long": "6", "table_short": "4", "ratio": "1", "british_share": "",
            "gazette_delay_hours": "48", "points_per_strength_point": "100"}  # fmt: skip
    c = battle.campaign
    target = reverse("battles:settings", args=[c.code])
    r = client_for(organiser).post(target, {**good, field: value})
    assert r.status_code in (200, 302)
    for who, page in (
        (organiser, target),
        (None, reverse("battles:gazette", args=[c.code])),
        (player, reverse("battles:battle", args=[c.code, battle.code])),
        (player, reverse("battles:briefing", args=[c.code, battle.code, "prussian"])),
        (player, reverse("battles:chronicle", args=[c.code])),
    ):
        from django.test import Client

        client = client_for(who) if who else Client()
        assert client.get(page).status_code == 200, (field, page)


@pytest.mark.parametrize(
    "rule_settings",
    [
        '{"leaders": {"prussia": "many"}}',
        '{"leaders": {"narnia": 2}}',
        '{"siege_trains": {"prussia": -3}}',
        '{"march_mp": 1e308}',
        '{"siege_dice": 1000000000}',
        '{"leaders": {"prussia": 1000000000}}',
    ],
)
def test_odd_rule_settings_are_refused_or_the_campaign_still_starts(organiser, rule_settings):
    c = client_for(organiser)
    r = c.post(reverse("new_campaign"), {**NEW, "rule_settings": rule_settings})
    if r.status_code == 200:  # refused, with the reason
        assert "errorlist" in r.content.decode()
        return
    assert r.status_code == 302
    setup_page = c.get(r.url)
    assert setup_page.status_code == 200
    code = r.url.split("/")[2]
    started = c.post(reverse("start_campaign", args=[code]), follow=True)
    assert started.status_code == 200


@pytest.mark.parametrize("when", ["9999-12-31T23:59", "2000-01-01T00:00"])
def test_a_far_battle_date_is_refused_or_harmless_to_the_sweep(battle, organiser, player, when):
    from django.utils import timezone

    from battles.services import dates as battle_dates
    from battles.services import records as service

    r = client_for(organiser).post(_battle_url("date", battle), {"fight_on": when}, follow=True)
    assert r.status_code == 200
    battle_dates.sweep(now=timezone.now())
    assert client_for(player).get(_battle_url("battle", battle)).status_code == 200
