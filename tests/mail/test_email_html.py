# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""An email's HTML part, as a phone's mail app shows it: the text escaped, the site's own
addresses links to tap (``mail.templatetags.mailhtml.linked``), no run of blank lines."""

import re

import pytest

from campaign.models import Event
from campaign.services.resolution import resolve_due_phase
from mail.services import email
from mail.templatetags.mailhtml import linked
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    marching,
    play_map,
    rules_campaign,
)

pytestmark = pytest.mark.django_db

SITE = "https://dgk.example.org"


def test_the_sites_addresses_become_links_and_the_rest_stays_escaped_text(settings):
    settings.SITE_URL = SITE
    text = (
        f"Give your orders: {SITE}/play/abc/.\n"
        f"(the map: {SITE}/play/abc/map/8.png)\n"
        f"Briefing: {SITE}/b/?paper=a4&x=1\n"
        "A letter: see https://evil.example.net/dgk and https://dgk.example.org.evil.net/x\n"
        '<script>alert("1")</script>'
    )
    html = str(linked(text))
    assert f'<a href="{SITE}/play/abc/">{SITE}/play/abc/</a>.' in html  # (the full stop left)
    assert f'<a href="{SITE}/play/abc/map/8.png">{SITE}/play/abc/map/8.png</a>)' in html
    assert f'<a href="{SITE}/b/?paper=a4&amp;x=1">' in html
    assert html.count("<a ") == 3  # another site's address, or one that only begins alike: text
    assert "https://evil.example.net/dgk" in html and "<script>" not in html
    assert "&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt;" in html
    # the text read back from the HTML, tags taken out and entities undone, is the text
    assert (
        re.sub(r"<[^>]+>", "", html)
        .replace("&amp;", "&")
        .replace("&quot;", '"')
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        == text
    )


def test_a_call_for_orders_links_each_of_its_addresses_and_has_no_run_of_blank_lines(
    campaign, prussia, mailoutbox, settings
):
    settings.SITE_URL = SITE
    version = resolve_due_phase(campaign.open_window().id, now=campaign.open_window().deadline)
    Event.objects.create(
        campaign=campaign, version=version, seq=99, rule="6", kind="order-rejected",
        text=f"A player wrote <b>{SITE}/play/x/</b>", armies=["prussia"],
    )  # fmt: skip
    email.deliver("phase-opened", seat_id=prussia.id, since=0)
    (message,) = mailoutbox
    html = message.alternatives[0][0]
    addresses = re.findall(r"https?://\S+", message.body)
    assert len(addresses) >= 3, message.body  # the orders, the map, the dice, the settings
    for address in addresses:
        if address.startswith(SITE + "/play/x/"):
            continue
        assert f'<a href="{address}">' in html, address
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert "\n\n\n" not in message.body, message.body
