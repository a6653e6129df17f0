"""The product's settings with the bench's URLconf (``bench/urls.py``): for the server the
page-ratio bench starts."""

from dgk.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
