"""The doors an organiser could turn against the server through the club's webhook (issue 42):
the server's own network refused when the hook is set and again when it is posted to, the
address connected to the one checked, no redirect followed, a deadline for the whole post, and
a board that says what happened, never an exception's text."""

import doctest
import ipaddress
import socket
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.services.actionlog import OrganiserError
from club.models import ClubPost, PostStatus
from club.services import channel
from dgk import outbound
from tests.localserver import drip, redirect, serving, status

pytestmark = pytest.mark.django_db

INSIDE = [
    "http://127.0.0.1:6379/",
    "http://localhost:5432/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]:22/",
    "http://10.0.0.5/",
    "http://[::ffff:127.0.0.1]:6379/",
    "http://0.0.0.0:8000/",
]


def board_client(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def hooked(campaign, url: str):
    """The hook stored as it was before this guard (or as a name that resolved elsewhere)."""
    campaign.options = {**(campaign.options or {}), channel.HOOK: url}
    campaign.save(update_fields=["options"])
    return ClubPost.objects.create(campaign=campaign, kind="phase", text="News.")


def rebinding(monkeypatch) -> None:
    """``hook.example.org`` answers a public address the first time it is resolved, the
    loopback after (a rebinding name); every other name resolves as it does."""
    real = socket.getaddrinfo
    answers = iter(["93.184.215.14"])

    def resolve(host, port, *args, **kwargs):
        if host != "hook.example.org":
            return real(host, port, *args, **kwargs)
        address = next(answers, "127.0.0.1")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)


@pytest.mark.parametrize("url", INSIDE)
def test_a_hook_inside_the_servers_network_is_refused_when_set(url, campaign, organiser):
    with pytest.raises(OrganiserError, match="refused. Its host is a"):
        channel.check_hook(url)
    response = board_client(organiser).post(
        reverse("club_hook", args=[campaign.code]), {"hook": url}, follow=True
    )
    assert "The webhook is refused" in response.content.decode()
    campaign.refresh_from_db()
    assert channel.HOOK not in campaign.options


@pytest.mark.parametrize(
    "url, reason",
    [
        ("https://127.0.0.1\\@discord.com/api/webhooks/1", "refused. The address has a backslash"),
        ("https://me:pw@discord.com/api/1", "refused. The address has a user or a password"),
        ("http://2130706433/", "must be a web address"),  # 127.0.0.1 as one number
    ],
)
def test_a_hook_that_reads_two_ways_is_refused(url, reason):
    with pytest.raises(OrganiserError, match=reason):
        channel.check_hook(url)


def test_a_club_on_its_own_network_may_allow_private_addresses(settings):
    settings.OUTBOUND_ALLOW_PRIVATE = True
    assert channel.check_hook("http://10.0.0.5/hook") == "http://10.0.0.5/hook"
    assert channel.check_hook("http://localhost:8448/hook") == "http://localhost:8448/hook"
    # The clouds' metadata services stay refused: link-local, or named (AWS's over IPv6 is a
    # private address, Alibaba's in the shared range).
    with pytest.raises(OrganiserError, match="link-local"):
        channel.check_hook("http://169.254.169.254/latest/meta-data/")
    for url in ("http://[fd00:ec2::254]/latest/meta-data/", "http://100.100.100.200/latest/"):
        with pytest.raises(OrganiserError, match="a cloud's metadata address"):
            channel.check_hook(url)
    assert outbound.refusal(ipaddress.ip_address("fd00:ec2::253"), allow_private=True) is None


def test_a_hook_inside_is_refused_again_when_posted_and_never_reached(campaign):
    with serving(status(204)) as inside:
        post = hooked(campaign, inside.url + "/hook")
        assert channel.deliver(post.id, now=timezone.now()) is False
    post.refresh_from_db()
    assert post.error == "refused" and post.status == PostStatus.PENDING
    assert inside.hits == []


def test_the_connection_goes_to_the_address_checked(campaign, monkeypatch):
    """DNS that answers a public address to the check and the loopback after (a rebinding
    name): the connection is pinned to what is checked at connect time, so nothing is sent."""
    rebinding(monkeypatch)
    with serving(status(204)) as inside:
        port = inside.url.rsplit(":", 1)[1]
        post = hooked(campaign, f"http://hook.example.org:{port}/hook")
        assert channel.deliver(post.id, now=timezone.now()) is False
    post.refresh_from_db()
    assert post.error == "refused"
    assert inside.hits == []


def test_a_redirect_is_not_followed(campaign, loopback_allowed):
    with serving(status(204)) as target, serving(redirect(target.url + "/secret")) as hop:
        post = hooked(campaign, hop.url + "/hook")
        assert channel.deliver(post.id, now=timezone.now()) is False
    post.refresh_from_db()
    assert post.error == "answered 307" and post.status == PostStatus.PENDING
    assert hop.hits == ["/hook"] and target.hits == []


def test_a_dripping_hook_is_cut_at_the_whole_posts_deadline(campaign, settings, loopback_allowed):
    settings.CLUB_HOOK_TIMEOUT = 1.5  # each byte comes after 0.5 s: no read ever times out
    with serving(drip(0.5)) as slow:
        post = hooked(campaign, slow.url + "/hook")
        started = time.monotonic()
        assert channel.deliver(post.id, now=timezone.now()) is False
        took = time.monotonic() - started
    assert 1.4 < took < 2.5
    post.refresh_from_db()
    assert post.error == "timed out" and post.tries == 1


@pytest.mark.parametrize(
    "answer, shown", [(status(500), "answered 500"), (status(404), "answered 404")]
)
def test_the_board_shows_the_status_never_the_exceptions_text(
    answer, shown, campaign, organiser, loopback_allowed
):
    with serving(answer) as hook:
        post = hooked(campaign, hook.url + "/hook")
        channel.deliver(post.id, now=timezone.now())
    page = board_client(organiser).get(reverse("organiser_board", args=[campaign.code]))
    assert f"(1 try: {shown})" in page.content.decode()


def test_the_board_says_unreachable_refused_and_hides_an_old_rows_text(campaign, organiser):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    unreachable = hooked(campaign, "http://hook.invalid/hook")
    channel.deliver(unreachable.id, now=timezone.now())
    refused = ClubPost.objects.create(campaign=campaign, kind="phase", text="Refused.")
    campaign.options[channel.HOOK] = f"http://127.0.0.1:{port}/hook"
    campaign.save(update_fields=["options"])
    channel.deliver(refused.id, now=timezone.now())
    ClubPost.objects.create(
        campaign=campaign,
        kind="phase",
        text="Old.",
        tries=1,
        error="ConnectionError: HTTPConnectionPool(host='10.0.0.5', port=6379): Max retries",
    )
    page = board_client(organiser).get(reverse("organiser_board", args=[campaign.code]))
    text = page.content.decode()
    assert "(1 try: unreachable)" in text and "(1 try: refused)" in text
    assert "(1 try: failed)" in text
    assert "HTTPConnectionPool" not in text and "Max retries" not in text and "Errno" not in text


def test_the_guards_docstrings_examples_hold():
    assert doctest.testmod(outbound).failed == 0


def test_the_address_connected_to_is_checked_whatever_resolved_it(monkeypatch):
    """The last guard: each socket's peer passes ``refusal`` before a byte is sent. Here the
    adapter does not pin (as with OUTBOUND_ALLOW_PRIVATE) and the name answers a public address
    to the check, the loopback to the connection: refused, and nothing reaches the server."""
    rebinding(monkeypatch)
    with serving(status(204)) as inside:
        port = inside.url.rsplit(":", 1)[1]
        session = outbound.Session(5, allow_private=False)
        session.mount("http://", outbound._CheckedAdapter())  # checked before, not pinned
        with pytest.raises(outbound.Refused, match="a loopback address"):
            session.post(f"http://hook.example.org:{port}/hook", json={})
        assert inside.hits == []


def test_a_socket_to_a_refused_peer_is_closed_and_one_allowed_is_kept():
    with serving(status(204)) as inside:
        host, port = inside.url.split("://", 1)[1].rsplit(":", 1)
        for allow, refused in ((False, True), (True, False)):
            sock = socket.create_connection((host, int(port)))
            token = outbound._WATCH.set(outbound._Watch(allow))
            try:
                if refused:
                    with pytest.raises(outbound._RefusedPeer, match="a loopback address"):
                        outbound._watched(sock)
                    assert sock.fileno() == -1  # closed before a byte was sent
                else:
                    assert outbound._watched(sock) is sock
                    sock.close()
            finally:
                outbound._WATCH.reset(token)
        assert inside.hits == []
