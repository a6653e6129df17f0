"""The HTML part of an email: its text, escaped, with the site's own links made links.

A phone's mail app shows the HTML part, and a long address in it is a line to copy, not to tap,
unless it is a link. Only addresses on this site (``SITE_URL``) become links: an address a
player wrote in a letter stays text, as it is in the plain part."""

from __future__ import annotations

import re

from django import template
from django.conf import settings
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_ADDRESS = re.compile(r"https?://[^\s<>\"']+")
_TRAILING = ".,;:!?)"  # what ends a sentence after an address, not the address


@register.filter
def linked(text: str) -> SafeString:
    """``text`` escaped, each address on this site a link to itself."""
    site = settings.SITE_URL.rstrip("/") + "/"
    out, at = [], 0
    for match in _ADDRESS.finditer(text):
        address = match.group(0)
        while address and address[-1] in _TRAILING:
            if address[-1] == ")" and address.count("(") >= address.count(")"):
                break
            address = address[:-1]
        if not (address + "/").startswith(site):
            continue  # (left in the text, escaped with it)
        out.append(escape(text[at : match.start()]))
        out.append(format_html('<a href="{}">{}</a>', address, address))
        at = match.start() + len(address)
    out.append(escape(text[at:]))
    return mark_safe("".join(out))
