"""Pages and fragments are gzipped by Django (dgk.compression), pictures are not; the CSRF
token differs in every response, so compressing the page does not expose it (BREACH)."""

import gzip
import re

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from dgk.compression import TextGZipMiddleware
from tests.orders.test_play_fixtures import client_for, url

pytestmark = pytest.mark.django_db


def test_a_page_is_gzipped_and_its_csrf_token_is_masked_anew(campaign, prussia, player):
    c = client_for(player)
    tokens = []
    for _ in range(2):
        r = c.get(url("dashboard", prussia), HTTP_ACCEPT_ENCODING="gzip")
        assert r.status_code == 200
        assert r["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in r["Vary"]
        body = gzip.decompress(r.content).decode()
        assert prussia.label in body
        tokens.append(re.search(r'csrfmiddlewaretoken" value="([^"]+)"|"X-CSRFToken": "([^"]+)"',
                                body).group(0))  # fmt: skip
    assert tokens[0] != tokens[1]


def test_a_picture_is_not_gzipped_again():
    png = HttpResponse(b"\x89PNG" + b"0" * 500, content_type="image/png")
    middleware = TextGZipMiddleware(lambda request: png)
    r = middleware(RequestFactory().get("/", HTTP_ACCEPT_ENCODING="gzip"))
    assert not r.has_header("Content-Encoding")
    html = TextGZipMiddleware(lambda request: HttpResponse("<p>x</p>" * 100))
    assert (
        html(RequestFactory().get("/", HTTP_ACCEPT_ENCODING="gzip"))["Content-Encoding"] == "gzip"
    )
