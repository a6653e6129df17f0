"""Pages a person can read when something is refused or missing (issue 13)."""

import logging
import sys

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from campaign.services import organiser as tools
from campaign.services.setup import accept_invitation, add_reserve
from front.logfilters import OneLineForbidden
from tests.orders.test_play_fixtures import client_for

pytestmark = pytest.mark.django_db


def test_a_replaced_player_is_told_why(campaign, player, outsider, now):
    prussia = campaign.seats.get(power="prussia")
    invitation = add_reserve(campaign, "reserve@example.org", now=now)
    accept_invitation(invitation.token, outsider, now=now)
    tools.replace_player(
        campaign, campaign.organiser, prussia, reserve=campaign.seats.get(reserve=True), now=now
    )
    r = client_for(player).get(reverse("orders:dashboard", args=[prussia.code]))
    text = r.content.decode()
    assert r.status_code == 403
    assert "gave the Prussian player of Bohemia 1757 to another player on" in text
    assert "This page is not yours to see" in text and 'href="/static/css/site.css"' in text


def test_another_players_page_is_refused_in_the_sites_style(campaign, other):
    prussia = campaign.seats.get(power="prussia")
    r = client_for(other).get(reverse("orders:dashboard", args=[prussia.code]))
    assert r.status_code == 403 and "These are another player&#x27;s pages." in r.content.decode()


def test_a_refused_page_is_logged_in_one_line(campaign, other, caplog):
    prussia = campaign.seats.get(power="prussia")
    path = reverse("orders:dashboard", args=[prussia.code])
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client_for(other).get(path).status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert len(records) == 1
    record = records[0]
    assert record.status_code == 403 and record.exc_info is None
    line = logging.Formatter().format(record)
    assert "\n" not in line and "Traceback" not in line
    assert path in line and "PermissionDenied: These are another player's pages." in line


def test_a_server_error_keeps_its_traceback(caplog):
    """Only 403s lose it: the filter leaves any other record as it was."""
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord(
            "django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s",
            ("/x/",), sys.exc_info(),
        )  # fmt: skip
    record.status_code = 500
    assert OneLineForbidden().filter(record)
    assert "Traceback" in logging.Formatter().format(record)


def test_a_missing_page_is_explained(client):
    r = client.get("/campaigns/00000000-0000-0000-0000-000000000000/log/")
    assert r.status_code in (302, 404)
    r = client.get("/no-such-page/")
    assert r.status_code == 404 and "Nothing here" in r.content.decode()


def test_a_refused_form_is_explained(player):
    c = Client(enforce_csrf_checks=True)
    c.force_login(player)
    r = c.post(reverse("logout"))
    assert r.status_code == 403 and "Please go back and try again" in r.content.decode()


def test_a_server_error_page_needs_nothing_but_the_static_files():
    page = render_to_string("500.html")
    assert "Something went wrong on our side" in page


def test_sign_in_links_to_a_password_reset_in_the_sites_style(client):
    login = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in login
    page = client.get(reverse("password_reset")).content.decode()
    assert "Forgot your password?" in page and "Django administration" not in page
    bad = client.get(reverse("password_reset_confirm", args=["MQ", "set-password"]), follow=True)
    assert "This link no longer works" in bad.content.decode()


def test_the_favicon_is_the_site_s_icon_and_sets_no_csrf_cookie(client):
    """Browsers ask for /favicon.ico by themselves: the icon, never the 404 page, whose CSRF
    cookie could replace, arriving late, the one of a page opened meanwhile."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".png") and "icons/icon-192" in response["Location"]
    assert settings.CSRF_COOKIE_NAME not in response.cookies
