"""Management commands of the foundation: createorganiser and runperiodic."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from campaign.models import ORGANISERS_GROUP, Heartbeat, is_organiser
from campaign.tasks import WORKER

pytestmark = pytest.mark.django_db

PASSWORD = "Hochkirch-1758"


def test_createorganiser_creates_a_user_in_the_organisers_group():
    out = StringIO()
    call_command(
        "createorganiser",
        "--username=anna",
        "--email=anna@example.org",
        f"--password={PASSWORD}",
        "--noinput",
        stdout=out,
    )

    user = User.objects.get(username="anna")
    assert user.check_password(PASSWORD)
    assert user.email == "anna@example.org"
    assert user.groups.filter(name=ORGANISERS_GROUP).exists()
    assert is_organiser(user)
    assert "Created organiser 'anna'" in out.getvalue()


def test_createorganiser_reads_the_environment_with_noinput(monkeypatch):
    monkeypatch.setenv("DGK_ORGANISER_USERNAME", "ben")
    monkeypatch.setenv("DGK_ORGANISER_PASSWORD", PASSWORD)

    call_command("createorganiser", "--noinput", stdout=StringIO())

    assert is_organiser(User.objects.get(username="ben"))


def test_createorganiser_prompts_for_missing_values(monkeypatch):
    answers = iter(["clara", "clara@example.org"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    monkeypatch.setattr("getpass.getpass", lambda prompt: PASSWORD)

    call_command("createorganiser", stdout=StringIO())

    user = User.objects.get(username="clara")
    assert user.email == "clara@example.org"
    assert user.check_password(PASSWORD)


def test_createorganiser_refuses_to_prompt_with_noinput(monkeypatch):
    monkeypatch.delenv("DGK_ORGANISER_PASSWORD", raising=False)

    with pytest.raises(CommandError, match="DGK_ORGANISER_PASSWORD"):
        call_command("createorganiser", "--username=dora", "--noinput")
    assert not User.objects.filter(username="dora").exists()


def test_createorganiser_refuses_a_weak_password():
    with pytest.raises(CommandError, match="too short"):
        call_command("createorganiser", "--username=emil", "--password=abc", "--noinput")


def test_createorganiser_run_twice_adds_an_existing_user_once():
    User.objects.create_user("fritz", password=PASSWORD)

    call_command("createorganiser", "--username=fritz", "--noinput", stdout=StringIO())
    call_command("createorganiser", "--username=fritz", "--noinput", stdout=StringIO())

    user = User.objects.get(username="fritz")
    assert user.check_password(PASSWORD)
    assert user.groups.filter(name=ORGANISERS_GROUP).count() == 1


def test_a_plain_user_is_no_organiser():
    assert not is_organiser(User.objects.create_user("outsider", password=PASSWORD))


def test_runperiodic_once_records_a_heartbeat():
    call_command("runperiodic", "--once", stdout=StringIO())

    beat = Heartbeat.objects.get(source=WORKER)
    assert beat.eager is True


def test_runperiodic_refuses_an_unknown_task(settings):
    settings.PERIODIC_TASKS = {"campaign.tasks.no_such_task": 60}

    with pytest.raises(CommandError, match="no_such_task"):
        call_command("runperiodic", "--once", stdout=StringIO())


def test_an_organiser_may_create_campaigns():
    out = StringIO()
    call_command(
        "createorganiser", "--username=gisela", f"--password={PASSWORD}", "--noinput", stdout=out
    )

    assert User.objects.get(username="gisela").has_perm("campaign.add_campaign")


def test_the_standing_organiser_is_an_organiser_and_the_outsider_is_not(organiser, outsider):
    assert is_organiser(organiser)
    assert not is_organiser(outsider)
