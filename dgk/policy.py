"""The Content Security Policy of each response (django-csp's middleware, settings
``CONTENT_SECURITY_POLICY``), with one exception: a raster picture.

A PNG or a JPEG opened on its own (the map as a picture, a tile, a photo of the table, a link in
an email) is shown by the browser in an image viewer of its own making, a page that styles the
picture inline; the site's policy for its pages refuses that style and the console fills with
breaches (the picture still shows). A raster picture runs nothing, so it carries a policy of its
own: nothing may load but the picture itself and the viewer's inline style; never framed. An SVG
picture can hold a script: it keeps the pages' policy.
"""

from __future__ import annotations

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CSPMiddleware
from django.conf import settings

RASTER = ("image/png", "image/jpeg", "image/webp", "image/gif")
PICTURE_POLICY = (
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def is_raster(response) -> bool:
    kind = (response.get("Content-Type") or "").split(";")[0].strip().lower()
    return kind in RASTER


class PolicyMiddleware(CSPMiddleware):
    """django-csp's, but a raster picture gets ``PICTURE_POLICY``, in the header the pages'
    policy takes (enforced, or report-only where the site only reports; none where it has
    none)."""

    def process_response(self, request, response):
        if is_raster(response):
            if getattr(settings, "CONTENT_SECURITY_POLICY", None):
                response.headers.setdefault(HEADER, PICTURE_POLICY)
            if getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None):
                response.headers.setdefault(HEADER_REPORT_ONLY, PICTURE_POLICY)
        return super().process_response(request, response)
