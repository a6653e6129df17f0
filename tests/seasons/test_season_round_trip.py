"""The round trip of issue 27: a season played to turn 6, with battles, letters and an absence,
exported from this database (PostgreSQL in CI's second pass), imported into a fresh SQLite
database in another process, exported from there and imported back here. Each time: the same
rows (state versions, events, windows, sheets, battles, letters, log), every page of every seat
and of the organiser the same (tokens taken out), and the next phase resolves to the same
state with the same rolls."""

from __future__ import annotations

import json
from datetime import timedelta
from difflib import unified_diff
from pathlib import Path

import pytest
from django.core.management import call_command

from campaign.models import Campaign
from campaign.services import drifting
from letters.services import press
from tests.campaign.probes import run_probe
from tests.seasons import season_probe
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db

TURNS = 6


def _play(organiser, capture) -> Campaign:
    """Six turns; letters on turns 2 and 6 (by courier: the last still on the road), the
    Russian player away for part of turn 3 and 4."""
    done = set()

    def step(what, subject):
        if what != "phase" or subject.turn in done:
            return
        window = subject
        c = window.campaign
        seats = {s.power: s for s in c.seats.all()}
        at = window.deadline or window.opened_at
        if window.turn in (2, TURNS):
            press.send(seats["prussia"], [seats["austria"].id, seats["hanover"].id],
                       f"Turn {window.turn}: I march on Dresden.", now=at)  # fmt: skip
            press.send(seats["austria"], [seats["prussia"].id], "Daun is waiting.", now=at)
            done.add(window.turn)
        if window.turn == 3:
            drifting.declare_absence(seats["russia"], at + timedelta(days=4), now=at)
            done.add(window.turn)

    campaign, battles = play_real_season(
        organiser, capture, turns=TURNS, name="Round trip", prefix="rt", step=step,
        options={"press": "courier", "courier_phases": 2, "press_moderated": True},
    )  # fmt: skip
    assert battles >= 2
    assert campaign.letters.count() == 4
    return campaign


def _probe(tmp_path: Path, file: Path, people: list[dict], export: Path) -> dict:
    """Import ``file`` into a fresh SQLite database in another process and read it there."""
    (tmp_path / "people.json").write_text(json.dumps(people))
    site, out = tmp_path / "other-site.sqlite3", tmp_path / "probe.json"
    args = (str(file), "--people", str(tmp_path / "people.json"), "--export", str(export))
    return run_probe("tests.seasons.season_probe", site, tmp_path, out, *args)


def _same_pages(here: dict, there: dict) -> None:
    assert here.keys() == there.keys()
    differ = []
    for key in here:
        if here[key] != there[key]:
            lines = unified_diff(here[key].splitlines(), there[key].splitlines(), lineterm="")
            differ.append(f"{key} reads differently:\n" + "\n".join(list(lines)[2:12]))
    assert not differ, f"{len(differ)} pages differ:\n" + "\n".join(differ[:8])


def _plain(value):
    return json.loads(json.dumps(value))


def test_a_season_goes_to_another_database_and_back(
    organiser, tmp_path, django_capture_on_commit_callbacks
):
    campaign = _play(organiser, django_capture_on_commit_callbacks)
    assert campaign.seats.filter(absent_until__isnull=False).count() == 1
    there_file, back_file = tmp_path / "here.dgk.json.gz", tmp_path / "there.dgk.json.gz"
    call_command("exportcampaign", str(campaign.code), "-o", str(there_file), "--with-secrets")

    season = _plain(season_probe.season(campaign))
    pages = season_probe.pages(campaign)
    assert len(pages) == 5 * 15 + 8
    assert sum(1 for p in pages.values() if p.startswith("200\n")) == len(pages)
    there = _probe(tmp_path, there_file, season_probe.people_of(campaign), back_file)

    # There: the same season, read the same.
    for key in season:
        assert there["season"][key] == season[key], key
    _same_pages(pages, there["pages"])

    # The next phase, here and there: the same state, the same rolls, the same events.
    with django_capture_on_commit_callbacks(execute=True):
        here_next = _plain(season_probe.next_phase(campaign))
    assert here_next[-1]["versions"][-1]["rolls"]
    assert there["next"] == here_next

    # And back: the file made there, imported here in place of the original.
    campaign.delete()
    call_command("importcampaign", str(back_file), "--yes", verbosity=0)
    back = Campaign.objects.get(code=season["campaign"]["code"])
    assert _plain(season_probe.season(back)) == season
    _same_pages(pages, season_probe.pages(back))
    with django_capture_on_commit_callbacks(execute=True):
        assert _plain(season_probe.next_phase(back)) == here_next
