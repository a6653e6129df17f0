"""The bench server's WSGI entry (``bench/page_ratio_bench.py``): the product's application,
with a tally of map drawings around the functions that draw maps, so that the bench can say
how many a web request made (issue 12: none). Each worker appends one line per drawing to the
file named by ``BENCH_RENDER_LOG``."""

import functools
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
application = get_wsgi_application()

from maps import pictures, tiles  # noqa: E402 (after Django is set up)
from maps.core import picture  # noqa: E402

LOG = os.environ["BENCH_RENDER_LOG"]


def tallied(module, name):
    real = getattr(module, name)

    @functools.wraps(real)
    def wrapper(*args, **kwargs):
        with open(LOG, "a") as log:
            log.write(f"{module.__name__}.{name}\n")
        return real(*args, **kwargs)

    setattr(module, name, wrapper)


for module, name in (
    (picture, "draw_picture"),
    (pictures, "draw_picture"),
    (pictures, "draw_wanted"),
    (pictures, "seat_picture_png"),
    (tiles, "render_tiles"),
    (tiles, "write_tiles"),
):
    tallied(module, name)
