"""Sign-in throttled (django-axes), the organiser's unlock, the security headers and the
production checks (issue 11)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from campaign.models import OrganiserAction
from tests.web.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def sign_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


@pytest.fixture
def limit(settings):
    settings.AXES_FAILURE_LIMIT = 3
    return 3


def test_repeated_wrong_passwords_lock_the_account(limit, player):
    player.set_password("right-password-1757")
    player.save()
    guesser = Client()
    for _ in range(limit - 1):
        assert sign_in(guesser, player.username, "wrong").status_code == 200
    assert sign_in(guesser, player.username, "wrong").status_code == 429
    r = sign_in(guesser, player.username, "right-password-1757")
    assert r.status_code == 429
    assert "Sign-in paused" in r.content.decode()
    # The right password from elsewhere is refused too while the account is locked.
    assert (
        sign_in(Client(REMOTE_ADDR="10.9.9.9"), player.username, "right-password-1757").status_code
        == 429
    )


def test_one_address_guessing_many_accounts_is_locked(limit, player, other):
    guesser = Client()
    for name in ("a", "b", "c"):
        sign_in(guesser, name, "wrong")
    assert sign_in(guesser, player.username, "x").status_code == 429


def test_a_right_password_before_the_limit_signs_in_and_resets(limit, player):
    player.set_password("right-password-1757")
    player.save()
    c = Client()
    for _ in range(limit - 1):
        sign_in(c, player.username, "wrong")
    assert sign_in(c, player.username, "right-password-1757").status_code == 302


def test_the_organiser_sees_and_unlocks_a_locked_player(limit, campaign, player, organiser):
    for _ in range(limit):
        sign_in(Client(REMOTE_ADDR="10.1.1.1"), player.username, "wrong")
    board = client_for(organiser).get(reverse("organiser_board", args=[campaign.code]))
    assert "Locked out of signing in" in board.content.decode()
    seat = campaign.seats.get(user=player)
    assert (
        client_for(player)
        .post(reverse("unlock_signin", args=[campaign.code, seat.code]))
        .status_code
        == 403
    )
    r = client_for(organiser).post(reverse("unlock_signin", args=[campaign.code, seat.code]))
    assert r.status_code == 302
    assert OrganiserAction.objects.filter(campaign=campaign, kind="unlocked").exists()
    player.set_password("right-password-1757")
    player.save()
    assert (
        sign_in(Client(REMOTE_ADDR="10.2.2.2"), player.username, "right-password-1757").status_code
        == 302
    )


def test_pages_carry_a_content_security_policy(client):
    r = client.get(reverse("home"))
    policy = r["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "object-src 'none'" in policy
    assert "unsafe-inline" not in policy
    assert r["X-Frame-Options"] == "DENY"


def test_inline_styles_and_scripts_carry_the_nonce(client, player):
    c = client_for(player)
    r = c.get(reverse("maps:page"))
    policy = r["Content-Security-Policy"]
    nonce = policy.split("'nonce-")[1].split("'")[0]
    text = r.content.decode()
    assert f'<style nonce="{nonce}">' in text and f'<script nonce="{nonce}">' in text
    for template in (ROOT / "templates").rglob("*.html"):
        if template.parts[-2] == "email":
            continue
        body = template.read_text()
        assert ' style="' not in body, f"{template}: an inline style attribute (CSP)"
        for tag in ("<script>", "<style>"):
            assert tag not in body, f"{template}: {tag} without the nonce (CSP)"


def test_the_production_settings_pass_check_deploy(tmp_path):
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "x" * 30 + "production-only-key-for-the-check" + "y" * 20,
        "ALLOWED_HOSTS": "dgk.example.org",
        "SITE_URL": "https://dgk.example.org",
        "SECURE_SSL_REDIRECT": "1",
        "SECURE_HSTS_SECONDS": "31536000",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
        "SECURE_HSTS_PRELOAD": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_password_reset_email_is_sent_by_the_worker(
    client, player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        r = client.post(reverse("password_reset"), {"email": player.email})
    assert r.status_code == 302 and not mail.outbox  # nothing sent inside the request
    assert len(queued) == 1
    queued[0]()  # the on-commit callback queues the send_email task (eager in tests)
    (message,) = mail.outbox
    assert message.to == [player.email] and "choose a new password" in message.subject
    link = next(w for w in message.body.split() if "/accounts/reset/" in w)
    path = link.split("testserver")[-1].replace("http://localhost:8000", "")
    assert client.get(path).status_code == 302  # Django's confirm view takes the token


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert r.status_code == 302 and r.url == reverse("password_reset_done")
    assert not mail.outbox
