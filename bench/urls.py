"""The bench's URLconf (``bench/page_ratio_bench.py``): the product's URLs and one bare page,
``/bench/bare/``, a view rendering ``base.html`` and nothing else, to divide page times by.
Never part of the product (``dgk/urls.py``)."""

from django.shortcuts import render
from django.urls import include, path


def bare(request):
    return render(request, "base.html")


urlpatterns = [path("bench/bare/", bare, name="bench_bare"), path("", include("dgk.urls"))]
