# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""The map widget's server side: the seat's overlay JSON (no secret of another seat), the reach
of a unit with its MP costs, a march saved from it, the tiles read from the disk cache, and the
``rendertiles`` command."""

import json
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaign.models import Campaign
from campaign.services.gameplay import read_state
from maps.core.loader import load_map
from maps.core.tiles import grid_of, map_stamp
from maps.overlay import hex_xy
from maps.tiles import render_tiles
from orders.models import OrderSheet
from orders.pages import march_counts
from rules.rulesettings import RuleSettings
from tests.campaign.test_fog_review import without_noise
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    BERLIN_POINTS,
    FREDERICK_POINTS,
    POSITIONS,
    client_for,
    deploy_everyone,
    in_phase,
    marching,
    play_map,
    rules_campaign,
    seat,
    url,
)
from tests.storage.folders import with_folders

pytestmark = pytest.mark.django_db


def overlay(client, s, **query):
    r = client.get(url("map_overlay", s), query)
    assert r.status_code == 200, r.content[:500]
    assert r["Content-Type"] == "application/json"
    return r, json.loads(r.content)


def test_the_overlay_shows_the_seat_its_forces_and_no_one_else_their_points(
    marching, player, other
):
    prussia, austria = seat(marching, "prussia"), seat(marching, "austria")
    _, mine = overlay(client_for(player), prussia)
    fred = next(c for c in mine["counters"] if c.get("unit") == "frederick")
    assert fred["hex"] == POSITIONS["prussia"] and fred["relation"] == "owner"
    assert str(FREDERICK_POINTS) in fred["label"]
    assert mine["focus"] and mine["supply"], mine  # Berlin's garrison is a supply source (5)
    assert {s["name"] for s in mine["supply"]} == {"Berlin"}

    r, theirs = overlay(client_for(other), austria)
    body = without_noise(r.content.decode())
    for secret in (str(FREDERICK_POINTS), str(BERLIN_POINTS)):
        assert secret not in body
    seen = [c for c in theirs["counters"] if c["hex"] == POSITIONS["prussia"]]
    assert seen and all(c["relation"] == "enemy" and "unit" not in c for c in seen)
    assert "reach" not in overlay(client_for(other), austria, unit="frederick")[1]


def test_another_seat_cannot_read_the_overlay(marching, other):
    r = client_for(other).get(url("map_overlay", seat(marching, "prussia")))
    assert r.status_code == 403


def test_a_stack_gets_one_slot_per_counter(marching, player):
    _, data = overlay(client_for(player), seat(marching, "prussia"))
    stack = [c for c in data["counters"] if c["hex"] == POSITIONS["prussia"]]
    assert {c.get("unit") for c in stack} >= {"frederick", "prussia-1"}
    assert sorted(c["slot"] for c in stack) == list(range(len(stack)))
    assert {c["of"] for c in stack} == {len(stack)}


def test_a_counter_in_a_citys_hex_says_on_which_side_the_tiles_print_its_name(marching, player):
    """The widget keeps the stack off that side, so the name is read whole (name_side)."""
    _, data = overlay(client_for(player), seat(marching, "prussia"))
    berlin = [c for c in data["counters"] if c["hex"] == "0202"]
    open_country = [c for c in data["counters"] if c["hex"] == POSITIONS["prussia"]]
    assert berlin and {c["name_side"] for c in berlin} == {"right"}
    assert open_country and not [c for c in open_country if "name_side" in c]


def test_reach_then_a_tap_saves_the_march_and_draws_it(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    _, data = overlay(c, prussia, unit="frederick")
    reach = data["reach"]
    assert reach["from"] == POSITIONS["prussia"] and reach["spent"] == 0
    by_hex = {h["hex"]: h for h in reach["hexes"]}
    # East along the road of the test map: 1 MP a hex; West into clear: 2 MP (2.2)
    assert (by_hex["0402"]["codes"], by_hex["0402"]["cost"]) == ("4", 1)
    assert (by_hex["0502"]["codes"], by_hex["0502"]["cost"]) == ("4-4", 2)
    assert (by_hex["0202"]["codes"], by_hex["0202"]["cost"]) == ("1", 2)
    assert all(h["cost"] <= reach["allowance"] for h in reach["hexes"])
    far = max(reach["hexes"], key=lambda h: h["cost"])
    # the tap posts what the widget posts: the unit, the path, its marches, the phase
    r = c.post(
        url("save_march", prussia),
        in_phase(
            prussia, {"unit": "frederick", "path": far["codes"], "marches": "1", "phase": "march"}
        ),
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 200 and 'id="play"' in r.content.decode()
    sheet = OrderSheet.objects.get(seat=prussia, window=marching.open_window())
    assert sheet.draft["march"][0]["path"] == far["codes"]
    _, after = overlay(c, prussia, unit="frederick")
    (drawn,) = after["orders"]
    assert drawn["unit"] == "frederick" and drawn["spent"] == far["cost"]
    assert len(drawn["line"]) == len(far["codes"].split("-")) + 1
    # the unit chosen again starts its line anew from where it stands (issue 43), its saved
    # line named: a tap then replaces the order, never adds to it (1-1 became 1-1-4-4)
    assert after["reach"]["from"] == POSITIONS["prussia"] and after["reach"]["spent"] == 0
    assert after["reach"]["saved"] == far["codes"] and after["reach"]["path"] == ""
    assert after["reach"]["hexes"] == reach["hexes"]


def test_the_overlay_answers_not_modified_until_the_draft_changes(marching, player):
    prussia = seat(marching, "prussia")
    c = client_for(player)
    r, _ = overlay(c, prussia)
    again = c.get(url("map_overlay", prussia), HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304
    c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1"}),
    )
    changed = c.get(url("map_overlay", prussia), HTTP_IF_NONE_MATCH=r["ETag"])
    assert changed.status_code == 200


def test_the_orders_page_carries_the_widget_without_inline_script(marching, player):
    page = client_for(player).get(url("orders", seat(marching, "prussia"))).content.decode()
    assert 'id="mapwidget"' in page and "js/mapwidget.js" in page
    assert "vendor/leaflet/leaflet.js" in page
    assert "<script>" not in page and "{#" not in page


def embedded(page: str) -> dict:
    """The seat's layer the page embeds for the widget (``#mapwidget-data``)."""
    start = page.index('<script id="mapwidget-data" type="application/json">')
    body = page[page.index(">", start) + 1 : page.index("</script>", start)]
    return json.loads(body)


def test_the_page_embeds_the_seats_layer_as_overlay_json_gives_it(marching, player, other):
    prussia, austria = seat(marching, "prussia"), seat(marching, "austria")
    c = client_for(player)
    c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4", "marches": "1"}),
    )
    page = c.get(url("orders", prussia), {"unit": "frederick"}).content.decode()
    _, data = overlay(c, prussia, unit="frederick")
    assert embedded(page) == data  # the draft's arrow and Frederick's reach, no request needed
    assert data["orders"] and data["reach"]["unit"] == "frederick"
    # the map's scripts never hold up the page's own: async, in the head, no inline script
    head = page[: page.index("</head>")]
    assert 'leaflet.js" async' in head and 'mapwidget.js" async' in head
    assert "<script>" not in page
    # the other seat's page embeds its own layer, with none of Prussia's points
    theirs = client_for(other).get(url("orders", austria)).content.decode()
    assert embedded(theirs) == overlay(client_for(other), austria)[1]
    assert str(FREDERICK_POINTS) not in without_noise(theirs)
    # the dashboard embeds it too; an htmx swap of the list does not carry it again
    assert embedded(c.get(url("dashboard", prussia)).content.decode())["version"] == data["version"]
    swap = c.get(url("orders", prussia), {"unit": "frederick"}, HTTP_HX_REQUEST="true")
    assert "mapwidget-data" not in swap.content.decode()


def test_tiles_are_served_from_the_disk_cache_with_long_cache_headers(settings, tmp_path, client):
    settings.STORAGES = with_folders(tiles=tmp_path)
    hexmap = load_map("central_europe_1756")
    stamp = map_stamp(hexmap)
    tile = reverse("maps:tile", args=[stamp, "0", "0", "0"])
    assert client.get(tile).status_code == 404  # never drawn in the request
    assert not (tmp_path / stamp).exists()
    render_tiles(hexmap, zooms=(0,))
    r = client.get(tile)
    assert r.status_code == 200 and r["Content-Type"] == "image/png"
    assert "immutable" in r["Cache-Control"] and "max-age=31536000" in r["Cache-Control"]
    assert b"".join(r.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(reverse("maps:tile", args=[stamp, "2", "0", "0"])).status_code == 404
    assert client.get(f"/map/tiles/{stamp}/0/../0.png").status_code == 404


def test_rendertiles_writes_the_levels_asked_once(settings, tmp_path, capsys):
    settings.STORAGES = with_folders(tiles=tmp_path)
    call_command("rendertiles", "--zoom", "-1")
    out = capsys.readouterr().out
    assert "tiles in" in out
    stamp = map_stamp(load_map("central_europe_1756"))
    assert (tmp_path / stamp / "grid.json").is_file()
    assert list((tmp_path / stamp / "-1").rglob("*.png"))
    call_command("rendertiles", "--zoom", "-1")
    assert "already complete" in capsys.readouterr().out


def test_history_shows_the_seats_own_moves_of_a_past_phase(
    marching, player, other, django_capture_on_commit_callbacks
):
    from campaign.models import StateVersion
    from tests.orders.test_play_fixtures import ready

    prussia = seat(marching, "prussia")
    c = client_for(player)
    c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4-4", "marches": "1"}),
    )
    for s in marching.seats.filter(reserve=False):
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    after = StateVersion.objects.get(campaign=marching, resolved_phase="march")
    r = c.get(url("map_history", prussia), {"version": after.number})
    # Revalidated (a roll back may make another version with this number), unless the URL
    # names the version's own id.
    assert r.status_code == 200 and "no-cache" in r["Cache-Control"]
    fixed = c.get(url("map_history", prussia), {"version": after.number, "v": after.id})
    assert "immutable" in fixed["Cache-Control"] and fixed["ETag"] == r["ETag"]
    data = json.loads(r.content)
    assert data["label"] == "Turn 1: after the march phase"
    assert data["prev"] == after.number - 1
    (move,) = data["orders"]
    assert move["unit"] == "frederick" and move["path"] == "4-4" and len(move["line"]) == 3
    fred = next(x for x in data["counters"] if x.get("name") == "Frederick")
    assert fred["hex"] == "0502"
    # Austria's history of the same phase: no Prussian move, no Prussian points
    austria = seat(marching, "austria")
    r = client_for(other).get(url("map_history", austria), {"version": after.number})
    body = r.content.decode()
    assert json.loads(body)["orders"] == []
    body = without_noise(body)
    assert str(FREDERICK_POINTS) not in body and str(BERLIN_POINTS) not in body
    assert client_for(other).get(url("map_history", prussia)).status_code == 403


def test_the_umpire_sees_every_counter_on_his_map_and_players_cannot(marching, organiser, player):
    r = client_for(organiser).get(reverse("orders:umpire_overlay", args=[marching.code]))
    assert r.status_code == 200, r.content[:300]
    data = json.loads(r.content)
    fred = next(c for c in data["counters"] if c.get("name") == "Frederick")
    assert str(FREDERICK_POINTS) in fred["label"] and data["locked"]
    assert not any(c.get("unit") for c in data["counters"])  # read-only: nothing to order
    page = client_for(organiser).get(reverse("orders:umpire", args=[marching.code]))
    assert 'id="mapwidget"' in page.content.decode()
    denied = client_for(player).get(reverse("orders:umpire_overlay", args=[marching.code]))
    assert denied.status_code == 403


def test_a_page_never_draws_missing_tiles_it_says_to_run_rendertiles(
    marching, player, settings, tmp_path, caplog
):
    settings.STORAGES = with_folders(tiles=tmp_path / "tiles")
    assert settings.CELERY_TASK_ALWAYS_EAGER  # tests run tasks eagerly: in the request
    page = client_for(player).get(url("orders", seat(marching, "prussia")))
    assert page.status_code == 200 and 'id="mapwidget"' in page.content.decode()
    assert not (tmp_path / "tiles").exists()  # nothing drawn
    assert "rendertiles" in caplog.text


def test_the_deploy_layer_holds_the_seats_own_draft_and_where_it_may_deploy(
    rules_campaign, player, other
):
    from tests.orders.test_play_fixtures import deploy_seat

    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    deploy_seat(prussia, c)
    _, data = overlay(c, prussia)
    dep = data["deploy"]
    assert POSITIONS["prussia"] in dep["allowed"]["prussia"]
    assert "0101" in dep["allowed"]["prussia"] and "1007" not in dep["allowed"]["prussia"]
    (army,) = dep["armies"]
    assert army["leaders"][0]["hex"] == POSITIONS["prussia"]
    assert army["garrisons"] == {"Berlin": BERLIN_POINTS}
    assert dep["fortresses"] == {"0202": "Berlin"}
    placed = {(p["hex"], p["kind"]) for p in dep["placed"]}
    assert placed == {(POSITIONS["prussia"], "force"), (POSITIONS["prussia"], "siege-train"),
                      ("0202", "garrison")}  # fmt: skip
    # Austria, deploying too, learns nothing of it
    r, theirs = overlay(client_for(other), seat(rules_campaign, "austria"))
    body = without_noise(r.content.decode())
    assert str(FREDERICK_POINTS) not in body and str(BERLIN_POINTS) not in body
    assert not [p for p in theirs["deploy"]["placed"] if p["army"] == "prussia"]


def test_history_draws_the_moves_of_other_armies_the_seat_saw(
    marching, player, other, django_capture_on_commit_callbacks
):
    """Austria's history of the march phase draws Frederick's move (seen before and after, in
    Austria's own views), and nothing it was not shown; Prussia's own move is an order, not a
    move "seen"."""
    import dataclasses

    from campaign.models import StateVersion
    from campaign.services import knowledge
    from maps import overlay
    from maps.core.tiles import grid_of
    from tests.orders.test_play_fixtures import ready

    prussia, austria = seat(marching, "prussia"), seat(marching, "austria")
    client_for(player).post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4-4", "marches": "1"}),
    )
    for s in marching.seats.filter(reserve=False):
        ready(s, client_for(s.user), django_capture_on_commit_callbacks)
    after = StateVersion.objects.get(campaign=marching, resolved_phase="march")
    before = StateVersion.objects.get(campaign=marching, number=after.number - 1)
    r = client_for(other).get(url("map_history", austria), {"version": after.number})
    seen = json.loads(r.content)["seen"]
    then, now = (knowledge.seat_view(austria, v) for v in (before, after))
    fred = [f for v in (then, now) for f in v.forces if f.commander.name == "Frederick"]
    assert [f.hex for f in fred] == [seen[0]["from"], "0502"]
    assert seen == [
        {
            "army": "prussia",
            "relation": "enemy",
            "name": "Frederick",
            "from": fred[0].hex,
            "to": "0502",
            "line": seen[0]["line"],
        }
    ]
    assert len(seen[0]["line"]) == 2
    assert str(FREDERICK_POINTS) not in without_noise(r.content.decode())
    # A commander the seat did not see before the phase (or does not see after it) draws nothing.
    grid = grid_of(load_map(marching.map_name))
    assert overlay.seen_moves(dataclasses.replace(then, forces=()), now, grid) == []
    assert overlay.seen_moves(then, dataclasses.replace(now, forces=()), grid) == []
    mine = json.loads(
        client_for(player).get(url("map_history", prussia), {"version": after.number}).content
    )
    assert [m["unit"] for m in mine["orders"]] == ["frederick"]
    assert all(m["army"] != "prussia" for m in mine["seen"])


def test_a_siege_train_has_one_name_everywhere_and_its_short_form_on_the_counter(
    marching, player, django_capture_on_commit_callbacks
):
    """ "Prussian siege train 1" on the pages, in the layer and in the events; "T1" on the
    counter; the engine's id ("prussia-1") is only a form value, never read."""
    prussia = seat(marching, "prussia")
    c = client_for(player)
    _, data = overlay(c, prussia)
    (train,) = [x for x in data["counters"] if x["kind"] == "siege-train"]
    assert (train["label"], train["short"], train["unit"]) == (
        "Prussian siege train 1", "T1", "prussia-1",
    )  # fmt: skip
    page = c.get(url("orders", prussia)).content.decode()
    assert "Prussian siege train 1" in page and "Siege train prussia-1" not in page
    r = c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "prussia-1", "path": "4", "marches": "1"}),
    )
    assert r.status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        for s in marching.seats.filter(reserve=False):
            client_for(s.user).post(url("ready", s), in_phase(s))
    texts = [e.text for e in marching.events.all() if "siege train" in e.text.lower()]
    assert texts and all("Prussian siege train 1" in t for t in texts), texts
    assert not any("prussia-1" in t for t in texts)


@pytest.fixture
def marching_with_a_pool(rules_campaign, django_capture_on_commit_callbacks):
    """``marching`` with the Austrian march modifier at 0 (6.1, varied by consent, 1.4): 2d6
    marches, never fewer than two, so the test's first order is always paid for. With the
    book's -2 a double 1 leaves the pool empty (1 roll in 36) and the order is refused at
    save (issue 43): CI met that roll once."""
    settings = {**rules_campaign.rule_settings, "march_modifier": {"austria": 0}}
    rules_campaign.rule_settings = settings
    rules_campaign.save(update_fields=["rule_settings"])
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    assert rules_campaign.open_window().phase == "march"
    return rules_campaign


def test_the_orders_map_frames_the_forces_that_still_have_a_march(marching_with_a_pool, other):
    """The walk's Austrian: Charles far from Picolomini. The map opens on both (not on the
    first commander alone), then on those that have not been given their march. The strongest
    comes first: when one view of a phone cannot hold them all, the widget opens on the most it
    can, and between as many on the strongest (tests/browser/test_map_centring.py)."""
    austria = seat(marching_with_a_pool, "austria")
    austrian, imperial = austria.leaders["austria"][0], austria.leaders["empire"][0]
    grid = grid_of(load_map(marching_with_a_pool.map_name))
    c = client_for(other)
    _, data = overlay(c, austria)
    # the Austrian army's 32,000 points, then the Imperial 8,000 (3.4)
    both = [hex_xy(grid, POSITIONS["austria"]), hex_xy(grid, POSITIONS["empire"])]
    assert data["frame"] and data["focus"] == both
    r = c.post(
        url("save_march", austria),
        in_phase(austria, {"unit": austrian, "path": "1", "marches": "1"}),
    )
    assert r.status_code == 302
    sheet = OrderSheet.objects.get(seat=austria, window=marching_with_a_pool.open_window())
    assert [o["unit"] for o in sheet.draft["march"]] == [austrian]
    _, data = overlay(c, austria)
    # The Empire marches from the Austrian pool (6.2.1): with a march left in it (2d6 here),
    # only the Imperial force still has one.
    pool = read_state(marching_with_a_pool.latest_version().state).marches.get("austria", 0)
    assert pool > 1, pool  # (2d6, the fixture's modifier)
    assert data["focus"] == [hex_xy(grid, POSITIONS["empire"])], data["focus"]
    # every force has its order: all of them are framed again, the strongest first
    c.post(
        url("save_march", austria),
        in_phase(austria, {"unit": imperial, "path": "4", "marches": "1"}),
    )
    _, data = overlay(c, austria)
    assert data["focus"] == both


def test_the_orders_map_opens_on_the_strongest_force_first(marching, other):
    """The focus comes strongest first whatever the order of the seat's list: here the Imperial
    force, listed after the Austrian, made the stronger."""
    from datetime import timedelta

    from campaign.models import StateVersion
    from campaign.services import viewcache

    austria = seat(marching, "austria")
    imperial = austria.leaders["empire"][0]
    version = marching.open_window().version
    state = json.loads(json.dumps(version.state))
    state["leaders"][imperial]["points"] = 40000
    # a version is never changed once written: a new stamp, so no view of the old one is kept
    StateVersion.objects.filter(id=version.id).update(
        state=state, created=version.created + timedelta(microseconds=1)
    )
    viewcache.forget()
    grid = grid_of(load_map(marching.map_name))
    _, data = overlay(client_for(other), austria)
    assert data["focus"] == [hex_xy(grid, POSITIONS["empire"]), hex_xy(grid, POSITIONS["austria"])]


def test_the_force_chosen_is_where_the_map_goes(marching, other):
    """Chosen in the list (``?unit=``) or by a tap (the widget asks the same), the layer says
    where the force stands, and the widget centres there (tests/browser/test_map_widget.py)."""
    austria = seat(marching, "austria")
    imperial = austria.leaders["empire"][0]
    grid = grid_of(load_map(marching.map_name))
    _, data = overlay(client_for(other), austria, unit=imperial)
    assert data["chosen"] == {"unit": imperial, "xy": hex_xy(grid, POSITIONS["empire"])}
    page = client_for(other).get(url("orders", austria), {"unit": imperial}).content.decode()
    assert embedded(page)["chosen"]["unit"] == imperial
    assert "chosen" not in overlay(client_for(other), austria, unit="frederick")[1]


def allocation_roll(campaign, army: str) -> list[int]:
    name = f"march-allocation:{army}:t1"
    for version in campaign.versions.order_by("number"):
        for roll in version.rolls or ():
            if roll.get("name") == name:
                return list(roll["dice"])
    raise AssertionError(f"no roll {name}")


# A seed whose Austrian march allocation rolls more than 2 (a campaign's own seed is random:
# one in 36 rolled 1 and 1, no march to give, and the test failed).
ROLLS_MORE_THAN_TWO = "5eed" * 16


@pytest.fixture
def seeded_marching(rules_campaign, django_capture_on_commit_callbacks):
    """``marching`` with the season's seed fixed before the first dice are rolled."""
    Campaign.objects.filter(id=rules_campaign.id).update(seed=ROLLS_MORE_THAN_TWO)
    rules_campaign.refresh_from_db()
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    assert rules_campaign.open_window().phase == "march"
    return rules_campaign


def test_the_marches_say_why_they_differ_from_the_roll(seeded_marching, other):
    """The walk: "Austrian 4" beside a roll of 3, 3 = 6. The Austrian line of the March
    Allocation Table is 2 dice −2 (6.1); the orders page adds what is given and left."""
    marching = seeded_marching
    austria = seat(marching, "austria")
    n = marching.latest_version().state["marches"]["austria"]
    rolled = sum(allocation_roll(marching, "austria"))
    assert n == rolled - 2 > 0  # (the seed fixed above)
    c = client_for(other)
    dashboard = c.get(url("dashboard", austria)).content.decode()
    assert f"Austrian {n} ({rolled} rolled \u22122, 6.1): 0 given, {n} left" in dashboard
    c.post(
        url("save_march", austria),
        in_phase(austria, {"unit": austria.leaders["austria"][0], "path": "1", "marches": "1"}),
    )
    page = c.get(url("orders", austria)).content.decode()
    assert f"Austrian {n} ({rolled} rolled \u22122, 6.1): 1 given, {n - 1} left" in page


@pytest.mark.parametrize(
    ("army", "marches", "given", "why", "left"),
    [
        ("austria", 4, 2, "6 rolled \u22122, 6.1", 2),
        ("austria", 0, 1, "2 or less rolled \u22122, 6.1", -1),
        ("hanover", 3, 0, "2 rolled +1, 6.1", 3),
        ("prussia", 6, 0, "", 6),
    ],
)
def test_march_counts_explain_the_table(army, marches, given, why, left):
    view = SimpleNamespace(marches={army: marches})
    leader = {"austria": "daun", "hanover": "ferdinand", "prussia": "frederick"}[army]
    orders = [{"unit": leader, "marches": 1}] * given
    (count,) = march_counts(view, RuleSettings(), orders)
    assert (count["why"], count["given"], count["left"]) == (why, given, left)
