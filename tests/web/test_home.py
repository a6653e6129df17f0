"""The home page and the base template every page extends."""

import pytest
from django.contrib.auth.models import User

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
