"""A season as one file (issue 27): exportcampaign, importcampaign, the organiser's download.

One database here; the round trip between PostgreSQL and SQLite is
``test_season_round_trip.py``."""

from __future__ import annotations

import gzip
import json
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, CampaignStatus, Invitation, OrganiserAction, Seat
from campaign.services import organiser as tools
from campaign.services import reopen
from seasons.services import nextyear, seasonfile, seasonimport
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(organiser, django_capture_on_commit_callbacks):
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=1, name="File season", prefix="f"
    )
    return campaign


def _export(campaign, path, *extra) -> str:
    out = StringIO()
    call_command("exportcampaign", str(campaign.code), "-o", str(path), *extra, stdout=out)
    return out.getvalue()


def _import(path, *extra) -> str:
    out = StringIO()
    call_command("importcampaign", str(path), *extra, stdout=out)
    return out.getvalue()


def _rows() -> dict[str, int]:
    """How many rows every model of the project holds."""
    return {
        m._meta.label: m.objects.count()
        for m in apps.get_models()
        if m._meta.app_label in ("campaign", "battles", "press", "orders", "auth")
    }


def _same_season(a: dict, b: dict) -> None:
    a, b = dict(a), dict(b)
    a.pop("exported_at"), b.pop("exported_at")
    for key in a:
        assert a[key] == b[key], key


def test_it_imports_what_it_exported(season, organiser, tmp_path):
    path = tmp_path / "season.dgk.json.gz"
    said = _export(season, path, "--with-secrets")
    assert "with its dice seed" in said
    before = seasonfile.season_body(season, with_secrets=True)
    assert len(before["versions"]) == season.versions.count() > 5
    assert sum(len(v["events"]) for v in before["versions"]) == season.events.count()
    season.delete()

    said = _import(path)
    assert f"Imported File season ({before['campaign']['code']})" in said
    assert "f-prussia@example.org: found on this site, seated" in said
    back = Campaign.objects.get(code=before["campaign"]["code"])
    assert back.organiser == organiser
    _same_season(before, seasonfile.season_body(back, with_secrets=True))
    assert back.seats.get(power="prussia").user.username == "f-prussia"


def test_the_file_is_checked_gzip_json_with_its_sha256(season, tmp_path):
    path = tmp_path / "s.gz"
    _export(season, path)
    envelope = json.loads(gzip.decompress(path.read_bytes()))
    assert envelope["format"] == "dgk-season"
    assert envelope["format_version"] == 1
    assert envelope["sha256"] == seasonfile.checksum(envelope["body"])
    assert "seed" not in envelope["body"]["campaign"]  # exported without secrets
    assert envelope["body"]["campaign"]["seed_commitment"] == season.seed_commitment


def test_a_truncated_file_is_refused_and_nothing_written(season, tmp_path):
    path = tmp_path / "s.gz"
    _export(season, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    season.delete()
    rows = _rows()
    with pytest.raises(CommandError, match="not a whole season file.*Nothing was imported"):
        _import(path)
    assert _rows() == rows


def _rewrite(path, change) -> None:
    envelope = json.loads(gzip.decompress(path.read_bytes()))
    change(envelope)
    path.write_bytes(gzip.compress(json.dumps(envelope).encode()))


def test_an_altered_file_is_refused(season, tmp_path):
    path = tmp_path / "s.gz"
    _export(season, path)
    _rewrite(path, lambda e: e["body"]["versions"][3]["events"][0].update(text="Frederick wins"))
    season.delete()
    rows = _rows()
    with pytest.raises(CommandError, match="altered or damaged: its SHA-256"):
        _import(path)
    assert _rows() == rows


def test_an_unknown_format_version_is_refused(season, tmp_path):
    path = tmp_path / "s.gz"
    _export(season, path)
    _rewrite(path, lambda e: e.update(format_version=2))
    season.delete()
    with pytest.raises(CommandError, match="format version 2; this site reads version 1"):
        _import(path)
    assert not Campaign.objects.exists()


def test_a_failure_halfway_writes_nothing(season, tmp_path):
    """A file whose checksum is right but whose last rows are wrong (a newer site's column):
    the rows already written are rolled back with the rest."""
    path = tmp_path / "s.gz"
    _export(season, path)

    def newer(e):
        e["body"]["log"][-1]["mood"] = "cheerful"
        e["sha256"] = seasonfile.checksum(e["body"])

    _rewrite(path, newer)
    season.delete()
    rows = _rows()
    with pytest.raises(CommandError, match="OrganiserAction.mood this site does not know"):
        _import(path)
    assert _rows() == rows


def test_a_code_already_on_the_site_is_refused_and_new_code_imports_it(season, tmp_path):
    path = tmp_path / "s.gz"
    _export(season, path, "--with-secrets")
    rows = _rows()
    with pytest.raises(CommandError, match="already on this site.*--new-code"):
        _import(path)
    assert _rows() == rows

    said = _import(path, "--new-code")
    copy = Campaign.objects.exclude(id=season.id).get()
    assert str(copy.code) in said and copy.code != season.code
    old_seats = {str(s.code) for s in season.seats.all()}
    new_seats = {str(s.code) for s in copy.seats.all()}
    assert not old_seats & new_seats
    window = copy.open_window()
    assert window.owing and set(window.owing) <= new_seats
    assert copy.versions.count() == season.versions.count()
    assert copy.events.count() == season.events.count()


def test_without_secrets_it_draws_a_new_seed_and_says_so(season, tmp_path):
    path = tmp_path / "s.gz"
    _export(season, path)
    old_seed, old_epoch = season.seed, season.seed_epoch
    season.delete()
    said = _import(path)
    assert "had no dice seed" in said and "a new seed was drawn" in said
    back = Campaign.objects.get()
    assert back.seed != old_seed
    assert back.seed_epoch == old_epoch + 1
    line = back.actions.get(kind="reseeded")
    assert "without its dice seed" in line.text and back.seed_commitment in line.text


def test_a_player_not_on_the_site_is_invited(season, tmp_path, django_capture_on_commit_callbacks):
    path = tmp_path / "s.gz"
    _export(season, path, "--with-secrets")
    season.delete()
    get_user_model().objects.filter(username="f-russia").delete()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        said = _import(path)
    assert "f-russia@example.org: not on this site, invited by email" in said
    seat = Seat.objects.get(power="russia")
    assert seat.user is None
    invitation = Invitation.objects.get(seat=seat)
    assert invitation.email == "f-russia@example.org"
    assert [m.to for m in mail.outbox if invitation.token in m.body] == [["f-russia@example.org"]]


def test_the_organiser_must_have_an_account(season, tmp_path, organiser):
    path = tmp_path / "s.gz"
    _export(season, path, "--with-secrets")
    season.delete()
    organiser.email = "someone-else@example.org"
    organiser.save()
    with pytest.raises(CommandError, match="has no account on this site.*--organiser"):
        _import(path)
    _import(path, "--organiser", organiser.username)
    assert Campaign.objects.get().organiser == organiser


def test_an_archive_must_have_ended_and_stays_read_only(season, tmp_path, organiser):
    path = tmp_path / "s.gz"
    _export(season, path)
    with pytest.raises(CommandError, match="Only a finished season can be imported as an archive"):
        _import(path, "--archive", "--new-code")

    now = timezone.now()
    tools.end_campaign(season, organiser, now=now, reason="the club disbanded")
    season.refresh_from_db()
    assert reopen.may_reopen(season, now=now)  # an ended campaign may come back...
    _export(season, path)
    season.delete()
    said = _import(path, "--archive")
    assert "as a read-only archive" in said
    archive = Campaign.objects.get()
    assert archive.archived and archive.status == CampaignStatus.ENDED
    assert (
        archive.seed == json.loads(gzip.decompress(path.read_bytes()))["body"]["campaign"]["seed"]
    )  # an ended season's seeds are revealed: the file carries them
    assert not reopen.may_reopen(archive, now=now)  # ...not an archive
    assert "archive" in nextyear.refusal(archive)
    assert archive.open_window() is None


def test_every_model_of_a_campaign_is_in_the_file():
    """A model that belongs to a campaign (a link to one, or to a row of one) is written to the
    file or left out with a reason: a new one cannot be forgotten."""
    belongs = {Campaign}
    changed = True
    while changed:
        changed = False
        for model in apps.get_models():
            if model in belongs or model._meta.auto_created:
                continue
            if any(
                f.is_relation and f.concrete and f.related_model in belongs
                for f in model._meta.get_fields()
            ):
                belongs.add(model)
                changed = True
    assert belongs == set(seasonfile.EXPORTED) | set(seasonfile.NOT_EXPORTED)
    for model in seasonfile.EXPORTED:
        seasonfile.own_columns(model)  # every link known


# --- the organiser's download -----------------------------------------------------------


def test_the_organiser_downloads_the_season_file(client, season, organiser):
    client.force_login(organiser)
    r = client.get(reverse("season_file", args=[season.code]))
    assert r.status_code == 200
    assert r["Content-Type"] == "application/gzip"
    assert (
        f"{season.code}" in r["Content-Disposition"] and ".dgk.json.gz" in r["Content-Disposition"]
    )
    body = seasonfile.loads(r.content)
    assert body["campaign"]["code"] == str(season.code)
    assert "seed" not in body["campaign"]  # a secret while it runs, the organiser's too
    board = client.get(reverse("organiser_board", args=[season.code])).content.decode()
    assert reverse("season_file", args=[season.code]) in board


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_it_refuses_the_file_to_others(client, season, who, outsider):
    user = season.seats.get(power="prussia").user if who == "player" else outsider
    client.force_login(user)
    r = client.get(reverse("season_file", args=[season.code]))
    assert r.status_code == 403
    assert season.seed.encode() not in r.content


def test_it_asks_a_stranger_to_sign_in(client, season):
    r = client.get(reverse("season_file", args=[season.code]))
    assert r.status_code == 302 and "/login/" in r.url


def test_it_rejects_post(client, season, organiser):
    client.force_login(organiser)
    assert client.post(reverse("season_file", args=[season.code])).status_code == 405


def test_seasonimport_refuses_a_body_missing_parts(organiser):
    with pytest.raises(seasonfile.SeasonFileError, match="not a season this site can read"):
        seasonimport.import_season({"campaign": {"code": "x"}}, now=timezone.now())
    assert not OrganiserAction.objects.exists()


def test_it_refuses_the_file_to_an_organiser_who_plays(client, season, organiser):
    """An organiser who holds a seat is a player: the file would show him every other seat's
    forces and orders (the leak crawler looks inside it too)."""
    seat = season.seats.get(power="prussia")
    seat.user = organiser
    seat.save()
    client.force_login(organiser)
    r = client.get(reverse("season_file", args=[season.code]))
    assert r.status_code == 403
    assert "You play a seat in this campaign" in r.content.decode()
    board = client.get(reverse("organiser_board", args=[season.code])).content.decode()
    assert reverse("season_file", args=[season.code]) not in board
