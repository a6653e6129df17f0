"""*The war* (issue 28, docs/season-end.md): a whole season on the bundled map played to its end
by the automatic players. Before the end no member reaches the war's pages (and no email
offers them); after it the Prussian's *The war* shows every move of every army, counted against
the state versions, every seat's orders, and every roll with its check."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, CampaignStatus, Event, StateVersion
from campaign.services import organiser as organiser_service
from campaign.services import reopen, viewcache
from dgk import files
from orders.models import OrderSheet
from seasons.services import bookfiles, war
from tests.orders.test_play_fixtures import client_for
from tests.seasons.real_season import play_real_season
from tests.standing import make_user

pytestmark = pytest.mark.django_db

WAR_LINK = re.compile(r"/campaigns/[0-9a-f-]+/war/")


def moves_in_states(versions) -> dict[int, set[tuple[str, str]]]:
    """Per version, every leader's (hex before, hex after) that differ, read from the states."""
    out = {}
    for before, after in zip(versions, versions[1:], strict=False):
        then = {x.key: x.hex for x in viewcache.version_state(before).leaders}
        now = viewcache.version_state(after)
        forces = {x.key: f.hex for f in now.forces() for x in f.leaders}
        out[after.number] = {(then[k], h) for k, h in forces.items() if k in then and then[k] != h}
    return out


def test_the_war_is_hidden_until_the_end_then_shows_everything(
    organiser, django_capture_on_commit_callbacks
):
    checked_before = []

    def before_the_end(what, subject):
        if what != "phase" or subject.turn not in (1, 9):
            return
        campaign = subject.campaign
        campaign.refresh_from_db()
        if campaign.status == CampaignStatus.ENDED:
            return
        for who in (campaign.seats.get(power="prussia").user, organiser):
            c = client_for(who)
            for name in ("war", "war_history"):
                assert c.get(reverse(name, args=[campaign.code])).status_code == 404, name
        checked_before.append(subject.turn)

    campaign, battles = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=18, name="War", prefix="war",
        step=before_the_end,
    )  # fmt: skip
    assert checked_before, "the season ended before the checks"
    # no email but the campaign-over one links the war
    assert not any(WAR_LINK.search(m.body) for m in mail.outbox if "is over" not in m.subject)
    campaign.refresh_from_db()
    if campaign.status != CampaignStatus.ENDED:
        with django_capture_on_commit_callbacks(execute=True):
            organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    outsider = client_for(make_user("war-outsider"))
    assert outsider.get(reverse("war", args=[campaign.code])).status_code == 403

    prussian = client_for(campaign.seats.get(power="prussia").user)
    page = prussian.get(reverse("war", args=[campaign.code]))
    assert page.status_code == 200
    html = page.content.decode()
    # the charts, with their text alternatives
    assert html.count('<svg class="war-chart" role="img"') == 4
    assert '<title id="ch-points-t">Each army&#x27;s points by turn</title>' in html
    # every seat's orders of every window, and every roll with its check
    sheets = OrderSheet.objects.filter(campaign=campaign).select_related("seat")
    assert sheets.count() > 100
    for s in sheets.filter(window__phase="march")[:20]:
        for o in s.draft.get("march", [])[:1]:
            assert f"{o['unit']} marches {o['path']}" in html
    rolls = sum(len(v.rolls or []) for v in StateVersion.objects.filter(campaign=campaign))
    assert rolls > 0 and html.count("✓ matches the seed") == rolls
    for e in Event.objects.filter(campaign=campaign, kind="order-rejected"):
        assert e.text in html or e.text.replace("'", "&#x27;") in html

    # the map: every move of every army in every version, as the states have it
    versions = list(StateVersion.objects.filter(campaign=campaign).order_by("number"))
    expected = moves_in_states(versions)
    # the losses by cause account for every point each army lost between its deployment and the
    # end (no army surrendered in this season)
    first, last = (
        {t.army.value: t.current for t in viewcache.umpire_view(v).army_totals}
        for v in (versions[1], versions[-1])
    )
    losses = war.figures(campaign).losses
    assert {a: first[a] - last[a] for a in first} == {
        a: losses[a].total if a in losses else 0 for a in first
    }
    assert sum(x.by_cause["battle"] for x in losses.values()) > 0
    # the victory points end on the final table of 12
    table = Event.objects.get(campaign=campaign, kind="campaign-ends").data["table"]["rows"]
    vps = war.figures(campaign).vps
    assert {s.key: s.last for s in vps.series} == {r["seat"]: r["total"] for r in table}
    drawn = 0
    number = versions[0].number
    seen_versions = []
    with_forces = 0
    while number is not None:
        doc = prussian.get(reverse("war_history", args=[campaign.code]), {"version": number})
        assert doc.status_code == 200
        data = doc.json()
        seen_versions.append(data["version"])
        arrows = {(m["from"], m["to"]) for m in data["seen"]}
        assert arrows == expected.get(data["version"], set()), data["label"]
        drawn += len(arrows)
        # every force with its points, of every army (each leader's counter is labelled so)
        forces = [c for c in data["counters"] if c["kind"] == "force"]
        assert all(re.search(r" \d+$", c["label"]) for c in forces), forces[:3]
        with_forces += bool(forces)
        # one counter per leader, under his own army (two armies share a battle's hex)
        view = viewcache.umpire_view(next(v for v in versions if v.number == data["version"]))
        assert {(c["army"], c["name"]) for c in forces} == {
            (f.army.value, x.name) for f in view.forces for x in f.leaders
        }
        number = data["next"]
    assert seen_versions == [v.number for v in versions]
    assert with_forces >= len(versions) - 2  # all but the start (before the deployment)
    assert drawn == sum(len(m) for m in expected.values()) and drawn > 50


def test_the_organisers_end_lifts_the_fog_and_a_reopening_brings_it_back(
    organiser, django_capture_on_commit_callbacks
):
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=2, name="Short", prefix="short"
    )
    austria = campaign.seats.get(power="austria")
    player = client_for(austria.user)
    url = reverse("war", args=[campaign.code])
    dashboard = reverse("orders:dashboard", args=[austria.code])
    dice = reverse("campaign_dice", args=[campaign.code])
    assert player.get(url).status_code == 404
    assert url not in player.get(dashboard).content.decode()
    assert url not in player.get(dice).content.decode()
    assert client_for(organiser).get(url).status_code == 404  # the umpire has his own page
    with django_capture_on_commit_callbacks(execute=True):
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    assert player.get(url).status_code == 200
    assert url in player.get(dashboard).content.decode()  # the seat's own pages link it
    assert url in player.get(dice).content.decode()
    over = [m for m in mail.outbox if "is over" in m.subject]
    assert over and all(url in m.body and "fog has lifted" in m.body for m in over)
    with django_capture_on_commit_callbacks(execute=True):
        reopen.reopen_campaign(campaign, organiser, now=timezone.now(), reason="a test")
    assert player.get(url).status_code == 404
    assert player.get(reverse("war_history", args=[campaign.code])).status_code == 404


def test_the_public_link_is_off_by_default_and_switching_it_off_breaks_it(
    organiser, django_capture_on_commit_callbacks
):
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=1, name="Public", prefix="pub"
    )
    umpire = client_for(organiser)
    link = reverse("war_link", args=[campaign.code])
    assert campaign.war_token == ""
    # not before the end
    umpire.post(link, {"public": "on"})
    campaign.refresh_from_db()
    assert campaign.war_token == ""
    with django_capture_on_commit_callbacks(execute=True):
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    # only the organiser switches it
    player = client_for(campaign.seats.get(power="prussia").user)
    assert player.post(link, {"public": "on"}).status_code == 403
    campaign.refresh_from_db()
    assert campaign.war_token == ""
    assert "Make a public link" in umpire.get(reverse("war", args=[campaign.code])).content.decode()
    assert (
        "Make a public link"
        not in player.get(reverse("war", args=[campaign.code])).content.decode()
    )

    umpire.post(link, {"public": "on"})
    campaign.refresh_from_db()
    first = campaign.war_token
    assert len(first) >= 40
    anonymous = Client()
    page = anonymous.get(reverse("war_public", args=[first]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Make a public link" not in html and "/dice/" not in html
    assert reverse("war_public_history", args=[first]) in html
    doc = anonymous.get(reverse("war_public_history", args=[first]), {"version": 1})
    assert doc.status_code == 200 and doc.json()["version"] == 1
    assert campaign.actions.filter(text__contains="public link").count() == 1

    umpire.post(link, {"public": "off"})
    assert anonymous.get(reverse("war_public", args=[first])).status_code == 404
    assert anonymous.get(reverse("war_public_history", args=[first])).status_code == 404
    umpire.post(link, {"public": "on"})
    campaign.refresh_from_db()
    assert campaign.war_token not in ("", first)
    assert anonymous.get(reverse("war_public", args=[first])).status_code == 404
    assert anonymous.get(reverse("war_public", args=[campaign.war_token])).status_code == 200
    # a campaign reopened is running again: the link answers nothing
    with django_capture_on_commit_callbacks(execute=True):
        reopen.reopen_campaign(campaign, organiser, now=timezone.now(), reason="a test")
    assert anonymous.get(reverse("war_public", args=[campaign.war_token])).status_code == 404


def _ended_with_a_public_link(organiser, capture, prefix):
    campaign, _ = play_real_season(organiser, capture, turns=1, name="Public", prefix=prefix)
    with capture(execute=True):
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    war.set_public_link(campaign, organiser, on=True, now=timezone.now())
    return campaign


def test_a_copy_imported_from_a_file_does_not_answer_the_old_link(
    organiser, django_capture_on_commit_callbacks, tmp_path
):
    """The war's link is a key of this site: never in a season file, so switching it off
    breaks it, copy or no copy."""
    campaign = _ended_with_a_public_link(organiser, django_capture_on_commit_callbacks, "cp")
    token = campaign.war_token
    path = tmp_path / "s.dgk.json.gz"
    call_command("exportcampaign", str(campaign.code), "-o", str(path), stdout=StringIO())
    call_command("importcampaign", str(path), "--new-code", "--yes", stdout=StringIO())
    copy = Campaign.objects.exclude(id=campaign.id).get()
    assert copy.war_token == ""
    anonymous = Client()
    assert anonymous.get(reverse("war_public", args=[token])).status_code == 200
    war.set_public_link(campaign, organiser, on=False, now=timezone.now())
    assert anonymous.get(reverse("war_public", args=[token])).status_code == 404
    assert anonymous.get(reverse("war_public_history", args=[token])).status_code == 404


def test_a_reopening_switches_the_link_off_and_a_new_end_does_not_bring_it_back(
    organiser, django_capture_on_commit_callbacks
):
    campaign = _ended_with_a_public_link(organiser, django_capture_on_commit_callbacks, "ro")
    token = campaign.war_token
    with django_capture_on_commit_callbacks(execute=True):
        reopen.reopen_campaign(campaign, organiser, now=timezone.now(), reason="a test")
    campaign.refresh_from_db()
    assert campaign.war_token == ""
    assert "public link to The war is switched off" in campaign.actions.latest("id").text
    with django_capture_on_commit_callbacks(execute=True):
        organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    campaign.refresh_from_db()
    assert campaign.war_token == ""
    assert Client().get(reverse("war_public", args=[token])).status_code == 404
    war.set_public_link(campaign, organiser, on=True, now=timezone.now())
    assert campaign.war_token not in ("", token)


def test_every_page_open_without_signing_in_but_the_home_page_says_noindex(
    organiser, django_capture_on_commit_callbacks
):
    campaign = _ended_with_a_public_link(organiser, django_capture_on_commit_callbacks, "ni")
    token = campaign.war_token
    anonymous = Client()
    pages = [
        reverse("war_public", args=[token]),
        reverse("war_public_history", args=[token]),
        reverse("war_public_book", args=[token, "a4"]),
        reverse("battles:gazette", args=[campaign.code]),
        reverse("login"),
        reverse("password_reset"),
        reverse("accept_invitation", args=["A" * 43]),
        reverse("war_public", args=["B" * 43]),  # a link that is off: 404
    ]
    for url in pages:
        r = anonymous.get(url)
        assert r.status_code < 500, url
        assert r["X-Robots-Tag"] == "noindex, nofollow", url
    assert anonymous.get("/healthz")["X-Robots-Tag"] == "noindex, nofollow"  # 503: no worker
    campaign.refresh_from_db()
    files.save_whole(bookfiles.KIND, bookfiles.book_key(campaign, "letter"), b"%PDF-1.4 the book")
    r = anonymous.get(reverse("war_public_book", args=[token, "letter"]))
    assert r.status_code == 200 and r["X-Robots-Tag"] == "noindex, nofollow"
    assert "X-Robots-Tag" not in anonymous.get(reverse("home")).headers
