"""Names written on one line into a calendar, an email's subject or a club's post (the
campaign's, the seats' labels) hold no control character (docs/security.md, "Names on one
line"): the set-up form, the service behind it and the season import refuse one, naming the
field; a tab is refused too. The bidirectional controls stay removed by the form
(test_bidi.py) and refused by the import."""

from __future__ import annotations

import gzip
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from campaign.models import Campaign, Seat
from campaign.services import setup
from campaign.services.plaintext import control_in, one_line
from seasons.services import seasonfile
from tests.organiser.test_campaign_setup import FORM

pytestmark = pytest.mark.django_db

INJECTED = "Saxony 1757\r\nX-Evil: 1"


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("Saxony 1757", None),
        ("Fr\u00e9d\u00e9ric's \u05e9\u05dc\u05d5\u05dd war", None),  # any script is a name
        ("Saxony\u200d1757", None),  # a zero-width joiner (emoji, scripts) is no control
        (INJECTED, "\r"),
        ("Saxony\n1757", "\n"),
        ("Saxony\t1757", "\t"),
        ("Saxony\x001757", "\x00"),
        ("Saxony\x7f1757", "\x7f"),
        ("Saxony\x851757", "\x85"),  # C1's next line
        ("Saxony\u20281757", "\u2028"),  # the line separator
        ("Saxony\u202e1757", "\u202e"),  # a right-to-left override
    ],
)
def test_control_in_finds_the_first_character_a_name_cannot_hold(name, found):
    assert control_in(name) == found


@pytest.mark.parametrize(
    ("text", "written"),
    [
        (INJECTED, "Saxony 1757 X-Evil: 1"),
        ("a\tb\x00c\u2029d\x85e", "a b c d e"),
        ("\u202eSaxony\u202c", "Saxony"),
        ("Kolin (hex 1010)", "Kolin (hex 1010)"),
    ],
)
def test_one_line_writes_each_run_of_controls_as_one_space(text, written):
    assert one_line(text) == written


@pytest.mark.parametrize(
    ("name", "seen"),
    [(INJECTED, "a line break (U+000D)"), ("Saxony\t1757", "a tab (U+0009)")],
)
def test_the_form_refuses_a_name_with_a_control_character(client, organiser, name, seen):
    client.force_login(organiser)
    r = client.post(reverse("new_campaign"), {**FORM, "name": name})
    assert r.status_code == 200
    assert f"The campaign&#x27;s name cannot hold {seen}" in r.content.decode()
    assert r.context["form"].errors["name"] == [
        f"The campaign's name cannot hold {seen}: write it on one line."
    ]
    assert not Campaign.objects.exists()


def test_the_form_still_takes_a_plain_name(client, organiser):
    client.force_login(organiser)
    r = client.post(reverse("new_campaign"), {**FORM, "name": "  Saxony 1757 \r\n"})
    assert r.status_code == 302
    assert Campaign.objects.get().name == "Saxony 1757"  # the ends stripped, as before


def test_the_service_refuses_what_the_form_would(organiser, now):
    with pytest.raises(setup.SetupError, match="control character U\\+000D"):
        setup.create_campaign(
            organiser, name=INJECTED, players=2, now=now, army_points={"prussia": 3200}
        )
    assert not Campaign.objects.exists()


# ---- the season import -----------------------------------------------------------------------


def _season_file(campaign, tmp_path, change):
    """The campaign's season file, its body changed and its checksum written again."""
    envelope = json.loads(gzip.decompress(seasonfile.export_campaign(campaign, with_secrets=True)))
    envelope["body"]["campaign"]["map_name"] = ""  # the bundled map: the standing one is none
    change(envelope["body"])
    envelope["sha256"] = seasonfile.checksum(envelope["body"])
    path = tmp_path / "season.dgk.json.gz"
    path.write_bytes(gzip.compress(json.dumps(envelope).encode()))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda b: b["campaign"].update(name=INJECTED),
            r"campaign\.name: a name cannot hold the control character U\+000D",
        ),
        (
            lambda b: b["campaign"].update(name="Saxony\t1757"),
            r"campaign\.name: a name cannot hold the control character U\+0009",
        ),
        (
            lambda b: b["seats"][0].update(label="Prussia\r\nX-Evil: 1"),
            r"seats\[0\]\.label: a name cannot hold the control character U\+000D",
        ),
    ],
)
def test_the_import_refuses_a_name_with_a_control_character(
    new_campaign, tmp_path, change, message
):
    path = _season_file(new_campaign, tmp_path, change)
    new_campaign.delete()
    with pytest.raises(CommandError, match=message) as caught:
        call_command("importcampaign", str(path), "--yes", stdout=StringIO())
    assert str(caught.value).endswith("Nothing was imported.")
    assert not Campaign.objects.exists() and not Seat.objects.exists()


def test_the_same_file_with_plain_names_is_imported(new_campaign, tmp_path):
    path = _season_file(new_campaign, tmp_path, lambda body: None)
    new_campaign.delete()
    call_command("importcampaign", str(path), "--yes", stdout=StringIO())
    assert Campaign.objects.get().name == "Bohemia 1757"
