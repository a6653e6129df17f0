"""The club's channel (docs/club.md): the organiser's webhook, what is posted to it and when,
and that a dead or slow hook never holds a resolution."""

import re
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import OrganiserAction, StateVersion
from campaign.services import caretaker
from campaign.services import organiser as tools
from campaign.services.actionlog import OrganiserError
from campaign.services.resolution import resolve_due_phase
from club import tasks
from club.models import ClubPost, PostStatus
from club.services import channel
from dgk.celery import app
from seasons.services import war

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("loopback_allowed")]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def with_hook(campaign, url, organiser, now):
    channel.set_hook(campaign, organiser, url, now=now)
    campaign.refresh_from_db()
    return campaign


def resolve_deployment(campaign, capture):
    """Resolve the deployment at its deadline (the standing campaign's ``now`` is in April
    2026); the posts are written at the real time, which this returns."""
    window = campaign.open_window()
    with capture(execute=True):
        version = resolve_due_phase(window.id, now=window.deadline)
    assert version is not None
    return timezone.now()


# --- the hook ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["ftp://example.org/hook", "javascript:alert(1)", "discord webhook", "https://"]
)
def test_it_refuses_a_hook_that_is_no_web_address(url):
    with pytest.raises(OrganiserError, match="must be a web address starting with https://"):
        channel.check_hook(url)


def test_the_organiser_sets_the_hook_on_the_board_and_the_log_keeps_no_address(campaign, organiser):
    client = client_for(organiser)
    address = "https://discord.com/api/webhooks/123/secret-token"
    r = client.post(reverse("club_hook", args=[campaign.code]), {"hook": address})
    assert r.status_code == 302
    campaign.refresh_from_db()
    assert campaign.options["club_hook"] == address
    line = campaign.actions.first()
    assert "club's channel" in line.text and "secret-token" not in line.text
    board = client.get(reverse("organiser_board", args=[campaign.code]))
    assert address in board.content.decode()
    # Every player reads the log: not the address.
    log_page = client_for(campaign.seats.get(power="prussia").user).get(
        reverse("action_log", args=[campaign.code])
    )
    assert "secret-token" not in log_page.content.decode()


def test_a_wrong_address_is_refused_with_its_reason(campaign, organiser):
    client = client_for(organiser)
    r = client.post(
        reverse("club_hook", args=[campaign.code]), {"hook": "ftp://x.org/h"}, follow=True
    )
    assert "must be a web address starting with https://" in r.content.decode()
    campaign.refresh_from_db()
    assert "club_hook" not in campaign.options


def test_only_the_organiser_sets_the_hook(campaign, player, outsider):
    for user in (player, outsider):
        r = client_for(user).post(
            reverse("club_hook", args=[campaign.code]), {"hook": "https://example.org/h"}
        )
        assert r.status_code == 403
    assert client_for(player).get(reverse("club_hook", args=[campaign.code])).status_code == 405
    campaign.refresh_from_db()
    assert "club_hook" not in campaign.options


def test_the_hook_is_switched_off_with_an_empty_address(campaign, organiser, now):
    with_hook(campaign, "https://example.org/h", organiser, now)
    assert channel.set_hook(campaign, organiser, "  ", now=now) == ""
    campaign.refresh_from_db()
    assert "club_hook" not in campaign.options


# --- what is posted -------------------------------------------------------------------------------


def test_a_resolved_phase_is_posted_after_the_commit(
    campaign, organiser, now, hook_server, django_capture_on_commit_callbacks
):
    with_hook(campaign, hook_server.url, organiser, now)
    moment = resolve_deployment(campaign, django_capture_on_commit_callbacks)
    # Without a broker nothing is posted by the resolution's process: the sweep posts it.
    assert hook_server.bodies == []
    assert channel.deliver_due(now=moment) == 1
    (body,) = hook_server.bodies
    assert body["content"] == body["text"]  # Discord reads content, Slack and hookshot text
    assert body["text"].startswith("Bohemia 1757, April I (turn 1): the deployment, supply")
    assert "Next: the march phase." in body["text"]
    assert ClubPost.objects.get().status == PostStatus.SENT
    assert channel.deliver_due(now=moment + timedelta(hours=1)) == 0  # posted once


def test_with_a_broker_the_post_is_a_task_queued_on_commit(
    campaign, organiser, now, hook_server, settings, monkeypatch,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(app.tasks[channel.DELIVER_POST], "delay", queued.append)
    with_hook(campaign, hook_server.url, organiser, now)
    window = campaign.open_window()
    with django_capture_on_commit_callbacks(execute=False):
        resolve_due_phase(window.id, now=window.deadline)
    assert queued == []  # nothing before the commit
    post = ClubPost.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        resolve_due_phase(campaign.open_window().id, now=window.deadline + timedelta(days=9))
    assert queued[-1] != post.id
    queued.clear()
    window = campaign.open_window()
    with django_capture_on_commit_callbacks(execute=True):
        resolve_due_phase(window.id, now=window.deadline)
    post = ClubPost.objects.first()
    assert queued == [post.id]
    assert tasks.deliver_post(post.id) is True
    assert len(hook_server.bodies) == 1


def test_a_campaign_without_a_hook_posts_nothing(campaign, django_capture_on_commit_callbacks):
    resolve_deployment(campaign, django_capture_on_commit_callbacks)
    assert not ClubPost.objects.exists()


def test_the_caretaker_is_named_in_the_phase_post(
    campaign, organiser, now, hook_server, django_capture_on_commit_callbacks
):
    with_hook(campaign, hook_server.url, organiser, now)
    resolve_deployment(campaign, django_capture_on_commit_callbacks)
    hanover = campaign.seats.get(power="hanover")
    window = campaign.open_window()
    assert window.phase == "march"
    caretaker.hand_over(hanover, organiser, style="defensive", until=None, now=window.opened_at)
    with django_capture_on_commit_callbacks(execute=True):
        resolve_due_phase(window.id, now=window.deadline)
    assert channel.deliver_due(now=timezone.now()) == 3
    handed = [t for t in hook_server.texts if "is now played by the caretaker" in t]
    assert handed == ["Bohemia 1757: the Hanoverian player is now played by the caretaker "
                      "(defensive)."]  # fmt: skip
    first, second = [t for t in hook_server.texts if t not in handed]
    assert "Hanover" not in first
    assert second.startswith("Bohemia 1757, April I (turn 1): the march, forced march,")
    assert second.endswith(
        "phases are resolved. Next: the march phase of April II (turn 2). Played by the "
        "caretaker: Hanoverian player."
    )


def test_a_seat_handed_to_the_caretaker_is_posted_and_taken_back_is_not(
    campaign, organiser, now, hook_server
):
    with_hook(campaign, hook_server.url, organiser, now)
    prussia = campaign.seats.get(power="prussia")
    caretaker.hand_over(
        prussia, organiser, style="plays-on", until=now + timedelta(days=9), now=now
    )
    caretaker.take_back(prussia, organiser, now=now)
    assert channel.deliver_due(now=timezone.now()) == 1
    assert hook_server.texts == [
        "Bohemia 1757: the Prussian player is now played by the caretaker (plays-on)."
    ]


def test_the_season_end_is_posted_and_then_its_public_link(
    campaign, organiser, now, hook_server, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://dgk.example.org"
    with_hook(campaign, hook_server.url, organiser, now)
    latest = campaign.latest_version()
    state = dict(latest.state, victory_points={"prussia": 5, "austria": 7})
    StateVersion.objects.filter(id=latest.id).update(state=state)
    with django_capture_on_commit_callbacks(execute=True):
        tools.end_campaign(campaign, organiser, now=now)
    campaign.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        token = war.set_public_link(campaign, organiser, on=True, now=now)
    assert channel.deliver_due(now=timezone.now()) == 2
    end, link = hook_server.texts
    assert end == (
        "Bohemia 1757: the season is over. Victory points (12): Austrian player 7, "
        "Prussian player 5."
    )
    assert link == f"Bohemia 1757: the whole war is public: https://dgk.example.org/war/{token}/"


# --- a dead or slow hook ------------------------------------------------------------------------


def test_a_dead_hook_neither_delays_nor_breaks_the_resolution(
    campaign, organiser, now, dead_hook, django_capture_on_commit_callbacks, caplog
):
    with_hook(campaign, dead_hook, organiser, now)
    started = time.monotonic()
    moment = resolve_deployment(campaign, django_capture_on_commit_callbacks)
    assert time.monotonic() - started < 5
    assert campaign.open_window().phase == "march"
    assert channel.deliver_due(now=moment) == 0
    post = ClubPost.objects.get()
    assert post.status == PostStatus.PENDING and post.tries == 1
    assert post.error == "unreachable"
    assert post.next_try == moment + channel.BACKOFF[0]
    # The server's log says what the try met, never the address: it is the hook's password.
    host, port = dead_hook.split("://", 1)[1].split("/", 1)[0].split(":")
    assert f"club post {post.id}: unreachable (ConnectionError)" in caplog.text
    assert f":{port}" not in caplog.text and "/hook" not in caplog.text


def test_a_slow_hook_does_not_delay_the_resolution_and_its_post_times_out(
    campaign, organiser, now, hook_server, django_capture_on_commit_callbacks
):
    hook_server.delay = 2.0  # past the timeout (0.5 s in the tests)
    with_hook(campaign, hook_server.url, organiser, now)
    started = time.monotonic()
    moment = resolve_deployment(campaign, django_capture_on_commit_callbacks)
    resolved_in = time.monotonic() - started
    assert resolved_in < 2.0  # the hook's 2 s are not in it
    started = time.monotonic()
    assert tasks.deliver_post(ClubPost.objects.get().id) is False
    assert time.monotonic() - started < 1.9  # the timeout, not the hook's 2 s
    post = ClubPost.objects.get()
    assert post.tries == 1 and post.error == "timed out" and post.status == PostStatus.PENDING
    assert post.next_try > moment


def test_with_the_broker_down_the_resolution_still_commits(
    campaign, organiser, now, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def broker_down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(app.tasks[channel.DELIVER_POST], "delay", broker_down)
    with_hook(campaign, "https://example.org/h", organiser, now)
    window = campaign.open_window()
    with django_capture_on_commit_callbacks(execute=True):  # robust: the error is logged
        version = resolve_due_phase(window.id, now=window.deadline)
    assert version is not None and campaign.open_window().phase == "march"
    assert ClubPost.objects.filter(status=PostStatus.PENDING).count() == 1  # the sweep's


def test_after_its_tries_a_post_is_dropped_with_a_line_in_the_organisers_log(
    campaign, organiser, now, dead_hook, django_capture_on_commit_callbacks
):
    with_hook(campaign, dead_hook, organiser, now)
    moment = resolve_deployment(campaign, django_capture_on_commit_callbacks)
    post = ClubPost.objects.get()
    assert channel.deliver(post.id, now=moment) is False
    assert channel.deliver(post.id, now=moment) is False  # not due again yet: no second try
    assert ClubPost.objects.get().tries == 1
    for wait in channel.BACKOFF:
        moment += wait
        assert channel.deliver_due(now=moment) == 0
    post.refresh_from_db()
    assert post.status == PostStatus.DROPPED and post.tries == channel.TRIES
    line = OrganiserAction.objects.filter(campaign=campaign).first()
    assert re.match(
        r"The club's channel did not answer after 4 tries; this post was dro", line.text
    )
    assert dead_hook not in line.text
    assert channel.deliver_due(now=moment + timedelta(days=1)) == 0
    assert (
        OrganiserAction.objects.filter(text__startswith="The club's channel did not").count() == 1
    )


def test_a_failure_of_the_channel_itself_never_undoes_the_resolution(
    campaign, organiser, now, hook_server, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    with_hook(campaign, hook_server.url, organiser, now)

    def broken(*args, **kwargs):
        raise ValueError("a bug in the club's text")

    monkeypatch.setattr(channel, "phase_text", broken)
    resolve_deployment(campaign, django_capture_on_commit_callbacks)
    assert campaign.open_window().phase == "march"
    assert not ClubPost.objects.exists()
    assert "the club's channel could not write its post" in caplog.text


def test_an_old_name_with_a_line_break_is_posted_on_one_line(campaign, organiser, now):
    """A name written before the forms refused line breaks (docs/security.md)."""
    with_hook(campaign, "https://hooks.example.org/club", organiser, now)
    campaign.name = "Bohemia 1757\r\nX-Evil: 1"
    row = channel.post(campaign, "start", f"{campaign.name} has begun.", now=now)
    assert row.text == "Bohemia 1757 X-Evil: 1 has begun."
