"""The home page and the base template every page extends."""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from PIL import Image

pytestmark = pytest.mark.django_db


def test_it_renders_for_an_outsider(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="viewport"' in html
    assert "/static/js/htmx.min.js" in html
    assert "Log in" in html


def test_it_puts_the_csrf_token_in_hx_headers(client):
    html = client.get("/").content.decode()

    assert 'hx-headers=\'{"X-CSRFToken": "' in html


def test_it_greets_a_logged_in_user(client):
    user = User.objects.create_user("fritz", password="x")
    client.force_login(user)

    assert "fritz" in client.get("/").content.decode()


def test_the_vendored_htmx_is_version_2():
    from django.conf import settings

    htmx = (settings.BASE_DIR / "static" / "js" / "htmx.min.js").read_text()
    assert 'version:"2.' in htmx


def test_admin_login_page_is_served(client):
    assert client.get("/admin/login/").status_code == 200


def picture_sizes(html: str) -> dict[str, tuple[int, int]]:
    """{static path: (width, height)} of every picture the page names, from its attributes."""
    found = {}
    for tag in re.findall(r"<(?:img|source)\b[^>]*>", html):
        src = re.search(r'(?:src|srcset)="/static/([^"]+)"', tag).group(1)
        size = re.search(r'width="(\d+)" height="(\d+)"', tag)
        found[src] = (int(size.group(1)), int(size.group(2)))
    return found


def test_it_shows_a_newcomer_what_the_site_does(client):
    html = client.get("/").content.decode()

    for heading in ("A player", "An organiser", "How a club starts", "Log in"):
        assert f"<h2>{heading}</h2>" in html, heading
    assert "secret orders" in html and "fog of war" in html and "tabletop" in html
    assert "manage.py createorganiser" in html and "invitation" in html
    # A picture of the map and one of a briefing, each with a phone's cut, each described.
    pictures = picture_sizes(html)
    assert set(pictures) == {
        "home/map.png", "home/map-phone.png", "home/briefing.png", "home/briefing-phone.png"
    }  # fmt: skip
    assert html.count('alt="') >= 2 and 'alt=""' not in html
    for path, size in pictures.items():
        found = finders.find(path)
        assert found, path
        with Image.open(found) as image:
            assert image.format == "PNG" and image.size == size, (path, image.size)
        assert Path(found).stat().st_size < 80_000, path  # light enough for a phone


def test_its_log_in_form_signs_a_player_in(client):
    User.objects.create_user("fritz", password="Sanssouci-1745")
    html = client.get("/").content.decode()
    form = html[html.index('<section id="log-in"') :]
    action = re.search(r'<form method="post" action="([^"]+)"', form).group(1)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    assert action == "/accounts/login/" and fields["next"] == "/campaigns/"
    assert 'name="username"' in form and 'name="password" type="password"' in form

    r = client.post(action, {**fields, "username": "fritz", "password": "Sanssouci-1745"})

    assert r.status_code == 302 and r["Location"] == "/campaigns/"
    assert client.get("/").wsgi_request.user.username == "fritz"


def test_a_signed_in_visitor_gets_his_campaigns_not_the_form(client):
    client.force_login(User.objects.create_user("fritz", password="x"))
    html = client.get("/").content.decode()

    assert 'id="log-in"' not in html and 'name="password"' not in html
    assert 'href="/campaigns/"' in html and "<h2>A player</h2>" in html
