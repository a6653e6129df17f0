"""HTML, JSON and SVG compressed by Django (docs/performance.md, "Compression"): Django's own
GZipMiddleware, which since Django 4.2 pads the gzip header with a random length against BREACH,
for text only. The map pictures (PNG) are compressed already, and static files are served
compressed by WhiteNoise before this middleware is reached."""

from __future__ import annotations

from django.middleware.gzip import GZipMiddleware

TEXT_TYPES = ("text/", "application/json", "application/javascript", "image/svg+xml")


class TextGZipMiddleware(GZipMiddleware):
    def process_response(self, request, response):
        content_type = response.get("Content-Type", "")
        if not content_type.startswith(TEXT_TYPES):
            return response
        return super().process_response(request, response)
