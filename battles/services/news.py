"""The season's battles for members (``chronicle``) and the public news with a delay
(``gazette``), never carrying secret numbers (issue 7); with the battles' photos and accounts
where ``battles.services.photos`` lets the reader see them (issue 45, ``photo_pages``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.utils.text import capfirst

from battles.models import Battle, BattleStatus
from battles.services import photo_pages
from battles.services.briefing import describe_result, seat_label, stakes, turn_label
from battles.services.records import SIDES, UMPIRE, audience_for, side_name, tabletop_settings
from campaign.models import Campaign, Event

_NUMBERS = re.compile(r"\b\d[\d,]*\s*(points?|pts)\b", re.IGNORECASE)


# "fate": a card of the Clock of Fate (docs/clock-of-fate.md), public news when drawn.
_GAZETTE_KINDS = ("leader-killed", "leader-captured", "fortress-captured", "army-surrenders",
                  "campaign-ends", "fate")  # fmt: skip


def chronicle(campaign: Campaign, user=None) -> list[dict[str, Any]]:
    """Every battle of the season, and the sieges, for the campaign's members (12); ``user``
    None: the umpire's (the book of the season). Who commanded, where and when, the status,
    who gave way and the leaders lost are for every member (3.1.1; the public battle events);
    so are the VPs a result awarded (12: every seat reads the VPs). The strengths (3: hidden
    from all but the owner until reconnaissance, 8), the size classes (12.1: bands of them),
    the VPs at stake (they follow from the size classes) and the losses (9.5) only for those
    who know both sides' strengths (``_knows_strengths``); a reader who does not is shown the
    battle with no number and no size class, before and after it is fought."""
    knows = _knows_strengths(campaign, user)
    rows = []
    for b in campaign.battles.prefetch_related("photos", "accounts"):
        sides = b.setup["sides"]
        exact = knows(b)
        rows.append(
            {
                "battle": b,
                "kind": "battle",
                "date": turn_label(b.turn),
                "place": b.where,
                "title": b.title,
                "commanders": " against ".join(
                    f"{sides[s].get('commander_name', '')} ({side_name(s)})"
                    for s in SIDES
                    if s in sides
                ),
                "forces": (
                    " against ".join(
                        f"{sides[s].get('points', 0)} points" for s in SIDES if s in sides
                    )
                    if exact
                    else ""
                ),
                "result": (
                    describe_result(b, b.result, exact=exact)
                    if b.status == BattleStatus.APPLIED
                    else []
                ),
                "status": b.get_status_display(),
                "quick": b.quick,
                "vps": _awarded(b) if b.status == BattleStatus.APPLIED else [],
                "stakes": (
                    stakes(b.setup, UMPIRE) if exact and b.status != BattleStatus.APPLIED else []
                ),
                # the photos and accounts, if may_see_photos lets this reader (all: the book)
                **photo_pages.for_member(b, user),
            }
        )
    sieges = Event.objects.filter(
        campaign=campaign,
        public=True,
        kind__in=("breach", "fortress-captured", "surrender", "honors-of-war"),
    ).select_related("version")
    for e in sieges:
        rows.append(
            {
                "kind": "siege",
                "date": turn_label(e.version.turn),
                "place": (e.data or {}).get("city", ""),
                "text": e.text,
            }
        )
    return rows


def _knows_strengths(campaign: Campaign, user) -> Callable[[Battle], bool]:
    """Whether ``user`` knows both sides' strengths of a battle: the umpire (``user`` None, or a
    non-playing organiser); a player whose armies fought in it (9: both add up their points in
    the hex; 8: each side's reconnaissance reported the other's forces there); and, with
    ``allies_share``, every seated player: each seat is of one of the two alliances (1.2, 13.8),
    each side of a battle is one of them, and a seat that shares reads its fighting allies'
    forces and their reports of the enemy in the hex as they do (``campaign.projection``).
    Nobody else: a seat's own reconnaissance of one force near the battle stays on its report
    and map, with its turn, rather than in a side's total here."""
    if user is None:
        return lambda battle: True
    if not user.is_authenticated:
        return lambda battle: False
    share = bool((campaign.options or {}).get("allies_share", False))
    if share and campaign.seats.filter(user_id=user.pk, reserve=False).exists():
        return lambda battle: True
    return lambda battle: audience_for(battle, user) is not None


def _awarded(battle: Battle) -> list[str]:
    """The VPs the battle's result gave (12.1, 12.2): the one stake of the four that came true."""
    result = battle.result or {}
    vps = (battle.setup.get("stakes") or {}).get(f"{result.get('loser')} {result.get('outcome')}")
    if not vps:
        return []
    return [", ".join(f"{seat_label(seat)} {v:+d}" for seat, v in sorted(vps.items())) + " VPs"]


def gazette(campaign: Campaign, *, now: datetime) -> list[dict[str, str]]:
    """The season's public news, published ``gazette_delay`` after it happened: battles (who
    met whom, where, who gave way), leaders lost, fortresses fallen. No secret numbers. A
    battle's photos only when every side agreed (``photo_pages.for_gazette``); never the
    accounts (docs/press.md, "The gazette's photos")."""
    delay = tabletop_settings(campaign).gazette_delay
    cutoff = now - delay
    news = []
    for b in campaign.battles.filter(status=BattleStatus.APPLIED, applied_at__lte=cutoff):
        sides = b.setup["sides"]
        loser = b.result.get("loser", "")
        victor = next((s for s in SIDES if s in sides and s != loser), "")
        how = "gave way" if b.result.get("outcome") == "retired" else "was routed"
        text = (
            f"{capfirst(b.named)}: {sides.get(SIDES[0], {}).get('commander_name', '')} against"
            f" {sides.get(SIDES[1], {}).get('commander_name', '')}. The army of"
            f" {sides.get(loser, {}).get('commander_name', '')} {how}; the field belongs to"
            f" {sides.get(victor, {}).get('commander_name', '')}."
        )
        if b.quick:
            text += " (Decided without the table.)"
        news.append(
            {
                "date": turn_label(b.turn),
                "text": text,
                "when": b.applied_at,
                "photos": photo_pages.for_gazette(b, now=now),
            }
        )
    events = Event.objects.filter(
        campaign=campaign,
        public=True,
        kind__in=_GAZETTE_KINDS,
        version__created__lte=cutoff,
    ).select_related("version")
    for e in events:
        news.append(
            {
                "date": turn_label(e.version.turn),
                "text": _NUMBERS.sub("", e.text).replace(" ,", ","),
                "when": e.version.created,
            }
        )
    news.sort(key=lambda n: n["when"], reverse=True)
    return news
