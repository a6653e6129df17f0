# ruff: noqa: F401, F811 (pytest fixtures imported from test_play_fixtures)
"""Fog of war on every output channel: pages, htmx fragments, JSON, map images and email.

Prussia's secret strengths are markers (Frederick 31017, Berlin's garrison 983). After a
deployment by every seat, no page, fragment, JSON, image or email of another seat holds them;
the Prussian player's own pages do (so these tests can fail).
"""

import copy
import json
import shutil

import pytest

from campaign.models import StateVersion
from dgk import files
from maps.pictures import KIND, picture_key
from maps.tasks import draw_map_picture, draw_wanted_map_pictures
from tests.campaign.test_fog_review import without_noise as without_times
from tests.orders.test_play_fixtures import (
    MARKERS,
    client_for,
    deploy_everyone,
    in_phase,
    play_map,
    rules_campaign,
    seat,
    url,
    without_noise,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def deployed(rules_campaign, player, django_capture_on_commit_callbacks, mailoutbox):
    deploy_everyone(rules_campaign, django_capture_on_commit_callbacks)
    prussia = seat(rules_campaign, "prussia")
    c = client_for(player)
    # A secret draft too: Frederick's march order with a drop-off nobody else may read.
    r = c.post(
        url("save_march", prussia),
        in_phase(prussia, {"unit": "frederick", "path": "4-4", "marches": "1"}),
    )
    assert r.status_code == 302
    return rules_campaign


def everything_seen(campaign, power: str) -> list[tuple[str, str]]:
    """(what, text) of every page, fragment and JSON document one seat can open."""
    s = seat(campaign, power)
    c = client_for(s.user)
    out = []
    numbers = list(StateVersion.objects.filter(campaign=campaign).values_list("number", flat=True))
    pages = ["dashboard", "orders", "deploy", "report", "history", "handover"]
    for name in pages:
        out.append((name, c.get(url(name, s)).content.decode()))
    out.append(
        ("orders fragment", c.get(url("orders", s), HTTP_HX_REQUEST="true").content.decode())
    )
    out.append(("builder", c.get(url("orders", s) + "?unit=frederick&path=4-4").content.decode()))
    for t in sorted(
        set(StateVersion.objects.filter(campaign=campaign).values_list("turn", flat=True))
    ):
        out.append((f"handover turn {t}", c.get(f"{url('handover', s)}?turn={t}").content.decode()))
    for n in numbers:
        out.append((f"report {n}", c.get(url("report_version", s, n)).content.decode()))
        out.append((f"json {n}", json.dumps(c.get(url("view_json", s, n)).json())))
    return [(what, without_times(text)) for what, text in out]  # (times, codes, row ids)


@pytest.mark.parametrize("power", ["austria", "hanover", "france", "russia"])
def test_no_page_of_another_seat_holds_the_secrets(deployed, power):
    for what, text in everything_seen(deployed, power):
        for marker in MARKERS:
            assert marker not in text, (power, what)


def test_the_owner_sees_his_own_secrets(deployed):
    seen = dict(everything_seen(deployed, "prussia"))
    assert "31017" in seen["dashboard"]
    assert "983" in seen["handover"]
    assert "31017" in seen[f"json {deployed.latest_version().number}"]


def test_a_sharing_ally_sees_them_and_an_enemy_still_does_not(deployed):
    deployed.options = {**deployed.options, "allies_share": True}
    deployed.save()
    ally = dict(everything_seen(deployed, "hanover"))
    assert "31017" in ally["dashboard"] or "31017" in ally["handover"]
    for what, text in everything_seen(deployed, "austria"):
        assert "31017" not in text, what


def _picture(s, version) -> bytes:
    """The seat's picture of ``version`` as the worker draws it (the task, run eagerly)."""
    files.storage(KIND).delete(picture_key(version, s))
    assert draw_map_picture.delay(version.id, s.id).get()
    return files.read_bytes(KIND, picture_key(version, s))


def test_the_enemy_map_picture_does_not_change_with_the_secrets(deployed):
    austria = seat(deployed, "austria")
    prussia = seat(deployed, "prussia")
    latest = deployed.latest_version()
    before, own_before = _picture(austria, latest), _picture(prussia, latest)
    state = copy.deepcopy(latest.state)
    state["leaders"]["frederick"]["points"] = 12345
    for g in state["garrisons"]:
        if g["city"] == "Berlin":
            g["points"] = 321
    StateVersion.objects.filter(id=latest.id).update(state=state)
    latest.refresh_from_db()
    after, own_after = _picture(austria, latest), _picture(prussia, latest)
    assert before[:8] == b"\x89PNG\r\n\x1a\n"
    assert before == after
    assert own_before != own_after  # the owner's counters carry the points


def test_the_map_picture_is_cached_by_version_and_seat(deployed, other):
    austria = seat(deployed, "austria")
    latest = deployed.latest_version()
    draw_wanted_map_pictures.delay()  # the resolution asked for every seat's picture
    c = client_for(other)
    r = c.get(url("map", austria, latest.number), {"v": latest.id})
    assert r.status_code == 200 and r["Content-Type"] == "image/png"
    assert "immutable" in r["Cache-Control"] and "private" in r["Cache-Control"]
    again = c.get(url("map", austria, latest.number), HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304
    prussia = seat(deployed, "prussia")
    theirs = client_for(prussia.user).get(url("map", prussia, latest.number))
    assert theirs.status_code == 200
    assert theirs["ETag"] != r["ETag"]


def test_no_email_to_another_seat_holds_the_secrets(deployed, mailoutbox):
    prussian = seat(deployed, "prussia").user.email
    others = [m for m in mailoutbox if prussian not in m.to]
    assert others, "the phase opened: every seat was told"
    for m in others:
        body = m.body + "".join(str(a[0]) for a in getattr(m, "alternatives", []))
        for marker in MARKERS:
            assert marker not in without_noise(body), (m.to, m.subject)


def test_the_non_playing_umpire_sees_every_secret(deployed, organiser):
    from django.urls import reverse

    page = client_for(organiser).get(reverse("orders:umpire", args=[deployed.code]))
    text = without_noise(page.content.decode())
    for marker in MARKERS:
        assert marker in text
