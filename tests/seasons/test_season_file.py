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


def _import(path, *extra, stdin=None) -> str:
    """The command's output; the organiser found by the file's email is confirmed (``--yes``)
    unless the test names one or answers the question itself (``stdin``)."""
    out = StringIO()
    if stdin is None and "--organiser" not in extra:
        extra = (*extra, "--yes")
    call_command("importcampaign", str(path), *extra, stdout=out, stdin=stdin)
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
    assert envelope["format_version"] == 2
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
    _rewrite(path, lambda e: e.update(format_version=3))
    season.delete()
    with pytest.raises(CommandError, match="format version 3; this site reads versions 1, 2"):
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
    assert belongs == set(seasonfile.EXPORTED) | set(seasonfile.not_exported())
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
    with pytest.raises(seasonfile.SeasonFileError, match="The file has no list of seats"):
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


# --- a file made by someone else (issue 36): every value checked before a row is written ----


class Terminal(StringIO):
    """What the organiser types at the terminal."""

    def isatty(self) -> bool:
        return True


def _forge(path, change) -> None:
    """Change the body and write its checksum again: a checksum says nothing of who made it."""

    def forged(e):
        change(e["body"])
        e["sha256"] = seasonfile.checksum(e["body"])

    _rewrite(path, forged)


def _refused(path, message, *extra) -> None:
    rows = _rows()
    with pytest.raises(CommandError, match=message) as caught:
        _import(path, *extra)
    assert str(caught.value).endswith("Nothing was imported.") and "\n" not in str(caught.value)
    assert _rows() == rows


@pytest.fixture
def exported(season, tmp_path):
    path = tmp_path / "s.gz"
    _export(season, path, "--with-secrets")
    season.delete()
    return path


def _organiser_is_prussia(body):
    body["campaign"]["organiser"] = {"email": "f-prussia@example.org", "username": "f-prussia"}


def test_an_organiser_found_by_email_is_named_and_confirmed(exported, organiser):
    _forge(exported, _organiser_is_prussia)
    rows = _rows()
    out = StringIO()
    with pytest.raises(CommandError, match="must be confirmed.*--yes.*--organiser"):
        call_command("importcampaign", str(exported), stdout=out, stdin=StringIO(""))
    assert "Organiser: f-prussia <f-prussia@example.org>" in out.getvalue()
    assert "the file also seats this account as Prussia" in out.getvalue()
    assert _rows() == rows

    with pytest.raises(CommandError, match="Not confirmed. Nothing was imported"):
        _import(exported, stdin=Terminal("n\n"))
    assert _rows() == rows

    said = _import(exported, "--organiser", organiser.email)
    assert f"Organiser: {organiser.username} <{organiser.email}> (--organiser)" in said
    assert Campaign.objects.get().organiser == organiser


def test_the_organiser_confirmed_at_the_terminal_is_said_again(exported):
    _forge(exported, _organiser_is_prussia)
    said = _import(exported, stdin=Terminal("y\n"))
    assert "Make f-prussia the organiser of this campaign? [y/N]" in said
    assert "; organiser f-prussia <f-prussia@example.org>." in said
    assert Campaign.objects.get().organiser.username == "f-prussia"


def _nest(depth: int) -> bytes:
    return b'{"format":"dgk-season","format_version":1,"sha256":"","body":' + (
        b"[" * depth + b"]" * depth + b"}"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b["campaign"].update(seed_epoch=10**30), "larger than 64 bits hold"),
        (lambda b: b["campaign"].update(seed_epoch=2**40), "seed_epoch: .* from 0 to 32767"),
        (lambda b: b["versions"][1].update(number=2**63), "larger than 64 bits hold"),
        (lambda b: b["versions"][1].update(number=2**31), r"number: .* from 0 to 2147483647"),
        (lambda b: b["versions"][1].update(number="2"), "number: 2 is not a whole number"),
        (lambda b: b["versions"][1].update(number=b["versions"][0]["number"]), "comes twice"),
        (lambda b: b["campaign"].update(map_name="../../../../etc/passwd"), "not a map this"),
        (lambda b: b["campaign"].update(map_name="/tmp/map.json"), "not a map this site has"),
        (lambda b: b["campaign"].update(name="Rossbach\u202e"), "control character U\\+202E"),
        (lambda b: b["campaign"].update(name="  "), "a name cannot be empty"),
        (lambda b: b["seats"][0].update(label="A\nB"), r"seats\[0\].label: .*U\+000A"),
        (lambda b: b["campaign"].update(name="x" * 101), "longer than 100"),
        (lambda b: b["campaign"].update(status="won"), "status: 'won' is not one of"),
        (lambda b: b["campaign"].update(time_zone="../etc"), "is no time zone"),
        (lambda b: b["campaign"].update(created="yesterday"), "is no time with its UTC offset"),
        (lambda b: b["campaign"].update(created="2026-11-28T10:00:00"), "UTC offset"),
        (lambda b: b["campaign"].update(paused=1), "paused: 1 is not true or false"),
        (lambda b: b["campaign"].update(previous="not-a-code"), "is no code"),
        (lambda b: b["campaign"].update(past_seeds=[{"epoch": 0}]), "past_seeds"),
        (lambda b: b["campaign"].update(rule_settings="fast"), "not a JSON object"),
        (lambda b: b["seats"][0].update(armies={}), r"seats\[0\].armies: not a JSON array"),
        (lambda b: b["seats"][1].update(code=b["seats"][0]["code"]), "comes twice"),
        (lambda b: b["seats"][0].update(user={"email": "a@b\r\nBcc: x"}), "not an email"),
        (lambda b: b["windows"][0].update(version=999), "999 is no version of the file"),
        (lambda b: b["windows"][0].update(remaining=1e300), "not a duration"),
        (lambda b: b["windows"][0]["sheets"][0].update(seat="x"), "is no seat of the file"),
        (lambda b: b["versions"][1]["events"][0].update(text="a\x00b"), "NUL character"),
        (lambda b: b["versions"][1]["events"][0].pop("seq"), "the column seq is missing"),
        (lambda b: b["versions"][0].update(events={}), "events: not a list"),
        (lambda b: b.update(seats={}), "no list of seats"),
        (lambda b: b["campaign"].pop("organiser"), "names no organiser"),
    ],
)
def test_a_forged_file_is_refused_with_one_line_and_nothing_written(exported, change, message):
    _forge(exported, change)
    _refused(exported, message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_nest(100_000), "nests 100001 deep, more than 64"),
        (b'{"format":"dgk-season","body":{"a":NaN}}', "NaN is not a number JSON allows"),
        (b'{"format":"dgk-season","n":' + b"9" * 5000 + b"}", "not JSON"),
        # a string that never closes, of escaped quotes: refused as not JSON, read once
        (b'{"format":"dgk-season","n":"' + b'\\"' * 200_000, "not JSON"),
    ],
)
def test_json_too_deep_or_not_json_is_refused(tmp_path, text, message):
    path = tmp_path / "s.gz"
    path.write_bytes(gzip.compress(text))
    _refused(path, message)


def test_the_depth_is_counted_outside_strings():
    assert seasonfile.nesting_depth(b'{"a":"[[[[\\"[[[","b":[[{}]]}') == 4
    assert seasonfile.nesting_depth(b"[]" * 1000) == 1
    assert seasonfile.nesting_depth(b'[{"a": "[[\\"\n[') == 2  # (unclosed: the rest is in it)


def test_a_file_over_the_limit_is_refused_unread(exported, settings, tmp_path):
    """Compressed: refused by its size. A gzip bomb (1 MiB of JSON spaces from 1 KiB): refused
    at the first chunk decompressed past the limit. The limit is a setting."""
    data = exported.read_bytes()
    settings.SEASON_FILE_MAX_BYTES = len(data) - 1
    _refused(exported, "too large: compressed, more than")
    settings.SEASON_FILE_MAX_BYTES = len(gzip.decompress(data)) - 1
    _refused(exported, "too large: decompressed, more than")
    settings.SEASON_FILE_MAX_BYTES = len(gzip.decompress(data))
    assert "Imported File season" in _import(exported)

    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip.compress(b'{"format":"dgk-season"' + b" " * (1 << 20) + b"}"))
    assert bomb.stat().st_size < 2048
    settings.SEASON_FILE_MAX_BYTES = 1 << 19
    _refused(bomb, "too large: decompressed, more than 524,288 bytes")
    with pytest.raises(seasonfile.SeasonFileError, match="too large: decompressed"):
        seasonfile.loads(bomb.read_bytes())


def test_bytes_after_the_gzip_stream_are_refused(exported):
    exported.write_bytes(exported.read_bytes() + b"more")
    _refused(exported, "bytes after its gzip stream")


def test_the_war_link_is_never_in_the_file_and_an_old_files_is_ignored(season, tmp_path):
    season.war_token = "A" * 43
    season.save()
    path = tmp_path / "s.gz"
    _export(season, path)
    assert "war_token" not in seasonfile.loads(path.read_bytes())["campaign"]
    assert "A" * 43 not in gzip.decompress(path.read_bytes()).decode()
    season.delete()
    _forge(path, lambda b: b["campaign"].update(war_token="x"))  # an older site's file
    _import(path)
    assert Campaign.objects.get().war_token == ""


def test_a_copy_under_new_codes_says_so_in_its_name(season, tmp_path):
    path = tmp_path / "s.gz"
    _export(season, path)
    said = _import(path, "--new-code")
    copy = Campaign.objects.exclude(id=season.id).get()
    assert copy.name == f"File season (copy imported {timezone.now():%Y-%m-%d})"
    assert f"Imported {copy.name} ({copy.code})" in said
    assert seasonimport.copy_name("x" * 100, timezone.now()).endswith(")")
    assert len(seasonimport.copy_name("x" * 100, timezone.now())) == 100


def test_the_year_before_is_linked_only_if_the_organiser_runs_it(
    season, tmp_path, organiser, outsider
):
    mine = Campaign.objects.create(name="1756", organiser=organiser)
    theirs = Campaign.objects.create(name="Theirs", organiser=outsider)
    path = tmp_path / "s.gz"
    _export(season, path)
    season.delete()
    _forge(path, lambda b: b["campaign"].update(previous=str(theirs.code)))
    said = _import(path)
    assert f"the campaign {theirs.code} is another organiser's: not linked" in said
    imported = Campaign.objects.get(name="File season")
    assert imported.previous is None
    imported.delete()

    _forge(path, lambda b: b["campaign"].update(previous=str(mine.code)))
    said = _import(path)
    assert "not linked" not in said
    assert Campaign.objects.get(name="File season").previous == mine


# --- the club's webhook: a password of this site, never in a file ----------------------------


HOOK = "https://discord.com/api/webhooks/123/a-secret-token"


def test_the_clubs_webhook_never_travels_in_the_file(season, tmp_path):
    """Its address is its password: a file given to another club would hand over the secret,
    and the copy imported there would post into this club's chat. Not even in a backup (with
    the secrets): the organiser sets it again where the file is imported."""
    season.options = {**season.options, "club_hook": HOOK}
    season.save(update_fields=["options"])
    path = tmp_path / "s.gz"
    _export(season, path, "--with-secrets")
    assert b"a-secret-token" not in gzip.decompress(path.read_bytes())
    body = seasonfile.read(path)
    kept = {k: v for k, v in season.options.items() if k != "club_hook"}
    assert body["campaign"]["options"] == kept  # the campaign's other options travel
    season.delete()
    _import(path)
    back = Campaign.objects.get(code=body["campaign"]["code"])
    assert "club_hook" not in back.options
    assert back.options == kept


def test_a_file_that_carries_a_webhook_is_imported_without_it(exported):
    """A file written by an older site, or by hand, with the hook in the options."""

    def with_hook(body):
        body["campaign"]["options"]["club_hook"] = HOOK

    _forge(exported, with_hook)
    body = seasonfile.read(exported)
    assert body["campaign"]["options"]["club_hook"] == HOOK
    _import(exported)
    back = Campaign.objects.get(code=body["campaign"]["code"])
    assert "club_hook" not in back.options
