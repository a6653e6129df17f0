"""The map page and the map picture: public, cached, phone-friendly."""

import io

import pytest
from django.urls import reverse
from PIL import Image

pytestmark = pytest.mark.django_db


def test_it_shows_the_map_page(client):
    r = client.get(reverse("maps:page"))
    assert r.status_code == 200
    html = r.content.decode()
    assert reverse("maps:png") in html
    assert 'class="map-frame"' in html
    assert "Magdeburg" in html  # the list of fortresses


def test_it_shows_a_region(client):
    r = client.get(reverse("maps:page"), {"region": "Dresden+6", "size": "l"})
    assert r.status_code == 200
    assert "region=Dresden%2B6" in r.content.decode()


def test_it_explains_a_bad_region(client):
    r = client.get(reverse("maps:page"), {"region": "Atlantis+3"})
    assert r.status_code == 400
    assert "Atlantis" in r.content.decode()


def test_it_rejects_post(client):
    assert client.post(reverse("maps:page")).status_code == 405
    assert client.post(reverse("maps:png")).status_code == 405


def test_it_serves_the_png_with_caching_headers(client):
    r = client.get(reverse("maps:png"), {"region": "Prague+5"})
    assert r.status_code == 200
    assert r["Content-Type"] == "image/png"
    assert "max-age" in r["Cache-Control"] and "public" in r["Cache-Control"]
    assert r.has_header("ETag")
    img = Image.open(io.BytesIO(r.content))
    assert img.format == "PNG"


def test_it_answers_not_modified_to_a_known_etag(client):
    r = client.get(reverse("maps:png"), {"region": "Prague+5"})
    again = client.get(reverse("maps:png"), {"region": "Prague+5"}, HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304


def test_sizes_give_bigger_pictures(client):
    small = Image.open(
        io.BytesIO(client.get(reverse("maps:png"), {"region": "Prague+3", "size": "s"}).content)
    )
    large = Image.open(
        io.BytesIO(client.get(reverse("maps:png"), {"region": "Prague+3", "size": "xl"}).content)
    )
    assert large.width > 2 * small.width


def test_the_png_rejects_a_bad_size(client):
    r = client.get(reverse("maps:png"), {"size": "huge"})
    assert r.status_code == 400


def test_it_needs_no_login(client):
    # the bare sketch map is public (rule 2); anonymous visitors see it
    assert client.get(reverse("maps:page")).status_code == 200


def test_it_tints_the_areas_on_request(client):
    plain = client.get(reverse("maps:png"), {"region": "Dresden+3"}).content
    tinted = client.get(reverse("maps:png"), {"region": "Dresden+3", "areas": "1"}).content
    assert plain != tinted
    page = client.get(reverse("maps:page"), {"areas": "1"}).content.decode()
    assert "areas=1" in page and "hide areas" in page
