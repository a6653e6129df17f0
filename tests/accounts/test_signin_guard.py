"""Sign-in throttled (django-axes), the organiser's unlock, the security headers and the
production checks (issue 11); a name guessed from many addresses slowed, not locked (issue 27);
a club of five on one Wi-Fi: one member's typos lock only that member there, an address
guessing several names is locked for everyone (issue 36)."""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.services import signin
from campaign.models import OrganiserAction, SigninWarning
from dgk.policy import PICTURE_POLICY
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def sign_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


@pytest.fixture
def limit(settings):
    settings.AXES_FAILURE_LIMIT = 3
    return 3


def test_repeated_wrong_passwords_lock_the_name_from_that_address(limit, player):
    player.set_password("right-password-1757")
    player.save()
    guesser = Client(REMOTE_ADDR="10.6.6.6")
    for _ in range(limit - 1):
        assert sign_in(guesser, player.username, "wrong").status_code == 200
    assert sign_in(guesser, player.username, "wrong").status_code == 429
    r = sign_in(guesser, player.username, "right-password-1757")
    assert r.status_code == 429
    assert "Sign-in paused" in r.content.decode()
    # The guesser cannot lock the player out: from the player's own address, the right
    # password signs in at once.
    assert (
        sign_in(Client(REMOTE_ADDR="10.9.9.9"), player.username, "right-password-1757").status_code
        == 302
    )


@pytest.mark.parametrize(
    ("failures", "seconds"), [(2, 1), (3, 1), (4, 2), (5, 4), (7, 16), (8, 32), (9, 60), (50, 60)]
)
def test_the_delay_grows_with_each_wrong_password_to_a_most(limit, failures, seconds):
    assert signin.delay_seconds(failures) == seconds


def _spread_guesses(name: str, addresses: list[str]) -> None:
    for address in addresses:
        r = sign_in(Client(REMOTE_ADDR=address), name, "wrong")
        assert r.status_code == 200 and "slowed down" not in r.content.decode()


def _wait_passes(name: str) -> None:
    """Move the spell's last wrong password back by the longest delay (no test sleeps)."""
    back = timedelta(seconds=settings.SIGNIN_SLOW_MAX_SECONDS)
    for attempt in AccessAttempt.objects.filter(username=name):
        attempt.attempt_time -= back
        attempt.save(update_fields=["attempt_time"])


def test_guesses_from_many_addresses_slow_the_name_and_tell_the_player_once(
    limit, player, mailoutbox, django_capture_on_commit_callbacks
):
    player.set_password("right-password-1757")
    player.save()
    assert (
        sign_in(Client(REMOTE_ADDR="10.5.5.5"), player.username, "right-password-1757").status_code
        == 302
    )
    with django_capture_on_commit_callbacks(execute=True):
        _spread_guesses(player.username, ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
    (told,) = mailoutbox
    assert told.to == [player.email] and "wrong passwords" in told.subject
    assert "from 3 different addresses" in told.body and "not locked" in told.body
    # A new address must wait, even with the right password; the wait is no wrong password.
    elsewhere = Client(REMOTE_ADDR="10.0.0.9")
    r = sign_in(elsewhere, player.username, "right-password-1757")
    assert r.status_code == 200
    page = r.content.decode()
    assert "sign-in for it is slowed down" in page and "Try again in " in page
    now = timezone.now()
    assert signin.spell(player.username, now=now).failures == limit
    last = signin.spell(player.username, now=now).last
    assert signin.wait_seconds(player.username, "10.0.0.9", now=last) == 1
    # Where the player signed in before, no wait; nor anywhere once the delay has passed.
    assert (
        sign_in(Client(REMOTE_ADDR="10.5.5.5"), player.username, "right-password-1757").status_code
        == 302
    )
    _wait_passes(player.username)
    assert sign_in(elsewhere, player.username, "right-password-1757").status_code == 302
    # One more wrong password in the same spell: a longer wait, and no second email.
    _wait_passes(player.username)
    with django_capture_on_commit_callbacks(execute=True):
        _spread_guesses(player.username, ["10.0.1.1"])
    assert len(mailoutbox) == 1
    last = signin.spell(player.username, now=timezone.now()).last
    assert signin.wait_seconds(player.username, "10.0.1.2", now=last) == 2


def test_the_admin_sign_in_is_slowed_too(limit, player):
    _spread_guesses(player.username, ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
    for attempt in AccessAttempt.objects.filter(username=player.username):
        attempt.attempt_time = timezone.now()  # the last wrong password just now
        attempt.save(update_fields=["attempt_time"])
    r = Client(REMOTE_ADDR="10.0.0.4").post(
        reverse("admin:login"), {"username": player.username, "password": "wrong"}
    )
    assert r.status_code == 200 and "sign-in for it is slowed down" in r.content.decode()
    assert signin.spell(player.username, now=timezone.now()).failures == limit


def test_a_try_too_soon_counts_no_wrong_password(limit, player):
    _spread_guesses(player.username, ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
    for attempt in AccessAttempt.objects.filter(username=player.username):
        attempt.attempt_time = timezone.now()  # the last wrong password just now
        attempt.save(update_fields=["attempt_time"])
    r = sign_in(Client(REMOTE_ADDR="10.0.0.4"), player.username, "wrong")
    assert "Try again in 1 second." in r.content.decode()
    assert signin.spell(player.username, now=timezone.now()).failures == limit


def test_a_new_spell_tells_the_player_again(
    limit, player, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _spread_guesses(player.username, ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
    assert len(mailoutbox) == 1
    # The cool-off passes without a wrong password: the spell is over.
    gone = settings.AXES_COOLOFF_TIME + timedelta(minutes=1)
    AccessAttempt.objects.filter(username=player.username).delete()
    SigninWarning.objects.filter(username=player.username).update(last_seen=timezone.now() - gone)
    with django_capture_on_commit_callbacks(execute=True):
        _spread_guesses(player.username, ["10.0.2.1", "10.0.2.2", "10.0.2.3"])
    assert len(mailoutbox) == 2


def test_one_address_alone_never_slows_the_name(limit, player, mailoutbox):
    guesser = Client(REMOTE_ADDR="10.7.7.7")
    for _ in range(limit):
        sign_in(guesser, player.username, "wrong")
    assert not signin.spell(player.username, now=timezone.now()).spread
    assert signin.wait_seconds(player.username, "10.8.8.8", now=timezone.now()) == 0
    assert not mailoutbox


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


CLUB = "192.0.2.10"  # the club's Wi-Fi: every member signs in from this one address
MOBILE = "198.51.100.7"


@pytest.fixture
def club(campaign):
    """The campaign's five players, at the club; each one's password is ``pw-<name>``."""
    return [s.user for s in campaign.seats.filter(user__isnull=False).order_by("id")]


def at_club(user, password=None):
    return sign_in(Client(REMOTE_ADDR=CLUB), user.username, password or "pw-" + user.username)


def _cool_off_passes() -> None:
    """Move every wrong password back by the cool-off and a second (no test sleeps)."""
    back = settings.AXES_COOLOFF_TIME + timedelta(seconds=1)
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= back
        attempt.save(update_fields=["attempt_time"])


def test_one_members_typos_lock_only_that_member_on_the_clubs_wifi(
    club, mailoutbox, django_capture_on_commit_callbacks
):
    a, *others = club
    limit = settings.AXES_FAILURE_LIMIT
    assert limit == 5
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(limit - 1):
            assert at_club(a, "typo").status_code == 200
        r = at_club(a, "typo")
    assert r.status_code == 429
    page = r.content.decode()
    assert f"for <strong>{a.username}</strong>" in page
    assert "Everyone else on this connection can still sign in" in page
    # A is told, once: locked from one address, not slowed everywhere.
    (told,) = mailoutbox
    assert told.to == [a.email] and "5 in a row from one address" in told.body
    assert "organiser can unlock it at once" in told.body
    # Even the right password is refused for A there, and the tries count no wrong password.
    locked_at = AccessAttempt.objects.get(username=a.username).attempt_time
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            assert at_club(a).status_code == 429
    attempt = AccessAttempt.objects.get(username=a.username)
    assert (attempt.failures_since_start, attempt.attempt_time) == (limit, locked_at)
    assert len(mailoutbox) == 1
    # B..E sign in from the same address; A signs in from elsewhere (the phone's data).
    for member in others:
        assert at_club(member).status_code == 302
    assert sign_in(Client(REMOTE_ADDR=MOBILE), a.username, "pw-" + a.username).status_code == 302
    assert at_club(a).status_code == 429  # still locked at the club, not everywhere
    assert not signin.address_locked(CLUB, now=timezone.now())


def test_wrong_passwords_for_three_names_lock_the_address_for_everyone(club, organiser):
    a, b, c, d, e = club
    assert settings.SIGNIN_ADDRESS_NAMES_LIMIT == 3
    assert at_club(a, "typo").status_code == 200
    assert at_club(b, "typo").status_code == 200
    assert at_club(c).status_code == 302  # two names guessed: the club still signs in
    r = at_club(d, "typo")  # the third name
    assert r.status_code == 429
    assert "for every name" in r.content.decode()
    r = at_club(e)  # a member who never typed wrong, with the right password
    assert r.status_code == 429
    assert "3 or more different names" in r.content.decode()
    admin = Client(REMOTE_ADDR=CLUB).post(
        reverse("admin:login"), {"username": organiser.username, "password": "pw-olga"}
    )
    assert admin.status_code == 429
    # Elsewhere, every member signs in as ever.
    assert sign_in(Client(REMOTE_ADDR=MOBILE), e.username, "pw-" + e.username).status_code == 302


def test_typos_followed_by_the_right_password_do_not_count_towards_the_address_lock(club):
    a, b, c, d, e = club
    for member in (a, b, c, d):
        assert at_club(member, "typo").status_code == 200
        assert at_club(member).status_code == 302
    assert at_club(e, "typo").status_code == 200
    assert signin.guessed_names(CLUB, now=timezone.now()) == 1
    assert at_club(e).status_code == 302


def test_both_locks_expire_after_the_cool_off(club):
    a, b, c, *_ = club
    for _ in range(settings.AXES_FAILURE_LIMIT):
        at_club(a, "typo")
    assert at_club(a).status_code == 429
    _cool_off_passes()
    assert at_club(a).status_code == 302
    for member in (a, b, c):
        at_club(member, "typo")
    assert at_club(b).status_code == 429
    _cool_off_passes()
    assert not signin.address_locked(CLUB, now=timezone.now())
    assert at_club(b).status_code == 302


def test_the_organiser_unlocks_an_address_locked_for_everyone(campaign, club, organiser):
    a, b, c, d, e = club
    assert at_club(e).status_code == 302  # E signs in at the club, as every week
    at_club(a, "typo")
    at_club(b, "typo")
    sign_in(Client(REMOTE_ADDR=CLUB), "hans", "guess")  # a name nobody has
    assert at_club(e).status_code == 429 and at_club(d).status_code == 429
    board = client_for(organiser).get(reverse("organiser_board", args=[campaign.code]))
    page = board.content.decode()
    listed = [s.seat.user for s in signin.locked_seats(campaign, now=timezone.now())]
    # A and B were guessed from there; E signs in from there; C and D are not concerned.
    assert set(listed) == {a, b, e}
    assert "a place they sign in from is locked" in page
    seat = campaign.seats.get(user=e)
    r = client_for(organiser).post(reverse("unlock_signin", args=[campaign.code, seat.code]))
    assert r.status_code == 302
    action = OrganiserAction.objects.get(campaign=campaign, kind="unlocked")
    assert "and of the address they sign in from" in action.text
    assert not signin.address_locked(CLUB, now=timezone.now())
    assert at_club(e).status_code == 302 and at_club(d).status_code == 302
    assert signin.locked_seats(campaign, now=timezone.now()) == []


def test_the_organiser_unlocks_one_members_lock_at_the_club(campaign, club, organiser):
    a, b, *_ = club
    for _ in range(settings.AXES_FAILURE_LIMIT):
        at_club(a, "typo")
    (locked,) = signin.locked_seats(campaign, now=timezone.now())
    assert locked.seat.user == a and not locked.address
    seat = campaign.seats.get(user=a)
    client_for(organiser).post(reverse("unlock_signin", args=[campaign.code, seat.code]))
    action = OrganiserAction.objects.get(campaign=campaign, kind="unlocked")
    assert "address" not in action.text
    assert at_club(a).status_code == 302


def test_pages_carry_a_content_security_policy(client):
    r = client.get(reverse("home"))
    policy = r["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "object-src 'none'" in policy
    assert "unsafe-inline" not in policy
    assert r["X-Frame-Options"] == "DENY"


def test_a_raster_picture_carries_a_policy_of_its_own(client, settings):
    """Opened alone, Chromium's image viewer styles it inline (dgk/policy.py): a picture's
    policy lets that style in and nothing else; the pages keep theirs."""
    r = client.get(reverse("maps:png"))
    assert r["Content-Type"] == "image/png"
    policy = r["Content-Security-Policy"]
    assert policy == PICTURE_POLICY and "script-src" not in policy
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    page = client.get(reverse("home"))["Content-Security-Policy"]
    assert "unsafe-inline" not in page
    # a site that only reports breaches reports a picture's too; one with no policy sets none
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = settings.CONTENT_SECURITY_POLICY
    settings.CONTENT_SECURITY_POLICY = None
    r = client.get(reverse("maps:png"))
    assert r["Content-Security-Policy-Report-Only"] == PICTURE_POLICY
    assert "Content-Security-Policy" not in r
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = None
    r = client.get(reverse("maps:png"))
    assert "Content-Security-Policy-Report-Only" not in r and "Content-Security-Policy" not in r


def test_inline_styles_and_scripts_carry_the_nonce(client, player):
    c = client_for(player)
    r = c.get(reverse("maps:page"))
    policy = r["Content-Security-Policy"]
    nonce = policy.split("'nonce-")[1].split("'")[0]
    text = r.content.decode()
    assert f'<style nonce="{nonce}">' in text and f'<script nonce="{nonce}">' in text
    for template in ROOT.glob("**/templates/**/*.html"):
        if template.parts[-2] == "email" or ".venv" in template.parts:
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
