"""The battles' photos and accounts as the pages beyond the battle page show them (issue 45): the
chronicle (members), the public gazette, *The war* and the book of the season.

Who sees what is never decided here: ``battles.services.photos.may_see_photos`` (members) and
``gazette_photos`` (the public) are asked for every battle; this module only lays out what they
allow. The gazette's photos are served to anonymous readers by ``battles.gazette_views``, which
asks ``is_gazette_photo`` (the same ``gazette_photos``) for each file.

The gazette never shows the accounts (docs/press.md, "The gazette's photos"): a side agrees to
its photos being public, not its words, and an account is free text that may name the points
the gazette keeps out of its news.
"""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import datetime
from typing import Any

from django.urls import reverse

from battles.models import Battle, BattlePhoto
from battles.services import photos as photo_service


def _member_photo(battle: Battle, photo: BattlePhoto) -> dict[str, Any]:
    args = [battle.campaign.code, battle.code, photo.code]
    return {
        "photo": photo,
        "caption": photo.caption,
        "thumb": reverse("battles:photo_image", args=[*args, "thumb"]),
        "display": reverse("battles:photo_image", args=[*args, "display"]),
        "width": photo.thumb_width,
        "height": photo.thumb_height,
    }


def _accounts(battle: Battle) -> list[dict[str, Any]]:
    return [
        {"side": a["side"], "name": a["name"], "text": a["account"].text}
        for a in photo_service.accounts(battle)
        if a["account"] is not None and a["account"].text
    ]


def for_member(battle: Battle, user) -> dict[str, list]:
    """The battle's photos (thumbnail and display addresses) and accounts for ``user`` on the
    chronicle, if ``may_see_photos`` lets him; empty lists otherwise. ``user=None``: everything
    (the book of the season, read once the fog has lifted)."""
    if user is not None and not photo_service.may_see_photos(battle, user):
        return {"photos": [], "accounts": []}
    return {
        "photos": [_member_photo(battle, p) for p in battle.photos.all()],
        "accounts": _accounts(battle),
    }


# ---- the public gazette ------------------------------------------------------------------------


def for_gazette(battle: Battle, *, now: datetime) -> list[dict[str, Any]]:
    """The battle's photos the public gazette shows (``gazette_photos``: every side agreed, and
    the news is published), with the addresses that serve them without signing in."""
    return [
        {
            "caption": p.caption,
            "thumb": reverse("battles:gazette_photo", args=[battle.campaign.code, p.code, "thumb"]),
            "display": reverse(
                "battles:gazette_photo", args=[battle.campaign.code, p.code, "display"]
            ),
            "width": p.thumb_width,
            "height": p.thumb_height,
        }
        for p in photo_service.gazette_photos(battle, now=now)
    ]


def is_gazette_photo(photo: BattlePhoto, *, now: datetime) -> bool:
    """May ``photo`` be served to anyone, signed in or not: one of its battle's gazette photos."""
    return any(p.id == photo.id for p in photo_service.gazette_photos(photo.battle, now=now))


# ---- the war and the book ----------------------------------------------------------------------


def for_war(campaign, user, *, public: bool, now: datetime) -> list[dict[str, Any]]:
    """Every battle with photos or accounts, for *The war* once the season is over: for a
    member what ``may_see_photos`` lets him see (every battle whose result was settled, and
    his own); on the public link only what the gazette shows (photos both sides agreed to; no
    account)."""
    out = []
    for b in campaign.battles.prefetch_related("photos", "accounts"):
        if public:
            shown = {"photos": for_gazette(b, now=now), "accounts": []}
        else:
            shown = for_member(b, user)
        if shown["photos"] or shown["accounts"]:
            out.append({"battle": b, **shown})
    return out


def data_uri(photo: BattlePhoto) -> str:
    """The photo's display size as a ``data:`` URI, for the book (printed with no network)."""
    with photo_service.open_rendition(photo, "display") as f:
        return "data:image/jpeg;base64," + base64.b64encode(f.read()).decode("ascii")


def for_book(battle: Battle) -> dict[str, Any]:
    """The battle's best photo (the one its sides put first) and every account, for the book,
    once its result is settled (as every member reads them then); a best photo whose file is
    gone is left out."""
    if not photo_service.is_settled(battle):
        return {"best_photo": None, "accounts": []}
    best = photo_service.best_photo(battle)
    photo = None
    if best is not None:
        try:
            photo = {
                "src": data_uri(best),
                "caption": best.caption,
                "landscape": best.width >= best.height,
            }
        except OSError:
            photo = None
    return {"best_photo": photo, "accounts": _accounts(battle)}


def book_digest(campaign) -> str:
    """A short digest of what the book prints of the battles' photos and accounts (``for_book``:
    each settled battle's best photo and its caption, every account), "" when it prints none.
    It names the stored book (``bookfiles.book_stamp``): a side that empties its account or
    takes its photo away after the end gets a new book, and the public link never serves one
    printed with what is gone (``public_book_allowed`` judges today's photos and accounts)."""
    printed = []
    for b in campaign.battles.order_by("id").prefetch_related("photos", "accounts"):
        if not photo_service.is_settled(b):
            continue
        best = photo_service.best_photo(b)
        accounts = [(a["side"], a["text"]) for a in _accounts(b)]
        if best is not None or accounts:
            photo = (str(best.code), best.caption) if best is not None else None
            printed.append((str(b.code), photo, accounts))
    if not printed:
        return ""
    return hashlib.sha256(json.dumps(printed).encode()).hexdigest()[:10]


def public_book_allowed(campaign, *, now: datetime) -> bool:
    """The book is printed once, for the members: the public link serves it only when it holds
    nothing the sides kept to the club (no account; every best photo one the gazette shows)."""
    for b in campaign.battles.prefetch_related("photos", "accounts"):
        if not photo_service.is_settled(b):
            continue  # the book prints nothing of it
        if any(a.text for a in b.accounts.all()):
            return False
        best = photo_service.best_photo(b)
        if best is not None and not is_gazette_photo(best, now=now):
            return False
    return True
