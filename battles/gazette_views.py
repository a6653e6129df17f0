"""The public gazette's photos (issue 45, docs/press.md "The gazette's photos"): the one address
that serves a battle's photo without signing in, and only a photo the gazette shows
(``battles.services.photo_pages.is_gazette_photo``: every side agreed, the news published).
Any other photo, or a photo of another campaign, is not found, whoever asks: a member reads
the photos through the battle's own addresses, which check ``may_see_photos``.
"""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.http import require_GET

from battles.models import BattlePhoto
from battles.services import photo_pages
from battles.services import photos as photo_service


@require_GET
def gazette_photo(request: HttpRequest, code, photo_code, kind: str) -> FileResponse:
    """The display size or the thumbnail of a gazette photo, public as the gazette is."""
    if kind not in ("display", "thumb"):
        raise Http404("No such size.")
    photo = get_object_or_404(
        BattlePhoto.objects.select_related("battle__campaign"),
        code=photo_code,
        battle__campaign__code=code,
    )
    if not photo_pages.is_gazette_photo(photo, now=timezone.now()):
        raise Http404("No such photo.")
    # Public, as the gazette, but kept by no shared cache: a side may withdraw its consent.
    return photo_service.photo_response(photo, kind, cache="private, max-age=3600")
