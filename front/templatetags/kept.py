"""``{% kept_url %}`` and ``{% kept_static %}``: Django's ``{% url %}`` and ``{% static %}``,
each answer kept for the process (issue 44). The dashboard drew 21 addresses and 11 static
paths a request, a fifth of its template's time; an address depends only on the URLconf, the
script prefix and the arguments, and a static file's on the manifest read when the process
started, none of which change while it runs. Escaped as the built-in tags escape.

    {% load kept %}<a href="{% kept_url 'orders:report' seat.code %}">...</a>
    <link rel="stylesheet" href="{% kept_static 'css/site.css' %}">
"""

from __future__ import annotations

import functools

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.urls import get_script_prefix, get_urlconf, reverse

register = template.Library()


@register.simple_tag
def kept_url(name: str, *args) -> str:
    """``{% url name arg ... %}`` (positional arguments only), kept."""
    return _path(get_urlconf(), get_script_prefix(), name, args)


@register.simple_tag
def kept_static(path: str) -> str:
    """``{% static path %}``, kept."""
    return _static(path)


@functools.lru_cache(maxsize=8192)
def _path(urlconf, prefix: str, name: str, args: tuple) -> str:
    return reverse(name, args=args, urlconf=urlconf)


@functools.lru_cache(maxsize=1024)
def _static(path: str) -> str:
    return static(path)


@receiver(setting_changed)
def _forget(**kwargs) -> None:
    """A test that changes the URLconf or the static files' settings gets fresh answers."""
    _path.cache_clear()
    _static.cache_clear()
