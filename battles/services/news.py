"""The season's battles for members (``chronicle``) and the public news with a delay
(``gazette``), never carrying secret numbers (issue 7); with the battles' photos and accounts
where ``battles.services.photos`` lets the reader see them (issue 45, ``photo_pages``).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

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
    """Every battle of the season, and the sieges, for the campaign's members (12). The exact
    forces are shown to the umpire and to the players who fought; the others (an organiser who
    plays, too) see the size classes of 12.1 (A, B, C), which the VPs reveal anyway."""
    rows = []
    for b in campaign.battles.prefetch_related("photos", "accounts"):
        sides = b.setup["sides"]
        exact = user is None or audience_for(b, user) is not None
        rows.append(
            {
                "battle": b,
                "kind": "battle",
                "date": turn_label(b.turn),
                "place": _place(b),
                "commanders": " against ".join(
                    f"{sides[s].get('commander_name', '')} ({side_name(s)})"
                    for s in SIDES
                    if s in sides
                ),
                "forces": " against ".join(
                    f"{sides[s].get('points', 0)} points"
                    if exact
                    else f"size class {sides[s].get('size_class', '?')}"
                    for s in SIDES
                    if s in sides
                ),
                "result": (
                    describe_result(b, b.result, exact=exact)
                    if b.status == BattleStatus.APPLIED
                    else []
                ),
                "status": b.get_status_display(),
                "quick": b.quick,
                "vps": _awarded(b) if b.status == BattleStatus.APPLIED else [],
                "stakes": stakes(b.setup, UMPIRE) if b.status != BattleStatus.APPLIED else [],
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


def _awarded(battle: Battle) -> list[str]:
    """The VPs the battle's result gave (12.1, 12.2): the one stake of the four that came true."""
    result = battle.result or {}
    vps = (battle.setup.get("stakes") or {}).get(f"{result.get('loser')} {result.get('outcome')}")
    if not vps:
        return []
    return [", ".join(f"{seat_label(seat)} {v:+d}" for seat, v in sorted(vps.items())) + " VPs"]


def _place(battle: Battle) -> str:
    city = battle.setup.get("city") or {}
    if city.get("hexes_away") == 0:
        return f"{city['name']} ({battle.hex})"
    if city:
        return f"near {city['name']} ({battle.hex})"
    return battle.hex


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
            f"Battle {_place(b)}: {sides.get(SIDES[0], {}).get('commander_name', '')} against"
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
