# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""Email: the right people, their own report only, their choice of kinds, never in a request."""

import gc

import pytest

from campaign.models import Event
from campaign.services import outgoing
from campaign.services.resolution import resolve_due_phase
from mail.services import email
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    marching,
    play_map,
    rules_campaign,
)

pytestmark = pytest.mark.django_db

SECRET = "Daun has 4321 points at SECRET-HEX"


def resolve(campaign, capture):
    window = campaign.open_window()
    with capture(execute=True):
        return resolve_due_phase(window.id, now=window.deadline)


def test_the_next_phase_opens_with_an_email_to_each_seat(
    campaign, prussia, mailoutbox, django_capture_on_commit_callbacks
):
    resolve(campaign, django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 5  # one each, not one per automatic phase
    fritz = next(m for m in mailoutbox if m.to == ["fritz@example.org"])
    assert fritz.subject == "Bohemia 1757: turn 1, march orders are due"
    assert "Prussian player" in fritz.body and f"/play/{prussia.code}/" in fritz.body
    html = fritz.alternatives[0][0]
    assert fritz.alternatives[0][1] == "text/html" and "<a href=" in html


def test_a_seats_email_holds_its_own_report_and_no_other_secret(
    campaign, prussia, austria, mailoutbox
):
    version = resolve_due_phase(campaign.open_window().id, now=campaign.open_window().deadline)
    Event.objects.create(
        campaign=campaign, version=version, seq=99, rule="8", kind="reconnaissance",
        text=SECRET, armies=["austria"],
    )  # fmt: skip
    Event.objects.create(
        campaign=campaign, version=version, seq=100, rule="3", kind="turn",
        text="Everyone may read this.", public=True,
    )  # fmt: skip
    email.deliver("phase-opened", seat_id=prussia.id, since=0)
    email.deliver("phase-opened", seat_id=austria.id, since=0)
    to_prussia, to_austria = mailoutbox
    assert SECRET not in to_prussia.body and SECRET not in to_prussia.alternatives[0][0]
    assert "Everyone may read this." in to_prussia.body
    assert "Prussia is not deployed by the deadline (nothing is placed)." in to_prussia.body
    assert "Austrian player" not in to_prussia.body
    assert SECRET in to_austria.body


def test_players_choose_what_they_get(
    campaign, prussia, mailoutbox, django_capture_on_commit_callbacks
):
    prussia.email_kinds = ["campaign-over"]
    prussia.save()
    resolve(campaign, django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 4
    assert all(m.to != ["fritz@example.org"] for m in mailoutbox)


def test_seats_without_a_player_get_nothing(
    campaign, prussia, mailoutbox, django_capture_on_commit_callbacks
):
    prussia.user = None
    prussia.save()
    resolve(campaign, django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 4


def test_html_escapes_what_players_wrote(campaign, prussia, mailoutbox):
    version = resolve_due_phase(campaign.open_window().id, now=campaign.open_window().deadline)
    Event.objects.create(
        campaign=campaign, version=version, seq=99, rule="6", kind="order-rejected",
        text="Order rejected: <script>alert(1)</script>", armies=["prussia"],
    )  # fmt: skip
    email.deliver("phase-opened", seat_id=prussia.id, since=0)
    assert "<script>" not in mailoutbox[0].alternatives[0][0]
    assert "&lt;script&gt;" in mailoutbox[0].alternatives[0][0]


def test_a_resolved_phase_tells_seats_that_owe_nothing(campaign, prussia, austria, monkeypatch):
    """One email per seat per resolution: the call for orders to seats that owe the next
    phase, the resolved report to the others."""
    from campaign.services.resolution import Notices

    queued = []
    notices = Notices(since_version=0, opened=[("phase-opened", prussia.id)])
    notices.resolved = [prussia.id, austria.id]
    monkeypatch.setattr(
        outgoing,
        "_queue_batch",
        lambda batch, campaign_id=None: queued.extend((k, ids["seat_id"]) for k, ids in batch),
    )
    outgoing.queue_after_resolution(campaign.id, notices)
    assert queued == [("phase-opened", prussia.id), ("phase-resolved", austria.id)]


def test_battle_pending_and_campaign_over_have_their_own_words(campaign, prussia, mailoutbox):
    email.deliver("battle-pending", seat_id=prussia.id, since=0)
    email.deliver("campaign-over", seat_id=prussia.id, since=0)
    assert "a battle is pending" in mailoutbox[0].subject
    assert "the campaign is over" in mailoutbox[1].subject


def test_nothing_is_sent_inside_a_request(client, campaign, organiser, mailoutbox):
    """Views queue email on commit (a Celery task); the request itself sends none."""
    client.force_login(organiser)
    client.post(f"/campaigns/{campaign.code}/organiser/end/")
    assert mailoutbox == []


def test_one_resolutions_emails_read_what_they_share_once(campaign, mailoutbox):
    """``deliver_many`` (one resolution's emails): the queries do not grow with the seats."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    version = resolve_due_phase(campaign.open_window().id, now=campaign.open_window().deadline)
    seats = list(campaign.seats.filter(reserve=False).order_by("id").values_list("id", flat=True))
    counts = []
    for some in (seats[:1], seats[:1], seats):  # the first warms this process (templates)
        batch = [("phase-opened", {"seat_id": s, "since": version.number - 1}) for s in some]
        mailoutbox.clear()
        with CaptureQueriesContext(connection) as ctx:
            assert email.deliver_many(batch) == len(some)
        counts.append(len(ctx.captured_queries))
        assert len(mailoutbox) == len(some)
    assert counts[1] == counts[2], counts


def test_a_worker_process_loads_the_urls_and_the_email_templates_as_it_starts():
    """``tasks.warm_worker`` answers Celery's ``worker_process_init``: the email templates are
    compiled and the URL names indexed when a worker process starts, not while it builds its
    first emails (the first ``reverse`` of a process imports every view)."""
    from pathlib import Path

    from celery.signals import worker_process_init
    from django.conf import settings
    from django.template import engines

    from mail import tasks  # noqa: F401 (connects the worker's signals)

    loaders = list(engines["django"].engine.template_loaders)
    while not hasattr(loaders[0], "get_template_cache"):  # Django's cached loader, wrapped
        loaders[:1] = loaders[0].loaders
    cached = loaders[0]
    cached.reset()
    wanted = {
        f"email/{p.name}" for p in (Path(settings.BASE_DIR) / "mail/templates/email").iterdir()
    }
    assert wanted and not wanted & set(cached.get_template_cache)
    threshold = gc.get_threshold()
    try:
        worker_process_init.send(sender=None)
    finally:  # (it settles this process's garbage collector too: tests/test_memory.py)
        gc.unfreeze()
        gc.set_threshold(*threshold)
    assert wanted <= set(cached.get_template_cache)
    names, templates = email.warm()
    assert templates == len(wanted) and names > 100


def test_a_report_links_the_seats_own_map_picture_of_the_latest_version(
    marching, player, other, mailoutbox, client
):
    """The phase email names the seat's picture of the version it reports (drawn by the
    worker); the link is the seat's own: another player is refused it."""
    import re

    from tests.orders.test_play_fixtures import seat

    prussia = seat(marching, "prussia")
    version = marching.latest_version()
    mailoutbox.clear()
    email.deliver("phase-opened", seat_id=prussia.id, since=0)
    (message,) = mailoutbox
    said = r"Your map as it stands now, a picture to keep or print: (\S+)"
    (link,) = re.findall(said, message.body)
    path = f"/play/{prussia.code}/map/{version.number}.png"
    assert link.endswith(path)
    assert path in message.alternatives[0][0]
    client.force_login(player)
    assert client.get(path).status_code in (200, 202)  # 202: the worker is drawing it
    client.force_login(other)
    assert client.get(path).status_code == 403
