"""The photos and the sides' accounts on the battle page (issue 45): drawn by a tag so the
page's view stays as it is; shown only to those ``photo_service.may_see_photos`` allows."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from battles.models import Battle
from battles.services import imaging
from battles.services import photos as photo_service

register = template.Library()


@register.inclusion_tag("battles/_photos.html", takes_context=True)
def battle_photos(context, battle: Battle) -> dict[str, Any]:
    """The accounts beside the result, then the photos with the controls the viewer may use."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if request is None or not photo_service.may_see_photos(battle, user):
        return {"shown": False}
    acting = photo_service.acting_side(battle, user)
    mine = photo_service.player_side(battle, user)
    organiser = photo_service.is_organiser(battle, user)
    photos = [
        {
            "photo": p,
            "may_edit": p.added_by_id == user.id or organiser,
        }
        for p in battle.photos.all()
    ]
    consent = battle.gazette_consent or {}
    return {
        "shown": True,
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "battle": battle,
        "campaign": battle.campaign,
        "photos": photos,
        "may_add": acting is not None and len(photos) < settings.PHOTOS_PER_BATTLE,
        "may_order": acting is not None,
        "accounts": photo_service.accounts(battle),
        "my_side": mine,
        "my_consent": bool(mine and consent.get(mine)),
        "all_consent": all(consent.get(s) for s in battle.setup.get("sides") or {}),
        "most": settings.PHOTOS_PER_BATTLE,
        "max_size": imaging.megabytes(settings.PHOTO_MAX_BYTES),
        "max_mp": f"{settings.PHOTO_MAX_PIXELS / 1_000_000:g}",
        "account_max": photo_service.ACCOUNT_MAX_CHARS,
    }
